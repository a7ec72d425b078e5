/* ui_kill.c - the signal dialog (F9 / k). The processes it acts on are
 * pinned when it opens (PID + start time + program, held by a pidfd):
 * if one exits while the dialog is open and its PID is reused, Enter
 * reaches nobody rather than the newcomer. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "action.h"
#include "ui_int.h"

const struct ui_signal ui_signals[] = {
	{ SIGTERM, "15 SIGTERM" }, { SIGINT, " 2 SIGINT" }, { SIGHUP, " 1 SIGHUP" },
	{ SIGKILL, " 9 SIGKILL" }, { SIGSTOP, "19 SIGSTOP" }, { SIGCONT, "18 SIGCONT" },
	{ SIGUSR1, "10 SIGUSR1" }, { SIGUSR2, "12 SIGUSR2" },
};
const size_t ui_nsignals = sizeof(ui_signals) / sizeof(ui_signals[0]);

void ui_kill_close(struct ui *u)
{
	for (size_t i = 0; i < u->kill.n; i++)
		action_target_unlock(&u->kill.tg[i]);
	free(u->kill.tg);
	u->kill.tg = NULL;
	u->kill.n = 0;
}

void ui_kill_open(struct ui *u)
{
	ui_kill_close(u);
	const struct snap_proc *sel = ui_selected(u);
	if (!sel)
		return;
	size_t want = u->ntagged ? u->ntagged : 1;
	u->kill.tg = calloc(want, sizeof(*u->kill.tg));
	if (!u->kill.tg)
		return;
	int gone = 0, last = 0;
	for (size_t i = 0; i < u->snap.nprocs && u->kill.n < want; i++) {
		const struct snap_proc *p = snapshot_row(&u->snap, i);
		if (u->ntagged ? !ui_is_tagged(u, p) : p != sel)
			continue;
		struct action_target *t = &u->kill.tg[u->kill.n];
		*t = (struct action_target){ .pid = p->info.pid, .starttime = p->info.starttime,
					     .pidfd = -1 };
		snprintf(t->comm, sizeof(t->comm), "%s", p->info.comm);
		int e = action_target_lock(u->se.root, t);
		if (e == 0) {
			u->kill.n++;
		} else {
			gone++;
			last = e;
		}
	}
	if (u->kill.n == 0) {
		char why[128];
		snprintf(u->msg, sizeof(u->msg), "kill: %s", action_strerror(last ? last : -ESRCH,
									   why, sizeof(why)));
		ui_kill_close(u);
		return;
	}
	if (gone)
		snprintf(u->msg, sizeof(u->msg), "kill: %d tagged process%s exited", gone,
			 gone == 1 ? "" : "es");
	u->kill.sel = 0;
	u->screen = SCR_KILL;
}

static void send_signal(struct ui *u, int sig)
{
	int count = 0, exited = 0, failed = 0, err = 0;
	for (size_t i = 0; i < u->kill.n; i++) {
		/* Still the process pinned at open, running the same program:
		 * checked and signalled through the pidfd held since. */
		int e = action_target_signal(u->se.root, &u->kill.tg[i], sig);
		if (e == -ESRCH)
			exited++;
		else if (e)
			failed++, err = -e;
		else
			count++;
	}
	char why[128] = "";
	if (err == EPERM)   /* signals need CAP_KILL, not CAP_SYS_NICE */
		snprintf(why, sizeof(why), "operation not permitted (EPERM): not your "
			 "process; needs root or CAP_KILL");
	else if (err)
		action_strerror(err, why, sizeof(why));
	int n = snprintf(u->msg, sizeof(u->msg), "signal sent to %d process%s", count,
			 count == 1 ? "" : "es");
	if (exited && u->kill.n == 1)
		n = snprintf(u->msg, sizeof(u->msg), "PID %d exited since the dialog opened: "
			     "no signal sent", u->kill.tg[0].pid);
	else if (exited)
		n += snprintf(u->msg + n, sizeof(u->msg) - (size_t)n, "; %d exited", exited);
	if (failed && n > 0 && (size_t)n < sizeof(u->msg))
		snprintf(u->msg + n, sizeof(u->msg) - (size_t)n, "; failed for %d: %.100s", failed, why);
}

void ui_kill_key(struct ui *u, int ch)
{
	if (ch == KEY_UP && u->kill.sel > 0)
		u->kill.sel--;
	else if (ch == KEY_DOWN && u->kill.sel + 1 < (int)ui_nsignals)
		u->kill.sel++;
	else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
		send_signal(u, ui_signals[u->kill.sel].sig);
	else if (ch != KEY_ESC && ch != 'q')
		return;
	ui_kill_close(u);
	u->screen = SCR_PROCESSES;
}

void ui_draw_kill(struct ui *u)
{
	/* As much of the list as fits, scrolled to keep the choice shown. */
	/* Above the function-key bar, below the tabs. */
	int h = (int)ui_nsignals + 4, w = 36;
	if (h > LINES - 2)
		h = LINES - 2;
	if (w > COLS)
		w = COLS;
	int rows = h - 4 > 0 ? h - 4 : h - 2 > 0 ? 1 : 0;
	int first = u->kill.sel >= rows ? u->kill.sel - rows + 1 : 0;
	int y0 = (LINES - h) / 2, x0 = (COLS - w) / 2;
	if (y0 < 1)
		y0 = 1;
	attron(ui_attr(u, C_FKEY_LABEL));
	for (int y = 0; y < h; y++)
		mvhline(y0 + y, x0, ' ', w);
	char title[64];
	if (u->kill.n > 1)
		snprintf(title, sizeof(title), "Send signal to %zu tagged", u->kill.n);
	else
		snprintf(title, sizeof(title), "Send signal to PID %d", u->kill.n ? u->kill.tg[0].pid : -1);
	mvaddnstr(y0, x0 + 1, title, w - 2);
	attroff(ui_attr(u, C_FKEY_LABEL));
	for (int r = 0; r < rows && first + r < (int)ui_nsignals; r++) {
		int i = first + r;
		int a = i == u->kill.sel ? ui_attr(u, C_SELECTED) : ui_attr(u, C_FKEY_LABEL);
		attron(a);
		mvprintw(y0 + (h > 4 ? 2 : 1) + r, x0 + 1, " %-*.*s", w - 3, w - 3, ui_signals[i].name);
		attroff(a);
	}
	if (h >= 3) {
		attron(ui_attr(u, C_FKEY_LABEL));
		mvaddnstr(y0 + h - 1, x0 + 1, "Enter: send  Esc: cancel", w - 2);
		attroff(ui_attr(u, C_FKEY_LABEL));
	}
}
