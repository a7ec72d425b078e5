/* sampler_int.h - the sampler's state, shared by its tick (sampler.c) and
 * its per-process numa_maps reads and kept state (sampler_nm.c). Not a public
 * header: the model is in sampler.h and snapshot.h. */
#ifndef NUMATOP_SAMPLER_INT_H
#define NUMATOP_SAMPLER_INT_H

#include <pthread.h>

#include "numa_maps.h"
#include "sampler.h"
#include "strpool.h"

/* What the sampler keeps of a process from one tick to the next. 56
 * bytes: the generation and the flags share a word. */
#define KEPT_GEN_MASK 0x3fffffffu
struct sampler_kept {
	uint64_t ticks;               /* utime + stime at the previous tick */
	int64_t rss_prev;             /* RSS then */
	/* The last placement result (the record's nm fields and kB row) and
	 * what it was read under. */
	double read_at;               /* monotonic seconds */
	int64_t cost_rss;             /* RSS when cost was measured */
	int64_t rss_at;               /* RSS and faults at the read */
	uint64_t faults_at;
	float cost;                   /* seconds of the read, -1 unknown */
	uint32_t vm_gen : 30;         /* the migration generation then
				       * (& KEPT_GEN_MASK) */
	uint32_t valid : 1;           /* seen at the previous tick */
	uint32_t have : 1;            /* a result (the fields above are valid) */
};

/* The sampler's own records of the processes: entry i and kB row i
 * (NM_KB_ARRAYS x nnodes: the last result's kB arrays) for the
 * snapshot's record i after each tick. A record finds its entry of the
 * last tick by snap_proc.kept_slot, which the process list carried with
 * it (sampler_align_kept). */
struct kept_rows {
	struct sampler_kept *v;
	int64_t *kb;
	size_t n, cap, kbcap;         /* entries; cap and kbcap: allocated */
};

/* What one thread's placement reads use: the sampler's own scratch for
 * the thread that ticks (sampler.rd), a warm-up reader's its own
 * (sampler_warm.c). pool_lock: held around the policies' pool while
 * readers share it, NULL for one thread. */
struct nm_reader {
	struct buf *nmbuf;
	struct nm_mapping *map;
	struct nm_summary *sum;
	struct placement_scratch *psc;
	pthread_mutex_t *pool_lock;
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
	struct nm_reader rd;          /* nmbuf, map, sum and psc, for this thread */
	struct cpu_ticks *ticks[2];   /* [ncpu_ids], previous and current */
	struct cpu_ticks total[2];
	int cur;
	struct numastat *prev_ns;     /* [nnodes] */
	size_t *node_counts;          /* [nnodes], scratch for HOME */
	/* What is kept of each process between ticks, aligned with the
	 * records of the snapshot this sampler ticked last (kept_seq its
	 * tick count). */
	struct kept_rows kept;
	uint64_t kept_seq;
	bool kept_ok;                 /* the last tick's records are whole */
	size_t kt_hidden;             /* kernel threads the scan left out */
	struct nmsched_config cfg;
	struct nmsched_proc *sched;
	uint32_t *order;              /* 32-bit: 10 000 processes are 10 000 */
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
	uint32_t *warm_order;
	size_t warm_cap;
	unsigned warm_threads;        /* readers beside this thread's */
};

/* sampler_warm.c */
#define WARMUP_TICK_S 0.1     /* a tick's own budget while warming up */
#define WARMUP_MAX_S 5.0      /* reads spent on the warm-up, at most */
#define WARMUP_THREADS_MAX 3  /* readers beside the caller's, at most */
void sampler_warm_count(struct sampler *s, struct snapshot *snap);
/* Readers for the warm-up beside the caller's: the CPUs this process may
 * run on but one, at most WARMUP_THREADS_MAX. */
unsigned sampler_warm_threads_default(void);

/* sampler_nm.c */
/* The entries and kB rows kept from the last tick moved to their
 * records' new indexes (snap_proc.kept_slot), a new process's made
 * afresh: after the scan and filter, before anything reads them. */
int sampler_align_kept(struct sampler *s, struct snapshot *snap);
/* The kB arrays of row i. */
int64_t *sampler_kb_row(const struct sampler *s, size_t i);
/* What is kept of the snapshot's record i (after sampler_align_kept). */
static inline struct sampler_kept *sampler_kept_at(const struct sampler *s, size_t i)
{
	return &s->kept.v[i];
}
/* The cheap part of process i (CPU%, HOME, its kept result) and what the
 * scheduler needs to know of it; old: its record as the last tick left
 * it. */
void sampler_prepare_proc(struct sampler *s, struct snapshot *snap, size_t i,
			  const struct snap_proc *old);
/* A record's placement result (its nm fields; the kB are in its row)
 * back from the record the last tick left: the fields a read resets. */
void sampler_result_restore(struct snap_proc *sp, const struct snap_proc *old);
/* The exact read (numa_maps) and the sampled estimate of one process:
 * its last result replaced. */
/* rd: the calling thread's scratch; the sampler itself is only read. */
void sampler_read_numa_maps(const struct sampler *s, const struct nm_reader *rd,
			    struct snap_proc *sp);
void sampler_read_sampled(const struct sampler *s, const struct nm_reader *rd,
			  struct snap_proc *sp, const struct sampler_kept *k);
/* After the reads: kept results' age, REMOTE, and what is kept for the
 * next tick. */
void sampler_finish_proc(struct sampler *s, struct snapshot *snap, size_t i);
/* A fresh result of sp kept in k: when, at what cost. */
void sampler_keep_result(const struct sampler *s, struct snap_proc *sp, struct sampler_kept *k,
			 double cost, int64_t cost_rss);
/* REMOTE of sp from its placement and HOME. */
void sampler_set_remote(struct snap_proc *sp);
/* sampler_why.c: each process's remote cause (snap_proc.why, snap->why) */
int sampler_why(struct sampler *s, struct snapshot *snap);
void sampler_why_free(struct sampler *s);
/* sampler_thr.c: each listed thread's CPU ticks since the previous tick
 * (proc_thread.ran) from the ticks kept of that tick (pl: this tick's
 * list, the kept entries aligned with it); 0 or -ENOMEM. */
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
void sampler_access_place(struct sampler *s, int pid, const struct access_range *r, size_t n,
			  double aggr_s, int64_t *kb, void **pages, int *status);


#endif
