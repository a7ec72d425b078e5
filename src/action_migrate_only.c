/* action_migrate_only.c - a migration limited to given address ranges
 * (migrate hot: only the ranges DAMON saw accessed move; the rest of the
 * process's memory stays where it is). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
