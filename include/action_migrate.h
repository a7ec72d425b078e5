/* action_migrate.h - move a process's memory to one node in small batches of
 * move_pages(2), so a large process is never stalled for long and the
 * caller can show progress and cancel between batches.
 *
 * migrate_prepare() reads numa_maps (per-node placement, the preview) and
 * maps (the end of each mapping); migrate_step() then walks the mappings
 * that have pages off the target node: pagemap says which pages are
 * present (and which are page cache), a move_pages query says where they
 * are, and only pages off the target are moved. */
#ifndef NUMATOP_ACTION_MIGRATE_H
#define NUMATOP_ACTION_MIGRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "action.h"
#include "fsroot.h"
#include "topology.h"

/* Why pages did not move (per-page status from move_pages). */
enum migrate_reason {
	MIG_SHARED,     /* -EACCES: mapped by several processes, needs MOVE_ALL */
	MIG_BUSY,       /* -EBUSY: pinned, under I/O */
	MIG_NOMEM,      /* -ENOMEM: target node full */
	MIG_OTHER,      /* any other error, or still on another node */
	MIG_NREASONS
};
extern const char *const migrate_reason_text[MIG_NREASONS];

/* The kernel calls, replaceable by tests (a fake kernel). */
struct migrate_ops {
	/* move_pages(2): >= 0 or -errno. nodes NULL = query. */
	long (*move_pages)(void *ctx, int pid, unsigned long count, void **pages,
			   const int *nodes, int *status, int flags);
	/* n pagemap entries starting at virtual page index first: the
	 * number read or -errno (-ENOENT: no pagemap, treat all present). */
	ssize_t (*pagemap)(void *ctx, uint64_t *out, size_t n, uint64_t first);
	/* 0 while the target is alive, -ESRCH after it exited. */
	int (*alive)(void *ctx);
	void *ctx;
	/* After a call failed or came back short while alive() said 0:
	 * -ESRCH when the target is exiting (its memory gone before its exit
	 * shows: move_pages says EINVAL, pagemap reads nothing),
	 * -ACTION_EEXEC when it runs another program, else 0 (the error is
	 * the call's own). NULL: 0. action_target_recheck. */
	int (*recheck)(void *ctx);
};

struct migrate_range {
	uint64_t start, end;    /* [start, end) */
	bool file;              /* file-backed: only private (COW) pages move */
};

/* Preview, in kB, from numa_maps. Arrays are [nnodes] (node indexes). */
struct migrate_preview {
	size_t nnodes;
	int64_t *node_kb;       /* all pages per node now */
	int64_t total_kb;
	int64_t move_kb;        /* anonymous pages off the target: will move */
	int64_t shared_kb;      /* ... of which in mappings shared with others
	                         * (mapmax > 1): move only with CAP_SYS_NICE */
	int64_t file_anon_kb;   /* private copies in file mappings: will move */
	int64_t file_kb;        /* page cache pages: stay */
	int64_t huge_kb;        /* hugetlb pages: stay */
	int64_t on_target_kb;   /* already on the target node */
	char policy[64];        /* the process's memory policy (summary) */
};

struct migrate_job {
	int pid;
	int to_node;            /* node id */
	long pagesize;
	struct migrate_range *ranges;
	size_t nranges;
	uint64_t total_pages;   /* virtual pages to walk (progress) */
	struct migrate_preview pv;
	/* progress */
	size_t cur;
	uint64_t addr, scanned;
	uint64_t moved, already, absent, failed[MIG_NREASONS];
	/* The walked pages per node index as the kernel answered: where they
	 * were before the walk moved them (its query) and where they are
	 * after (its query after the move); pages not present count in
	 * neither. [pv.nnodes] */
	uint64_t *walk_before, *walk_after;
	int *index_of_id;       /* node id -> index, [id_max + 1], -1 none */
	int id_max;
	int last_error;         /* first per-page error seen (positive errno) */
	bool move_all;          /* MPOL_MF_MOVE_ALL still allowed */
	double t_start, t_end;  /* monotonic seconds of the first/last step */
	struct migrate_ops ops;
	int pagemap_fd;
	size_t bcap;
	void **pages;
	int *nodes, *status;
	uint64_t *pm;
	struct action_target *target;
	const struct fsroot *root;
};

/* Build the plan and the preview for moving target's memory to node id
 * to_node. Uses the real kernel calls (ops may be replaced afterwards).
 * 0, -ESRCH (gone), -EACCES, -EINVAL (node has no memory), -ENOMEM. */
int migrate_prepare(const struct fsroot *r, const struct topology *t,
		    struct action_target *target, int to_node,
		    struct migrate_job *j);
/* Only these address ranges of the plan (migrate hot): the plan's ranges
 * cut to them (whole pages), the walk reset. Before the first step. 0 or
 * -ENOMEM. */
int migrate_restrict(struct migrate_job *j, const struct migrate_range *only, size_t n);
/* The ranges of a process's heat (access.h) to migrate: hot (cold false)
 * its hot regions; cold, everything outside its hot and warm regions.
 * *out (free it) and *n; 0, -ENOMEM, or -E2BIG for cold when its regions
 * were cut at ACCESS_MAX_REGIONS (the cold part cannot be told apart),
 * -ENODATA when its heat is not known (or cold not watched long enough:
 * monitored under ACCESS_COLD_S, or not seen), -EINPROGRESS while it is
 * measured, -ESTALE when it is stale (access_proc_trust: only usable
 * heat moves memory). */
struct access_proc;
int migrate_heat_ranges(const struct access_proc *a, bool cold, struct migrate_range **out,
			size_t *n);
/* The one-off watch of migrate hot / cold (the command line's --hot,
 * --cold): a sample a second, the whole watch (from t0, before its
 * session opened) within limit_s seconds by the monotonic clock, not a
 * count of sleeps (a sample takes time too). After a sample that began
 * at `start` and lasted tick_s: when the next one begins (start + 1 s,
 * or now if that is past), or -1 when it would not end within the limit
 * (a sample may take up to twice as long as the last). */
double migrate_watch_next(double t0, double limit_s, double start, double tick_s, double now);
/* One batch of at most max_pages virtual pages. 1: more to do, 0: done,
 * -errno: stopped (-ESRCH exited, also when it exits during a call or
 * its exit made the call fail; -ACTION_EEXEC it ran another program;
 * -EPERM not allowed; -EACCES node outside its cpuset). */
int migrate_step(struct migrate_job *j, size_t max_pages);
/* 0.0 .. 1.0 of the walk done. */
double migrate_progress(const struct migrate_job *j);
/* MB/s (10^6 bytes) of pages moved so far, 0 before the first step. */
double migrate_rate(const struct migrate_job *j);
uint64_t migrate_not_moved(const struct migrate_job *j);
void migrate_free(struct migrate_job *j);

/* Per-node kB of the locked target now (numa_maps) into kb[nnodes], and
 * its policy summary into policy[n] (may be NULL), read only while it is
 * that process (alive before the read, and neither exiting nor another
 * program after it: action_target_recheck): never another process's
 * numbers, nor the empty ones of a process whose memory is gone. 0 or
 * -errno (-ESRCH: it exited or is exiting, -ACTION_EEXEC). */
int migrate_read_target_placement(const struct fsroot *r, const struct topology *t,
				  struct action_target *tg, int64_t *kb,
				  char *policy, size_t n);

/* A step's error with its fix: like action_strerror, but a whole-call
 * EACCES from move_pages is the target's cpuset refusing the node. */
const char *migrate_strerror(int err, int to_node, char *buf, size_t n);
/* "1 busy (...), 3 no free memory on ..." for the pages that did not
 * move; empty when all moved. Returns the length. */
size_t migrate_format_not_moved(const struct migrate_job *j, char *buf, size_t n);
/* What stays after the action, said plainly: the process's own memory
 * policy decides its future allocations. */
void migrate_format_policy_note(const char *policy, bool rebound, char *buf, size_t n);

#endif
