/* ui_draw.c - the main screen: node panels, distance heatmap, status line,
 * process table and function-key bar. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "output.h"
#include "sanitize.h"
#include "ui_int.h"
#include "format.h"
#include "monotime.h"

/* s from (y, x), cut at maxcols display columns (not bytes: a block
 * character is 3 bytes and one column), never past the edge. */
/* Bytes of s that fit in maxcols display columns (whole characters;
 * an invalid byte counts one column); *used: their columns. */
static size_t fit_cols(const char *s, int maxcols, int *used)
{
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	size_t off = 0, len = strlen(s);
	int cols = 0;
	while (off < len) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s + off, len - off, &st);
		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			k = 1, wc = L'?';
			memset(&st, 0, sizeof(st));
		}
		int w = wcwidth(wc);
		if (cols + (w > 0 ? w : 0) > maxcols)
			break;
		cols += w > 0 ? w : 0;
		off += k;
	}
	if (used)
		*used = cols;
	return off;
}

void ui_put(int y, int x, const char *s, int maxcols)
{
	if (maxcols > COLS - x)
		maxcols = COLS - x;
	/* A single-byte locale (C, POSIX): a byte beyond ASCII would come
	 * out as junk (~T, M-x); each such character is one '?'. */
	char a[4096];
	if (MB_CUR_MAX == 1) {
		const unsigned char *p = (const unsigned char *)s;
		while (*p && *p < 0x80)
			p++;
		if (*p) {
			sanitize_ascii(s, a, sizeof(a));
			s = a;
		}
	}
	mvaddnstr(y, x, s, (int)fit_cols(s, maxcols, NULL));
}

int ui_putf(int y, int x, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (x >= COLS)
		return COLS;
	ui_put(y, x, buf, COLS - x);
	int w = ui_text_width(buf);
	return w < COLS - x ? x + w : COLS;
}

int ui_text_width(const char *s)
{
	int w;
	fit_cols(s, 1 << 30, &w);
	return w;
}

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

static int status_part(struct ui *u, int y, int x, const char *s, enum ui_color c)
{
	if (x >= COLS)
		return x;
	attron(ui_attr(u, c));
	ui_put(y, x, s, COLS - x);
	attroff(ui_attr(u, c));
	return x + ui_text_width(s);
}

void ui_draw_status(struct ui *u, int y)
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
	/* What matters most first; every part cut at the edge, never wrapped
	 * onto the table. */
	char part[512];
	int x = 0;
	/* Thread view: rows are processes and their other threads; processes
	 * are counted as processes, and the threads shown said apart. */
	size_t procs_shown = u->nrows, thr_rows = 0;
	if (u->threads && u->thr) {
		for (size_t r = 0; r < u->nrows; r++)
			thr_rows += u->thr[r] >= 0;
		procs_shown -= thr_rows;
	}
	if (u->threads)
		snprintf(part, sizeof(part), "Tasks: %zu shown of %zu, with %zu threads", procs_shown,
			 s->nprocs, procs_shown + thr_rows);
	else
		snprintf(part, sizeof(part), "Tasks: %zu shown of %zu", u->nrows, s->nprocs);
	x = status_part(u, y, x, part, C_LABEL);
	if (s->kthreads_hidden) {
		snprintf(part, sizeof(part), "  %zu kernel threads hidden (K)", s->kthreads_hidden);
		x = status_part(u, y, x, part, C_DIM);
	}
	/* Not root: said as it is, not as one more warning. */
	size_t nw = u->se.topo.nwarnings + snapshot_warnings(s, NULL, NULL);
	if (snapshot_no_perm_text(s, part + 2, sizeof(part) - 2)) {
		part[0] = part[1] = ' ';
		x = status_part(u, y, x, part, C_WARN);
		if (!s->replayed)
			nw--;    /* it is one of the sample's warnings */
	}
	if (nw && !u->msg[0]) {
		/* Broken input is said where it is seen; the text is on Nodes. */
		snprintf(part, sizeof(part), "  %zu warning%s (Tab: Nodes)", nw, nw == 1 ? "" : "s");
		x = status_part(u, y, x, part, C_WARN);
	}
	char nm[96] = "";
	if (s->nm_stats.warmup)
		snprintf(nm, sizeof(nm), "  placement read for %zu of %zu", s->nm_stats.known,
			 s->nprocs);
	else if (!s->nm_stats.full && s->seq > 0)
		snprintf(nm, sizeof(nm), "  numa_maps %zu read %zu sampled %.0fms",
			 s->nm_stats.read, s->nm_stats.sampled, s->nm_stats.spent_ms);
	/* NUMA balancing at work, when it is on: the compact line. */
	char bal[128] = "";
	if (s->nk.balancing > 0) {
		const double *r = s->nk.sys_rate;
		char h[24], m[24];
		fmt_rate(h, sizeof(h), r[NVM_HINT_FAULTS]);
		fmt_rate(m, sizeof(m), r[NVM_PAGES_MIGRATED]);
		char loc[16] = "-";
		double lp = snapshot_hint_local_pct(&s->nk);
		if (lp >= 0)
			snprintf(loc, sizeof(loc), "%.0f%%", lp);
		snprintf(bal, sizeof(bal), "  balancing: faults %s %s local, migrated %s", h, loc, m);
	}
	/* The rest as whole fields, most useful first: one that does not fit
	 * whole is left out, never cut mid-word. */
	/* Access heat: who measures it, or in a word why nothing does. */
	static const char *const heat_short[ACCESS_NWHY] = {
		[ACCESS_OFF] = "off", [ACCESS_NO_DAMON] = "no DAMON in this kernel",
		[ACCESS_NO_VADDR] = "no DAMON for processes", [ACCESS_NOT_ROOT] = "DAMON needs root",
		[ACCESS_IN_USE] = "DAMON in use by another", [ACCESS_NOT_YET] = "DAMON starting",
		[ACCESS_RECORDED] = "not in this tree", [ACCESS_ERROR] = "DAMON error",
		[ACCESS_STALE] = "stale",
	};
	char heat[96] = "";
	const struct access_status *as = &s->access;
	if (as->why == ACCESS_ON)
		snprintf(heat, sizeof(heat), "  heat: DAMON %zu/%zu", as->monitored, as->max_targets);
	else if ((unsigned)as->why < ACCESS_NWHY && heat_short[as->why])
		snprintf(heat, sizeof(heat), "  heat: %s", heat_short[as->why]);
	char f[7][160];
	snprintf(f[0], sizeof(f[0]), "  interval %.1fs", u->delay);
	snprintf(f[1], sizeof(f[1]), "%s%s%s%s%.64s", u->paused ? "  [PAUSED]" : "",
		 u->tree ? "  [tree]" : "", u->threads ? "  [threads]" : "",
		 u->filter[0] ? "  filter: " : "", u->filter);
	snprintf(f[2], sizeof(f[2]), "  age %.1fs", age);
	snprintf(f[3], sizeof(f[3]), "  tool CPU %s%%", self);
	snprintf(f[4], sizeof(f[4]), "%s", nm);
	snprintf(f[5], sizeof(f[5]), "%s", heat);
	snprintf(f[6], sizeof(f[6]), "%s", bal);
	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++)
		if (f[k][0] && x + ui_text_width(f[k]) <= COLS)
			x = status_part(u, y, x, f[k], C_LABEL);
	/* A message: it replaces the whole line (no fragments of the line
	 * beside or under it), cut with an ellipsis at a character when it
	 * is longer, for UI_MSG_SECONDS after it was last changed (longer
	 * while a background job runs: its progress is its message). */
	double t = monotime_now();
	if (strcmp(u->msg, u->msg_seen) != 0) {
		snprintf(u->msg_seen, sizeof(u->msg_seen), "%s", u->msg);
		u->msg_since = t;
	} else if (u->msg[0] && t - u->msg_since > UI_MSG_SECONDS && !ui_job_running(u)) {
		u->msg[0] = u->msg_seen[0] = '\0';
	}
	if (u->msg[0]) {
		move(y, 0);
		clrtoeol();
		attron(ui_attr(u, C_WARN));
		int room = COLS - 1;
		if (ui_text_width(u->msg) <= room) {
			ui_put(y, 0, u->msg, room);
		} else {
			const char *ell = u->ascii || MB_CUR_MAX == 1 ? "..." : "\xe2\x80\xa6";
			int ew = ui_text_width(ell);
			ui_put(y, 0, u->msg, room - ew);
			int x0, y0;
			getyx(stdscr, y0, x0);
			(void)y0;
			ui_put(y, x0, ell, ew);
		}
		attroff(ui_attr(u, C_WARN));
	}
}

/* The first panel style whose lines fit in room. */
static bool panels_fit(const struct ui *u, int room, enum ui_panel_mode *m)
{
	static const enum ui_panel_mode modes[] = { PANEL_TWO, PANEL_ONE, PANEL_FLOW };
	for (size_t k = 0; k < sizeof(modes) / sizeof(*modes); k++) {
		int need = ui_panel_lines(u, modes[k]);
		if (need >= 0 && need <= room) {
			*m = modes[k];
			return true;
		}
	}
	return false;
}

/* The Processes screen in rows y0 .. y0+h-1: node panels and heatmap in
 * what the table leaves (at least half the height, and never fewer than
 * 5 rows), then the status line and the table. The panels go from two
 * lines a node, to one, to several columns, to the busiest nodes with
 * "+N more"; the heatmap from whole to one line pointing to its screen. */
void ui_draw_processes(struct ui *u, int y0, int h)
{
	int table_min = h / 2 > 6 ? h / 2 : 6;
	int top = h - 1 - table_min > 0 ? h - 1 - table_min : 0;
	int heat = u->show_heatmap ? ui_heatmap_lines(u) : 0;
	enum ui_panel_mode m = PANEL_FLOW;
	/* The whole heatmap when the panels fit beside it in some style. */
	bool heat_whole = heat <= top && (!u->show_nodes || panels_fit(u, top - heat, &m));
	int heat_lines = !u->show_heatmap || top < 1 ? 0 : heat_whole ? heat : 1;
	if (u->show_nodes && !heat_whole && !panels_fit(u, top - heat_lines, &m))
		m = PANEL_FLOW;      /* the busiest, and "+N more" */
	int y = y0;
	if (u->show_nodes)
		y = ui_draw_panels(u, y, top - heat_lines, m);
	if (heat_lines)
		y = heat_whole ? ui_draw_heatmap(u, y, y + heat) : ui_draw_heatmap_summary(u, y);
	ui_draw_status(u, y++);
	ui_draw_table(u, y, y0 + h - y);
}
