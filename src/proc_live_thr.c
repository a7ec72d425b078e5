/* proc_live_thr.c - the live backend's threads: a multi-threaded
 * process's task/TID/stat files, read again only when the process used
 * CPU time since they were read (an idle thread cannot have moved) or
 * after PROC_THREADS_MAX_AGE_S. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "proc_live_int.h"
#include "monotime.h"

/* The thread ids of r, from its task directory. */
static int list_tasks(struct live *lv, const struct live_proc *r, int **tids, size_t *n,
		      size_t *cap, int *taskfd)
{
	int fd = live_rec_openat(lv, r, "task", O_DIRECTORY);
	if (fd < 0)
		return -errno;
	int keep = dup(fd);
	DIR *d = keep >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		int e = errno;
		close(fd);
		if (keep >= 0)
			close(keep);
		return -e;
	}
	*n = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		char *end;
		long v = strtol(de->d_name, &end, 10);
		if (*end || v <= 0 || v > 0x7fffffff)
			continue;
		if (live_grow((void **)tids, cap, *n + 1, sizeof(int))) {
			closedir(d);
			close(keep);
			return -ENOMEM;
		}
		(*tids)[(*n)++] = (int)v;
	}
	closedir(d);
	*taskfd = keep;
	return 0;
}

static int read_tasks(struct live *lv, struct live_proc *r, const struct proc_info *p)
{
	int *tids = NULL, taskfd = -1;
	size_t n = 0, cap = 0;
	int rc = list_tasks(lv, r, &tids, &n, &cap, &taskfd);
	if (rc || n == 0) {
		free(tids);
		return rc ? rc : -ENOENT;
	}
	struct thr_cache *t = realloc(r->thr, sizeof(*t) + n * sizeof(t->v[0]));
	if (!t) {
		free(tids);
		close(taskfd);
		return -ENOMEM;
	}
	r->thr = t;
	t->n = 0;
	for (size_t i = 0; i < n; i++) {
		char path[32], text[1024];
		snprintf(path, sizeof(path), "%d/stat", tids[i]);
		int fd = openat(taskfd, path, O_RDONLY | O_CLOEXEC);
		ssize_t k = fd >= 0 ? read(fd, text, sizeof(text)) : -1;
		if (fd >= 0)
			close(fd);
		struct pid_stat st;
		int cpu = -1;
		int64_t ticks = -1, run_ns = -1;
		if (k > 0 && parse_pid_stat(text, (size_t)k, &st) == 0) {
			cpu = st.processor;
			ticks = proc_ticks(st.utime, st.stime);
		} else if (tids[i] != p->pid) {
			continue;   /* the thread exited meanwhile */
		}
		/* Its run time in ns: a thread that wakes briefly may add no
		 * tick in a second, and must still count as working. */
		snprintf(path, sizeof(path), "%d/schedstat", tids[i]);
		fd = openat(taskfd, path, O_RDONLY | O_CLOEXEC);
		k = fd >= 0 ? read(fd, text, sizeof(text)) : -1;
		if (fd >= 0)
			close(fd);
		if (k > 0)
			run_ns = proc_parse_run_ns(text, (size_t)k);
		t->v[t->n] = (struct proc_thread){
			.tid = tids[i], .last_cpu = tids[i] == p->pid && cpu < 0 ? p->last_cpu : cpu,
			.ticks = ticks, .run_ns = run_ns, .ran = -1,
		};
		t->n++;
	}
	free(tids);
	close(taskfd);
	t->ticks = p->utime + p->stime;
	t->nthreads = p->nthreads;
	t->at = monotime_now();
	return 0;
}

int live_threads(void *state, struct proc_list *l, struct proc_info *p, struct buf *scratch)
{
	struct live *lv = state;
	struct live_gen *g = &lv->recs;
	struct live_proc *r = (struct live_proc *)proc_find_pid(g->v, g->n, sizeof(*g->v), p->pid);
	p->thr_n = 0;
	if (!r || r->starttime != p->starttime)
		return proc_read_threads(lv->root, l, p, scratch);
	if (p->nthreads <= 1) {
		free(r->thr);
		r->thr = NULL;
		return proc_list_add_thread(l, p, p->pid, p->last_cpu,
					    proc_ticks(p->utime, p->stime), -1);
	}
	double now = monotime_now();
	const struct thr_cache *t = r->thr;
	if (!t || !t->n || !proc_threads_still(t->ticks, t->nthreads, t->at,
					       p->utime + p->stime, p->nthreads, now,
					       PROC_THREADS_MAX_AGE_S)) {
		if (read_tasks(lv, r, p) != 0)
			return proc_list_add_thread(l, p, p->pid, p->last_cpu,
						    proc_ticks(p->utime, p->stime), -1);
		lv->st.thr_read++;
	} else {
		lv->st.thr_kept++;
	}
	int rc = 0;
	t = r->thr;
	for (size_t i = 0; i < t->n && rc == 0; i++) {
		/* The main thread's CPU is this tick's, from the process's stat;
		 * kept ticks are this tick's too (the process did not run). */
		int cpu = t->v[i].tid == p->pid ? p->last_cpu : t->v[i].last_cpu;
		rc = proc_list_add_thread(l, p, t->v[i].tid, cpu, t->v[i].ticks, t->v[i].run_ns);
	}
	return rc;
}
