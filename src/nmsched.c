/* nmsched.c - the numa_maps budget: what to read this tick, and how. */
#include "nmsched.h"

#include <math.h>
#include <stdlib.h>

/* Cost model measured on a 2-core x86_64 machine: a numa_maps walk costs
 * about 9.5 ms per GiB of resident 4 KiB pages plus 1.2 us per mapping;
 * opening and reading the file costs some 30 us. A sampled read (maps,
 * then one move_pages query per 2 MiB) costs about 0.15 ms per GiB plus
 * 1.5 us per mapping. */
#define READ_BASE_S      30e-6
#define READ_PER_GIB_S   9.5e-3
#define READ_PER_MAP_S   1.2e-6
#define SAMPLE_BASE_S    50e-6
#define SAMPLE_PER_GIB_S 0.15e-3
#define SAMPLE_PER_MAP_S 1.5e-6
/* Never-read processes go before any that has a result. */
#define NEVER_AGE_S      1e6

void nmsched_config_default(struct nmsched_config *c)
{
	c->full = false;
	c->budget_s = NMSCHED_BUDGET_MS / 1000.0;
	c->big_interval_s = 10.0;
	c->big_kb = 1024 * 1024;
	c->sample_over_s = 0.010;
	c->sample_maps = 5000;
	c->can_sample = false;
	c->warmup = false;
}

static double rss_gib(const struct nmsched_proc *p)
{
	return p->rss_kb > 0 ? (double)p->rss_kb / (1024.0 * 1024.0) : 0;
}

double nmsched_predict_read(const struct nmsched_proc *p)
{
	if (p->last_cost >= 0) {
		/* Measured: THP walks are cheap and the model cannot know.
		 * A process that grew since costs more in proportion. */
		if (p->cost_rss_kb > 0 && p->rss_kb > p->cost_rss_kb)
			return p->last_cost * (double)p->rss_kb / (double)p->cost_rss_kb;
		return p->last_cost;
	}
	return READ_BASE_S + rss_gib(p) * READ_PER_GIB_S +
	       (double)p->nmappings * READ_PER_MAP_S;
}

double nmsched_predict_sample(const struct nmsched_proc *p)
{
	return SAMPLE_BASE_S + rss_gib(p) * SAMPLE_PER_GIB_S +
	       (double)p->nmappings * SAMPLE_PER_MAP_S;
}

static double weight(const struct nmsched_proc *p)
{
	double w = 1.0;
	if (p->rss_kb > 0)
		w += log2(1.0 + (double)p->rss_kb / 1024.0) / 8.0;
	if (p->cpu_pct > 0)
		w += (p->cpu_pct > 400 ? 400 : p->cpu_pct) / 50.0;
	if (p->rss_delta_kb != 0)
		w += 1.0;
	return w;
}

static int by_score(const void *a, const void *b, void *base)
{
	const struct nmsched_proc *v = base;
	const struct nmsched_proc *x = &v[*(const uint32_t *)a];
	const struct nmsched_proc *y = &v[*(const uint32_t *)b];
	if (x->priority != y->priority)
		return x->priority ? -1 : 1;
	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	return i < j ? -1 : i > j;
}

size_t nmsched_plan(const struct nmsched_config *c, struct nmsched_proc *v,
		    size_t n, double now, uint32_t *order)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		struct nmsched_proc *p = &v[i];
		double rd = nmsched_predict_read(p);
		p->how = NMSCHED_KEEP;
		p->predicted = 0;
		p->score = 0;
		if (c->full) {
			p->how = NMSCHED_READ;
			p->predicted = rd;
			order[k++] = (uint32_t)i;
			continue;
		}
		bool long_walk = rd > c->sample_over_s || p->nmappings > c->sample_maps;
		bool sample = c->can_sample && long_walk;
		bool estimate = p->cached && p->sampled && !long_walk;
		if (c->warmup && !p->cached && !p->priority) {
			/* Warm-up: a first result for everyone, largest first. */
			p->how = sample ? NMSCHED_SAMPLE : NMSCHED_READ;
			p->predicted = sample ? nmsched_predict_sample(p) : rd;
			p->score = NEVER_AGE_S * (1.0 + rss_gib(p));
			order[k++] = (uint32_t)i;
			continue;
		}
		if (p->priority) {
			/* The user is looking at it: exact numbers, unless
			 * the walk would stall it for several budgets. */
			double cap = 4 * c->budget_s > c->sample_over_s ?
				     4 * c->budget_s : c->sample_over_s;
			sample = c->can_sample && (rd > cap || p->nmappings > c->sample_maps);
			/* Every tick while that costs at most two budgets; a
			 * costlier one (100 000 mappings: tens of ms even
			 * sampled) 1 % of the time: every 1 to big_interval_s. */
			double cost = sample ? nmsched_predict_sample(p) : rd;
			double gap = cost * 100 < 1 ? 1 : cost * 100 > c->big_interval_s ?
				     c->big_interval_s : cost * 100;
			if (p->cached && cost > 2 * c->budget_s && now - p->last_read < gap)
				continue;
		} else if (p->cached && !p->changed && (!estimate || c->warmup)) {
			continue;
		} else if (p->cached && p->rss_kb >= c->big_kb &&
			   now - p->last_read < c->big_interval_s) {
			continue;
		}
		p->how = sample ? NMSCHED_SAMPLE : NMSCHED_READ;
		p->predicted = sample ? nmsched_predict_sample(p) : rd;
		double age = p->cached ? now - p->last_read : NEVER_AGE_S;
		p->score = (age > 0 ? age : 0) * weight(p);
		order[k++] = (uint32_t)i;
	}
	if (!c->full && k > 1)
		qsort_r(order, k, sizeof(*order), by_score, v);
	return k;
}

size_t nmsched_run(const struct nmsched_config *c, struct nmsched_proc *v,
		   const uint32_t *order, size_t norder, double now,
		   double (*clock)(void *ctx),
		   int (*visit)(void *ctx, size_t i, enum nmsched_how how),
		   void *ctx, struct nmsched_stats *st)
{
	struct nmsched_stats z = { 0 };
	if (!st)
		st = &z;
	*st = z;
	double start = clock(ctx);
	bool stale_done = false;
	size_t done = 0;
	for (size_t k = 0; k < norder; k++) {
		struct nmsched_proc *p = &v[order[k]];
		if (!c->full && !p->priority) {
			double spent = clock(ctx) - start;
			bool fits = spent < c->budget_s &&
				    spent + p->predicted <= c->budget_s;
			/* A read that can never fit would starve: let it
			 * overrun once, as the first stale read of a tick,
			 * when it is new or has waited big_interval_s. */
			bool starving = !stale_done &&
					(!p->cached || now - p->last_read >= c->big_interval_s);
			if (!fits && !starving) {
				p->how = NMSCHED_KEEP;
				st->skipped++;
				continue;
			}
			stale_done = true;
		}
		double t0 = clock(ctx);
		visit(ctx, order[k], p->how);
		double dt = clock(ctx) - t0;
		if (p->how == NMSCHED_READ) {
			p->last_cost = dt;
			p->cost_rss_kb = p->rss_kb;
			st->read++;
		} else {
			st->sampled++;
		}
		done++;
	}
	st->spent_s = clock(ctx) - start;
	return done;
}
