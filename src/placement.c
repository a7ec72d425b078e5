/* placement.c - sampled placement from /proc/PID/maps and move_pages
 * queries, for processes whose numa_maps walk would be long. */
#include "placement.h"

#include <errno.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"

#define BATCH 512
/* About one sample per 2 MiB of 4 KiB pages. */
#define PAGES_PER_SAMPLE 512
/* At most this many samples in one mapping. */
#define MAX_PER_VMA (1u << 14)

static long kernel_move_pages(void *ctx, int pid, unsigned long count, void **pages,
			      const int *nodes, int *status, int flags)
{
	(void)ctx;
	long rc = move_pages(pid, count, pages, nodes, status, flags);
	return rc < 0 ? -errno : rc;
}

const struct placement_ops placement_kernel_ops = { kernel_move_pages, NULL };

void placement_scratch_free(struct placement_scratch *s)
{
	buf_free(&s->maps);
	free(s->pages);
	free(s->weight);
	free(s->status);
	memset(s, 0, sizeof(*s));
}

/* The path field: after five space-separated fields. "" if none. */
static void maps_path(const char *p, const char *e, const char **ps, size_t *pn)
{
	for (int f = 0; f < 5 && p < e; f++) {
		while (p < e && *p != ' ')
			p++;
		while (p < e && *p == ' ')
			p++;
	}
	*ps = p;
	*pn = (size_t)(e - p);
}

static bool starts(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);
	return n >= k && memcmp(s, w, k) == 0;
}

int placement_parse_line(const char *p, size_t len, struct placement_vma *out)
{
	const char *le = p + len;
	uint64_t a, b;
	if (maps_parse_range(p, len, &a, &b) != 0 || b <= a)
		return 0;
	const char *ps;
	size_t pn;
	maps_path(p, le, &ps, &pn);
	/* Perms follow the range: "---p" mappings hold no pages. */
	const char *perm = memchr(p, ' ', len);
	bool none = perm && le - perm > 4 && memcmp(perm + 1, "---", 3) == 0;
	if (none || starts(ps, pn, "[vsyscall]") || starts(ps, pn, "[vvar") ||
	    starts(ps, pn, "[vdso]"))
		return 0;
	enum placement_kind k = PLK_ANON;
	if (memmem(ps, pn, "anon_hugepage", 13))
		k = PLK_HUGE;
	else if (pn > 0 && ps[0] == '/')
		k = PLK_FILE;
	*out = (struct placement_vma){ a, b, k };
	return 1;
}

void placement_scale_rss(struct nm_summary *s, int64_t rss_kb)
{
	int64_t huge = 0;
	for (size_t k = 0; k < s->nnodes; k++)
		huge += s->huge_kb[k];
	int64_t rest = s->total_kb - huge;
	if (rss_kb <= 0 || rest <= 0 || rest == rss_kb)
		return;
	double f = (double)rss_kb / (double)rest;
	s->total_kb = 0;
	for (size_t k = 0; k < s->nnodes; k++) {
		s->anon_kb[k] = (int64_t)((double)s->anon_kb[k] * f + 0.5);
		s->file_kb[k] = (int64_t)((double)s->file_kb[k] * f + 0.5);
		s->node_kb[k] = s->anon_kb[k] + s->file_kb[k] + s->huge_kb[k];
		s->total_kb += s->node_kb[k];
	}
	s->other_kb = (int64_t)((double)s->other_kb * f + 0.5);
}

uint64_t placement_samples_for(uint64_t npages, uint64_t min_samples, uint64_t per)
{
	uint64_t n = (npages + per - 1) / per;
	if (n < min_samples)
		n = min_samples;
	return n < npages ? n : npages;
}

static int grow_batch(struct placement_scratch *s)
{
	if (s->bcap >= BATCH)
		return 0;
	void **pages = malloc(BATCH * sizeof(*pages));
	double *weight = malloc(BATCH * sizeof(*weight));
	int *status = malloc(BATCH * sizeof(*status));
	if (!pages || !weight || !status) {
		free(pages);
		free(weight);
		free(status);
		return -ENOMEM;
	}
	s->pages = pages;
	s->weight = weight;
	s->status = status;
	s->bcap = BATCH;
	return 0;
}

static int flush(int pid, const struct placement_ops *ops, struct placement_scratch *s,
		 size_t n, const enum placement_kind *kind, double pkb,
		 const struct nm_params *np, struct nm_summary *out, double *acc)
{
	long rc = ops->move_pages(ops->ctx, pid, n, s->pages, NULL, s->status, 0);
	if (rc == -EPERM || rc == -EACCES)
		return -EACCES;
	if (rc < 0)
		return (int)rc;
	size_t nn = out->nnodes;
	for (size_t i = 0; i < n; i++) {
		int id = s->status[i];
		if (id < 0)
			continue;     /* -ENOENT: not present; -EFAULT: no page */
		double kb = s->weight[i] * pkb;
		int idx = (size_t)id < np->nids ? np->index_of_id[id] : -1;
		if (idx < 0) {
			out->other_kb += (int64_t)(kb + 0.5);
			if (out->other_id < 0)
				out->other_id = id;
			continue;
		}
		acc[(size_t)kind[i] * nn + (size_t)idx] += kb;
	}
	return 0;
}

/* The walk's state: the batch being filled and the sums so far. */
struct walk {
	int pid;
	const struct placement_ops *ops;
	const struct nm_params *np;
	struct placement_scratch *s;
	struct nm_summary *out;
	double *acc;              /* [3 * nnodes] kB per kind and node */
	enum placement_kind kind[BATCH];
	size_t n;
	double pkb;
	uint64_t psz, minper;
	size_t nvma;
};

static int walk_vma(struct walk *w, const struct placement_vma *v)
{
	uint64_t npg = (v->end - v->start) / w->psz;
	uint64_t ns = placement_samples_for(npg, w->minper, PAGES_PER_SAMPLE);
	/* A vast mapping (reserved address space) gets a wider stride. */
	if (ns > MAX_PER_VMA)
		ns = MAX_PER_VMA;
	for (uint64_t j = 0; j < ns; j++) {
		/* Sample j sits in the middle of its share. */
		uint64_t pg = (uint64_t)((unsigned __int128)(2 * j + 1) * npg / (2 * ns));
		w->s->pages[w->n] = (void *)(uintptr_t)(v->start + pg * w->psz);
		w->s->weight[w->n] = (double)npg / (double)ns;
		w->kind[w->n] = v->kind;
		if (++w->n == BATCH) {
			int rc = flush(w->pid, w->ops, w->s, w->n, w->kind, w->pkb, w->np,
				       w->out, w->acc);
			w->n = 0;
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* Whole maps lines of a chunk: parse, sample. */
static int feed_maps(void *ctx, const char *data, size_t len, size_t *used)
{
	struct walk *w = ctx;
	const char *q = data, *e = data + len, *nl;
	int rc = 0;
	while (rc == 0 && (nl = memchr(q, '\n', (size_t)(e - q))) != NULL) {
		struct placement_vma v;
		if (placement_parse_line(q, (size_t)(nl - q), &v)) {
			w->nvma++;
			rc = walk_vma(w, &v);
		}
		q = nl + 1;
	}
	*used = (size_t)(q - data);
	return rc;
}

int placement_sample(const struct fsroot *r, int pid, long pagesize,
		     const struct nm_params *np, const struct placement_ops *ops,
		     size_t nmaps_hint, struct placement_scratch *s,
		     struct nm_summary *out)
{
	size_t nn = out->nnodes ? out->nnodes : 1;
	numa_maps_begin(out);
	int rc = grow_batch(s);
	if (rc)
		return rc;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	double acc_small[3 * 8];
	double *acc = nn <= 8 ? acc_small : calloc(3 * nn, sizeof(double));
	if (!acc)
		return -ENOMEM;
	memset(acc, 0, 3 * nn * sizeof(double));
	struct walk w = { .pid = pid, .ops = ops, .np = np, .s = s, .out = out, .acc = acc,
			  .pkb = (double)(pagesize > 0 ? pagesize : 4096) / 1024.0,
			  .psz = (uint64_t)(pagesize > 0 ? pagesize : 4096) };
	/* Every page of a small mapping, unless there are so many mappings
	 * that this would pass ~64 Ki samples. */
	w.minper = nmaps_hint <= 1024 ? 64 : nmaps_hint >= (1u << 16) ? 1 : (1u << 16) / nmaps_hint;
	size_t total;
	rc = fsroot_read_chunks(r, path, &s->maps, feed_maps, &w, &total);
	if (s->maps.cap > (1u << 17))
		buf_free(&s->maps);
	else
		buf_clear(&s->maps);

	if (rc == 0 && w.n > 0)
		rc = flush(pid, ops, s, w.n, w.kind, w.pkb, np, out, acc);
	if (rc == 0) {
		for (size_t k = 0; k < nn; k++) {
			out->anon_kb[k] = (int64_t)(acc[PLK_ANON * nn + k] + 0.5);
			out->file_kb[k] = (int64_t)(acc[PLK_FILE * nn + k] + 0.5);
			out->huge_kb[k] = (int64_t)(acc[PLK_HUGE * nn + k] + 0.5);
			out->node_kb[k] = out->anon_kb[k] + out->file_kb[k] + out->huge_kb[k];
			out->total_kb += out->node_kb[k];
		}
		/* As in numa_maps: pages on nodes outside the topology
		 * are counted apart (other_kb), not in the total. */
		out->nmappings = w.nvma;
	}
	if (acc != acc_small)
		free(acc);
	return rc;
}
