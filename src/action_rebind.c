/* action_rebind.c - sched_setaffinity for every thread of one process. */
#include "action_rebind.h"

#include <errno.h>
#include <stdbool.h>
#include <time.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tidset {
	int *v;
	size_t n, cap;
};

static bool tidset_has(const struct tidset *s, int tid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] == tid)
			return true;
	return false;
}

static int tidset_add(struct tidset *s, int tid)
{
	int *v = buf_grow_array(s->v, &s->cap, s->n + 1 < 64 ? 64 : s->n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->v = v;
	s->v[s->n++] = tid;
	return 0;
}

static void note_failure(struct rebind_result *res, int tid, int err)
{
	res->failed++;
	if (!res->first_error) {
		res->first_error = err;
		res->first_error_tid = tid;
	}
}

/* The thread's affinity is not (or no longer readably) the one wanted. */
static bool wrong_mask(int tid, const cpu_set_t *want, cpu_set_t *got, size_t sz)
{
	CPU_ZERO_S(sz, got);
	return sched_getaffinity(tid, sz, got) == 0 && !CPU_EQUAL_S(sz, want, got);
}

/* Set and read back one thread of the target. 0, 1 when the thread is
 * gone, -errno. A TID names a thread only while it lives: the thread's
 * /proc/PID/task/TID directory is opened first (which proves the TID is
 * one of PID's threads now) and looked into after the calls; a thread
 * still alive then was alive throughout, so the calls reached it and no
 * other task. One that died meanwhile counts as gone. */
static int set_one(const struct fsroot *r, int pid, int tid, cpu_set_t *want,
		   cpu_set_t *got, size_t sz)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task/%d", pid, tid);
	int dfd = fsroot_open_fd(r, path, O_DIRECTORY);
	if (dfd < 0)
		return dfd == -ENOENT || dfd == -ESRCH ? 1 : dfd;
	int rc = 0;
	if (sched_setaffinity(tid, sz, want) != 0) {
		rc = errno == ESRCH ? 1 : -errno;
	} else {
		CPU_ZERO_S(sz, got);
		if (sched_getaffinity(tid, sz, got) != 0)
			rc = errno == ESRCH ? 1 : -errno;
		else if (!CPU_EQUAL_S(sz, want, got))
			rc = -EINVAL;
	}
	if (rc <= 0 && faccessat(dfd, "stat", F_OK, 0) != 0)
		rc = 1;
	close(dfd);
	return rc;
}

int rebind_threads(const struct fsroot *r, const struct action_target *t,
		   const struct bitmap *cpus, struct rebind_result *res)
{
	memset(res, 0, sizeof(*res));
	int maxcpu = -1;
	for (int c = bitmap_next(cpus, 0); c >= 0; c = bitmap_next(cpus, c + 1))
		maxcpu = c;
	if (maxcpu < 0)
		return -EINVAL;
	size_t ncpu = (size_t)maxcpu + 1;
	cpu_set_t *want = CPU_ALLOC(ncpu), *got = CPU_ALLOC(ncpu);
	size_t sz = CPU_ALLOC_SIZE(ncpu);
	struct tidset done = { 0 }, failed = { 0 };   /* seen; of them, refused */
	int rc = want && got ? 0 : -ENOMEM;
	if (rc == 0) {
		CPU_ZERO_S(sz, want);
		for (int c = bitmap_next(cpus, 0); c >= 0; c = bitmap_next(cpus, c + 1))
			CPU_SET_S((size_t)c, sz, want);
	}
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/task", t->pid);
	/* New threads inherit the creator's affinity; a thread created from
	 * one not yet rebound shows up in the next pass. Passes go on until
	 * four in a row, 1, 2 and 4 ms apart, find no new thread and no thread
	 * with the old mask (a clone that copied its creator's old affinity
	 * just as the creator was rebound appears in the task list only when
	 * it is attached, which on a loaded machine can be milliseconds
	 * later: two passes a yield apart missed it under ASan); a process that keeps
	 * creating threads faster than that is reported (-EAGAIN), not
	 * silently half done. */
	enum { REBIND_QUIET_PASSES = 4 };   /* quiet for 1 + 2 + 4 ms */
	int pass = 0, quiet = 0;
	for (; rc == 0; pass++) {
		if (pass == REBIND_MAX_PASSES) {
			rc = -EAGAIN;
			break;
		}
		if ((rc = action_target_alive(t)) != 0)
			break;
		int *tids = NULL;
		size_t n = 0;
		rc = fsroot_list_ids(r, dir, "", FSROOT_DIRS, &tids, &n);
		if (rc) {
			rc = rc == -ENOENT ? -ESRCH : rc;
			free(tids);
			break;
		}
		size_t fresh = 0;
		for (size_t i = 0; i < n && rc == 0; i++) {
			/* A thread seen before is done unless it shows the old
			 * mask again (a clone that copied its creator's mask
			 * before the creator was rebound, under a TID reused). */
			if (tidset_has(&done, tids[i]) &&
			    (tidset_has(&failed, tids[i]) || !wrong_mask(tids[i], want, got, sz)))
				continue;
			fresh++;
			if ((rc = action_target_alive(t)) != 0)
				break;
			bool seen = tidset_has(&done, tids[i]);
			int e = set_one(r, t->pid, tids[i], want, got, sz);
			if (e < 0) {
				note_failure(res, tids[i], -e);
				rc = tidset_add(&failed, tids[i]);
			} else if (e == 0 && !seen) {
				res->changed++;
			}
			if (rc == 0 && !seen)
				rc = tidset_add(&done, tids[i]);
		}
		free(tids);
		quiet = fresh ? 0 : quiet + 1;
		if (quiet == REBIND_QUIET_PASSES)
			break;
		/* Between quiet passes, time for a clone in flight (its mask
		 * copied, not yet in the task list) to show: a yield is not
		 * enough on a loaded machine. */
		if (!fresh) {
			struct timespec ts = { 0, 1000000L << (quiet - 1) };   /* 1, 2, 4 ms */
			nanosleep(&ts, NULL);
		}
	}
	res->nthreads = done.n;
	CPU_FREE(want);
	CPU_FREE(got);
	free(done.v);
	free(failed.v);
	if (rc)
		return rc;
	return res->first_error ? -res->first_error : 0;
}
