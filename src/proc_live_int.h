/* proc_live_int.h - internal to the live backend: the scan (proc_live.c),
 * one process's per-tick read (proc_live_rec.c) and its threads
 * (proc_live_thr.c). */
#ifndef NUMATOP_PROC_LIVE_INT_H
#define NUMATOP_PROC_LIVE_INT_H

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>

#include "parse.h"
#include "proc_int.h"

/* Descriptors left for everything else (numa_maps, cgroups, sockets). */
#define LIVE_FD_RESERVE 256
/* The effective uid of a process whose stat is read (it ran, or its stat
 * refresh is due) is checked again at least this often. */
#define LIVE_UID_RECHECK_S 10
/* The stat of a process that did not run (its schedstat run time is the
 * same) is read again at least this often: only what another process or
 * the kernel can change without it running (RSS falling by reclaim) can
 * be older than one refresh. */
#define LIVE_STAT_REFRESH_S 30

/* What the last read of a process's stat said. A listed process's is
 * its list entry (proc_info); this copy is kept only for the processes
 * the list leaves out (proc_list.keep), and made for the logic. */
struct live_stat {
	uint64_t utime, stime, faults;  /* faults: minor + major */
	int64_t rss_pages;              /* -1 unknown */
	int ppid, processor;
	int nthreads;                   /* -1 unknown */
	char state;
	bool kthread;
};

struct live_proc {
	int pid;
	/* Kept descriptors, -1 none: the /proc/PID directory (none: read by
	 * path), its schedstat (opened for every process, read for the
	 * single-threaded ones), its stat (while the process runs, or is
	 * multi-threaded). */
	int dirfd, schedfd, statfd;
	uint64_t starttime;
	int64_t uid;                    /* -2: not yet known */
	char *names;                    /* owned: "comm\0cmdline\0", NULL none */
	uint64_t runtime;               /* schedstat ns before the last stat read */
	uint32_t stat_at, uid_at;       /* deciseconds since the source opened */
	struct live_stat *hidden;       /* owned: the last stat of a process
					 * the list left out, else NULL */
	struct thr_cache *thr;          /* multi-threaded processes only */
};

/* A multi-threaded process's threads as last read, and when. */
struct thr_cache {
	uint64_t ticks;                 /* the process's CPU time then */
	int64_t nthreads;
	double at;                      /* monotonic seconds */
	size_t n;
	struct proc_thread v[];
};

struct live_gen {
	struct live_proc *v;
	size_t n, cap;
};

struct live_user {
	int64_t uid;
	char *name;
};

/* What libproc2 said of a new process. */
struct live_found {
	int pid;
	uint64_t began;
	int64_t uid;
	const char *user;               /* in the user table */
};

struct pids_info;

struct live {
	const struct fsroot *root;
	struct pids_info *info;
	DIR *procdir;
	int procfd;
	struct live_gen recs;           /* by PID */
	struct live_gen newrecs;        /* a scan's new ones, merged into recs */
	struct live_user *users;
	size_t nusers, ucap;
	int *pids, *fresh;
	size_t pidcap, freshcap;
	struct live_found *found;
	size_t nfound, foundcap;
	size_t fd_limit, nfds;          /* descriptors this backend may keep / keeps */
	bool no_sched;                  /* no /proc/PID/schedstat: stat every tick */
	int loadavg_fd;                 /* /proc/loadavg, -1 none */
	char loadavg_key[64];           /* its "running/total last_pid" at the last listing */
	double t0, listed_at;
	long page_kb;
	/* PIDs that ended (or became zombies) in this scan: their children
	 * were given a new parent, so a child's kept stat is read again. */
	int *ended;
	size_t nended, endedcap;
	struct proc_scan_stats st;
	uint64_t seq;                   /* scans done (proc_list.filled_seq) */
};

int live_grow(void **v, size_t *cap, size_t need, size_t size);
/* The name of uid from the user table, added (from passwd, or digits)
 * when new; name: what libproc2 said, or NULL. NULL when out of memory. */
const char *live_user(struct live *lv, int64_t uid, const char *name);

/* Per process (proc_live_rec.c). */
int live_rec_open(struct live *lv, struct live_proc *r, int pid);
void live_rec_close(struct live *lv, struct live_proc *r);
/* A file of r's /proc/PID: through its kept directory, else by path
 * relative to /proc. A descriptor or -1 (errno). */
int live_rec_openat(const struct live *lv, const struct live_proc *r, const char *name,
		    int flags);
/* This tick's numbers of r into p: its stat read when it ran since the
 * last read (schedstat), or is due; else the kept numbers: p's own when
 * p was filled by the last scan (p->state set), else r->hidden. New
 * records (fresh) are read whole. -ESRCH: gone or its PID reused; other
 * -errno. */
int live_rec_tick(struct live *lv, struct live_proc *r, bool fresh, const struct live_found *fo,
		  struct proc_info *p);
/* r's stat read again now (its parent ended), into p. */
int live_rec_reread(struct live *lv, struct live_proc *r, struct proc_info *p);
/* p, filled, left out of the list: its numbers kept in r (or given back
 * when listed: hide false). */
void live_rec_hide(struct live *lv, struct live_proc *r, const struct proc_info *p, bool hide);

/* The backend's ops that live in the other files (proc_live_ops). */
int live_threads(void *state, struct proc_list *l, struct proc_info *p, struct buf *scratch);
int live_openat(void *state, const struct proc_info *p, const char *name);

#endif
