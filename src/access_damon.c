/* access_damon.c - DAMON as the heat's source (access_source.h): our
 * kdamond (damon_ctl.h) on the live machine, made only when DAMON is
 * free; on a recorded tree any kdamond with a vaddr context and a stat
 * scheme whose regions were read stands in for ours. DAMON's regions
 * leave here as access ranges, split among the targets. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access_source.h"
#include "damon_ctl.h"

/* DAMON is the heat's source here: its limits are the heat's. */
_Static_assert(ACCESS_MAX_TARGETS <= DAMON_MAX_TARGETS, "one kdamond context holds the targets");
_Static_assert(ACCESS_COUNT_MAX == DAMON_ANY_U32, "the counts the parser keeps");

struct damon_src {
	const struct fsroot *r;
	bool live;                  /* ctl set up (the live root) */
	struct damon_ctl ctl;
	struct damon_scheme sch;
	struct access_range *ranges;
	size_t ranges_cap;
	size_t *first;
	int pids[ACCESS_MAX_TARGETS];   /* a recorded kdamond's targets */
};

static int ds_open(void **st, const struct fsroot *r, char *msg, size_t n)
{
	struct damon_src *d = calloc(1, sizeof(*d));
	*st = NULL;
	if (!d) {
		snprintf(msg, n, "DAMON: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	d->r = r;
	d->live = fsroot_is_live(r);
	int rc = d->live ? damon_ctl_init(&d->ctl, r, NULL) : 0;
	if (rc) {
		snprintf(msg, n, "DAMON: cannot tell who we are: %s", strerror(-rc));
		free(d);
		return rc;
	}
	*st = d;
	return 0;
}

static void ds_close(void *st)
{
	struct damon_src *d = st;
	if (!d)
		return;
	if (d->live)
		damon_ctl_stop(&d->ctl);
	free(d->sch.regions);
	free(d->ranges);
	free(d->first);
	free(d);
}

static void ds_stop_signal(void *st)
{
	struct damon_src *d = st;
	if (d && d->live)
		damon_ctl_stop_signal(&d->ctl);
}

static int ds_start(void *st, const int *pids, size_t n, bool fine)
{
	struct damon_src *d = st;
	if (!d->live)
		return -EROFS;
	d->ctl.sample_us = fine ? DAMON_SAMPLE_WATCH_US : DAMON_SAMPLE_US;
	d->ctl.aggr_us = fine ? DAMON_AGGR_WATCH_US : DAMON_AGGR_US;
	return damon_ctl_start(&d->ctl, pids, n);
}

static int ds_retarget(void *st, const int *pids, size_t n)
{
	struct damon_src *d = st;
	return d->live ? damon_ctl_set_targets(&d->ctl, pids, n) : -EROFS;
}

static int ds_stop(void *st)
{
	struct damon_src *d = st;
	return d->live ? damon_ctl_stop(&d->ctl) : 0;
}

static int ds_ask(void *st)
{
	struct damon_src *d = st;
	return d->live ? damon_ctl_request_start(&d->ctl) : -EROFS;
}

static bool ds_pending(const void *st)
{
	const struct damon_src *d = st;
	return d->live && damon_ctl_request_pending(&d->ctl);
}

static bool split(struct damon_src *d, size_t ntargets, struct access_answer *out);

static int ds_poll(void *st, size_t ntargets, double *ms, struct access_answer *out)
{
	struct damon_src *d = st;
	double m = -1;
	memset(out, 0, sizeof(*out));
	if (!d->live)
		return -ECHILD;
	int rc = damon_ctl_request_poll(&d->ctl, &m);
	if (rc == 0)
		return 0;
	if (damon_ctl_request_was_commit(&d->ctl)) {
		out->targets_only = true;
		return rc;
	}
	if (rc <= 0)
		return rc;
	*ms = m;
	rc = damon_ctl_read_regions(&d->ctl, &d->sch);
	if (rc < 0)
		return rc;
	const struct damon_settings *set = &d->ctl.rec.set;
	out->window_s = (double)set->aggr_us / 1e6;
	out->sample_s = (double)set->sample_us / 1e6;
	out->thread_pid = d->ctl.rec.kdamond_pid;
	split(d, ntargets, out);
	return 1;
}

static void ds_state(const void *st, struct access_source_state *out)
{
	const struct damon_src *d = st;
	out->running = d->live && d->ctl.index >= 0;
	out->window_s = (double)d->ctl.rec.set.aggr_us / 1e6;
	out->sample_s = (double)d->ctl.rec.set.sample_us / 1e6;
	out->thread_pid = d->ctl.rec.kdamond_pid;
}

static const char *ds_message(const void *st)
{
	return damon_ctl_message(&((const struct damon_src *)st)->ctl);
}

/* Nothing to watch: what DAMON's state would say. */
static void ds_idle(void *st, enum access_why *why, char *msg, size_t n)
{
	struct damon_src *d = st;
	struct damon_status s;
	if (damon_read(d->r, &s) != 0)
		return;
	struct damon_record rec;
	bool have = damon_record_load(d->ctl.record_path, &rec) == 0;
	damon_classify(d->r, &s, have ? &rec : NULL, &d->ctl.self);
	msg[0] = '\0';
	switch (s.avail) {
	case DAMON_UNAVAILABLE: *why = ACCESS_NO_DAMON; break;
	case DAMON_NOT_PERMITTED: *why = ACCESS_NOT_ROOT; break;
	case DAMON_ERROR: *why = ACCESS_ERROR; break;
	case DAMON_IN_USE:
		*why = ACCESS_IN_USE;
		snprintf(msg, n, "DAMON is in use by someone else (%lld kdamond%s): not used",
			 (long long)s.nr_kdamonds, s.nr_kdamonds == 1 ? "" : "s");
		break;
	default:
		*why = ACCESS_NOT_YET;
		snprintf(msg, n, "DAMON is free: no process has remote memory to watch");
	}
	damon_status_free(&s);
}

/* A recorded tree: the first kdamond with one vaddr context, a scheme,
 * 1..ACCESS_MAX_TARGETS targets and regions read. */
static enum access_why ds_recorded(void *st, struct access_answer *out)
{
	struct damon_src *d = st;
	struct damon_status s;
	enum access_why why = ACCESS_RECORDED;
	memset(out, 0, sizeof(*out));
	if (damon_read(d->r, &s) != 0)
		return why;
	if (s.avail == DAMON_UNAVAILABLE)
		why = ACCESS_NO_DAMON;
	for (size_t k = 0; k < s.nkd && why != ACCESS_ON; k++) {
		const struct damon_kdamond *kd = &s.kd[k];
		if (kd->nctxs != 1 || strcmp(kd->ctxs[0].operations, "vaddr") != 0 ||
		    kd->ctxs[0].nschemes < 1 || kd->ctxs[0].ntargets == 0 ||
		    kd->ctxs[0].ntargets > ACCESS_MAX_TARGETS)
			continue;
		const struct damon_context *c = &kd->ctxs[0];
		if (damon_read_regions(d->r, kd->index, 0, 0, &d->sch) != 0 || d->sch.nregions == 0)
			continue;
		for (size_t t = 0; t < c->ntargets; t++)
			d->pids[t] = (int)c->pids[t];
		split(d, c->ntargets, out);
		out->pids = d->pids;
		out->window_s = (double)c->aggr_us / 1e6;
		out->sample_s = (double)c->sample_us / 1e6;
		out->thread_pid = kd->pid;
		why = ACCESS_ON;
	}
	damon_status_free(&s);
	return why;
}

/* The scheme's regions as ranges, split among ntargets targets (first
 * left NULL when that is not certain, or on no memory). True when split. */
static bool split(struct damon_src *d, size_t ntargets, struct access_answer *out)
{
	out->ntargets = ntargets;
	out->first = NULL;
	size_t *first = realloc(d->first, (ntargets + 1) * sizeof(*first));
	if (!first)
		return false;
	d->first = first;
	if (damon_split_targets(d->sch.regions, d->sch.nregions, ntargets, first) != 0)
		return false;         /* not certain which regions are whose */
	if (d->sch.nregions > d->ranges_cap) {
		struct access_range *v = realloc(d->ranges, d->sch.nregions * sizeof(*v));
		if (!v)
			return false;
		d->ranges = v;
		d->ranges_cap = d->sch.nregions;
	}
	for (size_t i = 0; i < d->sch.nregions; i++) {
		const struct damon_region *g = &d->sch.regions[i];
		d->ranges[i] = (struct access_range){ g->start, g->end, g->nr_accesses, g->age };
	}
	out->r = d->ranges;
	out->first = first;
	return true;
}

const struct access_source_ops access_source_damon = {
	.id = ACCESS_SRC_DAMON,
	.title = "DAMON",
	.thread = "kdamond",
	.open = ds_open,
	.close = ds_close,
	.stop_signal = ds_stop_signal,
	.start = ds_start,
	.retarget = ds_retarget,
	.stop = ds_stop,
	.ask = ds_ask,
	.pending = ds_pending,
	.poll = ds_poll,
	.state = ds_state,
	.message = ds_message,
	.idle = ds_idle,
	.recorded = ds_recorded,
};
