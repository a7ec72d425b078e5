/* ui_measure.c - the L dialog: confirm, measure in a thread with a
 * progress bar (Esc cancels), then show the result as heatmap layers. */
#include <curses.h>
#include <errno.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui_int.h"

enum mphase { MP_CONFIRM, MP_RUNNING, MP_DONE };

struct ui_measure {
	enum mphase phase;
	pthread_t th;
	pthread_mutex_t mu;
	unsigned done, total;
	char what[96];
	atomic_int cancel;
	bool finished;           /* the thread has returned (under mu) */
	int rc;
	struct measure_result res;
	const struct fsroot *root;
	const struct topology *topo;
	bool quick;
	char saved[1024];
	char save_why[512];           /* an untrusted cache directory */
	int save_rc;
};

static void on_progress(void *ctx, unsigned done, unsigned total, const char *what)
{
	struct ui_measure *m = ctx;
	pthread_mutex_lock(&m->mu);
	m->done = done;
	m->total = total;
	snprintf(m->what, sizeof(m->what), "%s", what);
	pthread_mutex_unlock(&m->mu);
}

static void *worker(void *arg)
{
	struct ui_measure *m = arg;
	struct measure_opts o = { .quick = m->quick, .cancel = &m->cancel,
				  .progress = on_progress, .ctx = m };
	int rc = measure_run(m->root, m->topo, &o, &m->res);
	pthread_mutex_lock(&m->mu);
	m->rc = rc;
	m->finished = true;
	pthread_mutex_unlock(&m->mu);
	return NULL;
}

void ui_measure_open(struct ui *u)
{
	if (ui_replay_refused(u))
		return;
	if (!fsroot_is_live(u->se.root)) {
		snprintf(u->msg, sizeof(u->msg), "measuring needs the live machine, not a recorded tree");
		return;
	}
	if (u->mjob)
		return;
	struct ui_measure *m = calloc(1, sizeof(*m));
	if (!m)
		return;
	pthread_mutex_init(&m->mu, NULL);
	m->root = u->se.root;
	m->topo = &u->se.topo;
	m->quick = u->opt->measure_quick;
	u->mjob = m;
	u->screen = SCR_MEASURE;
}

bool ui_measure_running(const struct ui *u)
{
	return u->mjob && u->mjob->phase == MP_RUNNING;
}

void ui_measure_free(struct ui *u)
{
	struct ui_measure *m = u->mjob;
	if (!m)
		return;
	if (m->phase == MP_RUNNING) {
		atomic_store(&m->cancel, 1);
		pthread_join(m->th, NULL);
		if (m->rc == 0)
			measure_free(&m->res);
	}
	pthread_mutex_destroy(&m->mu);
	free(m);
	u->mjob = NULL;
}

static void close_dialog(struct ui *u)
{
	ui_measure_free(u);
	u->screen = SCR_PROCESSES;
}

void ui_measure_poll(struct ui *u)
{
	struct ui_measure *m = u->mjob;
	if (!m || m->phase != MP_RUNNING)
		return;
	pthread_mutex_lock(&m->mu);
	bool fin = m->finished;
	pthread_mutex_unlock(&m->mu);
	if (!fin)
		return;
	pthread_join(m->th, NULL);
	m->phase = MP_DONE;
	if (m->rc == 0) {
		m->save_rc = measure_cache_path(&m->res, m->saved, sizeof(m->saved));
		if (m->save_rc == 0)
			m->save_rc = measure_save(&m->res, m->saved, m->save_why, sizeof(m->save_why));
		if (u->se.have_meas)
			measure_free(&u->se.meas);
		u->se.meas = m->res;      /* the result moves to the UI */
		memset(&m->res, 0, sizeof(m->res));
		u->se.have_meas = true;
		ui_measure_adopt(u);
		u->heat.layer = HL_LATENCY;
		u->show_heatmap = true;
	}
}

void ui_measure_key(struct ui *u, int ch)
{
	struct ui_measure *m = u->mjob;
	if (!m) {
		u->screen = SCR_PROCESSES;
		return;
	}
	switch (m->phase) {
	case MP_CONFIRM:
		if (ch == '\n' || ch == '\r' || ch == KEY_ENTER || ch == 'y') {
			int e = pthread_create(&m->th, NULL, worker, m);
			if (e != 0) {
				snprintf(u->msg, sizeof(u->msg), "cannot start the measurement: %s",
					 fsroot_strerror(e));
				close_dialog(u);
				return;
			}
			m->phase = MP_RUNNING;
		} else if (ch == KEY_ESC || ch == 'q' || ch == 'n') {
			close_dialog(u);
		}
		break;
	case MP_RUNNING:
		if (ch == KEY_ESC || ch == 'q')
			atomic_store(&m->cancel, 1);
		break;
	case MP_DONE:
		if (m->rc == -ECANCELED)
			snprintf(u->msg, sizeof(u->msg), "measurement cancelled");
		else if (m->rc)
			snprintf(u->msg, sizeof(u->msg), "measurement failed: %s", fsroot_strerror(-m->rc));
		else
			snprintf(u->msg, sizeof(u->msg), "measured in %.0f s; v cycles the heatmap layers",
				 u->se.meas.seconds);
		close_dialog(u);
		break;
	}
}

/* One line of the dialog, cut at its edge; nothing below its last row. */
static void say(int *y, int ymax, int x, int w, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void say(int *y, int ymax, int x, int w, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (*y < ymax && w > 0)
		mvaddnstr(*y, x, line, w);
	(*y)++;
}

void ui_measure_draw(struct ui *u)
{
	struct ui_measure *m = u->mjob;
	if (!m)
		return;
	int w = COLS - 4 < 76 ? COLS - 4 : 76, h = 11;
	if (h > LINES - 1)
		h = LINES - 1;
	int y0 = (LINES - h) / 2, x0 = (COLS - w) / 2;
	if (y0 < 1)
		y0 = 1;
	int ymax = y0 + h;
	attron(ui_attr(u, C_HEADER));
	for (int r = 0; r < h; r++)
		mvhline(y0 + r, x0, ' ', w);
	mvaddnstr(y0, x0 + 1, "Measure latency and bandwidth between nodes", w - 2);
	attroff(ui_attr(u, C_HEADER));
	int y = y0 + 2, x = x0 + 2;
	size_t ncpu = 0, nmem = 0;
	for (size_t i = 0; i < u->se.topo.nnodes; i++) {
		ncpu += !bitmap_empty(&u->se.topo.nodes[i].cpus);
		nmem += u->se.topo.nodes[i].has_memory;
	}
	if (m->phase == MP_CONFIRM) {
		say(&y, ymax, x, w - 4, "%zu CPU node(s) x %zu memory node(s): %zu pairs, %s run.", ncpu, nmem,
			 ncpu * nmem, m->quick ? "a quick" : "a full");
		say(&y, ymax, x, w - 4, "Each memory node gets a buffer of up to 1 GiB for a few seconds;");
		/* About 2 s a pair in a full run, 1 in a quick one (as
		 * docs/distances.md measures it); many pairs take fewer steps. */
		size_t est = ncpu * nmem * (m->quick ? 1 : 2);
		char about[32];
		if (est <= 60)
			snprintf(about, sizeof(about), "about %zu s", est ? est : 1);
		else
			snprintf(about, sizeof(about), "a minute or more");
		say(&y, ymax, x, w - 4, "the CPUs of each node are kept busy meanwhile (%s).", about);
		y++;
		say(&y, ymax, x, w - 4, "Enter: start    Esc: cancel");
	} else if (m->phase == MP_RUNNING) {
		pthread_mutex_lock(&m->mu);
		unsigned done = m->done, total = m->total ? m->total : 1;
		char what[96];
		snprintf(what, sizeof(what), "%s", m->what);
		pthread_mutex_unlock(&m->mu);
		say(&y, ymax, x, w - 4, "%-*.*s", w - 4, w - 4, what[0] ? what : "allocating buffers");
		int bar = w - 12 > 1 ? w - 12 : 1, fill = (int)((double)bar * done / total);
		if (y < ymax) {
			mvaddch(y, x, '[');
			attron(ui_attr(u, C_BAR_USER));
			for (int k = 0; k < fill; k++)
				mvaddch(y, x + 1 + k, u->ascii ? '#' : ' ' | A_REVERSE);
			attroff(ui_attr(u, C_BAR_USER));
			mvprintw(y, x + 1 + bar, "] %u/%u", done, total);
		}
		y++;
		y++;
		say(&y, ymax, x, w - 4, atomic_load(&m->cancel) ? "cancelling..." : "Esc: cancel");
	} else {
		if (m->rc == 0) {
			say(&y, ymax, x, w - 4, "Done in %.1f s. The heatmap shows the latency layer (v: next).",
				 u->se.meas.seconds);
			if (u->se.meas.hypervisor[0])
				say(&y, ymax, x, w - 4, "In a VM (%.40s): the host's placement.", u->se.meas.hypervisor);
			if (m->save_rc == 0)
				say(&y, ymax, x, w - 4, "Saved: %.*s", w - 12, m->saved);
			else
				say(&y, ymax, x, w - 4, "Not saved: %s", m->save_why[0] ? m->save_why :
					 fsroot_strerror(-m->save_rc));
		} else {
			say(&y, ymax, x, w - 4, "%s", m->rc == -ECANCELED ? "Cancelled." : fsroot_strerror(-m->rc));
		}
		y++;
		say(&y, ymax, x, w - 4, "Any key: close");
	}
}
