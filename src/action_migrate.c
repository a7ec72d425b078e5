/* action_migrate.c - batched move_pages(2) of one process's memory to one node. */
#include "action_migrate.h"

#include <errno.h>
#include <fcntl.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "numa_maps.h"
#include "parse.h"
#include "monotime.h"

/* pagemap entry bits (Documentation/admin-guide/mm/pagemap.rst) */
#define PM_PRESENT (UINT64_C(1) << 63)
#define PM_FILE_OR_SHARED (UINT64_C(1) << 61)

/* ---- the real kernel ---- */

static long real_move_pages(void *ctx, int pid, unsigned long count, void **pages,
			    const int *nodes, int *status, int flags)
{
	(void)ctx;
	long rc = move_pages(pid, count, pages, nodes, status, flags);
	return rc < 0 ? -errno : rc;
}

static ssize_t real_pagemap(void *ctx, uint64_t *out, size_t n, uint64_t first)
{
	struct migrate_job *j = ctx;
	if (j->pagemap_fd < 0)
		return -ENOENT;
	ssize_t got = pread(j->pagemap_fd, out, n * sizeof(*out),
			    (off_t)(first * sizeof(*out)));
	if (got < 0)
		return -errno;
	return got / (ssize_t)sizeof(*out);
}

static int real_alive(void *ctx)
{
	struct migrate_job *j = ctx;
	return j->target ? action_target_alive(j->target) : 0;
}

static int real_recheck(void *ctx)
{
	struct migrate_job *j = ctx;
	return j->target && j->root ? action_target_recheck(j->root, j->target) : 0;
}

/* ---- the plan ---- */

struct maps_index {
	uint64_t *start, *end;
	size_t n;
};

static int maps_index_read(const char *text, size_t len, struct maps_index *mi)
{
	size_t lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	mi->start = malloc(lines * sizeof(uint64_t));
	mi->end = malloc(lines * sizeof(uint64_t));
	mi->n = 0;
	if (!mi->start || !mi->end)
		return -ENOMEM;
	const char *p = text, *e = text + len;
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		if (maps_parse_range(p, (size_t)(le - p), &mi->start[mi->n],
				     &mi->end[mi->n]) == 0)
			mi->n++;
		p = nl ? nl + 1 : e;
	}
	return 0;
}

static uint64_t maps_index_end(const struct maps_index *mi, uint64_t start)
{
	size_t lo = 0, hi = mi->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (mi->start[mid] < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < mi->n && mi->start[lo] == start ? mi->end[lo] : 0;
}

static int add_range(struct migrate_job *j, size_t *cap, uint64_t s, uint64_t e,
		     bool file)
{
	if (j->nranges == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct migrate_range *n = realloc(j->ranges, nc * sizeof(*n));
		if (!n)
			return -ENOMEM;
		j->ranges = n;
		*cap = nc;
	}
	j->ranges[j->nranges++] = (struct migrate_range){ s, e, file };
	j->total_pages += (e - s) / (uint64_t)j->pagesize;
	return 0;
}

/* One numa_maps line into the preview and, when it has movable pages off
 * the target, into the plan. */
static int plan_mapping(struct migrate_job *j, const struct nm_mapping *m,
			int64_t pkb, const struct maps_index *mi, size_t *cap)
{
	struct migrate_preview *pv = &j->pv;
	int64_t off = 0, on = 0;
	for (size_t k = 0; k < m->nnodes; k++) {
		int64_t kb = (int64_t)m->nodes[k].pages * pkb;
		if (m->nodes[k].node == j->to_node)
			on += kb;
		else
			off += kb;
	}
	pv->on_target_kb += on;
	if (off == 0)
		return 0;
	bool movable;
	if (m->huge) {
		pv->huge_kb += off;
		return 0;
	}
	if (m->kind == NM_KIND_FILE) {
		int64_t anon = m->anon > 0 ? m->anon * pkb : 0;
		if (anon > off)
			anon = off;
		pv->file_anon_kb += anon;
		pv->file_kb += off - anon;
		movable = anon > 0;
	} else {
		pv->move_kb += off;
		if (m->mapmax > 1)
			pv->shared_kb += off;
		movable = true;
	}
	uint64_t end = maps_index_end(mi, m->start);
	if (!movable || end == 0)
		return 0;
	return add_range(j, cap, m->start, end, m->kind == NM_KIND_FILE);
}

/* One process's numa_maps, read and summarized: the buffer, parser scratch
 * and per-node totals, shared by the plan and the after-placement read. */
struct nm_read {
	struct buf text;
	struct nm_mapping m;
	struct nm_summary sum;
	struct nm_params np;
};

static int nm_read(const struct fsroot *r, const struct topology *t, int pid,
		   struct nm_read *rd)
{
	memset(rd, 0, sizeof(*rd));
	nm_mapping_init(&rd->m);
	int rc = nm_summary_init(&rd->sum, t->nnodes);
	if (rc)
		return rc;
	char path[64];
	topology_nm_params(t, &rd->np);
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", pid);
	if ((rc = fsroot_read_file(r, path, &rd->text, 0)) == 0)
		rc = numa_maps_summarize(rd->text.data ? rd->text.data : "", rd->text.len,
					 &rd->np, &rd->m, &rd->sum);
	return rc == -ENOENT ? -ESRCH : rc;
}

static void nm_read_free(struct nm_read *rd)
{
	buf_free(&rd->text);
	nm_mapping_free(&rd->m);
	nm_summary_free(&rd->sum);
}

static int plan_read(const struct fsroot *r, const struct topology *t,
		     struct migrate_job *j)
{
	struct buf maps = { 0 };
	struct maps_index mi = { 0 };
	struct nm_read rd;
	char path[64];
	int rc = nm_read(r, t, j->pid, &rd);
	if (rc)
		goto out;
	snprintf(path, sizeof(path), "/proc/%d/maps", j->pid);
	if ((rc = fsroot_read_file(r, path, &maps, 0)) != 0 ||
	    (rc = maps_index_read(maps.data ? maps.data : "", maps.len, &mi)) != 0)
		goto out;
	memcpy(j->pv.node_kb, rd.sum.node_kb, t->nnodes * sizeof(int64_t));
	j->pv.total_kb = rd.sum.total_kb;
	snprintf(j->pv.policy, sizeof(j->pv.policy), "%s", rd.sum.policy);
	size_t cap = 0;
	const char *p = rd.text.data, *e = rd.text.data + rd.text.len;
	while (rc == 0 && p && p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			break;  /* a cut last line: counted bad by the summary */
		if (numa_maps_parse_line(p, (size_t)(nl - p), &rd.m) == 0) {
			int64_t pkb = nm_mapping_page_kb(&rd.m, rd.np.base_page_kb,
							 rd.np.default_huge_kb);
			if (pkb > 0)
				rc = plan_mapping(j, &rd.m, pkb, &mi, &cap);
		}
		p = nl + 1;
	}
out:
	if (rc == -ENOENT)
		rc = -ESRCH;   /* maps gone: the process exited */
	free(mi.start);
	free(mi.end);
	buf_free(&maps);
	nm_read_free(&rd);
	return rc;
}

int migrate_prepare(const struct fsroot *r, const struct topology *t,
		    struct action_target *target, int to_node,
		    struct migrate_job *j)
{
	memset(j, 0, sizeof(*j));
	j->pagemap_fd = -1;
	j->pid = target->pid;
	j->target = target;
	j->root = r;
	j->to_node = to_node;
	j->move_all = true;
	j->pagesize = sysconf(_SC_PAGESIZE);
	j->ops = (struct migrate_ops){ real_move_pages, real_pagemap, real_alive, j, real_recheck };
	int idx = topology_node_index(t, to_node);
	if (idx < 0 || !t->nodes[idx].has_memory)
		return -EINVAL;
	j->pv.nnodes = t->nnodes;
	j->pv.node_kb = calloc(t->nnodes ? t->nnodes : 1, sizeof(int64_t));
	j->bcap = 512;
	j->pages = calloc(j->bcap, sizeof(void *));
	j->nodes = calloc(j->bcap, sizeof(int));
	j->status = calloc(j->bcap, sizeof(int));
	j->pm = calloc(j->bcap, sizeof(uint64_t));
	size_t nn = t->nnodes ? t->nnodes : 1;
	j->walk_before = calloc(nn, sizeof(uint64_t));
	j->walk_after = calloc(nn, sizeof(uint64_t));
	j->id_max = 0;
	for (size_t i = 0; i < t->nnodes; i++)
		if (t->nodes[i].id > j->id_max)
			j->id_max = t->nodes[i].id;
	j->index_of_id = malloc(((size_t)j->id_max + 1) * sizeof(int));
	if (!j->pv.node_kb || !j->pages || !j->nodes || !j->status || !j->pm ||
	    !j->walk_before || !j->walk_after || !j->index_of_id)
		return -ENOMEM;
	for (int i = 0; i <= j->id_max; i++)
		j->index_of_id[i] = -1;
	for (size_t i = 0; i < t->nnodes; i++)
		j->index_of_id[t->nodes[i].id] = (int)i;
	int rc = plan_read(r, t, j);
	if (rc)
		return rc;
	if (j->nranges) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/pagemap", j->pid);
		int fd = fsroot_open_fd(r, path, 0);
		j->pagemap_fd = fd >= 0 ? fd : -1;
		j->addr = j->ranges[0].start;
	}
	return 0;
}

/* ---- the walk ---- */

static enum migrate_reason reason_of(int status)
{
	switch (-status) {
	case EACCES: return MIG_SHARED;
	case EBUSY: return MIG_BUSY;
	case ENOMEM: return MIG_NOMEM;
	default: return MIG_OTHER;
	}
}

/* A call failed (or read nothing) while alive() said 0: the target's
 * own state first (exiting, another program), else the call's error. */
static long call_failed(struct migrate_job *j, long rc)
{
	int why = j->ops.recheck ? j->ops.recheck(j->ops.ctx) : 0;
	return why ? why : rc;
}

/* One move_pages call on the confirmed process. The alive check before
 * the batch and after every call bounds the PID-reuse window to one
 * call, and the walk stops at the first sign that the process exited.
 * A process being killed loses its memory before its exit shows (the
 * pidfd turns readable only once it is a zombie): move_pages then fails
 * with EINVAL, which is said as its exit, not as a refusal. A whole-call
 * EACCES means the node is outside the process's cpuset (the kernel's
 * own check); it is kept apart from EPERM. */
static long move_pages_checked(struct migrate_job *j, size_t n, const int *nodes, int flags)
{
	long rc = j->ops.move_pages(j->ops.ctx, j->pid, n, j->pages, nodes, j->status, flags);
	int alive = j->ops.alive(j->ops.ctx);
	if (alive)
		return alive;
	return rc < 0 ? call_failed(j, rc) : rc;
}

/* A page the kernel says is on node id `node` (a status >= 0). */
static void walk_count(const struct migrate_job *j, uint64_t *per_node, int node)
{
	if (node >= 0 && node <= j->id_max && j->index_of_id[node] >= 0)
		per_node[j->index_of_id[node]]++;
}

/* Query then move the candidate pages j->pages[0..k). 0 or -errno. */
static int move_batch(struct migrate_job *j, size_t k)
{
	long rc = move_pages_checked(j, k, NULL, 0);
	if (rc < 0)
		return (int)rc;
	size_t m = 0;
	for (size_t i = 0; i < k; i++) {
		walk_count(j, j->walk_before, j->status[i]);
		if (j->status[i] == j->to_node) {
			j->already++;
			walk_count(j, j->walk_after, j->status[i]);
		} else if (j->status[i] < 0) {
			j->absent++;    /* -ENOENT/-EFAULT: not present, zero page */
		} else {
			j->pages[m++] = j->pages[i];
		}
	}
	if (m == 0)
		return 0;
	for (size_t i = 0; i < m; i++)
		j->nodes[i] = j->to_node;
	for (;;) {
		int flags = j->move_all ? MPOL_MF_MOVE_ALL : MPOL_MF_MOVE;
		rc = move_pages_checked(j, m, j->nodes, flags);
		if (rc == -EPERM && j->move_all) {
			j->move_all = false;   /* no CAP_SYS_NICE: own pages only */
			continue;
		}
		break;
	}
	if (rc < 0)
		return (int)rc;
	/* Where the pages are now decides what moved: a transparent huge
	 * page moves as a whole through one of its subpages, and the kernel
	 * may report the others busy or stale while they went along with it.
	 * Pages still off the target keep the reason from the move. */
	memcpy(j->nodes, j->status, m * sizeof(int));
	rc = move_pages_checked(j, m, NULL, 0);
	if (rc < 0)
		return (int)rc;
	for (size_t i = 0; i < m; i++) {
		walk_count(j, j->walk_after, j->status[i]);
		if (j->status[i] == j->to_node) {
			j->moved++;
			continue;
		}
		int why_st = j->nodes[i] < 0 ? j->nodes[i] : j->status[i] < 0 ? 0 : -EAGAIN;
		if (why_st == 0) {
			j->absent++;    /* unmapped meanwhile */
			continue;
		}
		j->failed[reason_of(why_st)]++;
		if (!j->last_error)
			j->last_error = -why_st;
	}
	return 0;
}

int migrate_step(struct migrate_job *j, size_t max_pages)
{
	if (j->cur >= j->nranges)
		return 0;
	double t0 = monotime_now();
	if (j->t_start == 0)
		j->t_start = t0;
	int rc = 0;
	while (max_pages > 0 && j->cur < j->nranges) {
		/* Every batch: the process we confirmed is still there. */
		if ((rc = j->ops.alive(j->ops.ctx)) != 0)
			break;
		const struct migrate_range *rg = &j->ranges[j->cur];
		uint64_t ps = (uint64_t)j->pagesize;
		uint64_t left = (rg->end - j->addr) / ps;
		size_t n = j->bcap;
		if (n > max_pages)
			n = max_pages;
		if (n > left)
			n = (size_t)left;
		/* Batches end on 512-page (2 MiB with 4 KiB pages) boundaries,
		 * so a transparent huge page is never split across two
		 * batches and its subpages count as moved, not "already". */
		uint64_t to_edge = 512 - (j->addr / ps) % 512;
		if (n > to_edge)
			n = (size_t)to_edge;
		ssize_t got = j->ops.pagemap(j->ops.ctx, j->pm, n, j->addr / ps);
		if (got == -EACCES || got == -EPERM) {
			rc = -EPERM;
			break;
		}
		if (got == -ESRCH) {
			rc = -ESRCH;
			break;
		}
		/* The pagemap reads the memory of the process as it was when
		 * the plan opened it: nothing once that memory is gone (the
		 * process exiting, or running another program). */
		if (got >= 0 && (size_t)got < n && (rc = (int)call_failed(j, 0)) != 0)
			break;
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			if (got >= 0) {
				uint64_t e = (size_t)got > i ? j->pm[i] : 0;
				if (!(e & PM_PRESENT) || (rg->file && (e & PM_FILE_OR_SHARED)))
					continue;
			} else if (rg->file) {
				continue;   /* no pagemap: cannot tell copies from cache */
			}
			j->pages[k++] = (void *)(uintptr_t)(j->addr + i * ps);
		}
		if (k && (rc = move_batch(j, k)) != 0)
			break;
		j->addr += n * ps;
		j->scanned += n;
		max_pages -= n;
		if (j->addr >= rg->end && ++j->cur < j->nranges)
			j->addr = j->ranges[j->cur].start;
	}
	j->t_end = monotime_now();
	if (rc == -ENOENT)
		rc = -ESRCH;
	/* A plan with pages, a walk that found none present: its memory
	 * went while the walk ran (an exiting process's is unmapped). */
	if (rc == 0 && j->cur >= j->nranges && j->scanned && !j->moved && !j->already &&
	    !migrate_not_moved(j))
		rc = (int)call_failed(j, 0);
	if (rc)
		return rc;
	return j->cur < j->nranges ? 1 : 0;
}

double migrate_progress(const struct migrate_job *j)
{
	if (j->total_pages == 0)
		return 1.0;
	return (double)j->scanned / (double)j->total_pages;
}

double migrate_rate(const struct migrate_job *j)
{
	double dt = j->t_end - j->t_start;
	if (dt <= 0)
		return 0;
	return (double)j->moved * (double)j->pagesize / 1e6 / dt;
}

uint64_t migrate_not_moved(const struct migrate_job *j)
{
	uint64_t n = 0;
	for (int i = 0; i < MIG_NREASONS; i++)
		n += j->failed[i];
	return n;
}

void migrate_free(struct migrate_job *j)
{
	if (j->pagemap_fd >= 0)
		close(j->pagemap_fd);
	free(j->ranges);
	free(j->pv.node_kb);
	free(j->pages);
	free(j->nodes);
	free(j->status);
	free(j->pm);
	free(j->walk_before);
	free(j->walk_after);
	free(j->index_of_id);
	memset(j, 0, sizeof(*j));
	j->pagemap_fd = -1;
}

static int read_placement(const struct fsroot *r, const struct topology *t,
			  int pid, int64_t *kb, char *policy, size_t n)
{
	struct nm_read rd;
	int rc = nm_read(r, t, pid, &rd);
	if (rc == 0) {
		memcpy(kb, rd.sum.node_kb, t->nnodes * sizeof(int64_t));
		if (policy)
			snprintf(policy, n, "%s", rd.sum.policy);
	}
	nm_read_free(&rd);
	return rc;
}

int migrate_read_target_placement(const struct fsroot *r, const struct topology *t,
				  struct action_target *tg, int64_t *kb,
				  char *policy, size_t n)
{
	int rc = action_target_alive(tg);
	if (rc == 0)
		rc = read_placement(r, t, tg->pid, kb, policy, n);
	/* An exiting process's numa_maps reads empty: all zero. */
	return rc ? rc : action_target_recheck(r, tg);
}
