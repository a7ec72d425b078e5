/* ui_keys.c - one key table drives both dispatch and the help screen; an
 * action's row takes its keys and texts from the action table. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curses.h>

#include "action.h"
#include "ui_int.h"


static void k_up(struct ui *u, int ch) { (void)ch; ui_select_row(u, u->sel - 1); }
static void k_down(struct ui *u, int ch) { (void)ch; ui_select_row(u, u->sel + 1); }
static void k_pgup(struct ui *u, int ch) { (void)ch; ui_select_row(u, u->sel - (u->table_h > 2 ? u->table_h - 2 : 1)); }
static void k_pgdn(struct ui *u, int ch) { (void)ch; ui_select_row(u, u->sel + (u->table_h > 2 ? u->table_h - 2 : 1)); }
static void k_home(struct ui *u, int ch) { (void)ch; ui_select_row(u, 0); }
static void k_end(struct ui *u, int ch) { (void)ch; ui_select_row(u, (long)u->nrows - 1); }
static void k_quit(struct ui *u, int ch) { (void)ch; u->quit = true; }
static void k_redraw(struct ui *u, int ch) { (void)u; (void)ch; clearok(curscr, TRUE); }
static void k_pause(struct ui *u, int ch) { (void)ch; u->paused = !u->paused; }
static void k_nodes(struct ui *u, int ch) { (void)ch; u->show_nodes = !u->show_nodes; }
static void k_heat(struct ui *u, int ch) { (void)ch; u->show_heatmap = !u->show_heatmap; }
static void k_age(struct ui *u, int ch) { (void)ch; col_list_set_age(&u->cols, col_list_find(&u->cols, COL_AGE) < 0); }
static void k_layer(struct ui *u, int ch) { (void)ch; ui_next_layer(u); }
static void k_measure(struct ui *u, int ch) { (void)ch; ui_measure_open(u); }
static void k_invert(struct ui *u, int ch) { (void)ch; ui_own_sort(u); u->sort.descending = !u->sort.descending; ui_resort(u); }
static void k_tree(struct ui *u, int ch) { (void)ch; u->tree = !u->tree; ui_rebuild_rows(u); }
/* H: thread rows in or out; the selection stays on its process and the
 * table scrolls to show it (rows before it may have gone). */
static void k_threads(struct ui *u, int ch)
{
	(void)ch;
	int pid = u->sel_pid;
	u->threads = !u->threads;
	ui_rebuild_rows(u);
	u->top = 0;
	long row = 0;
	for (size_t i = 0; i < u->nrows; i++)
		if (u->snap.procs[u->rows[i]].info.pid == pid && (!u->thr || u->thr[i] < 0)) {
			row = (long)i;
			break;
		}
	ui_select_row(u, row);
}
static void k_help(struct ui *u, int ch) { (void)ch; u->back = u->screen; u->screen = SCR_HELP; u->scroll = 0; }
static void k_setup(struct ui *u, int ch) { (void)ch; ui_setup_open(u); }

/* K: kernel threads in or out of the sample, at once. */
static void k_kthreads(struct ui *u, int ch)
{
	(void)ch;
	u->kernel_threads = !u->kernel_threads;
	struct sampler_filter f = u->opt->session.filter;
	f.kernel_threads = u->kernel_threads;
	if (!u->replay)
		sampler_set_filter(u->se.smp, &f);
	ui_want_sample(u);
	snprintf(u->msg, sizeof(u->msg), "kernel threads %s", u->kernel_threads ? "shown" : "hidden");
}

static void k_sortkey(struct ui *u, int ch)
{
	switch (ch) {
	case 'P': ui_set_sort(u, COL_CPU, -1); break;
	case 'M': ui_set_sort(u, COL_RSS, -1); break;
	case 'T': ui_set_sort(u, COL_TIME, -1); break;
	case 'N': ui_set_sort(u, COL_PID, -1); break;
	case 'R': ui_set_sort(u, COL_REMOTE, -1); break;
	}
}

/* '<' '>' walk the columns as the table shows them. */
static void k_sortmove(struct ui *u, int ch)
{
	if (u->nhdr < 1)
		return;
	int pos = 0;
	for (int i = 0; i < u->nhdr; i++)
		if (sorted_by_hdr(u, i))
			pos = i;
	pos = (pos + (ch == '<' ? -1 : 1) + u->nhdr) % u->nhdr;
	if (u->hdr[pos].col == COL_NODE && u->hdr[pos].node < 0)   /* the block column */
		pos = (pos + (ch == '<' ? -1 : 1) + u->nhdr) % u->nhdr;
	ui_set_sort(u, u->hdr[pos].col, u->hdr[pos].node);
}

static void k_sort_menu(struct ui *u, int ch)
{
	(void)ch;
	u->sort_sel = 0;
	for (size_t i = 0; i < ui_sort_menu_len(u); i++) {
		struct sort_key k;
		char label[64];
		ui_sort_menu_entry(u, i, &k, label, sizeof(label));
		if (col_same(k.col, k.node, u->sort_eff.col, u->sort_eff.node))
			u->sort_sel = (int)i;
	}
	u->screen = SCR_SORT;
}

static void k_screen(struct ui *u, int ch)
{
	int s = u->screen < SCR_NSCREENS ? (int)u->screen : SCR_PROCESSES;
	s = (s + (ch == KEY_BTAB ? SCR_NSCREENS - 1 : 1)) % SCR_NSCREENS;
	u->screen = (enum ui_screen)s;
	u->scroll = 0;
	if (u->screen == SCR_CGROUPS && !u->snap.have_cgroups && !u->paused)
		ui_want_sample(u);   /* read them now, not at the next refresh */
}

static void k_enter(struct ui *u, int ch)
{
	(void)ch;
	const struct snap_proc *p = ui_selected(u);
	if (u->screen != SCR_PROCESSES || !p)
		return;
	if (u->replay) {
		/* What the recording has: the process's totals (the snapshot);
		 * per-mapping placement and threads are read only live. */
		detail_free(&u->detail);
		memset(&u->detail, 0, sizeof(u->detail));
		u->detail.pid = p->info.pid;
		u->detail.starttime = p->info.starttime;
		snprintf(u->detail.comm, sizeof(u->detail.comm), "%s", p->info.comm);
		snprintf(u->detail.cpus_allowed, sizeof(u->detail.cpus_allowed), "(not recorded)");
		snprintf(u->detail.mems_allowed, sizeof(u->detail.mems_allowed), "(not recorded)");
		u->scroll = 0;
		u->detail_exited = false;
		u->screen = SCR_DETAIL;
		return;
	}
	int rc = detail_read(u->se.root, &u->se.topo, p->info.pid, p->info.starttime, &u->detail);
	if (rc) {
		snprintf(u->msg, sizeof(u->msg), "process %d: %s", p->info.pid,
			 rc == -ESRCH ? "exited" : strerror(-rc));
		return;
	}
	u->scroll = 0;
	u->detail_exited = false;
	u->screen = SCR_DETAIL;
}

static void k_back(struct ui *u, int ch)
{
	(void)ch;
	if (u->screen == SCR_KILL)
		ui_kill_close(u);
	if (u->screen == SCR_DETAIL || u->screen == SCR_KILL)
		u->screen = SCR_PROCESSES;
	u->msg[0] = '\0';
}

static void k_interval(struct ui *u, int ch)
{
	double d = u->delay + (ch == '+' ? (u->delay >= 1 ? 1 : 0.1) : (u->delay > 1 ? -1 : -0.1));
	if (d < SESSION_DELAY_MIN)
		d = SESSION_DELAY_MIN;
	if (d > SESSION_DELAY_MAX)
		d = SESSION_DELAY_MAX;
	u->delay = d;
	snprintf(u->msg, sizeof(u->msg), "interval %.1fs", d);
}

static void k_tag(struct ui *u, int ch)
{
	(void)ch;
	const struct snap_proc *p = ui_selected(u);
	if (!p)
		return;
	ui_toggle_tag(u, p);
	ui_select_row(u, u->sel + 1);
}

static void k_tag_children(struct ui *u, int ch)
{
	(void)ch;
	const struct snap_proc *p = ui_selected(u);
	if (p)
		ui_tag_tree(u, p);
}

static void k_untag(struct ui *u, int ch) { (void)ch; ui_clear_tags(u); }

static void k_search(struct ui *u, int ch) { (void)ch; ui_prompt_open(u, UI_PROMPT_SEARCH); }
static void k_filter(struct ui *u, int ch) { (void)ch; ui_prompt_open(u, UI_PROMPT_FILTER); }

static void k_kill(struct ui *u, int ch)
{
	(void)ch;
	if (ui_action_refused(u, "kill"))
		return;
	ui_kill_open(u);
}

static void k_mouse(struct ui *u, int ch)
{
	(void)ch;
	MEVENT ev;
	if (getmouse(&ev) != OK || u->screen != SCR_PROCESSES)
		return;
	if (ev.y == u->table_y) {
		int i = ui_proc_table_col_at(u, ev.x);
		/* The one-block-per-node column has no single value to sort by. */
		if (i >= 0 && !(u->hdr[i].col == COL_NODE && u->hdr[i].node < 0)) {
			if (sorted_by_hdr(u, i))
				k_invert(u, 'I');
			else
				ui_set_sort(u, u->hdr[i].col, u->hdr[i].node);
		}
	} else if (ev.y > u->table_y && ev.y < u->table_y + u->table_h) {
		ui_select_row(u, u->top + (ev.y - u->table_y - 1));
	}
}

static void k_action(struct ui *u, int ch)
{
	ui_action_open(u, ui_action_key_is(&action_defs[ACTION_MIGRATE], ch));
}

/* x: the advice for the selected process's remote memory: the migrate or
 * rebind dialog on the advised node, or the reason there is nothing to do. */
static void k_advice(struct ui *u, int ch)
{
	(void)ch;
	if (ui_replay_refused(u))
		return;
	const struct snap_proc *p = ui_selected(u);
	if (!p)
		return;
	const struct why_result *w = snapshot_why(&u->snap, p);
	const char *cause = why_cause_name(p->why) ? why_cause_name(p->why) : "not read yet";
	if (!w || w->action == WHY_ACT_NONE) {
		snprintf(u->msg, sizeof(u->msg), "PID %d, remote: %s: %s", p->info.pid, cause,
			 w ? w->text : p->why == WHY_NONE ? "nothing to do: little of it is remote" :
			 "its placement has not been read yet");
		return;
	}
	int idx = topology_node_index(&u->se.topo, w->node);
	char text[sizeof(w->text)];
	snprintf(text, sizeof(text), "%s", w->text);
	ui_action_open_at(u, w->action == WHY_ACT_MIGRATE || w->action == WHY_ACT_MIGRATE_HOT, idx, cause,
			  w->action == WHY_ACT_MIGRATE_HOT);
	if (u->act && !u->msg[0])
		snprintf(u->msg, sizeof(u->msg), "%s", text);
}

const struct ui_key ui_keys[] = {
	{ KEY_UP, k_up, "Up/Down", "select process", NULL, false, NULL },
	{ KEY_DOWN, k_down, NULL, NULL, NULL, false, NULL },
	{ KEY_PPAGE, k_pgup, "PgUp/PgDn", "page up / down", NULL, false, NULL },
	{ KEY_NPAGE, k_pgdn, NULL, NULL, NULL, false, NULL },
	{ KEY_HOME, k_home, "Home/End", "first / last process", NULL, false, NULL },
	{ KEY_END, k_end, NULL, NULL, NULL, false, NULL },
	{ KEY_F(1), k_help, "F1 h ?", "this help", "Help", false, NULL },
	{ 'h', k_help, NULL, NULL, NULL, false, NULL },
	{ '?', k_help, NULL, NULL, NULL, false, NULL },
	{ KEY_F(2), k_setup, "F2 S", "setup: choose and order the table's columns", "Setup", false, NULL },
	{ 'S', k_setup, NULL, NULL, NULL, false, NULL },
	{ KEY_F(3), k_search, "F3 /", "search by name", "Search", false, NULL },
	{ '/', k_search, NULL, NULL, NULL, false, NULL },
	{ KEY_F(4), k_filter, "F4 \\", "filter: name, \"node N\", \"remote>=X\" (REMOTE%), \"cgroup PATH\"", "Filter", false, NULL },
	{ '\\', k_filter, NULL, NULL, NULL, false, NULL },
	{ KEY_F(5), k_tree, "F5 t", "tree view", "Tree", false, NULL },
	{ 't', k_tree, NULL, NULL, NULL, false, NULL },
	{ KEY_F(6), k_sort_menu, "F6", "choose the sort column from a list", "SortBy", false, NULL },
	{ 0, k_action, NULL, NULL, NULL, true, &action_defs[ACTION_MIGRATE] },
	{ 0, k_action, NULL, NULL, NULL, true, &action_defs[ACTION_REBIND] },
	{ 'x', k_advice, "x", "fix its remote memory: the advice (WHY) as a migrate or rebind dialog on the advised node", "Fix", true, NULL },
	{ KEY_F(9), k_kill, "F9 k", "send a signal (selected or tagged processes)", "Kill", true, NULL },
	{ 'k', k_kill, NULL, NULL, NULL, true, NULL },
	{ KEY_F(10), k_quit, "F10 q Ctrl-C", "quit", "Quit", false, NULL },
	{ 'q', k_quit, NULL, NULL, NULL, false, NULL },
	{ '<', k_sortmove, "< >", "sort by the previous / next column", NULL, false, NULL },
	{ '>', k_sortmove, NULL, NULL, NULL, false, NULL },
	{ 'I', k_invert, "I", "invert the sort order", NULL, false, NULL },
	{ 'H', k_threads, "H", "show threads (TID, last CPU and its node)", NULL, false, NULL },
	{ 'K', k_kthreads, "K", "show / hide kernel threads (hidden at start, as in htop)", NULL, false, NULL },
	{ 'P', k_sortkey, "P M T N", "sort by CPU%, memory, time, PID", NULL, false, NULL },
	{ 'M', k_sortkey, NULL, NULL, NULL, false, NULL },
	{ 'T', k_sortkey, NULL, NULL, NULL, false, NULL },
	{ 'N', k_sortkey, NULL, NULL, NULL, false, NULL },
	{ 'R', k_sortkey, "R", "sort by REMOTE (the default until the heat is known: HOTREM)", NULL, false, NULL },
	{ ' ', k_tag, "Space", "tag / untag the process", NULL, false, NULL },
	{ 'c', k_tag_children, "c", "tag the process and its children", NULL, false, NULL },
	{ 'U', k_untag, "U", "untag all", NULL, false, NULL },
	{ 'n', k_nodes, "n", "show / hide the node panels", NULL, false, NULL },
	{ 'D', k_heat, "D", "show / hide the distance heatmap (in full: Tab to Distances)", NULL, false, NULL },
	{ 'A', k_age, "A", "show / hide AGE: seconds since each process's placement was read", NULL, false, NULL },
	{ 'v', k_layer, "v", "heatmap layer: SLIT, measured latency, bandwidth, HMAT", NULL, false, NULL },
	{ 'L', k_measure, "L", "measure latency and bandwidth between nodes (confirm first)", NULL, true, NULL },
	{ KEY_TAB, k_screen, "Tab S-Tab", "next / previous screen: Processes, Nodes, Cgroups, Topology, Distances", "Screen", false, NULL },
	{ KEY_BTAB, k_screen, NULL, NULL, NULL, false, NULL },
	{ '\n', k_enter, "Enter", "process detail: placement per mapping, threads", NULL, false, NULL },
	{ KEY_ENTER, k_enter, NULL, NULL, NULL, false, NULL },
	{ KEY_ESC, k_back, "Esc", "back", NULL, false, NULL },
	{ '+', k_interval, "+ -", "longer / shorter refresh interval", NULL, false, NULL },
	{ '-', k_interval, NULL, NULL, NULL, false, NULL },
	{ 'Z', k_pause, "Z", "pause / resume sampling", NULL, false, NULL },
	{ KEY_CTRL('l'), k_redraw, "Ctrl-L", "redraw the screen", NULL, false, NULL },
	{ KEY_MOUSE, k_mouse, "mouse", "click a row to select, a header to sort", NULL, false, NULL },
};

const size_t ui_nkeys = sizeof(ui_keys) / sizeof(ui_keys[0]);

int ui_key_code(const struct ui_key *k, int j)
{
	if (!k->act)
		return j == 0 ? k->key : 0;
	return j < ACTION_NKEYS ? ui_action_keycode(k->act->keys[j]) : 0;
}

const char *ui_key_label(const struct ui_key *k) { return k->act ? k->act->key_label : k->label; }
const char *ui_key_help(const struct ui_key *k) { return k->act ? k->act->key_help : k->help; }
const char *ui_key_bar(const struct ui_key *k) { return k->act ? k->act->bar : k->bar; }

size_t ui_keys_acting(char *out, size_t n)
{
	size_t o = 0, k = 0;
	out[0] = '\0';
	for (size_t i = 0; i < ui_nkeys; i++) {
		if (!ui_keys[i].acts || !ui_key_label(&ui_keys[i]))
			continue;
		if (o < n)
			o += (size_t)snprintf(out + o, n - o, "%s%s", k ? ", " : "",
					      ui_key_label(&ui_keys[i]));
		k++;
	}
	return k;
}
