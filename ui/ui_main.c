/* ui_main.c - the interactive monitor: set up curses, sample, draw, read
 * keys. All curses calls happen on this one thread. */
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curses.h>

#include "ui.h"
#include "ui_int.h"
#include "sigstop.h"

static volatile sig_atomic_t ui_stop;

static void on_term(int sig)
{
	(void)sig;
	ui_stop = 1;
}

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void init_colors(struct ui *u)
{
	if (!u->color || !has_colors())
		return;
	start_color();
	use_default_colors();
	u->c256 = COLORS >= 256;
	init_pair(C_DEFAULT, -1, -1);
	init_pair(C_HEADER, COLOR_BLACK, COLOR_GREEN);
	init_pair(C_SELECTED, COLOR_BLACK, COLOR_CYAN);
	init_pair(C_LABEL, COLOR_CYAN, -1);
	init_pair(C_BAR_USER, COLOR_GREEN, -1);
	init_pair(C_BAR_SYS, COLOR_RED, -1);
	init_pair(C_BAR_MEM, COLOR_YELLOW, -1);
	init_pair(C_WARN, COLOR_RED, -1);
	init_pair(C_DIM, COLOR_BLUE, -1);
	init_pair(C_FKEY, -1, -1);
	init_pair(C_FKEY_LABEL, COLOR_BLACK, COLOR_CYAN);
	init_pair(C_TAGGED, COLOR_YELLOW, -1);
	init_pair(C_REMOTE, COLOR_MAGENTA, -1);
	/* Heatmap: near (green) to far (red); 256 colours give a smooth ramp. */
	static const short ramp256[8] = { 22, 28, 64, 100, 136, 166, 160, 124 };
	static const short ramp8[8] = { COLOR_GREEN, COLOR_GREEN, COLOR_CYAN, COLOR_CYAN,
					COLOR_YELLOW, COLOR_YELLOW, COLOR_RED, COLOR_RED };
	for (int i = 0; i < 8; i++)
		init_pair((short)(C_HEAT0 + i), COLOR_WHITE, u->c256 ? ramp256[i] : ramp8[i]);
}

static int ui_open(struct ui *u, const struct options *o)
{
	memset(u, 0, sizeof(*u));
	u->opt = o;
	struct session_config sc;
	char msg[512];
	options_session(o, true, &sc);
	sc.hmat = true;          /* the firmware's HMAT (any root) */
	sc.measurement = true;   /* the last measurement (live) */
	int orc = session_open(&u->se, &sc, msg, sizeof(msg));
	if (orc != 0) {
		fprintf(stderr, "numatop-tui: %s\n", msg);
		return orc == SESSION_EUSAGE ? 2 : 1;
	}
	if (options_columns(o, &u->se.topo, &u->sort, &u->cols, msg, sizeof(msg)) != 0) {
		fprintf(stderr, "numatop-tui: %s\n", msg);
		return 2;
	}
	if (!o->columns && col_list_default(&u->cols, true, o->show_age) != 0)
		return 1;
	u->show_nodes = u->show_heatmap = true;
	u->delay = o->delay;
	u->color = !o->no_color && !getenv("NO_COLOR");
	u->ascii = o->ascii;
	u->mouse = !o->no_mouse;
	u->screen = u->back = SCR_PROCESSES;
	u->sel_pid = -1;
	u->kernel_threads = o->kernel_threads;
	if (u->se.have_meas)
		ui_measure_adopt(u);
	return 0;
}

static void ui_close(struct ui *u)
{
	ui_action_free(u);
	ui_kill_close(u);
	ui_measure_free(u);
	free(u->meas_marks);
	detail_free(&u->detail);
	snapshot_free(&u->snap);
	session_close(&u->se);
	free(u->rows);
	free(u->depth);
	free(u->thr);
	free(u->tagged);
	free(u->hdr);
	col_list_free(&u->cols);
}

/* The selected, tagged, -p and detail processes are read every tick. */
static void set_priority(struct ui *u)
{
	size_t n = 0, cap = u->ntagged + u->opt->npids + 2;
	int *v = malloc(cap * sizeof(*v));
	if (!v)
		return;
	for (size_t i = 0; i < u->ntagged; i++)
		v[n++] = u->tagged[i].pid;
	for (size_t i = 0; i < u->opt->npids; i++)
		v[n++] = u->opt->pids[i];     /* -p: what the user asked to watch */
	if (u->sel_pid > 0)
		v[n++] = u->sel_pid;
	if (u->screen == SCR_DETAIL && u->detail.pid > 0)
		v[n++] = u->detail.pid;
	sampler_set_priority(u->se.smp, v, n);
	free(v);
}

void ui_sample(struct ui *u)
{
	set_priority(u);
	int rc = sampler_tick(u->se.smp, &u->snap);
	if (rc)
		snprintf(u->msg, sizeof(u->msg), "sampling failed: %s", strerror(-rc));
	else if (u->snap.proc_rc == 0)
		ui_prune_tags(u);   /* not after a failed scan: it lists nobody */
	snapshot_sort(&u->snap, &u->sort);
	ui_rebuild_rows(u);
	if (u->screen == SCR_DETAIL && !u->detail_exited) {
		int e = detail_read(u->se.root, &u->se.topo, u->detail.pid, u->detail.starttime,
				    &u->detail);
		/* Never the details of whoever got the PID next. */
		if (e == -ESRCH)
			u->detail_exited = true;
	}
	u->last_sample = mono();
}

int ui_run(const struct options *o)
{
	struct ui u;
	int rc = ui_open(&u, o);
	if (rc) {
		ui_close(&u);
		return rc;
	}
	sigstop_install(on_term);
	setlocale(LC_ALL, "");
	if (!initscr()) {
		fprintf(stderr, "numatop-tui: cannot initialise the terminal\n");
		ui_close(&u);
		return 1;
	}
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	init_colors(&u);
	if (u.mouse)
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	ui_sample(&u);
	while (!u.quit && !ui_stop) {
		ui_draw(&u);
		/* While a migration runs: batches for ~50 ms between redraws,
		 * keys (Esc) in between; no sampling. */
		bool busy = ui_action_running(&u);
		/* While a measurement runs: no sampling (it would disturb the
		 * numbers), a redraw of the progress every 100 ms. */
		if (ui_measure_running(&u)) {
			timeout(100);
			int mc = getch();
			if (ui_stop)
				break;
			if (mc != ERR)
				ui_handle_key(&u, mc);
			ui_measure_poll(&u);
			continue;
		}
		double left = u.delay - (mono() - u.last_sample);
		timeout(busy ? 0 : left > 0 ? (int)(left * 1000) + 1 : 0);
		int ch = getch();
		if (ui_stop)
			break;
		if (ch != ERR) {
			ui_handle_key(&u, ch);
			continue;
		}
		if (busy) {
			ui_action_work(&u, 0.05);
			continue;
		}
		if (!u.paused && mono() - u.last_sample >= u.delay)
			ui_sample(&u);
	}
	endwin();
	ui_close(&u);
	return 0;
}
