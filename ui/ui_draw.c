/* ui_draw.c - the main screen: node panels, distance heatmap, status line,
 * process table and function-key bar. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "output.h"
#include "sanitize.h"
#include "ui_int.h"

int ui_attr(const struct ui *u, enum ui_color c)
{
	if (u->color && has_colors())
		return COLOR_PAIR(c);
	switch (c) {
	case C_HEADER: case C_SELECTED: case C_FKEY_LABEL: return A_REVERSE;
	case C_WARN: case C_REMOTE: case C_TAGGED: return A_BOLD;
	default: return A_NORMAL;
	}
}

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

static int draw_nodes(struct ui *u, int y, int maxy)
{
	const struct topology *t = &u->topo;
	const struct snapshot *s = &u->snap;
	bool compact = t->nnodes > 4;
	size_t shown = 0;
	for (size_t i = 0; i < t->nnodes && y < maxy - (i + 1 < t->nnodes); i++, shown++) {
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
			attron(ui_attr(u, C_DIM));
			mvprintw(y, x, "%-*.*s", w, w, "no CPUs (memory-only)");
			attroff(ui_attr(u, C_DIM));
		} else {
			char pct[16];
			fmt_pct(pct, sizeof(pct), ld->busy);
			snprintf(txt, sizeof(txt), "%s%%", pct);
			bar(u, y, x, w, ld->user, ld->system, C_BAR_USER, C_BAR_SYS, txt);
		}
		x += w + 1;
		int64_t tot = ns->mem.mem_total_kb, fr = ns->mem.mem_free_kb;
		if (tot > 0 && fr >= 0) {
			char a[16], b[16];
			fmt_human_kb(a, sizeof(a), tot - fr);
			fmt_human_kb(b, sizeof(b), tot);
			snprintf(txt, sizeof(txt), "%s/%s", a, b);
			if (compact) {
				bar(u, y, x, w, 100.0 * (double)(tot - fr) / (double)tot, 0,
				    C_BAR_MEM, C_BAR_MEM, txt);
			} else {
				y++;
				mvaddstr(y, 0, "Mem");
				bar(u, y, 5, w, 100.0 * (double)(tot - fr) / (double)tot, 0,
				    C_BAR_MEM, C_BAR_MEM, txt);
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
		if (kind[0] && compact)
			snprintf(line + n, sizeof(line) - (size_t)n, "  %s", kind);
		if (x < COLS)
			mvaddnstr(y, x, line, COLS - x);
		y++;
	}
	if (shown < t->nnodes) {
		attron(ui_attr(u, C_DIM));
		mvprintw(y++, 0, "  +%zu more nodes (Tab: Nodes screen, n: hide panels)", t->nnodes - shown);
		attroff(ui_attr(u, C_DIM));
	}
	return y;
}

static void draw_status(struct ui *u, int y)
{
	const struct snapshot *s = &u->snap;
	char self[16];
	fmt_pct(self, sizeof(self), s->self_cpu_pct);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	double age = (double)(now.tv_sec - s->wall.tv_sec) +
		     (double)(now.tv_nsec - s->wall.tv_nsec) / 1e9;
	move(y, 0);
	clrtoeol();
	attron(ui_attr(u, C_LABEL));
	char nm[64] = "";
	if (!s->nm_stats.full && s->seq > 0)
		snprintf(nm, sizeof(nm), "  numa_maps %zu read %zu sampled %.0fms",
			 s->nm_stats.read, s->nm_stats.sampled, s->nm_stats.spent_ms);
	mvprintw(y, 0, "Tasks: %zu shown of %zu  interval %.1fs  age %.1fs  tool CPU %s%%%s%s%s%s%s%s",
		 u->nrows, s->nprocs, u->delay, age, self, nm, u->paused ? "  [PAUSED]" : "",
		 u->filter[0] ? "  filter: " : "", u->filter, u->tree ? "  [tree]" : "",
		 u->threads ? "  [threads]" : "");
	attroff(ui_attr(u, C_LABEL));
	char pw[128];
	size_t nw = u->topo.nwarnings + (size_t)snapshot_proc_warning(s, pw, sizeof(pw));
	if (nw && !u->msg[0]) {
		/* Broken input is said where it is seen; the text is on Nodes. */
		attron(ui_attr(u, C_WARN));
		printw("  %zu warning%s (Tab: Nodes)", nw, nw == 1 ? "" : "s");
		attroff(ui_attr(u, C_WARN));
	}
	if (u->msg[0]) {
		attron(ui_attr(u, C_WARN));
		/* Shift a long message left rather than cut it off. */
		int len = (int)strlen(u->msg), x = COLS / 2 > 70 ? 70 : COLS / 2;
		if (x + len > COLS - 1)
			x = COLS - 1 - len > 0 ? COLS - 1 - len : 0;
		mvaddnstr(y, x, u->msg, COLS - 1 - x);
		attroff(ui_attr(u, C_WARN));
	}
}

static void draw_fkeys(struct ui *u)
{
	static const char *keys[][2] = {
		{ "F1", "Help" }, { "F3", "Search" }, { "F4", "Filter" }, { "F5", "Tree" },
		{ "F6", "SortBy" }, { "Tab", "Screen" }, { "F9", "Kill" }, { "F10", "Quit" },
	};
	int y = LINES - 1, x = 0;
	move(y, 0);
	clrtoeol();
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && x < COLS; i++) {
		attron(ui_attr(u, C_FKEY));
		mvaddnstr(y, x, keys[i][0], COLS - x);
		attroff(ui_attr(u, C_FKEY));
		x += (int)strlen(keys[i][0]);
		attron(ui_attr(u, C_FKEY_LABEL));
		mvprintw(y, x, "%-7s", keys[i][1]);
		attroff(ui_attr(u, C_FKEY_LABEL));
		x += 7;
	}
	attron(ui_attr(u, C_FKEY_LABEL));
	if (x < COLS)
		mvhline(y, x, ' ', COLS - x);
	attroff(ui_attr(u, C_FKEY_LABEL));
}

void ui_draw(struct ui *u)
{
	erase();
	if (COLS < 40 || LINES < 10) {
		mvaddstr(0, 0, "window too small");
		refresh();
		return;
	}
	if (u->screen == SCR_HELP) {
		ui_draw_help(u);
		refresh();
		return;
	}
	static const char *names[] = { "Processes", "Nodes", "Topology" };
	int x = 0;
	for (int i = 0; i < SCR_NSCREENS; i++) {
		bool cur = (int)u->screen == i || (u->screen == SCR_DETAIL && i == 0) ||
			   ((u->screen == SCR_KILL || u->screen == SCR_SORT ||
			     u->screen == SCR_ACTION) && i == 0);
		attron(cur ? ui_attr(u, C_HEADER) : ui_attr(u, C_DIM));
		mvprintw(0, x, " %s ", names[i]);
		attroff(ui_attr(u, C_HEADER) | ui_attr(u, C_DIM));
		x += (int)strlen(names[i]) + 3;
	}
	char title[512];
	snprintf(title, sizeof(title), " numatop-tui %s  %s%s", NUMATOP_VERSION,
		 fsroot_is_live(u->root) ? "live" : "root ",
		 fsroot_is_live(u->root) ? "" : fsroot_path(u->root));
	if (x < COLS)
		mvaddnstr(0, x, title, COLS - x);   /* never wrap onto the panels */
	int y = 1;
	if (u->screen == SCR_NODES) {
		draw_status(u, LINES - 2);
		ui_draw_nodes(u, y, LINES - 3 - y);
	} else if (u->screen == SCR_TOPOLOGY) {
		draw_status(u, LINES - 2);
		ui_draw_topology(u, y, LINES - 3 - y);
	} else if (u->screen == SCR_DETAIL) {
		draw_status(u, LINES - 2);
		ui_draw_detail(u, y, LINES - 3 - y);
	} else {
		/* Panels and heatmap share what the table (6 rows at least)
		 * leaves; with both on, the panels take at most two thirds. */
		int room = LINES - 8;
		if (u->show_nodes)
			y = draw_nodes(u, y, u->show_heatmap ? y + (room - y) * 2 / 3 : room);
		if (u->show_heatmap)
			y = ui_draw_heatmap(u, y, room);
		draw_status(u, y++);
		ui_draw_table(u, y, LINES - 1 - y);
		if (u->screen == SCR_KILL)
			ui_draw_kill(u);
		if (u->screen == SCR_SORT)
			ui_draw_sort_menu(u);
		if (u->screen == SCR_ACTION)
			ui_action_draw(u);
		if (u->screen == SCR_MEASURE)
			ui_measure_draw(u);
	}
	draw_fkeys(u);
	refresh();
}
