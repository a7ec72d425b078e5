/* placement.c - sampled placement from /proc/PID/maps and move_pages
 * queries, for processes whose numa_maps walk would be long. */
#include "placement.h"

#include <errno.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate.h"

#define BATCH 512
/* About one sample per 2 MiB of 4 KiB pages. */
#define PAGES_PER_SAMPLE 512
/* Keep a walk near this many samples: a process with tens of thousands
 * of small mappings gets fewer samples per mapping. */
#define MAX_SAMPLES (1u << 16)

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
	free(s->vma);
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

int placement_parse_maps(const char *buf, size_t len, struct placement_scratch *s)
{
	s->nvma = 0;
	const char *p = buf, *e = buf + len;
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		uint64_t a, b;
		if (nl && maps_parse_range(p, (size_t)(le - p), &a, &b) == 0 && b > a) {
			const char *ps;
			size_t pn;
			maps_path(p, le, &ps, &pn);
			/* Perms follow the range: "---p" mappings hold no pages. */
			const char *perm = memchr(p, ' ', (size_t)(le - p));
			bool none = perm && le - perm > 4 && memcmp(perm + 1, "---", 3) == 0;
			bool special = none || starts(ps, pn, "[vsyscall]") ||
				       starts(ps, pn, "[vvar") || starts(ps, pn, "[vdso]");
			if (!special) {
				if (s->nvma == s->vcap) {
					size_t nc = s->vcap ? s->vcap * 2 : 256;
					struct placement_vma *v = realloc(s->vma, nc * sizeof(*v));
					if (!v)
						return -ENOMEM;
					s->vma = v;
					s->vcap = nc;
				}
				enum placement_kind k = PLK_ANON;
				if (memmem(ps, pn, "anon_hugepage", 13))
					k = PLK_HUGE;
				else if (pn > 0 && ps[0] == '/')
					k = PLK_FILE;
				s->vma[s->nvma++] = (struct placement_vma){ a, b, k };
			}
		}
		p = nl ? nl + 1 : e;
	}
	return 0;
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
	s->pages = malloc(BATCH * sizeof(*s->pages));
	s->weight = malloc(BATCH * sizeof(*s->weight));
	s->status = malloc(BATCH * sizeof(*s->status));
	if (!s->pages || !s->weight || !s->status)
		return -ENOMEM;
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
			continue;
		}
		acc[(size_t)kind[i] * nn + (size_t)idx] += kb;
	}
	return 0;
}

int placement_sample(const struct fsroot *r, int pid, long pagesize,
		     const struct nm_params *np, const struct placement_ops *ops,
		     struct placement_scratch *s, struct nm_summary *out)
{
	size_t nn = out->nnodes ? out->nnodes : 1;
	memset(out->node_kb, 0, nn * 4 * sizeof(int64_t));
	out->total_kb = out->other_kb = out->unknown_size_pages = 0;
	out->nmappings = out->nbad = out->npolicies = 0;
	out->policy[0] = '\0';
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	int rc = fsroot_read_file(r, path, &s->maps, 0);
	if (rc)
		return rc;
	if ((rc = placement_parse_maps(s->maps.data ? s->maps.data : "", s->maps.len, s)) != 0)
		return rc;
	if ((rc = grow_batch(s)) != 0)
		return rc;
	if (pagesize <= 0)
		pagesize = 4096;
	uint64_t psz = (uint64_t)pagesize;
	/* The largest floor of samples per mapping, then the smallest
	 * stride, that keep the walk near the cap. */
	uint64_t minper = 64, per = PAGES_PER_SAMPLE;
	for (;;) {
		uint64_t total = 0;
		for (size_t i = 0; i < s->nvma; i++)
			total += placement_samples_for((s->vma[i].end - s->vma[i].start) / psz,
						       minper, per);
		if (total <= MAX_SAMPLES)
			break;
		if (minper > 1)
			minper /= 4;
		else if (per < (UINT64_C(1) << 40))
			per *= 2;
		else
			break;
	}
	/* kB per kind and node, as doubles until the end. */
	double acc_small[3 * 8];
	double *acc = nn <= 8 ? acc_small : calloc(3 * nn, sizeof(double));
	if (!acc)
		return -ENOMEM;
	memset(acc, 0, 3 * nn * sizeof(double));
	enum placement_kind kind[BATCH];
	double pkb = (double)pagesize / 1024.0;
	size_t n = 0;
	for (size_t i = 0; i < s->nvma && rc == 0; i++) {
		const struct placement_vma *v = &s->vma[i];
		uint64_t npg = (v->end - v->start) / psz;
		uint64_t ns = placement_samples_for(npg, minper, per);
		for (uint64_t j = 0; j < ns && rc == 0; j++) {
			/* Sample j sits in the middle of its share. */
			uint64_t pg = (uint64_t)((unsigned __int128)(2 * j + 1) * npg / (2 * ns));
			s->pages[n] = (void *)(uintptr_t)(v->start + pg * psz);
			s->weight[n] = (double)npg / (double)ns;
			kind[n] = v->kind;
			if (++n == BATCH) {
				rc = flush(pid, ops, s, n, kind, pkb, np, out, acc);
				n = 0;
			}
		}
	}
	if (rc == 0 && n > 0)
		rc = flush(pid, ops, s, n, kind, pkb, np, out, acc);
	if (rc == 0) {
		for (size_t k = 0; k < nn; k++) {
			out->anon_kb[k] = (int64_t)(acc[PLK_ANON * nn + k] + 0.5);
			out->file_kb[k] = (int64_t)(acc[PLK_FILE * nn + k] + 0.5);
			out->huge_kb[k] = (int64_t)(acc[PLK_HUGE * nn + k] + 0.5);
			out->node_kb[k] = out->anon_kb[k] + out->file_kb[k] + out->huge_kb[k];
			out->total_kb += out->node_kb[k];
		}
		out->nmappings = s->nvma;
	}
	if (acc != acc_small)
		free(acc);
	return rc;
}
