/* proc.h - the process list: one interface, two backends.
 *
 * Live mode (root "/"): libproc2's pids API discovers each new process
 * (its identity and user); from then on the per-tick numbers come from
 * kept-open descriptors: the process's schedstat says whether it ran
 * since its stat was last read, its stat is read (pread) when it did, and
 * the effective uid comes from fstat() of its kept /proc/PID directory
 * (proc_live*.c). A recorded tree (or a forced file backend)
 * fills the same struct from proc/PID/{stat,status,cmdline} through the
 * rooted layer. Per-thread last CPUs come from proc/PID/task/TID/stat. */
#ifndef NUMATOP_PROC_H
#define NUMATOP_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "fsroot.h"

struct proc_thread {
	int tid;
	int last_cpu;           /* -1 unknown */
	int64_t ticks;          /* its utime + stime (clock ticks), -1 unknown */
	/* Its run time in ns (task/TID/schedstat's first number: exact,
	 * where ticks miss a thread that wakes briefly), -1 unknown. */
	int64_t run_ns;
	/* What it ran since the sampler's previous sample (set by the
	 * sampler, sampler_thread_rates): ns when every thread of the
	 * process has its run time, else CPU ticks; -1 unknown (a new
	 * process, or its numbers unknown). A thread that ran at all lately
	 * is never 0 (sampler_thr.c). */
	int64_t ran;
};
/* A thread's (or a process's) utime + stime as proc_thread.ticks. */
int64_t proc_ticks(uint64_t utime, uint64_t stime);
/* A thread count for proc_info.nthreads: -1 unknown (negative), saturated
 * at INT32_MAX (the kernel allows a few million; more is a hostile file). */
int32_t proc_nthreads(int64_t n);

struct proc_info {
	int pid, ppid;
	/* Strings are never NULL. They are owned by the source (live) or
	 * the list's string store (proc_list_strdup), and stay valid until
	 * the next scan into the same list. */
	const char *comm;       /* raw bytes: sanitize before printing */
	const char *cmdline;    /* raw, NULs turned into spaces, may be "" */
	int64_t uid;            /* effective uid, -1 unknown */
	const char *user;       /* name, or the uid as digits */
	uint64_t utime, stime;  /* clock ticks */
	uint64_t starttime;     /* clock ticks since boot: with pid, identity */
	uint64_t faults;        /* minor + major page faults */
	int64_t rss_kb;         /* -1 unknown */
	/* The small fields together (10 000 processes are 10 000 of these). */
	int32_t nthreads;       /* -1 unknown */
	int last_cpu;           /* -1 unknown */
	uint32_t thr_off, thr_n; /* into proc_list.threads */
	char state;
	bool kthread;           /* a kernel thread (PF_KTHREAD) */
};

/* Strings kept for a list, in blocks (pointers stay valid as it grows). */
struct proc_strings {
	char **blocks;
	size_t nblocks, used;   /* used: bytes of the last block */
};

struct proc_list {
	/* n elements of elem bytes (0: sizeof(struct proc_info)), each
	 * beginning with a proc_info: a sampler scans straight into its
	 * snapshot's processes (struct snap_proc), no copy. Index with
	 * proc_list_at unless elem is 0. The list is in PID order after a
	 * scan; when it is still in PID order at the next one, the element
	 * of a process listed both times keeps its bytes (moved to its new
	 * index): the caller's own per-process state past the proc_info
	 * moves with it (the sampler's slot in its own array,
	 * snap_proc.kept_slot), and the live backend's kept numbers are
	 * the proc_info itself. A new process's element is zeroed, and so
	 * are the caller's bytes of a PID that is now another process
	 * (another start time). */
	struct proc_info *v;
	size_t n, cap;
	size_t elem;
	/* Set by the caller (NULL: every process): whether a process goes
	 * in the list, asked once its proc_info is filled. The backend keeps
	 * what it needs of those left out itself. */
	bool (*keep)(void *ctx, const struct proc_info *p);
	void *keep_ctx;
	/* The source that filled the list last, and its scan: a live source
	 * trusts a kept element's proc_info (its numbers for a process that
	 * did not run since) only in the list it filled last. */
	const void *filled_by;
	uint64_t filled_seq;
	struct proc_thread *threads;
	size_t nthr, thrcap;
	struct proc_strings strs;
	/* PIDs whose stat was there but could not be parsed (a recorded
	 * tree's broken file): skipped, and said (snapshot_proc_warning). */
	size_t nbad;
	int first_bad;
	/* Entries whose stat could not be read for another reason than the
	 * process's exit (EACCES, a broken tree): left out, and said. */
	size_t nunread;
	int first_unread, unread_errno;
};

/* LIVE: libproc2 discovery and kept descriptors (proc_live*.c); FILES:
 * every file by path through the rooted layer (recorded trees). */
enum proc_backend { PROC_BACKEND_AUTO, PROC_BACKEND_LIVE, PROC_BACKEND_FILES };

struct proc_source;

/* AUTO = live on the live root, files otherwise. LIVE on a non-live root
 * is -EINVAL. */
int proc_source_open(const struct fsroot *r, enum proc_backend be,
		     struct proc_source **out);
void proc_source_close(struct proc_source *s);
enum proc_backend proc_source_backend(const struct proc_source *s);

/* Refill list (buffers reused; elements kept as said at proc_list).
 * Processes that vanish while being read are left out. 0 or -errno (no
 * /proc at all: -ENOENT; the list is then empty). */
int proc_source_scan(struct proc_source *s, struct proc_list *list);

void proc_list_free(struct proc_list *l);
static inline struct proc_info *proc_list_at(const struct proc_list *l, size_t i)
{
	return (struct proc_info *)((char *)l->v + i * (l->elem ? l->elem : sizeof(struct proc_info)));
}
/* A copy of s[0..n) in the list's string store (NUL added), or NULL when
 * out of memory. The store is emptied by proc_list_clear_strings and by
 * every scan into the list. */
const char *proc_list_strdup(struct proc_list *l, const char *s, size_t n);
void proc_list_clear_strings(struct proc_list *l);

/* The threads of p with their last CPUs and CPU ticks into l (only read when it has
 * more than one thread; else its last CPU is its own). The live backend
 * keeps each process's threads and reads them again only when the
 * process used CPU time since (an idle thread cannot have moved) or at
 * least every PROC_THREADS_MAX_AGE_S seconds. */
#define PROC_THREADS_MAX_AGE_S 10.0
int proc_source_threads(struct proc_source *s, struct proc_list *l,
			struct proc_info *p, struct buf *scratch);
/* Whether a process's kept threads can stand for this tick: same CPU
 * time and thread count as when they were read, and read less than
 * max_age seconds ago. Pure, for tests. */
bool proc_threads_still(uint64_t ticks_then, int64_t nthr_then, double read_at,
			uint64_t ticks_now, int64_t nthr_now, double now, double max_age);

/* A file of p's /proc/PID opened through the live backend's kept
 * directory: the same process for sure (a reused PID gives an error, not
 * another process's file), and no path lookup. A descriptor, -EOPNOTSUPP
 * when there is no kept directory (a recorded tree, a process read by
 * path: open it by path), or -errno. */
int proc_source_openat(struct proc_source *s, const struct proc_info *p, const char *name);

/* Whether a process's kept stat numbers can stand for this tick (the live
 * backend's schedstat gate): single-threaded, not last seen running, the
 * same schedstat run time (ns) as before that stat read, read less than
 * max_age ago (read_at, now and max_age in one unit). Pure, for tests. */
bool proc_stat_still(uint64_t runtime_then, uint64_t runtime_now, int64_t nthreads,
		     char state, double read_at, double now, double max_age);

/* What the live backend did in its last scan (tests). */
struct proc_scan_stats {
	size_t kept_fd, by_path;      /* processes read by kept descriptor / path */
	size_t stat_read, stat_kept;  /* stat read / kept (did not run: schedstat) */
	size_t thr_read, thr_kept;    /* processes whose threads were read / kept */
};
void proc_source_stats(const struct proc_source *s, struct proc_scan_stats *out);

/* The element with this pid in an array sorted by PID whose elements
 * begin with `int pid`, or NULL. */
const void *proc_find_pid(const void *base, size_t n, size_t size, int pid);
/* The same, for a growable array (*base, *n, *cap): the element with pid,
 * or a new zeroed one inserted in order (*added true, its pid set); NULL
 * when out of memory. Pointers into the array are void after an insert. */
void *proc_slot_pid(void **base, size_t *n, size_t *cap, size_t size, int pid, bool *added);

struct pid_stat;
/* /proc/PID/stat of pid, parsed. 0, -ESRCH when it is gone (or the file
 * is not a process's), other -errno. */
/* Whether -u USER names a user: a uid, or a name in the passwd database
 * (live) or the tree's etc/passwd. 1 or 0. */
int proc_user_known(const struct fsroot *r, const char *user);
int proc_read_stat(const struct fsroot *r, int pid, struct pid_stat *st);

/* Read proc/PID/task/TID/stat for every thread of p through the rooted
 * layer (only when it has more than one thread; else its last CPU is its
 * own). */
int proc_read_threads(const struct fsroot *r, struct proc_list *l,
		      struct proc_info *p, struct buf *scratch);

#endif
