/* measure.h - the measured distance matrix: idle load-to-use latency and
 * read bandwidth for every (CPU node, memory node) pair, beside the
 * firmware's SLIT.
 *
 * Latency: a dependent pointer chase over a buffer on the memory node much
 * larger than the last-level cache, one random cycle through all its cache
 * lines (huge pages asked for with madvise, a warm-up pass first), the
 * thread pinned to the CPU node. Bandwidth: streaming reads of the same
 * buffer by one thread and by one thread per CPU of the node. The buffer's
 * placement is checked with move_pages queries before a number is kept. */
#ifndef NUMATOP_MEASURE_H
#define NUMATOP_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "fsroot.h"
#include "measure_io.h"
#include "placement.h"
#include "topology.h"

struct measure_opts {
	bool quick;             /* --measure-quick: a coarse run */
	int64_t buf_kb;         /* 0: from the caches (>= 8 x LLC) */
	atomic_int *cancel;     /* set non-zero (another thread) to stop */
	/* Called between steps: done of total steps, and what runs now. */
	void (*progress)(void *ctx, unsigned done, unsigned total, const char *what);
	void *ctx;
	const struct placement_ops *ops;   /* NULL: the kernel's move_pages */
};

/* Measure every pair on the live machine. 0, -ECANCELED, -EINVAL (not
 * the live root), -ENOMEM. Pairs that fail keep -1 and their errno. */
int measure_run(const struct fsroot *r, const struct topology *t,
		const struct measure_opts *o, struct measure_result *res);

/* A single random cycle through n slots (Sattolo's algorithm): next[i]
 * is the slot after i. */
void measure_make_cycle(uint32_t *next, size_t n, uint64_t seed);
/* True when next[] visits all n slots before it returns to 0. */
bool measure_is_one_cycle(const uint32_t *next, size_t n);

/* Share (0..100) of len bytes at buf that a move_pages query finds on
 * node id `node` (one page per 2 MiB), or -errno. */
double measure_placement_pct(const struct placement_ops *ops, void *buf, size_t len,
			     long pagesize, int node);

#endif
