/* ui_screen.c - the screens as one table (draw, keys, scrolling, their
 * keys for the help screen), the frame around them (tabs, title, the
 * function-key bar) and key dispatch. A new screen is one enum value and
 * one row here. */
#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "ui.h"
#include "ui_int.h"

/* ---- adapters: each screen drawn in rows y0 .. y0+h-1 ----------------- */

/* A full screen with the status line at its bottom. */
static void with_status(struct ui *u, int y0, int h, void (*draw)(struct ui *, int, int))
{
	ui_draw_status(u, y0 + h - 1);
	draw(u, y0, h - 2);
}

static void d_nodes(struct ui *u, int y0, int h) { with_status(u, y0, h, ui_draw_nodes); }
static void d_cgroups(struct ui *u, int y0, int h) { with_status(u, y0, h, ui_draw_cgroups); }
static void d_topology(struct ui *u, int y0, int h) { with_status(u, y0, h, ui_draw_topology); }
static void d_distances(struct ui *u, int y0, int h) { with_status(u, y0, h, ui_draw_heatmap_full); }
static void d_detail(struct ui *u, int y0, int h) { with_status(u, y0, h, ui_draw_detail); }
static void d_kill(struct ui *u, int y0, int h) { (void)y0; (void)h; ui_draw_kill(u); }
static void d_sort(struct ui *u, int y0, int h) { (void)y0; (void)h; ui_draw_sort_menu(u); }
static void d_action(struct ui *u, int y0, int h) { (void)y0; (void)h; ui_action_draw(u); }
static void d_measure(struct ui *u, int y0, int h) { (void)y0; (void)h; ui_measure_draw(u); }
static void d_help(struct ui *u, int y0, int h);
/* The Cgroups screen's keys, the others the main table's. */
static void k_cgroups(struct ui *u, int ch)
{
	if (!ui_cgroups_key(u, ch))
		ui_main_key(u, ch);
}

static long max_detail(const struct ui *u) { return (long)u->detail.nmaps; }
static long max_topology(const struct ui *u) { return (long)(u->se.topo.ncpus + 2 * u->se.topo.nnodes); }
static long max_distances(const struct ui *u) { return (long)u->se.topo.nnodes; }
static long max_help(const struct ui *u);

/* ---- each screen's own keys, for the help screen ---------------------- */

#define HELP(a) a, sizeof(a) / sizeof((a)[0])
static const struct ui_help h_scroll[] = {
	{ "Up/Down", "scroll" }, { "PgUp/PgDn", "scroll a page" }, { "Home", "top" },
	{ "Esc", "back (detail)" },
};
static const struct ui_help h_cgroups[] = {
	{ "Up/Down PgUp/PgDn", "choose a cgroup" }, { "Enter", "its processes in the process table" },
	{ "- + Space", "fold / unfold its subtree" }, { "< >", "sort siblings by CGROUP PROCS MEM REMOTE" },
	{ "I", "invert the order" },   /* then the cgroup move's keys (action_defs) */
};
static const struct ui_help h_kill[] = {
	{ "Up/Down", "choose a signal" }, { "Enter", "send it (identity re-checked first)" },
	{ "Esc q", "cancel" },
};
static const struct ui_help h_sort[] = {
	{ "Up/Down", "choose a column" }, { "Enter", "sort by it" }, { "Esc q F6", "cancel" },
};
static const struct ui_help h_action[] = {
	{ "Up/Down", "choose the target node (n/a: it cannot take this)" },
	{ "a Space", "rebind dialog: also migrate the memory" },
	{ "Enter y", "preview, then start; when done: close" },
	{ "Esc q", "back (the preview: also n); while it runs: cancel after this batch" },
};
static const struct ui_help h_measure[] = {
	{ "Enter y", "start the measurement" }, { "Esc q", "cancel (also while it runs)" },
};
static const struct ui_help h_setup[] = {
	{ "Up/Down", "choose a column" }, { "Left/Right Tab", "active / available list" },
	{ "Enter a Ins", "add the available column after the cursor" },
	{ "Del d F9", "remove the active column" },
	{ "[ ] F7 F8", "move the active column up / down" },
	{ "r", "reset to the default columns" }, { "Esc q F2 F10", "done" },
};
/* The one-line prompts of F3 and F4 are not screens: their keys here. */
static const struct ui_help h_prompt[] = {
	{ "Enter", "search / set the filter (empty: clear it)" }, { "Esc", "cancel" },
	{ "Backspace", "delete a character" },
};
static const struct ui_help h_panels[] = {
	{ "N<id> [|| 12%]", "the node's CPUs busy: user (green) and system (red) time" },
	{ "Mem [|| 0.3G/3.9G]", "the node's memory: programs (green, the number) and page cache "
				 "(yellow, FilePages: reclaimable); the rest is free" },
	{ "cpu free miss", "sparklines of the last samples: CPU busy, free memory, misses/s; with "
			   "memory tiers also promo and demo (pages/s promoted in, demoted out)" },
	{ "tier67 slow", "memory tiers: a memory-only node of a slower tier (memory_tierN, the "
			 "lower N the faster), its HMAT read latency; nodes grouped by tier, fast first" },
	{ "promo demo", "memory tiers: pages/s the kernel promoted into the node (pgpromote_success) "
			"and demoted out of it (pgdemote_kswapd + _direct)" },
	{ "tierN fastest", "Nodes screen: per tier its nodes, HMAT speed, used of total, promotions "
			   "in and demotions out per second, under it their sparklines; then balancing, "
			   "demotion_enabled, promotion limit" },
};
static const struct ui_help h_help[] = {
	{ "Up/Down PgUp/PgDn", "scroll" }, { "any other key", "back" },
};

const struct ui_screen_ops ui_screen_ops[SCR_N] = {
	[SCR_PROCESSES] = { "Processes", ui_draw_processes, NULL, false, false, NULL, NULL, 0, 0 },
	[SCR_NODES] = { "Nodes", d_nodes, NULL, false, false, NULL, NULL, 0, 0 },
	[SCR_CGROUPS] = { "Cgroups", d_cgroups, k_cgroups, false, false, NULL, HELP(h_cgroups),
			  ACTION_AT_CGROUPS + 1 },
	[SCR_TOPOLOGY] = { "Topology", d_topology, NULL, false, false, max_topology, HELP(h_scroll), 0 },
	[SCR_DISTANCES] = { "Distances", d_distances, NULL, false, false, max_distances, HELP(h_scroll), 0 },
	[SCR_NSCREENS] = { NULL, NULL, NULL, false, false, NULL, NULL, 0, 0 },
	[SCR_DETAIL] = { "Process detail", d_detail, NULL, false, false, max_detail, HELP(h_scroll), 0 },
	[SCR_HELP] = { "Help", d_help, ui_help_key, false, true, max_help, HELP(h_help), 0 },
	[SCR_KILL] = { "Signal dialog (F9)", d_kill, ui_kill_key, true, false, NULL, HELP(h_kill), 0 },
	[SCR_SORT] = { "Sort menu (F6)", d_sort, ui_sort_menu_key, true, false, NULL, HELP(h_sort), 0 },
	[SCR_ACTION] = { "Migrate / bind dialog (F7 F8)", d_action, ui_action_key, true, false, NULL,
			 HELP(h_action), ACTION_AT_DIALOG + 1 },
	[SCR_MEASURE] = { "Measure dialog (L)", d_measure, ui_measure_key, true, false, NULL,
			  HELP(h_measure), 0 },
	[SCR_SETUP] = { "Setup (F2)", ui_setup_draw, ui_setup_key, false, false, NULL, HELP(h_setup), 0 },
};

/* ---- the help screen: generated from the key and screen tables -------- */

/* Line k of the help text into label/text; its colour (C_HEADER for a
 * heading); false past the end. The help screen and the man page's KEYS
 * section (tools/genman.c) are both this text. */
bool ui_help_line(long k, const char **label, const char **text, char *buf, size_t n,
		      enum ui_color *c)
{
	*c = C_DEFAULT;
	for (size_t i = 0; i < ui_nkeys; i++) {
		if (!ui_key_help(&ui_keys[i]))
			continue;
		if (k-- == 0) {
			*label = ui_key_label(&ui_keys[i]);
			*text = ui_key_help(&ui_keys[i]);
			*c = C_LABEL;
			return true;
		}
	}
	if (k-- == 0) {
		*label = "";
		*text = "Replay (--replay FILE): these keys come first";
		*c = C_HEADER;
		return true;
	}
	for (size_t i = 0; i < ui_nreplay_keys; i++) {
		if (!ui_replay_keys[i].help)
			continue;
		if (k-- == 0) {
			*label = ui_replay_keys[i].label;
			*text = ui_replay_keys[i].help;
			*c = C_LABEL;
			return true;
		}
	}
	for (int s = 0; s < SCR_N; s++) {
		const struct ui_screen_ops *o = &ui_screen_ops[s];
		if (!o->nhelp || (s == SCR_DISTANCES || s == SCR_DETAIL))   /* same as Topology */
			continue;
		if (k-- == 0) {
			snprintf(buf, n, "%s", s == SCR_TOPOLOGY ? "Topology, Distances, detail" : o->name);
			*label = "";
			*text = buf;
			*c = C_HEADER;
			return true;
		}
		if (k < (long)o->nhelp) {
			*label = o->help[k].label;
			*text = o->help[k].help;
			*c = C_LABEL;
			return true;
		}
		k -= (long)o->nhelp;
		/* Then the keys of the actions taken there (action_table.h). */
		for (size_t i = 0; o->actions_at && i < ACTION_N; i++) {
			const struct action_def *d = &action_defs[i];
			if ((int)d->where + 1 != o->actions_at || !d->key_help)
				continue;
			if (k-- == 0) {
				*label = d->key_label;
				*text = d->key_help;
				*c = C_LABEL;
				return true;
			}
		}
	}
	if (k-- == 0) {
		*label = "";
		*text = "Search and filter prompts (F3 F4)";
		*c = C_HEADER;
		return true;
	}
	if (k < (long)(sizeof(h_prompt) / sizeof(h_prompt[0]))) {
		*label = h_prompt[k].label;
		*text = h_prompt[k].help;
		*c = C_LABEL;
		return true;
	}
	k -= (long)(sizeof(h_prompt) / sizeof(h_prompt[0]));
	if (k-- == 0) {
		*label = "";
		*text = "Node panels";
		*c = C_HEADER;
		return true;
	}
	if (k < (long)(sizeof(h_panels) / sizeof(h_panels[0]))) {
		*label = h_panels[k].label;
		*text = h_panels[k].help;
		*c = C_LABEL;
		return true;
	}
	k -= (long)(sizeof(h_panels) / sizeof(h_panels[0]));
	if (k-- == 0) {
		*label = "";
		*text = "Columns (F2 to choose; -o on the command line)";
		*c = C_HEADER;
		return true;
	}
	if (k < COL_NCOLS) {
		const struct col_def *d = col_get((enum snap_col)k);
		snprintf(buf, n, "%s", col_help_name((enum snap_col)k));
		*label = buf;
		*text = d->desc;
		*c = C_LABEL;
		return true;
	}
	if (k == COL_NCOLS) {
		*label = "";
		*text = "no perm / gone / error / -: numa_maps not readable, process exited, "
			"unknown (never 0); ~: estimated from a sample of pages";
		return true;
	}
	return false;
}

/* The number of help lines; the widest label into *labw. */
static long help_lines(int *labw)
{
	long k = 0;
	const char *l, *t;
	char b[64];
	enum ui_color c;
	*labw = 0;
	while (ui_help_line(k, &l, &t, b, sizeof(b), &c)) {
		if (c != C_HEADER && (int)strlen(l) > *labw)
			*labw = (int)strlen(l);
		k++;
	}
	return k;
}

static long max_help(const struct ui *u)
{
	(void)u;
	int w;
	long m = help_lines(&w) - (LINES - 3);
	return m > 0 ? m : 0;
}

struct help_warn {
	struct ui *u;
	int y, ymax, n;
};

static void help_warn_line(void *ctx, const char *line)
{
	struct help_warn *w = ctx;
	if (w->n++ == 0 && w->y < w->ymax) {
		attron(ui_attr(w->u, C_LABEL) | A_BOLD);
		mvaddnstr(w->y++, 1, "Warnings now (the status line says them in short)", COLS - 2);
		attroff(ui_attr(w->u, C_LABEL) | A_BOLD);
	}
	attron(ui_attr(w->u, C_WARN));
	w->y = ui_put_wrapped(w->y, w->ymax, 1, line);
	attroff(ui_attr(w->u, C_WARN));
}

/* The topology's and the sample's warnings, whole; the next row. */
static int help_warnings(struct ui *u, int y, int ymax)
{
	struct help_warn w = { u, y, ymax, 0 };
	for (size_t i = 0; i < u->se.topo.nwarnings; i++)
		help_warn_line(&w, u->se.topo.warnings[i]);
	snapshot_warnings(&u->snap, help_warn_line, &w);
	return w.n ? w.y + 1 : w.y;
}

static void d_help(struct ui *u, int y0, int h)
{
	attron(ui_attr(u, C_HEADER));
	mvhline(y0, 0, ' ', COLS);
	char title[96];
	if (COLS >= 62)
		snprintf(title, sizeof(title), "numatop-tui %s help - Up/Down scroll, any other key returns",
			 NUMATOP_VERSION);
	else
		snprintf(title, sizeof(title), "numatop-tui help: Up/Down, other: back");
	mvaddnstr(y0, 0, title, COLS);
	attroff(ui_attr(u, C_HEADER));
	int y = y0 + 2, labw;
	/* What the status line says in short, in whole, at the top. */
	if (u->scroll == 0)
		y = help_warnings(u, y, y0 + h);
	help_lines(&labw);
	const char *label, *text;
	char buf[64];
	enum ui_color c;
	for (long k = u->scroll; y < y0 + h && ui_help_line(k, &label, &text, buf, sizeof(buf), &c); k++, y++) {
		if (c == C_HEADER) {
			attron(ui_attr(u, C_LABEL) | A_BOLD);
			mvaddnstr(y, 1, text, COLS - 2);
			attroff(ui_attr(u, C_LABEL) | A_BOLD);
			continue;
		}
		attron(ui_attr(u, c));
		mvaddnstr(y, 1, label, COLS - 2);
		attroff(ui_attr(u, c));
		if (labw + 3 < COLS)
			ui_put(y, labw + 3, text, COLS - labw - 4);
	}
}

/* The help screen: Up/Down/PgUp/PgDn scroll, any other key goes back. */
void ui_help_key(struct ui *u, int ch)
{
	long step = ch == KEY_UP ? -1 : ch == KEY_DOWN ? 1 : ch == KEY_PPAGE ? -(LINES - 2) :
		    ch == KEY_NPAGE ? LINES - 2 : 0;
	if (step) {
		u->scroll += step;
		long max = ui_screen_ops[SCR_HELP].scroll_max(u);
		u->scroll = u->scroll < 0 ? 0 : u->scroll > max ? max : u->scroll;
		return;
	}
	u->screen = u->back == SCR_HELP ? SCR_PROCESSES : u->back;
	u->scroll = 0;
}

/* ---- the frame -------------------------------------------------------- */

/* One key of the bar at x ("F7" in the key colour, "Migrate " in the
 * label colour); returns the next x. */
static int bar_item(struct ui *u, const struct ui_key *k, int y, int x)
{
	char name[16];
	int key = ui_key_code(k, 0);
	const char *label = ui_key_label(k), *bar = ui_key_bar(k);
	if (key >= KEY_F(1) && key <= KEY_F(12))
		snprintf(name, sizeof(name), "F%d", key - KEY_F(0));
	else
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(label, " "), label);
	attron(ui_attr(u, C_FKEY));
	mvaddnstr(y, x, name, COLS - x);
	attroff(ui_attr(u, C_FKEY));
	x += (int)strlen(name);
	if (x < COLS) {
		attron(ui_attr(u, C_FKEY_LABEL));
		mvaddnstr(y, x, bar, COLS - x);
		x += (int)strlen(bar);
		if (x < COLS)
			mvaddch(y, x++, ' ');
		attroff(ui_attr(u, C_FKEY_LABEL));
	}
	return x;
}

/* The function-key bar from the key table: F1..F10 in order, then the
 * other keys with a bar label (Tab). */
void ui_draw_fkeys(struct ui *u)
{
	int y = LINES - 1, x = 0;
	move(y, 0);
	clrtoeol();
	/* Only keys that work here: none that acts on a recording or with
	 * --readonly. */
	bool no_acts = u->replay || u->opt->readonly;
	for (int f = 1; f <= 10; f++)
		for (size_t i = 0; i < ui_nkeys && x < COLS; i++)
			if (ui_key_bar(&ui_keys[i]) && ui_key_code(&ui_keys[i], 0) == KEY_F(f) &&
			    !(no_acts && ui_keys[i].acts))
				x = bar_item(u, &ui_keys[i], y, x);
	for (size_t i = 0; i < ui_nkeys && x < COLS; i++) {
		int key = ui_key_code(&ui_keys[i], 0);
		if (ui_key_bar(&ui_keys[i]) && !(key >= KEY_F(1) && key <= KEY_F(10)) &&
		    !(no_acts && ui_keys[i].acts))
			x = bar_item(u, &ui_keys[i], y, x);
	}
	attron(ui_attr(u, C_FKEY_LABEL));
	if (x < COLS)
		mvhline(y, x, ' ', COLS - x);
	attroff(ui_attr(u, C_FKEY_LABEL));
}

void ui_draw(struct ui *u)
{
	char what[96];
	snprintf(what, sizeof(what), "%s v%d%s%s%s%s", ui_screen_ops[u->screen].name, (int)u->heat.layer,
		 u->tree ? " tree" : "", u->threads ? " threads" : "",
		 u->prompt.kind == UI_PROMPT_SEARCH ? " search" :
		 u->prompt.kind == UI_PROMPT_FILTER ? " filter" : u->prompt.kind ? " time" : "",
		 ui_cgmove_open_p(u) ? " cgmove" : "");
	ui_out_frame(what);
	u->job_on = ui_job_running(u) != NULL;
	erase();
	if (COLS < 40 || LINES < 10) {
		/* Said in the words that fit on one line, never wrapped. */
		const char *say = COLS >= 30 ? "window too small (40x10 at least)" :
				  COLS >= 16 ? "window too small" : "too small";
		mvaddnstr(0, 0, say, COLS);
		refresh();
		return;
	}
	const struct ui_screen_ops *o = &ui_screen_ops[u->screen];
	if (o->bare) {
		o->draw(u, 0, LINES);
		refresh();
		return;
	}
	int x = 0;
	for (int i = 0; i < SCR_NSCREENS; i++) {
		bool cur = (int)u->screen == i || (u->screen > SCR_NSCREENS && i == SCR_PROCESSES);
		attron(cur ? ui_attr(u, C_HEADER) : ui_attr(u, C_DIM));
		mvprintw(0, x, " %s ", ui_screen_ops[i].name);
		attroff(ui_attr(u, C_HEADER) | ui_attr(u, C_DIM));
		x += (int)strlen(ui_screen_ops[i].name) + 3;
	}
	char title[512], where[400];
	if (u->replay)
		ui_replay_status(u, where, sizeof(where));
	else
		snprintf(where, sizeof(where), "%s%s", fsroot_is_live(u->se.root) ? "live" : "root ",
			 fsroot_is_live(u->se.root) ? "" : fsroot_path(u->se.root));
	/* What fits whole: the version goes first, then a tree's path is
	 * said by its last part. */
	snprintf(title, sizeof(title), " numatop-tui %s  %s", NUMATOP_VERSION, where);
	if (ui_text_width(title) > COLS - x)
		snprintf(title, sizeof(title), " %s", where);
	const char *base = u->replay || fsroot_is_live(u->se.root) ? NULL :
			   strrchr(fsroot_path(u->se.root), '/');
	if (ui_text_width(title) > COLS - x && base && base[1])
		snprintf(title, sizeof(title), " root ..%s", base);
	if (x < COLS)
		mvaddnstr(0, x, title, COLS - x);   /* never wrap onto the panels */
	/* A full screen with keys of its own (Setup) shows those instead of
	 * the main function-key bar, whose keys mean other things there. */
	bool bar = !o->key || o->overlay;
	if (o->overlay)
		ui_draw_processes(u, 1, LINES - 2);
	o->draw(u, 1, bar ? LINES - 2 : LINES - 1);
	if (bar)
		ui_draw_fkeys(u);
	ui_prompt_draw(u);
	refresh();
}

/* ---- keys ------------------------------------------------------------- */

bool ui_handle_key(struct ui *u, int ch)
{
	if (ch == KEY_RESIZE) {
		clearok(curscr, TRUE);
		return true;
	}
	const struct ui_screen_ops *o = &ui_screen_ops[u->screen];
	if (o->key) {
		o->key(u, ch);
		return true;
	}
	if (o->scroll_max && (ch == KEY_UP || ch == KEY_DOWN || ch == KEY_PPAGE ||
			      ch == KEY_NPAGE || ch == KEY_HOME)) {
		long step = ch == KEY_UP ? -1 : ch == KEY_DOWN ? 1 : ch == KEY_PPAGE ? -10 :
			    ch == KEY_NPAGE ? 10 : -u->scroll;
		long max = o->scroll_max(u);
		u->scroll += step;
		u->scroll = u->scroll < 0 ? 0 : u->scroll > max ? max : u->scroll;
		return true;
	}
	return ui_main_key(u, ch);
}

bool ui_main_key(struct ui *u, int ch)
{
	if (ch == '\r')
		ch = '\n';
	if (ui_replay_key(u, ch))
		return true;
	for (size_t i = 0; i < ui_nkeys; i++) {
		for (int j = 0, key; (key = ui_key_code(&ui_keys[i], j)) != 0; j++) {
			if (key != ch)
				continue;
			u->msg[0] = '\0';
			ui_keys[i].fn(u, ch);
			return true;
		}
	}
	return false;
}

bool ui_help_entry(long k, const char **label, const char **text, char *buf, size_t n,
		   bool *heading)
{
	enum ui_color c;
	bool more = ui_help_line(k, label, text, buf, n, &c);
	*heading = c == C_HEADER;
	return more;
}
