/* nodestat.h - the per-tick node data: meminfo, numastat, hugepage pools,
 * per-CPU ticks from /proc/stat and the migration counters of /proc/vmstat. */
#ifndef NUMATOP_NODESTAT_H
#define NUMATOP_NODESTAT_H

#include "buf.h"
#include "fsroot.h"
#include "parse.h"
#include "topology.h"

struct hugepool {
	int64_t size_kb, nr, free;     /* -1 unknown */
};

struct node_sample {
	struct mem_info mem;
	int mem_rc;                    /* 0, or -errno of the meminfo read */
	struct numastat ns;
	int numastat_rc;
	struct hugepool *pools;
	size_t npools, poolcap;
};

/* Fill samples[nnodes] (pools reused). The implicit node of a non-NUMA
 * kernel gets /proc/meminfo and unknown numastat. */
void nodestat_read(const struct fsroot *r, const struct topology *t,
		   struct node_sample *samples, struct buf *scratch);
void nodestat_free(struct node_sample *samples, size_t n);

/* Per-CPU ticks indexed by CPU id (ticks[ncpu_ids]); a CPU absent from
 * /proc/stat keeps nfields = 0. *total gets the "cpu" line. 0 or -errno. */
int cpustat_read(const struct fsroot *r, struct cpu_ticks *ticks, size_t n,
		 struct cpu_ticks *total, struct buf *scratch);

/* Busy/user/system/iowait percentages between two samples. Values are -1
 * when either sample lacks the CPU or no time passed. */
struct cpu_load {
	double busy, user, system, iowait;
};
void cpustat_delta(const struct cpu_ticks *a, const struct cpu_ticks *b,
		   struct cpu_load *out);

int vmstat_read(const struct fsroot *r, struct vmstat_migrate *out,
		struct buf *scratch);

#endif
