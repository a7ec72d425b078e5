/* action_migrate_only.c - a migration limited to given address ranges
 * (migrate hot: only the ranges DAMON saw accessed move; the rest of the
 * process's memory stays where it is). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "action_migrate.h"

static int by_start(const void *a, const void *b)
{
	const struct migrate_range *x = a, *y = b;
	return (x->start > y->start) - (x->start < y->start);
}

int migrate_restrict(struct migrate_job *j, const struct migrate_range *only, size_t n)
{
	struct migrate_range *o = n ? malloc(n * sizeof(*o)) : NULL;
	if (n && !o)
		return -ENOMEM;
	if (n)
		memcpy(o, only, n * sizeof(*o));
	qsort(o, n, sizeof(*o), by_start);
	/* At most nranges + n pieces: each overlap ends one of the two. */
	size_t cap = j->nranges + n, k = 0;
	struct migrate_range *v = cap ? malloc(cap * sizeof(*v)) : NULL;
	if (cap && !v) {
		free(o);
		return -ENOMEM;
	}
	uint64_t ps = (uint64_t)(j->pagesize > 0 ? j->pagesize : 4096);
	uint64_t pages = 0;
	for (size_t a = 0, b = 0; a < j->nranges && b < n;) {
		const struct migrate_range *x = &j->ranges[a], *y = &o[b];
		uint64_t lo = x->start > y->start ? x->start : y->start;
		uint64_t hi = x->end < y->end ? x->end : y->end;
		lo = lo / ps * ps;                   /* whole pages */
		hi = (hi + ps - 1) / ps * ps;
		if (hi > x->end)
			hi = x->end;
		if (lo < x->start)
			lo = x->start;
		if (lo < hi && k < cap) {
			/* Overlapping pieces of one mapping join. */
			if (k && v[k - 1].end >= lo && v[k - 1].file == x->file && v[k - 1].start <= lo) {
				if (hi > v[k - 1].end) {
					pages += (hi - v[k - 1].end) / ps;
					v[k - 1].end = hi;
				}
			} else {
				v[k++] = (struct migrate_range){ lo, hi, x->file };
				pages += (hi - lo) / ps;
			}
		}
		if (x->end <= y->end)
			a++;
		else
			b++;
	}
	free(o);
	free(j->ranges);
	j->ranges = v;
	j->nranges = k;
	j->total_pages = pages;
	j->cur = 0;
	j->scanned = 0;
	j->addr = k ? v[0].start : 0;
	return 0;
}

int migrate_heat_ranges(const struct access_proc *a, bool cold, struct migrate_range **out,
			size_t *n)
{
	*out = NULL;
	*n = 0;
	/* Only heat that may decide moves memory (access.h): not while it
	 * is measured, stale or not seen. */
	enum access_trust tr = access_proc_trust(a);
	if (a && tr == ACCESS_TRUST_MEASURING)
		return -EINPROGRESS;
	if (a && tr == ACCESS_TRUST_STALE)
		return -ESTALE;
	if (!a || tr != ACCESS_USABLE || a->hot_kb < 0 ||
	    (cold && (a->cold_kb < 0 || a->monitored_s < ACCESS_COLD_S)))
		return -ENODATA;
	if (cold && a->nregions >= ACCESS_MAX_REGIONS)
		return -E2BIG;
	struct migrate_range *v = malloc((a->nregions + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < a->nregions; i++)
		if (cold || a->regions[i].heat == ACCESS_HOT)
			v[k++] = (struct migrate_range){ a->regions[i].start, a->regions[i].end, false };
	qsort(v, k, sizeof(*v), by_start);
	if (cold) {
		/* The gaps between the hot and warm regions, and before and
		 * after them: at most one more than the regions. */
		struct migrate_range *c = malloc((k + 1) * sizeof(*c));
		if (!c) {
			free(v);
			return -ENOMEM;
		}
		size_t m = 0;
		uint64_t at = 0;
		for (size_t i = 0; i < k; i++) {
			if (v[i].start > at)
				c[m++] = (struct migrate_range){ at, v[i].start, false };
			if (v[i].end > at)
				at = v[i].end;
		}
		if (at < UINT64_MAX)
			c[m++] = (struct migrate_range){ at, UINT64_MAX, false };
		free(v);
		v = c;
		k = m;
	}
	*out = v;
	*n = k;
	return 0;
}

double migrate_watch_next(double t0, double limit_s, double start, double tick_s, double now)
{
	double next = start + 1.0;
	if (next < now)
		next = now;
	if (tick_s < 0)
		tick_s = 0;
	return next + 2 * tick_s <= t0 + limit_s ? next : -1;
}
