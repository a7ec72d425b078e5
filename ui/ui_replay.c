/* ui_replay.c - the monitor on a recording (--replay FILE|DIR): each
 * sample rebuilt into the model (snapjson), moved through with t / T
 * (next / previous), b (jump to a time), Home / End (first / last). The
 * screens read the model as live; actions are refused. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curses.h>

#include "record.h"
#include "snapjson.h"
#include "ui_int.h"

struct ui_replay {
	struct rec_reader *r;
	struct rec_sample cur;
	char *header;              /* the header the topology is from */
	size_t said;               /* reader warnings shown */
};

static void prefill(struct ui *u);

/* The recording's topology of header (replaced when a later recorder
 * session has another). */
static int adopt_header(struct ui *u, const char *header, char *err, size_t errsz)
{
	struct ui_replay *rp = u->rp;
	if (rp->header && strcmp(rp->header, header) == 0)
		return 0;
	struct topology t;
	int rc = snapjson_topology(header, &t, err, errsz);
	if (rc)
		return rc;
	char *h = strdup(header);
	if (!h) {
		topology_free(&t);
		return -ENOMEM;
	}
	snapshot_free(&u->snap);
	if (rp->header)
		topology_free(&u->se.topo);
	free(rp->header);
	rp->header = h;
	u->se.topo = t;
	/* The heatmap's layers as recorded: the firmware's HMAT and the
	 * measurement the recorder had. */
	if (u->se.have_hmat)
		hmat_free(&u->se.hmat);
	if (u->se.have_meas)
		measure_free(&u->se.meas);
	snapjson_extras(header, &u->se.topo, &u->se.hmat, &u->se.have_hmat, &u->se.meas, &u->se.have_meas);
	free(u->meas_marks);
	u->meas_marks = NULL;
	u->meas_note[0] = '\0';
	if (u->se.have_meas)
		ui_measure_adopt(u);
	return 0;
}

int ui_replay_open(struct ui *u, const struct options *o, char *err, size_t errsz)
{
	struct ui_replay *rp = calloc(1, sizeof(*rp));
	if (!rp)
		return -ENOMEM;
	u->rp = rp;
	u->replay = true;
	int rc = rec_reader_open(&rp->r, o->replay, err, errsz);
	if (rc)
		return rc;
	rc = rec_reader_first(rp->r, &rp->cur);
	time_t when;
	if (rc == 0 && o->begin && rec_parse_time(o->begin, rp->cur.when, &when) == 0)
		rc = rec_reader_seek(rp->r, when, &rp->cur);
	if (rc) {
		snprintf(err, errsz, "%s: %s", o->replay, rc == -ENOENT ? "no samples in it" : strerror(-rc));
		return rc;
	}
	rc = adopt_header(u, rp->cur.header, err, errsz);
	if (rc == 0)
		prefill(u);
	return rc;
}

void ui_replay_close(struct ui *u)
{
	struct ui_replay *rp = u->rp;
	if (!rp)
		return;
	snapshot_free(&u->snap);
	if (u->se.have_hmat)
		hmat_free(&u->se.hmat);
	if (u->se.have_meas)
		measure_free(&u->se.meas);
	u->se.have_hmat = u->se.have_meas = false;
	if (rp->header)
		topology_free(&u->se.topo);
	rec_reader_close(rp->r);
	free(rp->header);
	free(rp);
	u->rp = NULL;
}

/* -p, -u and K as the live sampler applies them. */
static bool wanted(const struct ui *u, const struct snap_proc *p)
{
	const struct options *o = u->opt;
	bool named = false;
	for (size_t i = 0; i < o->npids; i++)
		named |= o->pids[i] == p->info.pid;
	if (o->npids && !named)
		return false;
	if (p->info.kthread && !u->kernel_threads && !named)
		return false;
	if (o->user && strcmp(o->user, p->info.user) != 0) {
		char uid[24];
		snprintf(uid, sizeof(uid), "%lld", (long long)p->info.uid);
		if (strcmp(o->user, uid) != 0)
			return false;
	}
	return true;
}

void ui_replay_sample(struct ui *u)
{
	struct ui_replay *rp = u->rp;
	char err[300];
	int rc = adopt_header(u, rp->cur.header, err, sizeof(err));
	if (!rc)
		rc = snapjson_snapshot(rp->cur.line, rp->cur.len, &u->se.topo, &u->snap, err, sizeof(err));
	if (rc) {
		snprintf(u->msg, sizeof(u->msg), "%s", err);
		return;
	}
	size_t k = 0, hidden = 0;
	for (size_t i = 0; i < u->snap.nprocs; i++) {
		if (wanted(u, &u->snap.procs[i]))
			u->snap.procs[k++] = u->snap.procs[i];
		else
			hidden += u->snap.procs[i].info.kthread;
	}
	u->snap.nprocs = k;
	u->snap.kthreads_hidden += hidden;
	if (rp->said < rec_reader_nwarnings(rp->r)) {
		snprintf(u->msg, sizeof(u->msg), "%s", rec_reader_warning(rp->r, rec_reader_nwarnings(rp->r) - 1));
		rp->said = rec_reader_nwarnings(rp->r);
	}
}

/* The node history up to the current sample, from the recording: up to
 * REPLAY_PREFILL samples before it (same header), parsed without their
 * processes (cheap), oldest first. Processes' history grows as samples
 * are stepped through. */
#define REPLAY_PREFILL 60
static void prefill(struct ui *u)
{
	struct ui_replay *rp = u->rp;
	history_reset(&u->hist);
	if (u->hist.nnodes != u->se.topo.nnodes || !u->hist.node) {
		history_free(&u->hist);
		if (history_init(&u->hist, HIST_DEFAULT, u->se.topo.nnodes) != 0)
			return;
	}
	static const char procs[] = ",\"processes\":[";
	char *past[REPLAY_PREFILL];
	int n = 0, back = 0;
	struct rec_sample s;
	while (n < REPLAY_PREFILL && rec_reader_prev(rp->r, &s) == 0) {
		back++;
		if (strcmp(s.header, rp->header) != 0)
			break;
		const char *cut = memmem(s.line, s.len, procs, sizeof(procs) - 1);
		size_t l = cut ? (size_t)(cut - s.line) : s.len;
		if (!cut || !(past[n] = malloc(l + sizeof(procs) + 2)))
			break;
		memcpy(past[n], s.line, l);
		memcpy(past[n] + l, procs, sizeof(procs) - 1);
		memcpy(past[n] + l + sizeof(procs) - 1, "]}", 3);
		n++;
	}
	/* Back to the sample shown (its buffers were reloaded meanwhile). */
	for (int k = 0; k < back; k++)
		if (rec_reader_next(rp->r, &s) == 0)
			rp->cur = s;
	struct snapshot snap;
	char err[200];
	memset(&snap, 0, sizeof(snap));
	for (int i = n - 1; i >= 0; i--) {
		if (snapjson_snapshot(past[i], strlen(past[i]), &u->se.topo, &snap, err, sizeof(err)) == 0)
			history_add(&u->hist, &snap, NULL, 0);
		free(past[i]);
	}
	snapshot_free(&snap);
}

/* Move with fn; the sample is rebuilt and the rows with it. */
static void move_to(struct ui *u, int (*fn)(struct rec_reader *, struct rec_sample *),
		    const char *none)
{
	struct ui_replay *rp = u->rp;
	struct rec_sample s;
	int rc = fn(rp->r, &s);
	if (rc) {
		snprintf(u->msg, sizeof(u->msg), "%s", rc == -ENOENT ? none : strerror(-rc));
		return;
	}
	rp->cur = s;
	/* Stepping on adds to the history; any other move rebuilds it from
	 * the samples before the new one. */
	if (fn != rec_reader_next && adopt_header(u, rp->cur.header, u->msg, sizeof(u->msg)) == 0)
		prefill(u);
	ui_sample(u);
	if (!u->msg[0])
		ui_replay_status(u, u->msg, sizeof(u->msg));
}

void ui_replay_jump(struct ui *u, const char *text)
{
	struct ui_replay *rp = u->rp;
	time_t when;
	if (rec_parse_time(text, rp->cur.when, &when) != 0) {
		snprintf(u->msg, sizeof(u->msg), "not a time: use HH:MM[:SS] or YYYY-MM-DD HH:MM");
		return;
	}
	struct rec_sample s;
	int rc = rec_reader_seek(rp->r, when, &s);
	if (rc) {
		snprintf(u->msg, sizeof(u->msg), "no sample: %s", strerror(-rc));
		return;
	}
	rp->cur = s;
	if (adopt_header(u, rp->cur.header, u->msg, sizeof(u->msg)) == 0)
		prefill(u);
	ui_sample(u);
	if (!u->msg[0])
		ui_replay_status(u, u->msg, sizeof(u->msg));
}

void ui_replay_status(const struct ui *u, char *out, size_t n)
{
	const struct ui_replay *rp = u->rp;
	char when[40] = "?";
	struct tm tm;
	if (rp->cur.when >= 0 && localtime_r(&rp->cur.when, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	const char *f = strrchr(rp->cur.file, '/');
	snprintf(out, n, "replay %s  %s", when, f ? f + 1 : rp->cur.file);
}

static void k_next(struct ui *u, int ch) { (void)ch; move_to(u, rec_reader_next, "the last sample"); }
static void k_prev(struct ui *u, int ch) { (void)ch; move_to(u, rec_reader_prev, "the first sample"); }
static void k_first(struct ui *u, int ch) { (void)ch; move_to(u, rec_reader_first, "no samples"); }
static void k_last(struct ui *u, int ch) { (void)ch; move_to(u, rec_reader_last, "no samples"); }
static void k_jump(struct ui *u, int ch) { (void)ch; ui_prompt_open(u, UI_PROMPT_TIME); }

/* In replay these come before the main table (t is the tree there, T the
 * time sort, Home/End the first/last process: F5 and F6 still do those). */
const struct ui_key ui_replay_keys[] = {
	{ 't', k_next, "t T", "replay: next / previous sample", NULL },
	{ 'T', k_prev, NULL, NULL, NULL },
	{ 'b', k_jump, "b", "replay: jump to a time (HH:MM, YYYY-MM-DD HH:MM)", NULL },
	{ KEY_HOME, k_first, "Home End", "replay: first / last sample", NULL },
	{ KEY_END, k_last, NULL, NULL, NULL },
};
const size_t ui_nreplay_keys = sizeof(ui_replay_keys) / sizeof(ui_replay_keys[0]);

bool ui_replay_key(struct ui *u, int ch)
{
	if (!u->replay || (u->screen != SCR_PROCESSES && u->screen != SCR_NODES && u->screen != SCR_DETAIL))
		return false;
	for (size_t i = 0; i < ui_nreplay_keys; i++)
		if (ui_replay_keys[i].key == ch) {
			u->msg[0] = '\0';
			ui_replay_keys[i].fn(u, ch);
			return true;
		}
	return false;
}

bool ui_replay_refused(struct ui *u)
{
	if (!u->replay)
		return false;
	snprintf(u->msg, sizeof(u->msg), "replay: actions (m, B, k, L, x) act on the live machine; "
		 "disabled on a recording");
	return true;
}
