/* ui_rows.c - which rows the process table shows: the filter, tree order
 * and thread rows over the snapshot, and the selected process. */
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
		return p->remote_pct >= pct;
	return strstr(p->info.comm, f) || strstr(p->info.cmdline, f);
}

static size_t tree_add(struct ui *u, size_t *order, size_t n, int ppid, int depth,
		       bool *used)
{
	for (size_t i = 0; i < u->snap.nprocs; i++) {
		const struct snap_proc *p = &u->snap.procs[i];
		if (used[i] || p->info.ppid != ppid || !row_wanted(u, p))
			continue;
		used[i] = true;
		order[n] = i;
		u->depth[n] = depth;
		n = tree_add(u, order, n + 1, p->info.pid, depth + 1, used);
	}
	return n;
}

/* 'H': a row for every thread but the main one, under its process. */
static void add_thread_rows(struct ui *u)
{
	size_t n = u->nrows;
	for (size_t r = 0; r < u->nrows; r++)
		n += u->snap.procs[u->rows[r]].info.thr_n;
	size_t *rows = malloc((n + 1) * sizeof(size_t));
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
			if (p->threads[k].tid == p->info.pid)
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
	u->rows = malloc((s->nprocs + 1) * sizeof(size_t));
	u->depth = calloc(s->nprocs + 1, sizeof(int));
	u->thr = malloc((s->nprocs + 1) * sizeof(int));
	u->nrows = 0;
	if (!u->rows || !u->depth || !u->thr)
		return;
	if (u->tree) {
		bool *used = calloc(s->nprocs + 1, sizeof(bool));
		if (!used)
			return;
		/* Roots: processes whose parent is not in the list. */
		for (size_t i = 0; i < s->nprocs; i++) {
			const struct snap_proc *p = &s->procs[i];
			bool has_parent = false;
			for (size_t j = 0; j < s->nprocs && !has_parent; j++)
				has_parent = s->procs[j].info.pid == p->info.ppid;
			if (has_parent || used[i] || !row_wanted(u, p))
				continue;
			used[i] = true;
			u->rows[u->nrows] = i;
			u->depth[u->nrows] = 0;
			u->nrows = tree_add(u, u->rows, u->nrows + 1, p->info.pid, 1, used);
		}
		free(used);
	} else {
		for (size_t i = 0; i < s->nprocs; i++)
			if (row_wanted(u, &s->procs[i]))
				u->rows[u->nrows++] = i;
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
