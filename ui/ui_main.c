/* ui_main.c - the interactive monitor: set up curses, sample, draw, read
 * keys. All curses calls happen on this one thread. */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "fleet.h"
#include "ui.h"
#include "ui_int.h"
#include "sigstop.h"
#include "monotime.h"

static volatile sig_atomic_t ui_stop;

static void on_term(int sig)
{
	ui_stop = sig;
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

/* The Fleet screen's monitor: the server of the options or the settings
 * file, no session. 0 or an exit status. */
static int open_fleet(struct ui *u, const struct ui_config *o)
{
	struct settings st;
	char path[1024], msg[600];
	settings_init(&st);
	if (settings_path(path, sizeof(path)) == 0) {
		int rc = settings_load(path, &st, msg, sizeof(msg));
		if (rc && rc != -ENOENT) {
			fprintf(stderr, "numatop-tui: settings file %s: %s\n", path, msg);
			return 1;
		}
	}
	struct fleet_config c;
	fleet_config_from(&c, o->fleet_url, o->fleet_match, &st);
	u->delay = o->delay_set ? o->delay : 10;
	int rc = ui_fleet_open(u, &c, msg, sizeof(msg));
	if (rc) {
		fprintf(stderr, "numatop-tui: --fleet: %s\n", msg[0] ? msg : strerror(-rc));
		return rc == -EINVAL ? 2 : 1;
	}
	return 0;
}

static int ui_open(struct ui *u, const struct ui_config *o)
{
	memset(u, 0, sizeof(*u));
	u->opt = o;
	u->color = !o->no_color && !getenv("NO_COLOR");
	u->ascii = o->ascii;
	if (o->fleet)
		return open_fleet(u, o);
	ui_keys_acting(u->acting, sizeof(u->acting));
	struct session_config sc = o->session;
	char msg[512];
	sc.sampler = true;
	sc.hmat = true;          /* the firmware's HMAT (any root) */
	sc.measurement = true;   /* the last measurement (live) */
	/* A recording: its topology and samples, no root and no sampler. */
	int orc = o->replay ? ui_replay_open(u, o, msg, sizeof(msg)) :
		  session_open(&u->se, &sc, msg, sizeof(msg));
	if (orc != 0) {
		fprintf(stderr, "numatop-tui: %s\n", msg);
		return orc == SESSION_EUSAGE ? 2 : 1;
	}
	if (col_setup(&u->se.topo, o->sort, o->columns, o->show_age, &u->sort, &u->cols, msg,
		      sizeof(msg)) != 0) {
		fprintf(stderr, "numatop-tui: %s\n", msg);
		return 2;
	}
	if (!o->columns && col_list_default(&u->cols, true, o->show_age) != 0)
		return 1;
	col_follow_init(&u->follow, !o->columns, !o->columns);
	u->show_nodes = u->show_heatmap = true;
	u->delay = o->delay;
	u->color = !o->no_color && !getenv("NO_COLOR");
	u->ascii = o->ascii;
	u->mouse = !o->no_mouse;
	u->screen = u->back = SCR_PROCESSES;
	u->sel_pid = -1;
	u->kernel_threads = o->session.filter.kernel_threads;
	if (u->se.have_meas)
		ui_measure_adopt(u);
	ui_settings_load(u);
	u->sort_eff = u->sort;
	return 0;
}

static void ui_close(struct ui *u)
{
	if (u->opt->fleet) {
		ui_fleet_close(u);
		return;
	}
	ui_jobs_free(u);
	ui_kill_close(u);
	ui_cgroups_free(u);
	free(u->heat.marks);
	history_free(&u->hist);
	detail_free(&u->detail);
	snapshot_free(&u->snap);
	if (u->replay)
		ui_replay_close(u);
	else
		session_close(&u->se);
	free(u->rows);
	free(u->depth);
	free(u->thr);
	free(u->tagged);
	free(u->hdr);
	col_follow_free(&u->follow);
	col_list_free(&u->cols);
}

/* Between samples while the sampler warms up: the placement of more
 * never-read processes (~150 ms at a time, keys in between), then the
 * rows again. */
static bool warm_step(struct ui *u)
{
	double left = u->delay - (monotime_now() - u->last_sample);
	if (left <= 0.02)
		return false;
	int rc = sampler_warmup(u->se.smp, &u->snap, left < 0.15 ? left : 0.15);
	if (rc < 0) {
		snprintf(u->msg, sizeof(u->msg), "warm-up failed: %s", strerror(-rc));
		return false;
	}
	snapshot_sort(&u->snap, &u->sort);
	u->sort_eff = col_sort_effective(&u->sort, &u->snap);
	ui_rebuild_rows(u);
	return true;
}

/* The terminal as it was, for the handlers of the signals that end the
 * program (async-signal-safe: tcsetattr and write only). */
static struct termios ui_saved_tty;
static volatile sig_atomic_t ui_have_tty;

/* Restore the terminal, then die of the signal as if nothing had caught
 * it (status and core dump as by default). */
/* The sampler whose kdamond (access heat) a fatal signal stops: the
 * async-signal-safe stop, before the default action ends the process. */
static struct sampler *ui_fatal_smp;

static void on_fatal(int sig)
{
	sampler_access_stop_signal(ui_fatal_smp);
	if (ui_have_tty) {
		ui_have_tty = 0;
		/* Mouse off (every mode curses may have asked for), keypad
		 * (cursor keys and the numeric pad) off, cursor visible,
		 * alternate screen left. */
		static const char reset[] = "\033[?1000l\033[?1002l\033[?1003l\033[?1005l\033[?1006l"
					    "\033[?1l\033>\033[?25h\033[?1049l\r\n";
		ssize_t w = write(STDOUT_FILENO, reset, sizeof(reset) - 1);
		(void)w;
		tcsetattr(STDIN_FILENO, TCSANOW, &ui_saved_tty);
	}
	signal(sig, SIG_DFL);
	raise(sig);   /* blocked until the handler returns, then the default */
}

/* The signals whose default action ends the process, other than the stop
 * requests (SIGINT, SIGTERM, SIGHUP, SIGQUIT: the main loop ends, endwin)
 * and the crashes below. One that the program was started with ignored
 * stays ignored. */
static const int ui_term_sigs[] = {
	SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGSYS, SIGTRAP,
	SIGPIPE,
#ifdef SIGIO
	SIGIO,
#endif
#if defined(SIGPOLL) && (!defined(SIGIO) || SIGPOLL != SIGIO)
	SIGPOLL,
#endif
#ifdef SIGPWR
	SIGPWR,
#endif
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
#ifdef SIGLOST
	SIGLOST,
#endif
#ifdef SIGEMT
	SIGEMT,
#endif
};

static void install_fatal(void)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof(ui_term_sigs) / sizeof(ui_term_sigs[0]); i++)
		if (sigaction(ui_term_sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(ui_term_sigs[i], &sa, NULL);
	/* Sanitizers report crashes through their own handlers. */
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_UNDEFINED__)
	static const int crash[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	for (size_t i = 0; i < sizeof(crash) / sizeof(crash[0]); i++)
		sigaction(crash[i], &sa, NULL);
#endif
}

/* After endwin: the terminal is the shell's again, nothing to restore. */
static void uninstall_fatal(void)
{
	ui_have_tty = 0;
	ui_fatal_smp = NULL;     /* the session closes next: damon_ctl_stop */
}

/* The monitor needs a terminal it can draw on: said before anything is
 * drawn, never a loop on a missing one. 0 or an exit status. */
static int check_terminal(void)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "numatop-tui: standard %s is not a terminal: the monitor needs one "
			"(for output to a file or pipe: -b, --json)\n",
			isatty(STDIN_FILENO) ? "output" : "input");
		return 1;
	}
	return 0;
}

/* getch() said nothing came: a timeout, or a terminal that is gone (hung
 * up, closed). The latter ends the program instead of spinning. */
static bool input_lost(void)
{
	struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
	int n = poll(&p, 1, 0);
	if (n < 0)
		return errno != EINTR;
	if (n == 0)
		return false;
	return (p.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

/* One key: *ch a curses key code or a character (wide when *wide). ERR
 * when none came in time. */
static int read_key(int *ch, bool *is_key)
{
	wint_t wc;
	int r = get_wch(&wc);
	if (r == ERR)
		return ERR;
	*is_key = r == KEY_CODE_YES;
	*ch = (int)wc;
	return OK;
}

static void handle(struct ui *u, int ch, bool is_key)
{
	if (u->prompt.kind && !(is_key && ch == KEY_RESIZE)) {
		ui_prompt_key(u, is_key, (unsigned)ch);
		return;
	}
	/* Outside the prompts, characters beyond ASCII are no keys. */
	if (!is_key && ch > 255)
		return;
	if (u->fleet) {
		int prompt = ui_fleet_key(u, ch);
		if (prompt)
			ui_prompt_open(u, prompt);
		return;
	}
	ui_handle_key(u, ch);
}

/* The keys already queued behind the one just handled (a paste, a held
 * key), without a redraw between them: a redraw per key is what a 10 KB
 * paste into a prompt took 20 s of CPU for. Bounded, so that sampling
 * and redraws still come between long bursts. */
static void drain_keys(struct ui *u)
{
	double t0 = monotime_now();
	timeout(0);
	for (int i = 0; i < 4096 && !u->quit && !ui_stop; i++) {
		int ch;
		bool is_key;
		if (read_key(&ch, &is_key) == ERR)
			break;
		handle(u, ch, is_key);
		if ((i & 63) == 63 && monotime_now() - t0 > 0.05)
			break;
	}
}

/* The Fleet screen's loop: what the server's thread brought, drawn; keys
 * a tenth of a second apart at most, whatever the server does. True: the
 * terminal is gone. */
static bool fleet_loop(struct ui *u)
{
	while (!ui_stop) {
		ui_fleet_poll(u);
		ui_fleet_draw(u);
		if (u->quit)
			break;
		timeout(100);
		int ch;
		bool is_key;
		int got = read_key(&ch, &is_key);
		if (ui_stop)
			break;
		if (input_lost())
			return true;
		if (got != ERR) {
			handle(u, ch, is_key);
			drain_keys(u);
		}
	}
	return false;
}

int ui_run(const struct ui_config *o)
{
	int rc = check_terminal();
	if (rc)
		return rc;
	struct ui u;
	rc = ui_open(&u, o);
	if (rc) {
		ui_close(&u);
		return rc;
	}
	sigstop_install(on_term);
	struct sigaction sq;
	memset(&sq, 0, sizeof(sq));
	sq.sa_handler = on_term;
	sigemptyset(&sq.sa_mask);
	sigaction(SIGQUIT, &sq, NULL);
	setlocale(LC_ALL, "");
	/* Block characters need UTF-8: ASCII in any other locale. */
	const char *cs = nl_langinfo(CODESET);
	if (!cs || strcmp(cs, "UTF-8") != 0)
		u.ascii = true;
	if (tcgetattr(STDIN_FILENO, &ui_saved_tty) == 0)
		ui_have_tty = 1;
	const char *term = getenv("TERM");
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		fprintf(stderr, "numatop-tui: terminal type '%s' is unknown (set TERM)\n",
			term ? term : "");
		ui_close(&u);
		return 1;
	}
	char *cup = tigetstr("cup");
	if (!cup || cup == (char *)-1) {
		endwin();
		delscreen(scr);
		fprintf(stderr, "numatop-tui: terminal '%s' cannot move the cursor: the monitor "
			"needs a full-screen terminal (or use -b, --json)\n", term ? term : "");
		ui_close(&u);
		return 1;
	}
	ui_fatal_smp = u.se.smp;
	install_fatal();
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	init_colors(&u);
	if (u.mouse)
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	bool lost = false;
	if (u.fleet)
		lost = fleet_loop(&u);
	else
		ui_sample(&u);
	while (!u.fleet && !u.quit && !ui_stop) {
		if (u.sample_due)
			ui_sample(&u);
		ui_draw(&u);
		/* While a job runs (ui_jobs.c): no sampling, keys (Esc) between
		 * its steps. Paused or replaying: keys only (a second at a
		 * time, not a spin). */
		const struct ui_job *job = ui_job_running(&u);
		double left = u.delay - (monotime_now() - u.last_sample);
		bool warm = !job && !u.paused && !u.replay && sampler_warming(u.se.smp) && left > 0.02;
		int wait_ms = job ? job->wait_ms : warm ? 0 : u.paused || u.replay ? 1000 :
			      left > 0 ? (int)(left * 1000) + 1 : 0;
		/* A message goes when its time is up, not at the next sample. */
		if (u.msg[0] && !job) {
			double m = UI_MSG_SECONDS - (monotime_now() - u.msg_since);
			int mw = m > 0 ? (int)(m * 1000) + 1 : 0;
			if (mw < wait_ms)
				wait_ms = mw;
		}
		timeout(wait_ms);
		int ch;
		bool is_key;
		int got = read_key(&ch, &is_key);
		if (ui_stop)
			break;
		/* Checked whatever getch said: a terminal that is gone may
		 * also come back with endless "keys". */
		if (input_lost()) {
			lost = true;
			break;
		}
		if (got != ERR) {
			handle(&u, ch, is_key);
			drain_keys(&u);
		}
		if (job) {
			job->step(&u);
			continue;
		}
		/* After keys: the redraw at once, unless a sample is due
		 * (keys that keep coming never stop the sampling). */
		bool due = !u.paused && !u.replay && monotime_now() - u.last_sample >= u.delay;
		if (got != ERR && !due)
			continue;
		if (warm && warm_step(&u))
			continue;
		if (due)
			ui_sample(&u);
	}
	endwin();
	uninstall_fatal();
	delscreen(scr);
	char why[512];
	if (ui_settings_save(&u, why, sizeof(why)) != 0)
		fprintf(stderr, "numatop-tui: settings not saved to %s: %s\n", u.settings_path, why);
	ui_close(&u);
	if (lost) {
		fprintf(stderr, "numatop-tui: the terminal is gone\n");
		return 1;
	}
	return ui_stop == SIGQUIT ? 128 + SIGQUIT : 0;
}
