/* ui_fleet_draw.c - the Fleet screen drawn: the title (the server, the
 * time shown), the hosts table from the core's column table (fleet_cols[],
 * the columns that fit: the least needed left out first), what the last
 * refresh could not get, the key bar and the help from the screen's key
 * table (ui_fleet_keys[]); the host open is ui_fleet_view.c's. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <curses.h>

#include "format.h"
#include "monotime.h"
#include "sanitize.h"
#include "ui_fleet_int.h"

/* "live" or "at 2026-12-07 20:10:00" */
static void when(double at, char *out, size_t n)
{
	if (at <= 0) {
		snprintf(out, n, "live");
		return;
	}
	time_t t = (time_t)at;
	struct tm tm;
	localtime_r(&t, &tm);
	char b[32];
	strftime(b, sizeof(b), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(out, n, "at %s", b);
}

static void title(struct ui *u, const char *what)
{
	struct ui_fleet *fl = u->fleet;
	char t[1400], url[520], m[520], w[64];
	sanitize_term(fl->url, url, sizeof(url));
	sanitize_term(fl->match, m, sizeof(m));
	when(fl->at, w, sizeof(w));
	attron(ui_attr(u, C_HEADER));
	mvaddnstr(0, 0, " Fleet ", COLS);
	attroff(ui_attr(u, C_HEADER));
	snprintf(t, sizeof(t), " %s  %s%s%s  %s%s", what, url, *m ? " " : "", m, w,
		 fl->busy_shown && monotime_now() - fl->asked > 1.0 ? "  (asking...)" : "");
	attron(ui_attr(u, C_LABEL));
	ui_put(0, 7, t, COLS - 7);
	attroff(ui_attr(u, C_LABEL));
}

/* What did not come, in one line (row y): the server's state first. */
static void problems(struct ui *u, int y)
{
	struct ui_fleet *fl = u->fleet;
	char line[800] = "", m[400];
	if (fl->rc == 1) {
		snprintf(line, sizeof(line), "asking the server...");
	} else if (fl->rc == -ENOENT) {
		snprintf(line, sizeof(line), "no numatop series%s%s: no numatop-tui --serve exporter is "
			 "scraped there", fl->match[0] ? " matching " : "", fl->match);
	} else if (fl->rc != 0 && fl->nerrs) {
		sanitize_term(fl->errs[0].msg, m, sizeof(m));
		if (fl->f.nhosts && fl->good > 0) {
			char t[16];
			struct tm tm;
			localtime_r(&fl->good_wall, &tm);
			strftime(t, sizeof(t), "%H:%M:%S", &tm);
			snprintf(line, sizeof(line), "stale, from %s: %s", t, m);
		} else {
			snprintf(line, sizeof(line), "%s (asked again every %.0f s)", m,
				 u->delay > 0 ? u->delay : 10);
		}
	} else if (fl->nerrs) {
		sanitize_term(fl->errs[0].msg, m, sizeof(m));
		snprintf(line, sizeof(line), "partial: query %s: %s%s", fleet_query_name(fl->errs[0].q), m,
			 fl->nerrs > 1 ? " (and more)" : "");
	} else {
		size_t down = 0, gone = 0;
		for (size_t i = 0; i < fl->f.nhosts; i++) {
			down += fl->f.hosts[i].up == 0;
			gone += fl->f.hosts[i].up < 0;
		}
		if (down && gone)
			snprintf(line, sizeof(line), "%zu host%s DOWN (scrapes fail), %zu no longer scraped",
				 down, down == 1 ? "" : "s", gone);
		else if (down)
			snprintf(line, sizeof(line), "%zu host%s DOWN (scrapes fail)", down, down == 1 ? "" : "s");
		else if (gone)
			snprintf(line, sizeof(line), "%zu host%s no longer scraped (UP -)", gone,
				 gone == 1 ? "" : "s");
	}
	if (u->msg[0] && monotime_now() - u->msg_since < UI_MSG_SECONDS)
		snprintf(line, sizeof(line), "%s", u->msg);
	if (!line[0])
		return;
	attron(ui_attr(u, C_WARN));
	ui_put(y, 0, line, COLS);
	attroff(ui_attr(u, C_WARN));
}

/* The columns that fit, whole: on[c]; the last one shown takes the rest. */
static void fit(const struct ui_fleet *fl, bool *on, int *w)
{
	int total = 0;
	for (size_t c = 0; c < fleet_ncols; c++) {
		on[c] = c != FLEET_COL_LABELS || fl->labels;
		w[c] = fleet_cols[c].w < 0 ? -fleet_cols[c].w : fleet_cols[c].w;
		/* The instance's and the worst process's: as wide as the
		 * widest host's, within limits. */
		if (c == 0 || c == FLEET_COL_WORST) {
			int m = (int)strlen(fleet_cols[c].hdr) + 1;
			for (size_t i = 0; i < fl->f.nhosts; i++) {
				char v[256];
				fleet_cols[c].cell(&fl->f.hosts[i], v, sizeof(v));
				int tw = ui_text_width(v);
				m = tw > m ? tw : m;
			}
			w[c] = m < w[c] ? m : w[c];
		}
		total += on[c] ? w[c] + 1 : 0;
	}
	for (int d = 1; d <= 9 && total > COLS; d++)
		for (size_t c = 0; c < fleet_ncols; c++)
			if (on[c] && fleet_cols[c].drop == d) {
				on[c] = false;
				total -= w[c] + 1;
			}
	for (size_t c = fleet_ncols; c-- > 0;)
		if (on[c]) {
			if (total < COLS)
				w[c] += COLS - total;
			break;
		}
}

static int cell(int y, int x, int w, bool left, const char *s)
{
	char b[1100];
	int used;
	size_t bytes = ui_fit_cols(s, w, &used);
	snprintf(b, sizeof(b), "%.*s", (int)bytes, s);
	if (left)
		ui_put(y, x, b, COLS - x);
	else
		ui_put(y, x + (w - used), b, COLS - x);
	return x + w + 1;
}

static void table(struct ui *u, int y0, int h)
{
	struct ui_fleet *fl = u->fleet;
	bool on[32];
	int w[32];
	fit(fl, on, w);
	attron(ui_attr(u, C_HEADER));
	mvhline(y0, 0, ' ', COLS);
	int x = 0;
	for (size_t c = 0; c < fleet_ncols && x < COLS; c++)
		if (on[c]) {
			char hd[40];
			snprintf(hd, sizeof(hd), "%s%s", fleet_cols[c].hdr,
				 (int)c == fl->sort ? (fl->desc ? "^" : "v") : "");
			x = cell(y0, x, w[c], fleet_cols[c].w < 0, hd);
		}
	attroff(ui_attr(u, C_HEADER));
	long rows = h - 1;
	long top = fl->sel >= rows ? fl->sel - rows + 1 : 0;
	for (long r = top; r < (long)fl->nrows && r - top < rows; r++) {
		const struct fleet_host *hh = &fl->f.hosts[fl->rows[r]];
		int y = y0 + 1 + (int)(r - top);
		bool sel = r == fl->sel;
		int a = sel ? ui_attr(u, C_SELECTED) : hh->up == 0 ? ui_attr(u, C_WARN) : 0;
		if (a)
			attron(a);
		if (sel)
			mvhline(y, 0, ' ', COLS);
		x = 0;
		for (size_t c = 0; c < fleet_ncols && x < COLS; c++)
			if (on[c]) {
				char v[1100];
				fleet_cols[c].cell(hh, v, sizeof(v));
				x = cell(y, x, w[c], fleet_cols[c].w < 0, v);
			}
		if (a)
			attroff(a);
	}
	if (fl->nrows == 0 && fl->f.nhosts)
		ui_put(y0 + 1, 1, "no host matches the filter (F4: another, empty: all)", COLS - 1);
}

static void keybar(struct ui *u)
{
	int y = LINES - 1, x = 0;
	move(y, 0);
	clrtoeol();
	for (size_t i = 0; i < ui_fleet_nkeys && x < COLS; i++) {
		const struct ui_key *k = &ui_fleet_keys[i];
		if (!k->bar)
			continue;
		char name[16];
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(k->label, " "), k->label);
		attron(ui_attr(u, C_FKEY));
		mvaddnstr(y, x, name, COLS - x);
		attroff(ui_attr(u, C_FKEY));
		x += (int)strlen(name);
		if (x >= COLS)
			break;
		attron(ui_attr(u, C_FKEY_LABEL));
		mvaddnstr(y, x, k->bar, COLS - x);
		x += (int)strlen(k->bar);
		if (x < COLS)
			mvaddch(y, x++, ' ');
		attroff(ui_attr(u, C_FKEY_LABEL));
	}
	attron(ui_attr(u, C_FKEY_LABEL));
	if (x < COLS)
		mvhline(y, x, ' ', COLS - x);
	attroff(ui_attr(u, C_FKEY_LABEL));
}

/* The help: the keys from the key table, then the columns. */
static void help(struct ui *u)
{
	int y = 1;
	attron(ui_attr(u, C_HEADER));
	mvhline(y, 0, ' ', COLS);
	ui_put(y++, 1, "Fleet keys (any key: back)", COLS - 1);
	attroff(ui_attr(u, C_HEADER));
	for (size_t i = 0; i < ui_fleet_nkeys && y < LINES - 1; i++) {
		const struct ui_key *k = &ui_fleet_keys[i];
		if (!k->help)
			continue;
		attron(ui_attr(u, C_LABEL));
		ui_put(y, 1, k->label, 26);
		attroff(ui_attr(u, C_LABEL));
		y = ui_put_wrapped(y, LINES - 1, 28, k->help);
	}
	if (y < LINES - 2) {
		attron(ui_attr(u, C_HEADER));
		mvhline(++y, 0, ' ', COLS);
		ui_put(y++, 1, "Columns", COLS - 1);
		attroff(ui_attr(u, C_HEADER));
	}
	for (size_t c = 0; c < fleet_ncols && y < LINES - 1; c++) {
		attron(ui_attr(u, C_LABEL));
		ui_put(y, 1, fleet_cols[c].hdr, 26);
		attroff(ui_attr(u, C_LABEL));
		y = ui_put_wrapped(y, LINES - 1, 28, fleet_cols[c].desc);
	}
}

void ui_fleet_draw(struct ui *u)
{
	struct ui_fleet *fl = u->fleet;
	char what[64];
	snprintf(what, sizeof(what), "Fleet%s%s%s", fl->in_view ? " host" : "", fl->help ? " help" : "",
		 u->prompt.kind ? " prompt" : "");
	ui_out_frame(what);
	erase();
	if (COLS < 40 || LINES < 10) {
		mvaddnstr(0, 0, COLS >= 30 ? "window too small (40x10 at least)" : "too small", COLS);
		refresh();
		return;
	}
	if (fl->help) {
		title(u, "help");
		help(u);
	} else if (fl->in_view) {
		title(u, "");
		ui_fleet_view_draw(u, 1, LINES - 3);
	} else {
		char t[120];
		size_t up = 0;
		for (size_t i = 0; i < fl->f.nhosts; i++)
			up += fl->f.hosts[i].up == 1;
		if (u->filter[0])
			snprintf(t, sizeof(t), "hosts %zu shown of %zu (%zu up)", fl->nrows, fl->f.nhosts, up);
		else
			snprintf(t, sizeof(t), "hosts %zu (%zu up)", fl->f.nhosts, up);
		title(u, t);
		table(u, 1, LINES - 3);
	}
	problems(u, LINES - 2);
	keybar(u);
	ui_prompt_draw(u);
	refresh();
}
