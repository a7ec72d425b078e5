/* proc.h - the process list: one interface, two backends.
 *
 * Live mode (root "/") reads the list and per-process fields with
 * libproc2's pids API; a recorded tree (or a forced file backend) fills the
 * same struct from proc/PID/{stat,status,cmdline}. Per-thread last CPUs
 * come from proc/PID/task/TID/stat through the rooted layer in both. */
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
};

struct proc_info {
	int pid, ppid;
	char comm[64];          /* raw bytes: sanitize before printing */
	char cmdline[256];      /* raw, NULs turned into spaces, may be "" */
	int64_t uid;            /* effective uid, -1 unknown */
	char user[33];          /* name, or the uid as digits */
	char state;
	uint64_t utime, stime;  /* clock ticks */
	uint64_t starttime;     /* clock ticks since boot: with pid, identity */
	uint64_t minflt, majflt;
	int64_t rss_kb;         /* -1 unknown */
	int last_cpu;           /* -1 unknown */
	int64_t nthreads;       /* -1 unknown */
	bool kthread;           /* a kernel thread (PF_KTHREAD) */
	size_t thr_off, thr_n;  /* into proc_list.threads */
};

struct proc_list {
	struct proc_info *v;
	size_t n, cap;
	struct proc_thread *threads;
	size_t nthr, thrcap;
	/* PIDs whose stat was there but could not be parsed (a recorded
	 * tree's broken file): skipped, and said (snapshot_proc_warning). */
	size_t nbad;
	int first_bad;
	/* Entries whose stat could not be read for another reason than the
	 * process's exit (EACCES, a broken tree): left out, and said. */
	size_t nunread;
	int first_unread, unread_errno;
};

enum proc_backend { PROC_BACKEND_AUTO, PROC_BACKEND_LIBPROC2, PROC_BACKEND_FILES };

struct proc_source;

/* AUTO = libproc2 on the live root, files otherwise. libproc2 on a
 * non-live root is -EINVAL. */
int proc_source_open(const struct fsroot *r, enum proc_backend be,
		     struct proc_source **out);
void proc_source_close(struct proc_source *s);
enum proc_backend proc_source_backend(const struct proc_source *s);

/* Refill list (buffers reused). Processes that vanish while being read are
 * left out. 0 or -errno (no /proc at all: -ENOENT). */
int proc_source_scan(struct proc_source *s, struct proc_list *list);

void proc_list_free(struct proc_list *l);

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

/* Read proc/PID/task/TID/stat for every thread of p (only when it has
 * more than one thread; else its last CPU is its own). */
int proc_read_threads(const struct fsroot *r, struct proc_list *l,
		      struct proc_info *p, struct buf *scratch);

#endif
