/* ui_fleet.c - the Fleet screen (--fleet): one row per host that the
 * Prometheus server scrapes, sorted, searched and filtered with the
 * monitor's keys; Enter opens the host (ui_fleet_view.c), t/T/b step
 * through time. The server is asked on a thread of its own, so a slow or
 * silent server never holds a key: the screen shows the last table it
 * has, says what failed and since when, and asks again. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curses.h>

#include "format.h"
#include "monotime.h"
#include "record.h"
#include "sanitize.h"
#include "ui_fleet_int.h"

/* ---- the thread that asks the server ------------------------------------ */

static void *worker(void *arg)
{
	struct ui_fleet *fl = arg;
	pthread_mutex_lock(&fl->mu);
	for (;;) {
		while (!fl->quit && !fl->ask_table && !fl->ask_view)
			pthread_cond_wait(&fl->cv, &fl->mu);
		if (fl->quit)
			break;
		bool view = fl->ask_view;
		double at = fl->ask_at;
		char host[sizeof(fl->ask_host)];
		snprintf(host, sizeof(host), "%s", fl->ask_host);
		if (view)
			fl->ask_view = false;
		else
			fl->ask_table = false;
		fl->busy = true;
		pthread_mutex_unlock(&fl->mu);
		struct fleet f = { 0 };
		struct fleet_view v = { 0 };
		int rc;
		fleet_set_time(fl->cl, at);
		if (view)
			rc = fleet_view_read(fl->cl, host, &v);
		else
			rc = fleet_refresh(fl->cl, &f);
		pthread_mutex_lock(&fl->mu);
		fl->busy = false;
		if (view) {
			fleet_view_free(&fl->got_view);
			fl->got_view = v;
			fl->got_view_rc = rc;
			fl->got_view_ready = true;
		} else {
			fleet_free(&fl->got);
			fl->got = f;
			fl->got_rc = rc;
			fl->got_at = at;
			fl->got_ready = true;
		}
	}
	pthread_mutex_unlock(&fl->mu);
	return NULL;
}

int ui_fleet_open(struct ui *u, const struct fleet_config *c, char *msg, size_t n)
{
	struct ui_fleet *fl = calloc(1, sizeof(*fl));
	if (!fl)
		return -ENOMEM;
	u->fleet = fl;
	atomic_init(&fl->cancel, false);
	struct fleet_config cc = *c;
	cc.cancel = &fl->cancel;
	int rc = fleet_open(&cc, &fl->cl, msg, n);
	if (rc)
		return rc;
	snprintf(fl->url, sizeof(fl->url), "%s", c->url);
	snprintf(fl->match, sizeof(fl->match), "%s", c->match ? c->match : "");
	fl->sort = FLEET_COL_HOTREM;
	fl->rc = 1;   /* nothing come yet */
	pthread_mutex_init(&fl->mu, NULL);
	pthread_cond_init(&fl->cv, NULL);
	fl->ask_table = true;
	fl->asked = monotime_now();
	/* --fleet-host: that host opened at once (Esc: the table). */
	if (u->opt->fleet_host) {
		fl->in_view = true;
		fl->view_rc = 1;
		fl->ask_view = true;
		snprintf(fl->view_host, sizeof(fl->view_host), "%s", u->opt->fleet_host);
		snprintf(fl->ask_host, sizeof(fl->ask_host), "%s", u->opt->fleet_host);
	}
	if (pthread_create(&fl->th, NULL, worker, fl) != 0) {
		snprintf(msg, n, "cannot start the thread that asks the server");
		pthread_mutex_destroy(&fl->mu);
		pthread_cond_destroy(&fl->cv);
		return -EAGAIN;
	}
	fl->th_on = true;
	return 0;
}

void ui_fleet_close(struct ui *u)
{
	struct ui_fleet *fl = u->fleet;
	if (!fl)
		return;
	if (fl->th_on) {
		/* A request under way ends at once (the transfer is cancelled). */
		atomic_store(&fl->cancel, true);
		pthread_mutex_lock(&fl->mu);
		fl->quit = true;
		pthread_cond_signal(&fl->cv);
		pthread_mutex_unlock(&fl->mu);
		pthread_join(fl->th, NULL);
		pthread_mutex_destroy(&fl->mu);
		pthread_cond_destroy(&fl->cv);
	}
	fleet_close(fl->cl);
	fleet_free(&fl->f);
	fleet_free(&fl->got);
	fleet_view_free(&fl->view);
	fleet_view_free(&fl->got_view);
	free(fl->rows);
	free(fl);
	u->fleet = NULL;
}

/* ---- the rows: filter and order ----------------------------------------- */

static bool has(const char *s, const char *t)
{
	return s && *t && strstr(s, t);
}

/* The text a host is found by: instance, job, labels, heat, worst process. */
static bool host_matches(const struct fleet_host *h, const char *t)
{
	if (has(h->instance, t) || has(h->job, t) || has(h->heat_source, t))
		return true;
	for (size_t k = 0; k < h->nlabels; k++)
		if (has(h->lvalues[k], t) || has(h->lnames[k], t))
			return true;
	for (size_t k = 0; k < h->ntop; k++)
		if (has(h->top[k].comm, t))
			return true;
	return false;
}

static int row_cmp(const void *a, const void *b, void *arg)
{
	const struct ui_fleet *fl = arg;
	const struct fleet_host *x = &fl->f.hosts[*(const size_t *)a];
	const struct fleet_host *y = &fl->f.hosts[*(const size_t *)b];
	int c = fleet_col_cmp((size_t)fl->sort, x, y);
	if (fl->desc)
		c = -c;
	if (c == 0)
		c = strcmp(x->instance ? x->instance : "", y->instance ? y->instance : "");
	return c;
}

void ui_fleet_rebuild(struct ui *u)
{
	struct ui_fleet *fl = u->fleet;
	free(fl->rows);
	fl->rows = calloc(fl->f.nhosts ? fl->f.nhosts : 1, sizeof(*fl->rows));
	fl->nrows = 0;
	if (!fl->rows)
		return;
	for (size_t i = 0; i < fl->f.nhosts; i++)
		if (!u->filter[0] || host_matches(&fl->f.hosts[i], u->filter))
			fl->rows[fl->nrows++] = i;
	qsort_r(fl->rows, fl->nrows, sizeof(*fl->rows), row_cmp, fl);
	/* The selection stays on its host. */
	fl->sel = 0;
	for (size_t r = 0; r < fl->nrows; r++)
		if (strcmp(fl->f.hosts[fl->rows[r]].instance, fl->sel_inst) == 0)
			fl->sel = (long)r;
}

const struct fleet_host *ui_fleet_selected(const struct ui *u)
{
	const struct ui_fleet *fl = u->fleet;
	if (fl->sel < 0 || (size_t)fl->sel >= fl->nrows)
		return NULL;
	return &fl->f.hosts[fl->rows[fl->sel]];
}

static void select_row(struct ui_fleet *fl, long r)
{
	if (fl->nrows == 0)
		return;
	if (r < 0)
		r = 0;
	if ((size_t)r >= fl->nrows)
		r = (long)fl->nrows - 1;
	fl->sel = r;
	snprintf(fl->sel_inst, sizeof(fl->sel_inst), "%s", fl->f.hosts[fl->rows[r]].instance);
}

/* ---- asking and taking in --------------------------------------------- */

/* Ask for what the screen shows (the table, or the host open), now. */
static void ask(struct ui_fleet *fl)
{
	pthread_mutex_lock(&fl->mu);
	fl->ask_at = fl->at;
	if (fl->in_view) {
		fl->ask_view = true;
		snprintf(fl->ask_host, sizeof(fl->ask_host), "%s", fl->view_host);
	} else {
		fl->ask_table = true;
	}
	pthread_cond_signal(&fl->cv);
	pthread_mutex_unlock(&fl->mu);
	fl->asked = monotime_now();
}

/* What the thread brought, taken in; a new request when one is due. */
void ui_fleet_poll(struct ui *u)
{
	struct ui_fleet *fl = u->fleet;
	bool table = false, view = false;
	pthread_mutex_lock(&fl->mu);
	if (fl->got_ready) {
		fl->got_ready = false;
		table = true;
		/* Nothing read (the server gone, not Prometheus): the last
		 * table of the same time stays, said stale; its errors said. */
		memcpy(fl->errs, fl->got.errors, sizeof(fl->errs));
		fl->nerrs = fl->got.nerrors;
		fl->rc = fl->got_rc;
		if (fl->got_rc == 0 || fl->got_rc == -ENOENT || fl->got_at != fl->f_at) {
			fleet_free(&fl->f);
			fl->f = fl->got;
			memset(&fl->got, 0, sizeof(fl->got));
			fl->f_at = fl->got_at;
		} else {
			fleet_free(&fl->got);
		}
		if (fl->rc == 0 || fl->rc == -ENOENT) {
			fl->good = monotime_now();
			fl->good_wall = time(NULL);
		}
		/* -n N: N tables, each drawn, then the end. */
		if (fl->rc == 0 && u->opt->iterations > 0 && ++fl->tables >= u->opt->iterations)
			u->quit = true;
	}
	if (fl->got_view_ready) {
		fl->got_view_ready = false;
		view = true;
		fleet_view_free(&fl->view);
		fl->view = fl->got_view;
		memset(&fl->got_view, 0, sizeof(fl->got_view));
		fl->view_rc = fl->got_view_rc;
	}
	bool busy = fl->busy || fl->ask_table || fl->ask_view;
	pthread_mutex_unlock(&fl->mu);
	if (table)
		ui_fleet_rebuild(u);
	if (view && fl->vscroll >= (long)fl->view.nprocs)
		fl->vscroll = fl->view.nprocs ? (long)fl->view.nprocs - 1 : 0;
	/* Live: asked again every delay; a time in the past: once. */
	double every = u->delay > 0 ? u->delay : 10;
	if (!busy && fl->at == 0 && monotime_now() - fl->asked >= every)
		ask(fl);
	fl->busy_shown = busy;
}

/* ---- the keys ------------------------------------------------------------ */

static void k_quit(struct ui *u, int ch) { (void)ch; u->quit = true; }

static void k_move(struct ui *u, int ch)
{
	struct ui_fleet *fl = u->fleet;
	long page = LINES > 8 ? LINES - 6 : 1;
	if (fl->in_view) {
		long d = ch == KEY_UP ? -1 : ch == KEY_DOWN ? 1 : ch == KEY_PPAGE ? -page :
			 ch == KEY_NPAGE ? page : ch == KEY_HOME ? -(1L << 30) : (1L << 30);
		fl->vscroll += d;
		if (fl->vscroll < 0)
			fl->vscroll = 0;
		long max = (long)fl->view.nprocs - 1;
		if (fl->vscroll > max)
			fl->vscroll = max > 0 ? max : 0;
		return;
	}
	long r = fl->sel;
	switch (ch) {
	case KEY_UP: r--; break;
	case KEY_DOWN: r++; break;
	case KEY_PPAGE: r -= page; break;
	case KEY_NPAGE: r += page; break;
	case KEY_HOME: r = 0; break;
	default: r = (long)fl->nrows - 1; break;
	}
	select_row(fl, r);
}

static void k_enter(struct ui *u, int ch)
{
	(void)ch;
	struct ui_fleet *fl = u->fleet;
	const struct fleet_host *h = ui_fleet_selected(u);
	if (fl->in_view || !h)
		return;
	fl->in_view = true;
	fl->vscroll = 0;
	snprintf(fl->view_host, sizeof(fl->view_host), "%s", h->instance);
	snprintf(fl->view_job, sizeof(fl->view_job), "%s", h->job ? h->job : "");
	fleet_view_free(&fl->view);
	fl->view_rc = 1;    /* asked, not come yet */
	ask(fl);
}

static void k_back(struct ui *u, int ch)
{
	(void)ch;
	struct ui_fleet *fl = u->fleet;
	if (!fl->in_view)
		return;
	fl->in_view = false;
	ask(fl);
}

static void k_sort(struct ui *u, int ch)
{
	struct ui_fleet *fl = u->fleet;
	if (fl->in_view)
		return;
	int n = (int)fleet_ncols;
	do
		fl->sort = (fl->sort + (ch == '<' ? n - 1 : 1)) % n;
	while (fl->sort == FLEET_COL_LABELS && !fl->labels);
	fl->desc = false;
	ui_fleet_rebuild(u);
}

static void k_invert(struct ui *u, int ch)
{
	(void)ch;
	u->fleet->desc = !u->fleet->desc;
	ui_fleet_rebuild(u);
}

static void k_labels(struct ui *u, int ch)
{
	(void)ch;
	u->fleet->labels = !u->fleet->labels;
}

static void k_help(struct ui *u, int ch)
{
	(void)ch;
	u->fleet->help = !u->fleet->help;
}

/* t T: a step back or forward in time; forward past now is live again. */
static void k_time(struct ui *u, int ch)
{
	struct ui_fleet *fl = u->fleet;
	double now = (double)time(NULL);
	double at = fl->at > 0 ? fl->at : floor(now / UI_FLEET_STEP_S) * UI_FLEET_STEP_S;
	at += ch == 't' ? -UI_FLEET_STEP_S : UI_FLEET_STEP_S;
	fl->at = ch == 'T' && at > now - UI_FLEET_STEP_S ? 0 : at;
	ask(fl);
}

static void k_prompt(struct ui *u, int ch)
{
	u->fleet->want_prompt = ch == 'b' ? UI_PROMPT_TIME : ch == '/' || ch == KEY_F(3) ?
				UI_PROMPT_SEARCH : UI_PROMPT_FLEET_FILTER;
}

static void k_refresh(struct ui *u, int ch)
{
	(void)ch;
	ask(u->fleet);
}

/* The Fleet screen's keys: dispatch, its help and its key bar. */
const struct ui_key ui_fleet_keys[] = {
	{ KEY_UP, k_move, "Up Down PgUp PgDn Home End", "select a host; on a host: scroll its processes",
	  NULL, false, NULL },
	{ KEY_DOWN, k_move, NULL, NULL, NULL, false, NULL },
	{ KEY_PPAGE, k_move, NULL, NULL, NULL, false, NULL },
	{ KEY_NPAGE, k_move, NULL, NULL, NULL, false, NULL },
	{ KEY_HOME, k_move, NULL, NULL, NULL, false, NULL },
	{ KEY_END, k_move, NULL, NULL, NULL, false, NULL },
	{ '\n', k_enter, "Enter", "open the host: its nodes and processes, the last hour", "Host", false,
	  NULL },
	{ KEY_ENTER, k_enter, NULL, NULL, NULL, false, NULL },
	{ '\r', k_enter, NULL, NULL, NULL, false, NULL },
	{ KEY_ESC, k_back, "Esc", "back to the hosts", "Back", false, NULL },
	{ KEY_LEFT, k_back, NULL, NULL, NULL, false, NULL },
	{ KEY_BACKSPACE, k_back, NULL, NULL, NULL, false, NULL },
	{ KEY_F(3), k_prompt, "F3 /", "search: the next host whose instance, labels or worst process "
	  "has the text", "Search", false, NULL },
	{ '/', k_prompt, NULL, NULL, NULL, false, NULL },
	{ KEY_F(4), k_prompt, "F4 \\", "filter: only the hosts with the text (empty: all)", "Filter",
	  false, NULL },
	{ '\\', k_prompt, NULL, NULL, NULL, false, NULL },
	{ KEY_F(6), k_sort, "F6 < >", "sort by the next / previous column", "SortBy", false, NULL },
	{ '>', k_sort, NULL, NULL, NULL, false, NULL },
	{ '<', k_sort, NULL, NULL, NULL, false, NULL },
	{ 'I', k_invert, "I", "invert the sort order", NULL, false, NULL },
	{ 'l', k_labels, "l", "show / hide the hosts' other target labels", "Labels", false, NULL },
	{ 't', k_time, "t T", "one minute back / forward in time (forward past now: live)", "Time",
	  false, NULL },
	{ 'T', k_time, NULL, NULL, NULL, false, NULL },
	{ 'b', k_prompt, "b", "go to a time (HH:MM, YYYY-MM-DD HH:MM; now: live)", NULL, false, NULL },
	{ ' ', k_refresh, "Space", "ask the server again now", NULL, false, NULL },
	{ KEY_F(1), k_help, "F1 h ?", "this help", "Help", false, NULL },
	{ 'h', k_help, NULL, NULL, NULL, false, NULL },
	{ '?', k_help, NULL, NULL, NULL, false, NULL },
	{ KEY_F(10), k_quit, "F10 q", "quit", "Quit", false, NULL },
	{ 'q', k_quit, NULL, NULL, NULL, false, NULL },
};
const size_t ui_fleet_nkeys = sizeof(ui_fleet_keys) / sizeof(ui_fleet_keys[0]);

bool ui_fleet_help_entry(long k, const char **label, const char **text)
{
	for (size_t i = 0; i < ui_fleet_nkeys; i++)
		if (ui_fleet_keys[i].help && k-- == 0) {
			*label = ui_fleet_keys[i].label;
			*text = ui_fleet_keys[i].help;
			return true;
		}
	return false;
}

int ui_fleet_key(struct ui *u, int ch)
{
	struct ui_fleet *fl = u->fleet;
	fl->want_prompt = 0;
	if (fl->help && ch != KEY_RESIZE) {
		fl->help = false;
		return 0;
	}
	for (size_t i = 0; i < ui_fleet_nkeys; i++)
		if (ui_fleet_keys[i].key == ch) {
			ui_fleet_keys[i].fn(u, ch);
			break;
		}
	return fl->want_prompt;
}

/* ---- what a prompt said ------------------------------------------------- */

static void search(struct ui *u, const char *t)
{
	struct ui_fleet *fl = u->fleet;
	for (size_t k = 1; k <= fl->nrows; k++) {
		size_t r = ((size_t)fl->sel + k) % fl->nrows;
		if (host_matches(&fl->f.hosts[fl->rows[r]], t)) {
			select_row(fl, (long)r);
			return;
		}
	}
	char shown[96];
	sanitize_term(t, shown, sizeof(shown));
	snprintf(u->msg, sizeof(u->msg), "not found: %s", shown);
	u->msg_since = monotime_now();
}

void ui_fleet_prompt_done(struct ui *u, int kind, const char *text)
{
	struct ui_fleet *fl = u->fleet;
	if (kind == UI_PROMPT_SEARCH && *text) {
		search(u, text);
	} else if (kind == UI_PROMPT_FLEET_FILTER) {
		snprintf(u->filter, sizeof(u->filter), "%s", text);
		ui_fleet_rebuild(u);
	} else if (kind == UI_PROMPT_TIME && *text) {
		time_t when;
		if (strcmp(text, "now") == 0 || strcmp(text, "live") == 0) {
			fl->at = 0;
		} else if (rec_parse_time(text, fl->at > 0 ? (time_t)fl->at : time(NULL), &when) == 0) {
			fl->at = (double)when >= (double)time(NULL) ? 0 : (double)when;
		} else {
			char shown[96];
			sanitize_term(text, shown, sizeof(shown));
			snprintf(u->msg, sizeof(u->msg), "not a time: %s (HH:MM[:SS], YYYY-MM-DD HH:MM, now)",
				 shown);
			u->msg_since = monotime_now();
			return;
		}
		ask(fl);
	}
}
