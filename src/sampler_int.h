/* sampler_int.h - the sampler's state, shared by its tick (sampler.c) and
 * its per-process numa_maps reads and cache (sampler_nm.c). Not a public
 * header: the model is in sampler.h and snapshot.h. */
#ifndef NUMATOP_SAMPLER_INT_H
#define NUMATOP_SAMPLER_INT_H

#include "numa_maps.h"
#include "sampler.h"
#include "strpool.h"

/* What the sampler remembers of a process between ticks: its CPU ticks
 * and RSS of the previous tick, and its last numa_maps result. */
/* The last numa_maps result of a process and what it was read under. */
struct nm_result {
	double read_at;               /* monotonic seconds */
	int64_t cost_rss;             /* RSS when cost was measured */
	int64_t rss_at;               /* RSS, faults and migrations at the read */
	uint64_t faults_at;
	int64_t total_kb;
	int64_t other_kb;             /* snap_proc's unknown_node_kb, ... */
	const char *policy;           /* interned in sampler.pol */
	const char *pol_top;          /* snap_proc's pol_top, pol_mode */
	float cost;                   /* seconds, -1 unknown */
	uint32_t vm_gen;              /* sampler.vm_gen at the read */
	int other_id;
	uint32_t nbad;
	uint32_t nmappings;
	int16_t nm_errno;
	uint8_t nm;                   /* enum nm_state */
	int8_t pol_mode;              /* enum nm_mode */
	bool have;                    /* the fields above are valid */
	bool sampled;
	bool huge_unknown;
};

/* One per listed process (10 000 processes are 10 000 of these): the
 * narrow fields first, no padding between them. */
struct nm_cache {
	int pid;
	int16_t home, moved_from;     /* HOME, and HOME before it last changed */
	bool valid;                   /* false: new this tick, nothing known */
	uint64_t starttime;
	uint64_t ticks;               /* utime + stime at the previous tick */
	int64_t rss_prev;             /* RSS at the previous tick */
	struct nm_result r;
};

struct cache_gen {
	struct nm_cache *v;
	size_t n, cap;
	int64_t *kb;
	size_t kbcap;
};

struct sampler {
	const struct fsroot *root;
	const struct topology *topo;
	struct proc_source *src;
	struct sampler_filter filter;
	struct buf scratch, nmbuf;
	struct nm_mapping map;
	struct nm_summary sum;
	struct nm_params params;
	struct cpu_ticks *ticks[2];   /* [ncpu_ids], previous and current */
	struct cpu_ticks total[2];
	int cur;
	struct numastat *prev_ns;     /* [nnodes] */
	size_t *node_counts;          /* [nnodes], scratch for HOME */
	/* One entry per process of the last tick, by PID; at each tick
	 * aligned to the new list (entry i is process i while the tick
	 * builds the snapshot), then updated in place. */
	struct cache_gen cache;
	struct nmsched_config cfg;
	struct nmsched_proc *sched;
	size_t *order;
	size_t schedcap;
	int *prio;
	size_t nprio, priocap;
	double (*clock)(void *ctx);
	void *clock_ctx;
	struct placement_ops pops;
	struct placement_scratch psc;
	long pagesize;
	struct vmstat_migrate vm;     /* this tick's */
	struct vmstat_migrate vm_last; /* the previous tick's */
	uint32_t vm_gen;              /* + 1 at each tick whose counters moved
				       * (or are unknown): a result read at
				       * another generation may be stale */
	struct snapshot *cur_snap;    /* during a tick, for the visit callback */
	double tick_now;
	double prev_mono, prev_self;
	unsigned seq;
	int *node_ids;                /* [nnodes]: topo->nodes[i].id */
	struct why_state *why;        /* sampler_why.c */
	struct thr_state *thr;        /* sampler_thr.c */
	struct kernel_state *kernel;  /* sampler_kernel.c */
	struct access_state *access;  /* sampler_access.c, NULL: off */
	enum sampler_cgroups cg_mode;
	struct cgroup_pidmap *cgmap;
	const char **cg_paths;        /* [cg_pathcap] scratch */
	size_t *cg_order;             /* [cg_pathcap] processes by PID */
	size_t cg_pathcap;
	/* Warm-up (sampler_warm.c): on until every process has a result or
	 * WARMUP_MAX_S of reads were spent on it. */
	struct strpool *pol;          /* the policies' text, each kept once */
	bool warm;
	double warm_spent;
	size_t *warm_order;
	size_t warm_cap;
};

/* sampler_warm.c */
#define WARMUP_TICK_S 0.1     /* a tick's own budget while warming up */
#define WARMUP_MAX_S 5.0      /* reads spent on the warm-up, at most */
void sampler_warm_count(struct sampler *s, struct snapshot *snap);

/* sampler_nm.c */
/* The cheap part of process i (CPU%, HOME, its cache entry) and what the
 * scheduler needs to know of it. */
void sampler_prepare_proc(struct sampler *s, struct snapshot *snap, size_t i);
/* The exact read (numa_maps) and the sampled estimate of one process. */
void sampler_read_numa_maps(struct sampler *s, struct snap_proc *sp);
void sampler_read_sampled(struct sampler *s, struct snap_proc *sp, const struct nm_cache *e);
/* After the reads: kept results, REMOTE, and this tick's cache entry. */
void sampler_finish_proc(struct sampler *s, struct snapshot *snap, size_t i);
/* The cache made to match the list (sorted by PID): entry i for process
 * i, kept where PID and start time match, new otherwise. */
int sampler_align_cache(struct sampler *s, const struct proc_list *pl);
/* Process i's entry from the last tick, or NULL (new). */
const struct nm_cache *sampler_prev(const struct sampler *s, size_t i);
/* The kB arrays of cache entry c. */
int64_t *sampler_cache_kb(const struct sampler *s, const struct nm_cache *c);
/* A fresh result of sp into its cache entry c (kb: c's arrays). */
void sampler_keep_result(struct sampler *s, struct snap_proc *sp, struct nm_cache *c,
			 int64_t *kb, double cost, int64_t cost_rss);
/* REMOTE of sp from its placement and HOME. */
void sampler_set_remote(struct snap_proc *sp);
/* sampler_why.c: each process's remote cause (snap_proc.why, snap->why) */
int sampler_why(struct sampler *s, struct snapshot *snap);
void sampler_why_free(struct sampler *s);
/* sampler_thr.c: each listed thread's CPU ticks since the previous tick
 * (proc_thread.ran) from the ticks kept of that tick (pl: this tick's
 * list, the cache aligned to it); 0 or -ENOMEM. */
int sampler_thread_rates(struct sampler *s, struct proc_list *pl);
void sampler_thread_free(struct sampler *s);
/* sampler_kernel.c: NUMA balancing, tiers, /proc/PID/sched on a budget */
int sampler_kernel(struct sampler *s, struct snapshot *snap);
void sampler_kernel_free(struct sampler *s);
/* sampler_access.c: access heat (access.h) */
int sampler_access(struct sampler *s, struct snapshot *snap);
void sampler_access_free(struct sampler *s);
/* sampler_access_place.c: kB per node of each of pid's regions r[0..n)
 * into kb[n * nnodes] (hot and warm regions on the live machine, all -1
 * where not known; pages and status: ACCESS_SAMPLE_PAGES of scratch). */
struct damon_region;
void sampler_access_place(struct sampler *s, int pid, const struct damon_region *r, size_t n,
			  double aggr_s, int64_t *kb, void **pages, int *status);


#endif
