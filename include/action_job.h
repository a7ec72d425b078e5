/* action_job.h - the action engine: migrate and/or rebind one or more
 * processes to one node, as both the monitor and the command line run it.
 *
 *   actjob_add        a target by PID + start time (what the user saw)
 *   actjob_prepare    lock each target (pidfd) and plan: the preview
 *   actjob_start      on confirm: each target checked again, its threads
 *                     rebound, its plan made anew (a failed rebind stops
 *                     that process's migrate)
 *   actjob_step       one batch of move_pages: 1 more to do, 0 done (the
 *                     after is read while each target is still locked)
 *   actjob_summarize  what happened, summed over the targets
 *
 * The front ends only present: the kernel calls, the checks and the
 * arithmetic are here. */
#ifndef NUMATOP_ACTION_JOB_H
#define NUMATOP_ACTION_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "action.h"
#include "action_migrate.h"
#include "action_rebind.h"

struct actjob_item {
	struct action_target tg;
	struct migrate_job job;
	bool planned;            /* actjob_prepare ran for it */
	int prep_rc;             /* lock and plan (the preview) */
	int lock_rc;             /* the check on confirm, or the new plan */
	int rb_rc, mig_rc;       /* rebind; the migration walk */
	int after_rc;            /* reading the placement afterwards */
	struct rebind_result rb;
	int64_t *before, *after; /* [nnodes] kB */
	char policy[64];         /* memory policy summary (numa_maps) */
	char cpus_before[256], cpus_after[256];  /* rebind: Cpus_allowed_list, "?" */
	struct migrate_range *only;   /* migrate only these ranges (hot), or NULL */
	size_t nonly;
};

struct actjob {
	const struct fsroot *root;
	const struct topology *topo;
	bool migrate, rebind;    /* what actjob_start does */
	int node;                /* target node index */
	struct actjob_item *items;
	size_t n, cap, cur;
	uint64_t total_pages;    /* the walk of every planned item (progress) */
	bool running;            /* started, the walk not finished */
	bool cancelled, done;
};

void actjob_init(struct actjob *j, const struct fsroot *r, const struct topology *t);
int actjob_add(struct actjob *j, int pid, uint64_t starttime, const char *comm);
/* The same with all that t knows of its process (action_target_read: its
 * executable and memory image too, so that an exec since that read is
 * refused); not its pidfd. */
int actjob_add_target(struct actjob *j, const struct action_target *t);
void actjob_free(struct actjob *j);
/* Item i migrates only these address ranges (migrate hot); copied; r
 * NULL: all its memory again. 0 or -ENOMEM. */
int actjob_set_only(struct actjob *j, size_t i, const struct migrate_range *r, size_t n);

/* Plan every item for node index `node` (the preview). Per-item errors
 * are in prep_rc. */
void actjob_prepare(struct actjob *j, int node);
/* Lock each target not locked yet (lock_rc): the command line, which has
 * no preview, says who cannot be acted on before it starts. */
void actjob_lock(struct actjob *j);
/* Confirmed: check, rebind, plan anew (items never prepared are locked
 * now). With nothing to migrate the job is done at once. */
void actjob_start(struct actjob *j, int node);
/* One batch of at most max_pages for the current item: 1 while there is
 * more, 0 when the job is done (or was cancelled). */
int actjob_step(struct actjob *j, size_t max_pages);
/* Stop between batches: the next step finishes the job. */
void actjob_cancel(struct actjob *j);
/* Whether `node` can take what the job does (memory, threads). */
bool actjob_node_ok(const struct actjob *j, int node);
/* Where a dialog for process p starts: a migrate on p's HOME (memory
 * follows the threads), a rebind on the node holding most of its memory
 * (threads follow the memory); else the first node that can take it, or
 * -1 when none can. */
struct snap_proc;
int actjob_default_node(const struct actjob *j, const struct snap_proc *p);

/* kB per node summed over the items: the placement the plan saw (NOW),
 * or, when done, before and after over the items whose after was read
 * (one process that exited does not blank the others). Unknown: -1. */
/* ACTJOB_WALK_BEFORE/AFTER: only the pages the walk visited (with migrate
 * hot, the hot ranges), where the kernel said they were before it moved
 * them and are after; items whose walk did not run are left out, none: -1. */
enum actjob_when { ACTJOB_NOW, ACTJOB_BEFORE, ACTJOB_AFTER, ACTJOB_WALK_BEFORE,
		   ACTJOB_WALK_AFTER };
void actjob_sum_kb(const struct actjob *j, enum actjob_when w, int64_t *out);

struct actjob_summary {
	size_t planned;          /* items with a plan */
	struct migrate_preview pv;   /* their previews summed (kB fields) */
	uint64_t scanned, moved, failed[MIG_NREASONS];
	double mib;              /* moved by move_pages, MiB */
	double secs, rate_mbs;   /* first to last batch; MB/s over all */
	int64_t arrived_kb;      /* what numa_maps shows arrived, -1 unknown */
	size_t threads, set;     /* rebind */
	double progress;         /* 0 .. 1 of the walk */
};
void actjob_summarize(const struct actjob *j, struct actjob_summary *s);

/* The first error of one stage (0 plan, 1 check on confirm, 2 rebind, 3
 * the walk) with its fix; 1 found (its PID in *pid), 0 none. */
int actjob_first_error(const struct actjob *j, int stage, char *buf, size_t n, int *pid);

#endif
