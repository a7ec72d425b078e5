/* ui_history.c - the history on screen: fed after every sample (live or
 * replayed) with the nodes and the processes in view, drawn as
 * sparklines in the node panels, the Nodes screen and the detail. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "ui_int.h"

/* The processes in view: the table's visible rows, the selection, the
 * detail's process. */
void ui_history_add(struct ui *u)
{
	if (u->hist.nnodes != u->se.topo.nnodes || !u->hist.node) {
		history_free(&u->hist);
		if (history_init(&u->hist, HIST_DEFAULT, u->se.topo.nnodes) != 0)
			return;
	}
	int pids[512];
	size_t n = 0;
	long h = u->table_h > 0 ? u->table_h : 40;
	for (long r = u->top; r < (long)u->nrows && r < u->top + h && n < 500; r++)
		pids[n++] = u->snap.procs[u->rows[r]].info.pid;
	if (u->sel_pid > 0)
		pids[n++] = u->sel_pid;
	if (u->screen == SCR_DETAIL && u->detail.pid > 0)
		pids[n++] = u->detail.pid;
	history_add(&u->hist, &u->snap, pids, n);
}

/* A sparkline of r at (y, x), at most w columns; columns used. */
int ui_spark(struct ui *u, int y, int x, int w, const struct hist_ring *r, double lo, double hi,
	     enum ui_color c)
{
	if (w <= 0 || x >= COLS || !r)
		return 0;
	if (x + w > COLS)
		w = COLS - x;
	char buf[4 * 400 + 1];
	if (w > 400)
		w = 400;
	size_t cols = hist_spark(r, (size_t)w, u->ascii, lo, hi, buf, sizeof(buf));
	attron(ui_attr(u, c));
	mvaddstr(y, x, buf);
	attroff(ui_attr(u, c));
	return (int)cols;
}

/* "cpu ▁▂▃  free ▅▅▄  miss ▁▁▁" for node i in w columns at (y, x); on a
 * machine with memory tiers also "promo ▁▂▃  demo ▁▁▅" (pages/s promoted
 * into it, demoted out of it). */
void ui_history_node_line(struct ui *u, size_t i, int y, int x, int w)
{
	if (w < 24 || !u->hist.node)
		return;
	int keys = tiers_multi(&u->snap.nk.tiers) ? HIST_NODE_KEYS : HIST_PROMOTE;
	static const char *const lab[HIST_NODE_KEYS] = { "cpu ", "free ", "miss ", "promo ", "demo " };
	static const enum ui_color col[HIST_NODE_KEYS] = { C_BAR_USER, C_BAR_MEM, C_REMOTE, C_BAR_MEM,
							   C_REMOTE };
	int labels = 0;
	for (int k = 0; k < keys; k++)
		labels += (int)strlen(lab[k]) + 2;
	int each = (w - labels) / keys;
	if (each > 60)
		each = 60;
	if (each < 4)
		return;
	double tot = (double)u->se.topo.nodes[i].mem_total_kb;
	for (int k = 0; k < keys; k++) {
		attron(ui_attr(u, C_DIM));
		mvaddstr(y, x, lab[k]);
		attroff(ui_attr(u, C_DIM));
		x += (int)strlen(lab[k]);
		/* CPU on 0..100 %, free memory on 0..the node's size, the
		 * rates on 0..their highest. */
		const struct hist_ring *r = history_node(&u->hist, i, (enum hist_node_key)k);
		double lo = 0, hi = k == HIST_CPU ? 100 : k == HIST_FREE_KB && tot > 0 ? tot : -1;
		if (hi < 0)
			ui_rate_range(r, &lo, &hi);
		ui_spark(u, y, x, each, r, lo, hi, col[k]);
		x += each + 2;
	}
}

/* A rate's range: 0 .. its highest (all 0: a flat line at the bottom). */
void ui_rate_range(const struct hist_ring *r, double *lo, double *hi)
{
	double a = 0, b = 0;
	*lo = 0;
	*hi = hist_range(r, &a, &b) && b > 0 ? b : 1;
}

/* Tier j's pages/s promoted into it and demoted out of it, as
 * sparklines: "promoted in ▁▂▃  demoted out ▁▁▅" at (y, x), w columns. */
void ui_history_tier_line(struct ui *u, size_t j, int y, int x, int w)
{
	static const char *const lab[2] = { "promoted in ", "demoted out " };
	static const enum hist_node_key key[2] = { HIST_PROMOTE, HIST_DEMOTE };
	static const enum ui_color col[2] = { C_BAR_MEM, C_REMOTE };
	int each = (w - 28) / 2;
	if (each > 60)
		each = 60;
	if (each < 4 || !u->hist.node)
		return;
	for (int k = 0; k < 2; k++) {
		struct hist_ring r;
		if (history_tier(&u->hist, &u->snap.nk.tiers, j, key[k], &r) != 0)
			return;
		attron(ui_attr(u, C_DIM));
		mvaddstr(y, x, lab[k]);
		attroff(ui_attr(u, C_DIM));
		x += (int)strlen(lab[k]);
		double lo, hi;
		ui_rate_range(&r, &lo, &hi);
		ui_spark(u, y, x, each, &r, lo, hi, col[k]);
		hist_ring_free(&r);
		x += each + 2;
	}
}
