/* cgroup_procs.c - which cgroup each process is in, from /proc/PID/cgroup,
 * kept per process (PID + start time) and re-read every few seconds. */
#include "cgroup.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "proc.h"

struct pm_entry {
	int pid;
	uint64_t starttime;
	double read_at;
	bool taken;                /* moved into the next update */
	char *path;                /* NULL: unknown */
};

struct cgroup_pidmap {
	struct pm_entry *v[2];     /* the previous update's (sorted), this one's */
	size_t n[2], cap[2];
	int cur;                   /* v[cur] is the previous update's */
	struct buf b;
};

int cgroup_pidmap_new(struct cgroup_pidmap **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;

	return 0;
}

void cgroup_pidmap_free(struct cgroup_pidmap *m)
{
	if (!m)
		return;
	for (int g = 0; g < 2; g++) {
		for (size_t i = 0; i < m->n[g]; i++)
			free(m->v[g][i].path);
		free(m->v[g]);
	}
	buf_free(&m->b);
	free(m);
}

static int by_pid(const void *a, const void *b)
{
	const struct pm_entry *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static struct pm_entry *find(struct pm_entry *v, size_t n, int pid)
{
	struct pm_entry key = { .pid = pid };
	return n ? bsearch(&key, v, n, sizeof(*v), by_pid) : NULL;
}

static char *read_path(struct cgroup_pidmap *m, const struct fsroot *r, enum cgroup_layout l,
		       int pid)
{
	char file[64];
	snprintf(file, sizeof(file), "/proc/%d/cgroup", pid);
	if (fsroot_read_file(r, file, &m->b, 64 << 10) != 0)
		return NULL;
	struct cgroup_proc_paths pp;
	if (cgroup_parse_proc(m->b.data, m->b.len, &pp) != 0)
		return NULL;
	if (l == CGROUP_V2)
		return pp.have_v2 ? strdup(pp.v2) : NULL;
	return pp.have_memory ? strdup(pp.memory) : NULL;
}

long cgroup_pidmap_update(struct cgroup_pidmap *m, const struct fsroot *r,
			  enum cgroup_layout l, const struct proc_info *v, size_t stride,
			  size_t n,
			  double now, double refresh_s, const char **paths)
{
	int old = m->cur, nw = !m->cur;
	if (m->cap[nw] < n) {
		struct pm_entry *e = realloc(m->v[nw], n * sizeof(*e));
		if (!e)
			return -ENOMEM;
		m->v[nw] = e;
		m->cap[nw] = n;
	}
	long reads = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const struct proc_info *pi = (const struct proc_info *)((const char *)v + i * stride);
		paths[i] = NULL;
		if (l == CGROUP_NONE)
			continue;
		struct pm_entry *o = find(m->v[old], m->n[old], pi->pid);
		struct pm_entry *e = &m->v[nw][k];
		/* Spread over refresh_s .. 2 * refresh_s by PID: the processes
		 * first seen together are not all read again in one sample. */
		double every = refresh_s * (1.0 + (double)(pi->pid % 16) / 16.0);
		if (o && o->starttime == pi->starttime && o->read_at <= now &&
		    now - o->read_at < every && !o->taken) {
			*e = *o;
			o->path = NULL;
			o->taken = true;   /* a PID listed twice is read again */
		} else {
			e->pid = pi->pid;
			e->starttime = pi->starttime;
			e->read_at = now;
			e->taken = false;
			e->path = read_path(m, r, l, pi->pid);
			reads++;
		}
		paths[i] = e->path;
		k++;
	}
	for (size_t i = 0; i < m->n[old]; i++)
		free(m->v[old][i].path);
	m->n[old] = 0;
	m->n[nw] = k;
	if (k > 1)
		qsort(m->v[nw], k, sizeof(*m->v[nw]), by_pid);
	m->cur = nw;
	return reads;
}
