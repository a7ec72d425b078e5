/* sampler.h - one refresh: read nodes, CPUs and processes into a snapshot. */
#ifndef NUMATOP_SAMPLER_H
#define NUMATOP_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>

#include "fsroot.h"
#include "nmsched.h"
#include "placement.h"
#include "proc.h"
#include "snapshot.h"
#include "topology.h"

struct sampler_filter {
	const int *pids;        /* only these PIDs (npids > 0) */
	size_t npids;
	const char *user;       /* only this user (name or uid), or NULL */
	bool kernel_threads;    /* keep kernel threads (hidden by default,
				 * unless named in pids); the hidden ones are
				 * counted in snapshot.kthreads_hidden */
};

struct sampler;

/* The sampler keeps a pointer to r and t: both must outlive it. */
int sampler_new(const struct fsroot *r, const struct topology *t,
		enum proc_backend be, struct sampler **out);
void sampler_free(struct sampler *s);
void sampler_set_filter(struct sampler *s, const struct sampler_filter *f);
/* Whether f keeps process p (the one filter of the live sampler and of a
 * replayed recording): false also sets *kthread_hidden when p is left
 * out only for being a kernel thread (counted in kthreads_hidden). */
bool sampler_filter_keeps(const struct sampler_filter *f, const struct proc_info *p,
			  bool *kthread_hidden);

/* The numa_maps budget (see nmsched.h). Default: 20 ms per tick, big
 * processes every 10 s, sampled placement on the live root. */
void sampler_set_budget(struct sampler *s, const struct nmsched_config *c);
/* Processes read every tick (selected, tagged); copied. */
int sampler_set_priority(struct sampler *s, const int *pids, size_t n);
/* Tests: a fake monotonic clock, and a fake move_pages for the sampled
 * reads (which then work on recorded trees too). Either one sets the
 * warm-up's threads to none (what a test passes need not be
 * thread-safe); sampler_set_warm_threads after it calls them from the
 * warm-up's threads too. */
void sampler_set_clock(struct sampler *s, double (*now)(void *ctx), void *ctx);
void sampler_set_placement_ops(struct sampler *s, const struct placement_ops *ops);
/* The warm-up's readers beside the calling thread (see sampler_warmup),
 * at most 3; default: one per CPU the process may run on but one. */
void sampler_set_warm_threads(struct sampler *s, unsigned n);

/* Cgroups: off (default), each process's cgroup path (cached, re-read
 * every 10 s), or that and every cgroup's numa_stat and cpuset. */
enum sampler_cgroups { SAMPLER_CG_OFF, SAMPLER_CG_PROCS, SAMPLER_CG_ALL };
void sampler_set_cgroups(struct sampler *s, enum sampler_cgroups mode);

/* Access heat (access.h): off (default), or on: on the live machine
 * our kdamond watches the processes when DAMON is free (stopped and
 * removed by sampler_free), on a recorded tree its kdamonds results are
 * read. 0 or -ENOMEM. */
/* WATCH: on, for a one-off watch of a few seconds (--hot, --cold): the
 * kdamond samples and aggregates every DAMON_SAMPLE_WATCH_US and
 * DAMON_AGGR_WATCH_US instead of DAMON_SAMPLE_US and DAMON_AGGR_US. */
enum sampler_access { SAMPLER_ACCESS_OFF, SAMPLER_ACCESS_ON, SAMPLER_ACCESS_WATCH };
int sampler_set_access(struct sampler *s, enum sampler_access mode);
/* From a signal handler: stop what the source started (our kdamond). */
void sampler_access_stop_signal(struct sampler *s);
/* The heat's source (access_source.h), before the first tick that reads
 * heat: DAMON unless set. 0, -EBUSY (opened already) or -ENOMEM. */
struct access_source_ops;
int sampler_set_access_source(struct sampler *s, const struct access_source_ops *ops);

/* Take one sample into snap (its buffers are reused). 0 or -errno; a
 * failing process scan is reported in snap->proc_rc, not as an error. */
int sampler_tick(struct sampler *s, struct snapshot *snap);

/* The warm-up: from the first tick until every process's placement has
 * been read once (exact, or sampled where move_pages works), or until it
 * has spent WARMUP_MAX_S (5 s) of reads, never-read processes go first,
 * largest first, on a tick budget of at least 100 ms. Between ticks, a
 * front end calls sampler_warmup to read more of the current snapshot's
 * never-read processes for up to budget_s seconds, on threads of its own
 * beside the caller's (sampler_set_warm_threads: the reads are mostly
 * the kernel's work, which then runs on more CPUs); their results are in
 * snap at once (REMOTE included) and kept for the next tick. Returns how
 * many are still unread (0: done, or no warm-up) or -errno. snap may be
 * sorted since the tick. */
int sampler_warmup(struct sampler *s, struct snapshot *snap, double budget_s);
bool sampler_warming(const struct sampler *s);

/* The work of a process's threads per node (w[t->nnodes], by the node of
 * each thread's last CPU): what each thread ran since the previous sample
 * (proc_thread.ran: ns, or CPU ticks where run times are not known), so
 * that an idle thread weighs nothing and one that ran at all lately
 * counts (sampler_thr.c); one per thread when those are not known (the
 * process's first sample, when no rate is known yet) or when none of its
 * threads ran (nothing to weigh by). Threads on no known node weigh
 * nothing. Returns true when weighed by what they ran. */
bool sampler_thread_work(const struct topology *t, const struct proc_thread *thr,
			 size_t n, size_t *w);
/* HOME: the node where its threads worked most (sampler_thread_work);
 * the main thread's node wins a tie; prev_home (index, -1 none) stays
 * while its work is at least half the busiest node's. w is scratch of
 * t->nnodes entries. Returns a node index or -1. Exposed for tests. */
int sampler_home_node(const struct topology *t, const struct proc_thread *thr,
		      size_t n, int main_tid, size_t *w, int prev_home);

#endif
