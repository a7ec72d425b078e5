/* ui_rows.c - which rows the process table shows: the filter, tree order
 * and thread rows over the snapshot, their order (a sort chosen), and the
 * selected process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui_int.h"

const struct snap_proc *ui_selected(const struct ui *u)
{
	if (u->sel < 0 || (size_t)u->sel >= u->nrows)
		return NULL;
	return &u->snap.procs[u->rows[u->sel]];
}

/* Row row (kept inside the rows) selected, and its PID kept. */
void ui_select_row(struct ui *u, long row)
{
	if (row >= (long)u->nrows)
		row = (long)u->nrows - 1;
	if (row < 0)
		row = 0;
	u->sel = row;
	const struct snap_proc *p = ui_selected(u);
	u->sel_pid = p ? p->info.pid : -1;
}

void ui_resort(struct ui *u)
{
	snapshot_sort(&u->snap, &u->sort);
	u->sort_eff = col_sort_effective(&u->sort, &u->snap);
	ui_rebuild_rows(u);
}

void ui_own_sort(struct ui *u)
{
	u->sort = u->sort_eff;
	u->sort.heat_default = false;
}

void ui_set_sort(struct ui *u, enum snap_col c, int node)
{
	ui_own_sort(u);
	if (col_same(u->sort.col, u->sort.node, c, node)) {
		ui_resort(u);
		return;
	}
	u->sort.col = c;
	u->sort.node = node;
	u->sort.descending = col_get(c)->desc_sort;
	ui_resort(u);
}

/* Filter: "node N" / "on node N", "remote>=X" (REMOTE%), else a name. */
static bool row_wanted(const struct ui *u, const struct snap_proc *p)
{
	const char *f = u->filter;
	if (!f[0])
		return true;
	int node;
	double pct;
	if (sscanf(f, "on node %d", &node) == 1 || sscanf(f, "node %d", &node) == 1)
		return p->home >= 0 && u->se.topo.nodes[p->home].id == node;
	if (strncmp(f, "cgroup ", 7) == 0) {
		/* A path: that cgroup and the ones below it; else a part of one. */
		const char *want = f + 7, *cg = p->cgroup;
		size_t wl = strlen(want);
		if (!cg)
			return false;
		if (want[0] == '/')
			return strcmp(want, "/") == 0 || (strncmp(cg, want, wl) == 0 &&
							  (cg[wl] == '\0' || cg[wl] == '/'));
		return strstr(cg, want) != NULL;
	}
	if (sscanf(f, "remote%%>=%lf", &pct) == 1 || sscanf(f, "remote>=%lf", &pct) == 1 ||
	    sscanf(f, "remote%% >= %lf", &pct) == 1 || sscanf(f, "remote >= %lf", &pct) == 1)
		return snap_remote_pct(p) >= pct;
	return strstr(p->info.comm, f) || strstr(p->info.cmdline, f);
}

/* The tree view in O(n log n): children found by a sorted (ppid, index)
 * list, parents by a sorted PID list, the walk with its own stack (a
 * parent chain as long as the process list does not grow the C stack).
 * Siblings keep the table's order; a row not wanted hides its subtree. */
struct tree_kid { int ppid; size_t idx; };

static int cmp_kid(const void *a, const void *b)
{
	const struct tree_kid *x = a, *y = b;
	if (x->ppid != y->ppid)
		return x->ppid < y->ppid ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* The first kid with this ppid, or n. */
static size_t kids_of(const struct tree_kid *k, size_t n, int ppid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (k[mid].ppid < ppid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct tree_frame { size_t next; int pid, depth; };

static void tree_rows(struct ui *u)
{
	const struct snapshot *s = &u->snap;
	size_t n = s->nprocs;
	struct tree_kid *kids = malloc((n + 1) * sizeof(*kids));
	struct tree_kid *pids = malloc((n + 1) * sizeof(*pids));   /* (pid, index) */
	bool *used = calloc(n + 1, sizeof(bool));
	struct tree_frame *st = malloc((n + 1) * sizeof(*st));
	if (!kids || !pids || !used || !st)
		goto out;
	/* By position in the display order (snapshot_row): siblings in it. */
	for (size_t i = 0; i < n; i++) {
		kids[i] = (struct tree_kid){ snapshot_row(s, i)->info.ppid, i };
		pids[i] = (struct tree_kid){ snapshot_row(s, i)->info.pid, i };
	}
	if (n) {
		qsort(kids, n, sizeof(*kids), cmp_kid);
		qsort(pids, n, sizeof(*pids), cmp_kid);
	}
	for (size_t i = 0; i < n; i++) {
		const struct snap_proc *p = snapshot_row(s, i);
		/* Roots: processes whose parent is not in the list, or not
		 * shown (the filter left it out: its children move up). */
		if (used[i] || !row_wanted(u, p))
			continue;
		size_t par = kids_of(pids, n, p->info.ppid);
		if (par < n && pids[par].ppid == p->info.ppid && row_wanted(u, snapshot_row(s, pids[par].idx)))
			continue;
		used[i] = true;
		u->rows[u->nrows] = (uint32_t)snapshot_row_index(s, i);
		u->depth[u->nrows++] = 0;
		size_t top = 0;
		st[top++] = (struct tree_frame){ kids_of(kids, n, p->info.pid), p->info.pid, 1 };
		while (top) {
			struct tree_frame *f = &st[top - 1];
			if (f->next >= n || kids[f->next].ppid != f->pid) {
				top--;
				continue;
			}
			size_t c = kids[f->next++].idx;
			const struct snap_proc *q = snapshot_row(s, c);
			if (used[c] || !row_wanted(u, q))
				continue;       /* (one not shown is a root itself) */
			used[c] = true;
			u->rows[u->nrows] = (uint32_t)snapshot_row_index(s, c);
			u->depth[u->nrows++] = f->depth;
			if (top < n)
				st[top++] = (struct tree_frame){ kids_of(kids, n, q->info.pid), q->info.pid,
							  f->depth + 1 };
		}
	}
out:
	free(kids);
	free(pids);
	free(used);
	free(st);
}

/* 'H': a row for every thread but the main one, under its process. */
static void add_thread_rows(struct ui *u)
{
	size_t n = u->nrows;
	for (size_t r = 0; r < u->nrows; r++)
		n += u->snap.procs[u->rows[r]].info.thr_n;
	uint32_t *rows = malloc((n + 1) * sizeof(*rows));
	int *depth = malloc((n + 1) * sizeof(int)), *thr = malloc((n + 1) * sizeof(int));
	if (!rows || !depth || !thr) {
		free(rows);
		free(depth);
		free(thr);
		return;
	}
	size_t o = 0;
	for (size_t r = 0; r < u->nrows; r++) {
		const struct snap_proc *p = &u->snap.procs[u->rows[r]];
		rows[o] = u->rows[r];
		depth[o] = u->depth[r];
		thr[o++] = -1;
		for (size_t k = 0; k < p->info.thr_n; k++) {
			if (snap_threads(&u->snap, p)[k].tid == p->info.pid)
				continue;
			rows[o] = u->rows[r];
			depth[o] = u->depth[r] + 1;
			thr[o++] = (int)k;
		}
	}
	free(u->rows);
	free(u->depth);
	free(u->thr);
	u->rows = rows;
	u->depth = depth;
	u->thr = thr;
	u->nrows = o;
}

enum sampler_cgroups ui_cg_need(const struct ui *u)
{
	if (u->screen == SCR_CGROUPS)
		return SAMPLER_CG_ALL;
	if (u->screen == SCR_DETAIL || col_list_find(&u->cols, COL_CGROUP) >= 0 ||
	    strncmp(u->filter, "cgroup ", 7) == 0)
		return SAMPLER_CG_PROCS;
	return SAMPLER_CG_OFF;
}

void ui_rebuild_rows(struct ui *u)
{
	const struct snapshot *s = &u->snap;
	free(u->rows);
	free(u->depth);
	free(u->thr);
	u->rows = malloc((s->nprocs + 1) * sizeof(*u->rows));
	u->depth = calloc(s->nprocs + 1, sizeof(int));
	u->thr = malloc((s->nprocs + 1) * sizeof(int));
	u->nrows = 0;
	if (!u->rows || !u->depth || !u->thr)
		return;
	if (u->tree) {
		tree_rows(u);
	} else {
		for (size_t i = 0; i < s->nprocs; i++)
			if (row_wanted(u, snapshot_row(s, i)))
				u->rows[u->nrows++] = (uint32_t)snapshot_row_index(s, i);
	}
	if (u->threads)
		add_thread_rows(u);
	else
		for (size_t r = 0; r < u->nrows; r++)
			u->thr[r] = -1;
	/* Keep the selection on the same process. */
	long sel = -1;
	for (size_t r = 0; r < u->nrows && u->sel_pid >= 0; r++)
		if (s->procs[u->rows[r]].info.pid == u->sel_pid && u->thr[r] < 0) {
			sel = (long)r;
			break;
		}
	if (sel < 0)
		sel = u->sel < (long)u->nrows ? u->sel : (long)u->nrows - 1;
	u->sel = sel < 0 ? 0 : sel;
	const struct snap_proc *p = ui_selected(u);
	u->sel_pid = p ? p->info.pid : -1;
}
