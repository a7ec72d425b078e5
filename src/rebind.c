/* rebind.c - sched_setaffinity for every thread of one process. */
#include "rebind.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	if (s->n == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 64;
		int *n = realloc(s->v, nc * sizeof(int));
		if (!n)
			return -ENOMEM;
		s->v = n;
		s->cap = nc;
	}
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

/* Set and read back one thread. 0, 1 when the thread is gone, -errno. */
static int set_one(int tid, cpu_set_t *want, cpu_set_t *got, size_t sz)
{
	if (sched_setaffinity(tid, sz, want) != 0)
		return errno == ESRCH ? 1 : -errno;
	CPU_ZERO_S(sz, got);
	if (sched_getaffinity(tid, sz, got) != 0)
		return errno == ESRCH ? 1 : -errno;
	return CPU_EQUAL_S(sz, want, got) ? 0 : -EINVAL;
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
	struct tidset done = { 0 };
	int rc = want && got ? 0 : -ENOMEM;
	if (rc == 0) {
		CPU_ZERO_S(sz, want);
		for (int c = bitmap_next(cpus, 0); c >= 0; c = bitmap_next(cpus, c + 1))
			CPU_SET_S((size_t)c, sz, want);
	}
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/task", t->pid);
	/* New threads inherit the creator's affinity; a thread created from
	 * one not yet rebound shows up in the next pass. */
	for (int pass = 0; rc == 0 && pass < 8; pass++) {
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
			if (tidset_has(&done, tids[i]))
				continue;
			fresh++;
			if ((rc = action_target_alive(t)) != 0)
				break;
			int e = set_one(tids[i], want, got, sz);
			if (e < 0)
				note_failure(res, tids[i], -e);
			else if (e == 0)
				res->changed++;
			rc = tidset_add(&done, tids[i]);
		}
		free(tids);
		if (fresh == 0)
			break;
	}
	res->nthreads = done.n;
	CPU_FREE(want);
	CPU_FREE(got);
	free(done.v);
	if (rc)
		return rc;
	return res->first_error ? -res->first_error : 0;
}
