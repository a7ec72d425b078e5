/* nodestat.c - per-tick node data read through the rooted layer. */
#include "nodestat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NODE_DIR "/sys/devices/system/node"

static int64_t read_i64(const struct fsroot *r, const char *path)
{
	char s[32];
	int n = fsroot_read_small(r, path, s, sizeof(s));
	if (n <= 0)
		return -1;
	const char *p = s;
	int64_t v;
	return parse_i64(&p, s + n, &v) == 0 && v >= 0 ? v : -1;
}

static void read_pools(const struct fsroot *r, int node, struct node_sample *s)
{
	char dir[128];
	snprintf(dir, sizeof(dir), NODE_DIR "/node%d/hugepages", node);
	char **names = NULL;
	size_t n = 0;
	s->npools = 0;
	if (fsroot_list_names(r, dir, "hugepages-", FSROOT_DIRS, &names, &n) != 0)
		return;
	if (n > s->poolcap) {
		struct hugepool *p = realloc(s->pools, n * sizeof(*p));
		if (!p) {
			fsroot_free_names(names, n);
			return;
		}
		s->pools = p;
		s->poolcap = n;
	}
	for (size_t i = 0; i < n; i++) {
		struct hugepool *hp = &s->pools[s->npools];
		const char *q = names[i] + strlen("hugepages-");
		int64_t kb;
		if (parse_i64(&q, q + strlen(q), &kb) != 0 || strcmp(q, "kB") != 0)
			continue;
		char path[256];
		hp->size_kb = kb;
		snprintf(path, sizeof(path), "%s/%s/nr_hugepages", dir, names[i]);
		hp->nr = read_i64(r, path);
		snprintf(path, sizeof(path), "%s/%s/free_hugepages", dir, names[i]);
		hp->free = read_i64(r, path);
		s->npools++;
	}
	/* Smallest page size first. */
	for (size_t i = 1; i < s->npools; i++)
		for (size_t j = i; j > 0 && s->pools[j].size_kb < s->pools[j - 1].size_kb; j--) {
			struct hugepool tmp = s->pools[j];
			s->pools[j] = s->pools[j - 1];
			s->pools[j - 1] = tmp;
		}
	fsroot_free_names(names, n);
}

void nodestat_read(const struct fsroot *r, const struct topology *t,
		   struct node_sample *samples, struct buf *b)
{
	for (size_t i = 0; i < t->nnodes; i++) {
		struct node_sample *s = &samples[i];
		int id = t->nodes[i].id;
		char path[128];
		if (t->synthetic)
			snprintf(path, sizeof(path), "/proc/meminfo");
		else
			snprintf(path, sizeof(path), NODE_DIR "/node%d/meminfo", id);
		s->mem_rc = fsroot_read_file(r, path, b, 1 << 20);
		if (s->mem_rc == 0)
			s->mem_rc = parse_meminfo(b->data, b->len, &s->mem);
		if (s->mem_rc)
			mem_info_init(&s->mem);
		numastat_init(&s->ns);
		if (t->synthetic) {
			s->numastat_rc = -ENOENT;
			s->npools = 0;
			continue;
		}
		snprintf(path, sizeof(path), NODE_DIR "/node%d/numastat", id);
		s->numastat_rc = fsroot_read_file(r, path, b, 1 << 16);
		if (s->numastat_rc == 0)
			s->numastat_rc = parse_numastat(b->data, b->len, &s->ns);
		if (s->numastat_rc)
			numastat_init(&s->ns);
		read_pools(r, id, s);
	}
}

void nodestat_free(struct node_sample *samples, size_t n)
{
	for (size_t i = 0; samples && i < n; i++)
		free(samples[i].pools);
	free(samples);
}

struct stat_ctx {
	struct cpu_ticks *ticks;
	size_t n;
	struct cpu_ticks *total;
};

static int put_cpu(int cpu, const struct cpu_ticks *t, void *vctx)
{
	struct stat_ctx *c = vctx;
	if (cpu < 0)
		*c->total = *t;
	else if ((size_t)cpu < c->n)
		c->ticks[cpu] = *t;
	return 0;
}

int cpustat_read(const struct fsroot *r, struct cpu_ticks *ticks, size_t n,
		 struct cpu_ticks *total, struct buf *b)
{
	memset(ticks, 0, n * sizeof(*ticks));
	memset(total, 0, sizeof(*total));
	int rc = fsroot_read_file(r, "/proc/stat", b, 4 << 20);
	if (rc)
		return rc;
	struct stat_ctx c = { ticks, n, total };
	return parse_proc_stat(b->data, b->len, put_cpu, &c);
}

void cpustat_delta(const struct cpu_ticks *a, const struct cpu_ticks *b,
		   struct cpu_load *out)
{
	out->busy = out->user = out->system = out->iowait = -1;
	if (a->nfields < 4 || b->nfields < 4)
		return;
	/* guest time is already inside user/nice: count the first 8 only. */
	int nf = a->nfields < b->nfields ? a->nfields : b->nfields;
	if (nf > TICK_STEAL + 1)
		nf = TICK_STEAL + 1;
	double d[TICK_NFIELDS] = { 0 }, all = 0;
	for (int i = 0; i < nf; i++) {
		d[i] = b->t[i] >= a->t[i] ? (double)(b->t[i] - a->t[i]) : 0;
		all += d[i];
	}
	if (all <= 0)
		return;
	double idle = d[TICK_IDLE] + d[TICK_IOWAIT];
	out->busy = 100.0 * (all - idle) / all;
	out->user = 100.0 * (d[TICK_USER] + d[TICK_NICE]) / all;
	out->system = 100.0 * (d[TICK_SYSTEM] + d[TICK_IRQ] + d[TICK_SOFTIRQ]) / all;
	out->iowait = 100.0 * d[TICK_IOWAIT] / all;
}

int vmstat_read(const struct fsroot *r, struct vmstat_migrate *out,
		struct buf *b)
{
	out->pgmigrate_success = out->numa_pages_migrated = -1;
	int rc = fsroot_read_file(r, "/proc/vmstat", b, 1 << 20);
	if (rc)
		return rc;
	return parse_vmstat_migrate(b->data, b->len, out);
}
