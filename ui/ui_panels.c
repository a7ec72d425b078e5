/* ui_panels.c - the node panels over the process table: per node a CPU
 * meter, a memory meter and the allocation rates; on machines with many
 * nodes they flow into columns, as htop's CPU meters do, and when even
 * that does not fit, the busiest nodes are shown with "+N more". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "ui_int.h"
#include "format.h"
#include "snapshot_tiers.h"

#define FLOW_CELL 25      /* the narrowest cell of the flowing layout */

static void rate(char *out, size_t n, double v)
{
	if (v < 0)
		snprintf(out, n, "-");
	else if (v < 10000)
		snprintf(out, n, "%.0f", v);
	else if (v < 1e7)
		snprintf(out, n, "%.0fk", v / 1e3);
	else
		snprintf(out, n, "%.0fM", v / 1e6);
}

/* A meter: [|||||    12.3%] with two coloured parts. */
static void bar(struct ui *u, int y, int x, int w, double a, double b,
		enum ui_color ca, enum ui_color cb, const char *text)
{
	if (w < 4)
		return;
	int inner = w - 2;
	mvaddch(y, x, '[');
	int na = a > 0 ? (int)(a / 100.0 * inner + 0.5) : 0;
	int nb = b > 0 ? (int)((a + b) / 100.0 * inner + 0.5) - na : 0;
	if (na > inner) na = inner;
	if (na + nb > inner) nb = inner - na;
	int tl = (int)strlen(text);
	for (int i = 0; i < inner; i++) {
		int tpos = i - (inner - tl);
		char c = tpos >= 0 ? text[tpos] : (i < na + nb ? '|' : ' ');
		attron(i < na ? ui_attr(u, ca) : i < na + nb ? ui_attr(u, cb) : 0);
		mvaddch(y, x + 1 + i, (chtype)(unsigned char)c);
		attroff(ui_attr(u, ca) | ui_attr(u, cb));
	}
	mvaddch(y, x + w - 1, ']');
}

/* A memory-only node of a slower tier: "tier67 slow, 300 ns 5.1 GB/s"
 * (HMAT read latency and bandwidth when known); "" otherwise. */
static void tier_words(const struct snapshot *s, size_t i, char *out, size_t n)
{
	const struct tier_model *m = &s->nk.tiers;
	out[0] = '\0';
	if (!tiers_node_far(m, i))
		return;
	const struct tier_node *nd = &m->node[i];
	int o = snprintf(out, n, "tier%d slow, memory-only", nd->tier);
	if (nd->read_lat_ns > 0 && o > 0 && (size_t)o < n)
		snprintf(out + o, n - (size_t)o, ", %lld ns", (long long)nd->read_lat_ns);
}

/* One node in the two-line (TWO) or one-line (ONE) style; rows used. */
static int draw_node_line(struct ui *u, size_t i, int y, bool compact)
{
	const struct topology *t = &u->se.topo;
	const struct snapshot *s = &u->snap;
	int y0 = y;
	{
		const struct node_sample *ns = &s->nodes[i];
		const struct cpu_load *ld = &s->node_load[i];
		const char *kind = fmt_node_kind(t, i, ns);
		char lab[24], txt[48], hit[16], miss[16], other[16];
		snprintf(lab, sizeof(lab), "N%-3d", t->nodes[i].id);
		attron(ui_attr(u, C_LABEL));
		mvaddstr(y, 0, lab);
		attroff(ui_attr(u, C_LABEL));
		int x = 5, w = compact ? (COLS - 5) / 3 : (COLS - 5) / 2;
		if (w > 40) w = 40;
		if (bitmap_empty(&t->nodes[i].cpus)) {
			char far[64];
			tier_words(s, i, far, sizeof(far));
			attron(ui_attr(u, C_DIM));
			mvprintw(y, x, "%-*.*s", w, w, far[0] ? far : "no CPUs (memory-only)");
			attroff(ui_attr(u, C_DIM));
		} else {
			char pct[16];
			fmt_pct(pct, sizeof(pct), ld->busy);
			snprintf(txt, sizeof(txt), "%s%%", pct);
			bar(u, y, x, w, ld->user, ld->system, C_BAR_USER, C_BAR_SYS, txt);
		}
		x += w + 1;
		if (!compact)
			ui_history_node_line(u, i, y, x, COLS - x);
		int64_t tot = ns->mem.mem_total_kb;
		double used_pct = snapshot_node_used_pct(ns);
		if (used_pct >= 0) {
			/* As htop: programs' memory (green) and the page cache
			 * (yellow) apart; the number is the programs' part. */
			int64_t used = snapshot_node_used_kb(ns), cache = snapshot_node_cache_kb(ns);
			double prog_pct = used_pct, cache_pct = 0;
			if (cache >= 0 && tot > 0) {
				prog_pct = 100.0 * (double)(used - cache) / (double)tot;
				cache_pct = 100.0 * (double)cache / (double)tot;
			}
			char a[16], b[16];
			fmt_human_kb(a, sizeof(a), cache >= 0 ? used - cache : used);
			fmt_human_kb(b, sizeof(b), tot);
			snprintf(txt, sizeof(txt), "%s/%s", a, b);
			if (compact) {
				bar(u, y, x, w, prog_pct, cache_pct, C_BAR_USER, C_BAR_MEM, txt);
			} else {
				y++;
				mvaddstr(y, 0, "Mem");
				bar(u, y, 5, w, prog_pct, cache_pct, C_BAR_USER, C_BAR_MEM, txt);
				x = 5 + w + 1;
			}
		} else {
			attron(ui_attr(u, C_DIM));
			mvprintw(y, x, "%-*.*s", w, w, tot == 0 ? "no memory" : "memory unknown");
			attroff(ui_attr(u, C_DIM));
		}
		if (compact)
			x += w + 1;
		rate(hit, sizeof(hit), s->ns_rate[i][NUMASTAT_HIT]);
		rate(miss, sizeof(miss), s->ns_rate[i][NUMASTAT_MISS]);
		rate(other, sizeof(other), s->ns_rate[i][NUMASTAT_OTHER_NODE]);
		char line[160];
		int n = snprintf(line, sizeof(line), "hit %s/s miss %s/s other %s/s", hit, miss, other);
		if (ns->npools && !compact) {
			for (size_t k = 0; k < ns->npools && n < (int)sizeof(line) - 32; k++)
				n += snprintf(line + n, sizeof(line) - (size_t)n, "  huge%lldk %lld/%lld",
					      (long long)ns->pools[k].size_kb,
					      (long long)ns->pools[k].free, (long long)ns->pools[k].nr);
		}
		if (tiers_multi(&s->nk.tiers) && n < (int)sizeof(line) - 40) {
			/* Pages the kernel promoted into it, demoted out of it. */
			char pr[16], de[16];
			rate(pr, sizeof(pr), snapshot_node_promote_rate(s, i));
			rate(de, sizeof(de), snapshot_node_demote_rate(s, i));
			n += snprintf(line + n, sizeof(line) - (size_t)n, "  promo %s/s demo %s/s", pr, de);
		}
		if (kind[0] && compact && n < (int)sizeof(line))
			snprintf(line + n, sizeof(line) - (size_t)n, "  %s", kind);
		if (x < COLS)
			mvaddnstr(y, x, line, COLS - x);
		y++;
	}
	return y - y0;
}



int ui_panel_cols(void)
{
	return COLS / FLOW_CELL > 1 ? COLS / FLOW_CELL : 1;
}

int ui_panel_lines(const struct ui *u, enum ui_panel_mode m)
{
	int n = (int)u->se.topo.nnodes, c = ui_panel_cols();
	switch (m) {
	case PANEL_TWO: return n <= 4 ? 2 * n : -1;
	case PANEL_ONE: return n;
	default: return (n + c - 1) / c;
	}
}

/* One node in a cell of the flowing layout: label, CPU meter, memory
 * meter (percent used). */
static void draw_cell(struct ui *u, size_t i, int y, int x, int w, int idw)
{
	const struct topology *t = &u->se.topo;
	const struct node_sample *ns = &u->snap.nodes[i];
	const struct cpu_load *ld = &u->snap.node_load[i];
	char lab[24], txt[24], pct[16];
	snprintf(lab, sizeof(lab), "N%-*d", idw, t->nodes[i].id);
	attron(ui_attr(u, C_LABEL));
	mvaddnstr(y, x, lab, w);
	attroff(ui_attr(u, C_LABEL));
	int bw = (w - idw - 3) / 2, bx = x + idw + 1;
	if (bitmap_empty(&t->nodes[i].cpus)) {
		char far[32];
		if (tiers_node_far(&u->snap.nk.tiers, i))
			snprintf(far, sizeof(far), "tier%d", u->snap.nk.tiers.node[i].tier);
		else
			snprintf(far, sizeof(far), "mem-only");
		attron(ui_attr(u, C_DIM));
		mvprintw(y, bx, "%-*.*s", bw, bw, far);
		attroff(ui_attr(u, C_DIM));
	} else {
		fmt_pct(pct, sizeof(pct), ld->busy);
		snprintf(txt, sizeof(txt), "%s%%", pct);
		bar(u, y, bx, bw, ld->user, ld->system, C_BAR_USER, C_BAR_SYS, txt);
	}
	bx += bw + 1;
	int64_t tot = ns->mem.mem_total_kb;
	double used = snapshot_node_used_pct(ns);
	if (used >= 0) {
		snprintf(txt, sizeof(txt), "%.0f%%", used);
		bar(u, y, bx, bw, used, 0, C_BAR_MEM, C_BAR_MEM, txt);
	} else {
		attron(ui_attr(u, C_DIM));
		mvprintw(y, bx, "%-*.*s", bw, bw, tot == 0 ? "no mem" : "mem ?");
		attroff(ui_attr(u, C_DIM));
	}
}

/* How busy node i is: CPU first, then memory in use (for "+N more"). */
static double busy(const struct ui *u, size_t i)
{
	const struct node_sample *ns = &u->snap.nodes[i];
	double cpu = u->snap.node_load[i].busy;
	double used = snapshot_node_used_pct(ns);
	double mem = used >= 0 ? used / 100 : 0;
	return (cpu > 0 ? cpu : 0) * 10 + mem;
}

static int cmp_busy(const void *a, const void *b, void *ctx)
{
	const struct ui *u = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	double bx = busy(u, x), by = busy(u, y);
	return bx != by ? (bx < by ? 1 : -1) : (x > y) - (x < y);
}

static int cmp_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

int ui_draw_panels(struct ui *u, int y, int lines, enum ui_panel_mode m)
{
	size_t n = u->se.topo.nnodes;
	if (lines <= 0 || n == 0)
		return y;
	if (m != PANEL_FLOW) {
		/* Several memory tiers: the nodes grouped by tier, fast -> slow. */
		const struct tier_model *tm = &u->snap.nk.tiers;
		bool grouped = tiers_multi(tm) && tm->nnodes == n;
		for (long o = grouped ? -1 : 0; o < (grouped ? (long)tm->ntiers : 1); o++)
			for (size_t i = 0; i < n; i++)
				if (!grouped || tm->node[i].order == (int)o)
					y += draw_node_line(u, i, y, m == PANEL_ONE);
		return y;
	}
	int cols = ui_panel_cols(), rows = (int)((n + (size_t)cols - 1) / (size_t)cols);
	size_t shown = n;
	if (rows > lines) {          /* the busiest nodes, and a line for the rest */
		rows = lines - 1;
		shown = (size_t)rows * (size_t)cols;
		if (shown >= n)
			shown = n - 1;
	}
	size_t *order = malloc(n * sizeof(*order));
	if (!order)
		return y;
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	if (shown < n) {
		qsort_r(order, n, sizeof(*order), cmp_busy, u);
		qsort(order, shown, sizeof(*order), cmp_index);
	}
	int idw = snprintf(NULL, 0, "%d", u->se.topo.nodes[n - 1].id) + 1, w = COLS / cols;
	for (size_t p = 0; p < shown; p++)   /* down the columns, as htop */
		draw_cell(u, order[p], y + (int)(p % (size_t)rows), (int)(p / (size_t)rows) * w, w - 1, idw);
	free(order);
	y += rows;
	if (shown < n) {
		char more[96];
		if (shown)
			snprintf(more, sizeof(more), "  +%zu more nodes, the busiest shown (Tab: Nodes, "
				 "n: hide panels)", n - shown);
		else
			snprintf(more, sizeof(more), "  %zu nodes (Tab: Nodes, n: hide panels)", n);
		attron(ui_attr(u, C_DIM));
		mvaddnstr(y++, 0, more, COLS);
		attroff(ui_attr(u, C_DIM));
	}
	return y;
}
