/* replay.c - a recording played back into the model: one module for the
 * batch replay and the monitor. The reader hands out sample lines; each
 * is rebuilt into a fresh snapshot against its header's topology (made
 * again when a later recorder session's header differs), filtered as the
 * live sampler filters, and only then handed to the caller. */
#include "replay.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "record.h"
#include "replay_int.h"
#include "snapshot_json.h"

struct replay {
	struct rec_reader *r;
	struct sampler_filter filter;
	struct rec_pos pos;           /* the current sample */
	bool have_cur;
	time_t when, start;
	char *file;                   /* the current sample's file */
	char *header;                 /* the header se's topology is from
				       * (NULL: se holds nothing of ours) */
	char *bad_header;             /* the last header found unusable */
	char **warn;
	size_t nwarn, warncap, reader_said, skipped;
};

__attribute__((format(printf, 2, 3)))
static void warnf(struct replay *rp, const char *fmt, ...)
{
	char line[700];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	char **g = buf_grow_array(rp->warn, &rp->warncap, rp->nwarn + 1, sizeof(*g));
	if (!g)
		return;
	rp->warn = g;
	if ((g[rp->nwarn] = strdup(line)) != NULL)
		rp->nwarn++;
}

/* The reader's warnings so far, in with ours (in the order they came). */
static void pull_warnings(struct replay *rp)
{
	for (; rp->reader_said < rec_reader_nwarnings(rp->r); rp->reader_said++)
		warnf(rp, "%s", rec_reader_warning(rp->r, rp->reader_said));
}

static void utc(time_t t, char *out, size_t n)
{
	struct tm tm;
	if (t < 0 || !gmtime_r(&t, &tm) || !strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(out, n, "of unknown time");
}

int replay_open(struct replay **out, const char *path, char *err, size_t errsz)
{
	*out = NULL;
	struct replay *rp = calloc(1, sizeof(*rp));
	if (!rp)
		return -ENOMEM;
	rp->when = rp->start = -1;
	int rc = rec_reader_open(&rp->r, path, err, errsz);
	if (rc) {
		free(rp);
		return rc;
	}
	struct rec_sample s;
	rc = rec_reader_first(rp->r, &s);
	if (rc) {
		snprintf(err, errsz, "%s: %s", path, rc == -ENOENT ? "no samples in it (only its header)" :
			 strerror(-rc));
	} else {
		/* The first header must be one: a later unusable one is only
		 * a warning (its samples are skipped). */
		struct topology t;
		char why[200];
		rc = snapshot_json_topology(s.header, &t, why, sizeof(why));
		if (rc)
			snprintf(err, errsz, "%s: %s", s.file, why);
		else
			topology_free(&t);
		rp->start = s.when;
	}
	if (rc) {
		replay_close(rp, NULL);
		return rc;
	}
	*out = rp;
	return 0;
}

/* What the replay put in se. */
static void release(struct replay *rp, struct session *se)
{
	if (!rp->header || !se)
		return;
	if (se->have_hmat)
		hmat_free(&se->hmat);
	if (se->have_meas)
		measure_free(&se->meas);
	se->have_hmat = se->have_meas = false;
	topology_free(&se->topo);
	memset(&se->topo, 0, sizeof(se->topo));
	free(rp->header);
	rp->header = NULL;
}

void replay_close(struct replay *rp, struct session *se)
{
	if (!rp)
		return;
	release(rp, se);
	rec_reader_close(rp->r);
	for (size_t i = 0; i < rp->nwarn; i++)
		free(rp->warn[i]);
	free(rp->warn);
	free(rp->header);
	free(rp->bad_header);
	free(rp->file);
	free(rp);
}

void replay_set_filter(struct replay *rp, const struct sampler_filter *f)
{
	if (f)
		rp->filter = *f;
	else
		memset(&rp->filter, 0, sizeof(rp->filter));
}

/* The sampler's filter on a rebuilt sample. */
static void filter(const struct sampler_filter *f, struct snapshot *s)
{
	size_t k = 0, hidden = 0;
	for (size_t i = 0; i < s->nprocs; i++) {
		bool kt;
		if (sampler_filter_keeps(f, &s->procs[i].info, &kt))
			s->procs[k++] = s->procs[i];
		else
			hidden += kt;
	}
	s->nprocs = k;
	s->norder = 0;
	s->kthreads_hidden += hidden;
}

/* Sample s into a fresh snapshot against its header's topology (a new
 * one when the header is not se's). Only when both were made are the
 * caller's snap and se replaced; else they are untouched and -EBADMSG
 * (said in the warnings) or -ENOMEM. */
static int rebuild(struct replay *rp, const struct rec_sample *s, struct session *se,
		   struct snapshot *snap, bool *new_topology, char *err, size_t errsz)
{
	char when[40];
	utc(s->when, when, sizeof(when));
	bool same = rp->header && strcmp(rp->header, s->header) == 0;
	if (!same && rp->bad_header && strcmp(rp->bad_header, s->header) == 0) {
		rp->skipped++;
		snprintf(err, errsz, "%s: the sample %s has an unusable header: skipped", s->file, when);
		return -EBADMSG;
	}
	struct topology t;
	char *hcopy = NULL;
	const struct topology *topo = &se->topo;
	if (!same) {
		int rc = snapshot_json_topology(s->header, &t, err, errsz);
		if (rc == -ENOMEM)
			return rc;
		if (rc) {
			free(rp->bad_header);
			rp->bad_header = strdup(s->header);
			rp->skipped++;
			warnf(rp, "%s: the header of the samples from %s is unusable (%s): its samples are "
			      "skipped", s->file, when, err);
			return -EBADMSG;
		}
		if (!(hcopy = strdup(s->header))) {
			topology_free(&t);
			return -ENOMEM;
		}
		topo = &t;
	}
	struct snapshot fresh;
	memset(&fresh, 0, sizeof(fresh));
	int rc = snapshot_json_snapshot(s->line, s->len, topo, &fresh, err, errsz);
	if (rc) {
		snapshot_free(&fresh);
		if (!same) {
			topology_free(&t);
			free(hcopy);
		}
		if (rc == -ENOMEM)
			return rc;
		rp->skipped++;
		warnf(rp, "%s: the sample %s is malformed: skipped", s->file, when);
		snprintf(err, errsz, "%s: the sample %s is malformed: skipped", s->file, when);
		return -EBADMSG;
	}
	filter(&rp->filter, &fresh);
	snapshot_free(snap);          /* made against se's topology: first */
	*new_topology = !same;
	if (!same) {
		struct hmat hm;
		struct measure_result me;
		bool have_hm, have_me;
		snapshot_json_extras(s->header, &t, &hm, &have_hm, &me, &have_me);
		release(rp, se);
		se->topo = t;
		se->hmat = hm;
		se->have_hmat = have_hm;
		se->meas = me;
		se->have_meas = have_me;
		rp->header = hcopy;
	}
	fresh.topo = &se->topo;
	*snap = fresh;
	return 0;
}

/* The reader at the current sample, then one step (dir), or there (0). */
static int step_from_current(struct replay *rp, int dir, struct rec_sample *s)
{
	if (!rp->have_cur)
		return dir < 0 ? rec_reader_last(rp->r, s) : rec_reader_first(rp->r, s);
	int rc = rec_reader_goto(rp->r, &rp->pos, s);
	if (rc || dir == 0)
		return rc;
	return dir > 0 ? rec_reader_next(rp->r, s) : rec_reader_prev(rp->r, s);
}

int replay_move(struct replay *rp, enum replay_to to, time_t when, struct session *se,
		struct snapshot *snap, bool *new_topology, char *err, size_t errsz)
{
	*new_topology = false;
	err[0] = '\0';
	struct rec_sample s;
	int rc, dir;
	switch (to) {
	case REPLAY_SAME:
		rc = rp->have_cur ? step_from_current(rp, 0, &s) : -ENOENT;
		dir = 0;
		break;
	case REPLAY_FIRST: rc = rec_reader_first(rp->r, &s); dir = 1; break;
	case REPLAY_LAST: rc = rec_reader_last(rp->r, &s); dir = -1; break;
	case REPLAY_NEXT: rc = step_from_current(rp, 1, &s); dir = 1; break;
	case REPLAY_PREV: rc = step_from_current(rp, -1, &s); dir = -1; break;
	case REPLAY_AT: rc = rec_reader_seek(rp->r, when, &s); dir = 1; break;
	default: rc = -EINVAL; dir = 0; break;
	}
	struct rec_pos at;
	rec_reader_tell(rp->r, &at);
	bool turned = false;
	while (rc == 0) {
		rc = rebuild(rp, &s, se, snap, new_topology, err, errsz);
		if (rc == 0) {
			rec_reader_tell(rp->r, &rp->pos);
			rp->have_cur = true;
			rp->when = s.when;
			if (!rp->file || strcmp(rp->file, s.file) != 0) {
				free(rp->file);
				rp->file = strdup(s.file);
			}
			pull_warnings(rp);
			return 0;
		}
		if (rc != -EBADMSG || dir == 0)
			break;
		rc = dir > 0 ? rec_reader_next(rp->r, &s) : rec_reader_prev(rp->r, &s);
		/* Nothing readable after the time asked: the last before it. */
		if (rc == -ENOENT && to == REPLAY_AT && !turned) {
			turned = true;
			dir = -1;
			rc = rec_reader_goto(rp->r, &at, &s);
			if (rc == 0)
				rc = rec_reader_prev(rp->r, &s);
		}
	}
	pull_warnings(rp);
	if (rp->have_cur)
		rec_reader_goto(rp->r, &rp->pos, &s);
	if (rc && rc != -ENOENT && rc != -EBADMSG && !err[0])
		snprintf(err, errsz, "%s", strerror(-rc));
	return rc;
}

time_t replay_when(const struct replay *rp)
{
	return rp->when;
}

const char *replay_file(const struct replay *rp)
{
	return rp->file ? rp->file : "";
}

time_t replay_start(const struct replay *rp)
{
	return rp->start;
}

size_t replay_nwarnings(const struct replay *rp)
{
	return rp->nwarn;
}

const char *replay_warning(const struct replay *rp, size_t i)
{
	return i < rp->nwarn ? rp->warn[i] : NULL;
}

size_t replay_nskipped(const struct replay *rp)
{
	return rp->skipped;
}

int replay_history(struct replay *rp, const struct session *se, struct history *h, size_t n)
{
	if (h->nnodes != se->topo.nnodes || !h->node) {
		size_t cap = h->cap ? h->cap : HIST_DEFAULT;
		history_free(h);
		if (history_init(h, cap, se->topo.nnodes) != 0)
			return -ENOMEM;
	} else {
		history_reset(h);
	}
	if (!rp->have_cur || !rp->header || !n)
		return 0;
	/* The samples before the current one, copied without their
	 * processes (the reader's buffers change as it moves). */
	static const char procs[] = ",\"processes\":[";
	char **past = calloc(n, sizeof(*past));
	if (!past)
		return -ENOMEM;
	size_t k = 0;
	struct rec_sample s;
	int rc = rec_reader_goto(rp->r, &rp->pos, &s);
	while (rc == 0 && k < n && rec_reader_prev(rp->r, &s) == 0 && strcmp(s.header, rp->header) == 0) {
		const char *cut = memmem(s.line, s.len, procs, sizeof(procs) - 1);
		if (!cut)
			continue;
		size_t l = (size_t)(cut - s.line);
		if (!(past[k] = malloc(l + sizeof(procs) + 2))) {
			rc = -ENOMEM;
			break;
		}
		memcpy(past[k], s.line, l);
		memcpy(past[k] + l, procs, sizeof(procs) - 1);
		memcpy(past[k] + l + sizeof(procs) - 1, "]}", 3);
		k++;
	}
	rec_reader_goto(rp->r, &rp->pos, &s);
	pull_warnings(rp);
	struct snapshot snap;
	char err[200];
	memset(&snap, 0, sizeof(snap));
	for (size_t i = k; i-- > 0;) {
		/* One that cannot be read is said when it is moved to. */
		if (rc == 0 && snapshot_json_snapshot(past[i], strlen(past[i]), &se->topo, &snap, err, sizeof(err)) == 0)
			rc = history_add(h, &snap, NULL, 0);
		free(past[i]);
	}
	snapshot_free(&snap);
	free(past);
	return rc;
}

int replay_json_line(struct replay *rp, char **out, size_t *len)
{
	struct rec_sample s;
	int rc = rp->have_cur ? rec_reader_goto(rp->r, &rp->pos, &s) : -ENOENT;
	return rc ? rc : replay_json_clean(s.line, s.len, &rp->filter, out, len);
}
