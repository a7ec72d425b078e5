/* sampler_warm.c - the warm-up: every process's placement read once,
 * soon after start, on its own bounded budget (see sampler.h). */
#include <errno.h>
#include <stdlib.h>

#include "sampler_int.h"

bool sampler_warming(const struct sampler *s)
{
	/* Not after a tick that failed: its snapshot's records are not
	 * whole, so there is nothing to warm up until the next one. */
	return s->warm && s->kept_ok;
}

/* This sample's count of processes with a result; the warm-up ends when
 * all have one or its reads reached WARMUP_MAX_S. */
void sampler_warm_count(struct sampler *s, struct snapshot *snap)
{
	size_t known = 0;
	for (size_t i = 0; i < snap->nprocs; i++)
		known += snap->procs[i].nm != NMS_NOT_READ;
	snap->nm_stats.known = known;
	if (s->warm && (known == snap->nprocs || s->warm_spent >= WARMUP_MAX_S || s->cfg.full))
		s->warm = false;
	snap->nm_stats.warmup = s->warm;
}

static int by_rss(const void *a, const void *b, void *ctx)
{
	const struct snapshot *snap = ctx;
	const struct snap_proc *x = &snap->procs[*(const uint32_t *)a];
	const struct snap_proc *y = &snap->procs[*(const uint32_t *)b];
	if (x->info.rss_kb != y->info.rss_kb)
		return x->info.rss_kb > y->info.rss_kb ? -1 : 1;
	return (x->info.pid > y->info.pid) - (x->info.pid < y->info.pid);
}

int sampler_warmup(struct sampler *s, struct snapshot *snap, double budget_s)
{
	/* Only the snapshot this sampler ticked last: its records hold what
	 * the sampler keeps of them. */
	if (!s->warm || snap->replayed || snap->proc_rc || snap->kept_by != s ||
	    snap->kept_seq != s->kept_seq)
		return 0;
	size_t n = 0;
	if (snap->nprocs > s->warm_cap) {
		uint32_t *o = realloc(s->warm_order, snap->nprocs * sizeof(*o));
		if (!o)
			return -ENOMEM;
		s->warm_order = o;
		s->warm_cap = snap->nprocs;
	}
	for (size_t i = 0; i < snap->nprocs; i++)
		if (snap->procs[i].nm == NMS_NOT_READ)
			s->warm_order[n++] = (uint32_t)i;
	qsort_r(s->warm_order, n, sizeof(*s->warm_order), by_rss, snap);
	double start = s->clock(s->clock_ctx);
	size_t done = 0;
	for (; done < n; done++) {
		double t0 = s->clock(s->clock_ctx);
		if (t0 - start >= budget_s)
			break;
		struct snap_proc *sp = &snap->procs[s->warm_order[done]];
		struct sampler_kept *k = sampler_kept_at(s, s->warm_order[done]);
		/* Sampled only where the walk would be long (a small
		 * process's walk is cheaper than its sampled read). */
		struct nmsched_proc q = { .rss_kb = sp->info.rss_kb, .last_cost = -1,
					  .cost_rss_kb = -1 };
		bool sample = s->cfg.can_sample &&
			      nmsched_predict_read(&q) > s->cfg.sample_over_s;
		if (sample)
			sampler_read_sampled(s, sp, k);
		else
			sampler_read_numa_maps(s, sp);
		sp->nm_fresh = true;
		double dt = s->clock(s->clock_ctx) - t0;
		sampler_keep_result(s, sp, k, sample ? -1 : dt, sample ? -1 : sp->info.rss_kb);
		k->read_at = s->clock(s->clock_ctx);      /* now, not the tick's time */
		sampler_set_remote(sp);
		if (sample)
			snap->nm_stats.sampled++;
		else
			snap->nm_stats.read++;
		snap->nm_stats.kept -= snap->nm_stats.kept > 0;
	}
	double spent = s->clock(s->clock_ctx) - start;
	s->warm_spent += spent;
	snap->nm_stats.spent_ms += spent * 1000.0;
	sampler_warm_count(s, snap);
	return s->warm ? (int)(n - done) : 0;
}
