/* nmsched.h - which processes' numa_maps to read this tick, and how.
 *
 * Reading /proc/PID/numa_maps walks the page tables of every mapping with
 * the process's mmap lock held: it costs ~9-10 ms per GiB of 4 KiB pages
 * and stalls the process meanwhile. The scheduler keeps that cost inside a
 * per-tick time budget:
 *   - priority processes (selected, tagged) are read every tick, those
 *     whose read costs more than two budgets every cost x 100 seconds
 *     (1 s to big_interval_s);
 *   - a process whose RSS and fault counts did not change, while the
 *     system recorded no page migration, keeps its last result;
 *   - processes of 1 GiB or more are re-read at most every big_interval_s
 *     unless they have priority;
 *   - the rest go stalest first, weighted by RSS, CPU and RSS change,
 *     while each read's predicted cost (the last one measured, or a model
 *     from RSS and mapping count) fits in what is left of the budget;
 *   - where the predicted walk is long, placement is sampled instead
 *     (/proc/PID/maps + a move_pages query per stride), when allowed;
 *   - a kept sampled result of a process whose walk is short is read
 *     exactly when its turn comes (by age, like a changed one);
 *   - warm-up (the first ticks, until every process has a result):
 *     never-read processes go first, largest first, read or sampled by
 *     the same rule, on the warm-up budget.
 * Pure: the clock and the reads are the caller's, so tests drive it with a
 * fake clock. */
#ifndef NUMATOP_NMSCHED_H
#define NUMATOP_NMSCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum nmsched_how { NMSCHED_KEEP, NMSCHED_READ, NMSCHED_SAMPLE };

#define NMSCHED_BUDGET_MS 20.0   /* the default budget per tick */

struct nmsched_config {
	bool full;               /* read every process every tick, no budget */
	double budget_s;         /* per tick (default NMSCHED_BUDGET_MS) */
	double big_interval_s;   /* re-read of big processes (default 10) */
	int64_t big_kb;          /* "big" from this RSS (default 1 GiB) */
	double sample_over_s;    /* sample when a walk is predicted longer */
	size_t sample_maps;      /* ... or the process has more mappings */
	bool can_sample;         /* move_pages works here (the live root) */
	bool warmup;             /* see above; budget_s is then the warm-up's */
};
void nmsched_config_default(struct nmsched_config *c);

struct nmsched_proc {
	/* in */
	bool priority;           /* selected or tagged */
	bool cached;             /* a result for this process exists */
	bool changed;            /* RSS/faults changed or pages migrated since */
	bool sampled;            /* that result is a sampled estimate */
	enum nmsched_how how;    /* out (here: no padding) */
	double last_read;        /* monotonic seconds of that result */
	double last_cost;        /* measured seconds of the last full read, -1 */
	int64_t cost_rss_kb;     /* RSS at that read (the cost scales with it) */
	int64_t rss_kb;          /* -1 unknown */
	int64_t rss_delta_kb;    /* since the previous tick */
	float cpu_pct;           /* -1 unknown (a float as snap_proc's) */
	uint32_t nmappings;      /* from the last read, 0 unknown */
	/* out: how (above), */
	double predicted;        /* seconds */
	double score;
};

/* Predicted seconds for a full numa_maps read, and for a sampled one. */
double nmsched_predict_read(const struct nmsched_proc *p);
double nmsched_predict_sample(const struct nmsched_proc *p);

/* Decide for every process; fills order[] (scratch of n) with the indexes
 * to visit, priority first then by score, and returns their count. Every
 * process not in order[] gets NMSCHED_KEEP. */
size_t nmsched_plan(const struct nmsched_config *c, struct nmsched_proc *v,
		    size_t n, double now, uint32_t *order);

/* Visit the planned processes in order, keeping to the budget: do(ctx, i,
 * how) reads process i and returns 0 (or -errno, still counted); clock
 * (ctx) is the monotonic time. Measured costs of full reads go to
 * v[i].last_cost. Processes skipped for the budget get NMSCHED_KEEP.
 * Returns the number of reads done. */
struct nmsched_stats {
	size_t read, sampled, skipped;   /* skipped: planned, over budget */
	double spent_s;
};
size_t nmsched_run(const struct nmsched_config *c, struct nmsched_proc *v,
		   const uint32_t *order, size_t norder, double now,
		   double (*clock)(void *ctx),
		   int (*visit)(void *ctx, size_t i, enum nmsched_how how),
		   void *ctx, struct nmsched_stats *st);

#endif
