/* ui_fleet_view.c - a host of the fleet, opened (Enter): its sums over
 * the last hour as sparklines, its nodes (the node catalogue's exported
 * rows) and its processes in the monitor's own columns where its
 * exporter's series carry them (the process catalogue's rows with a
 * gauge), each with its remote bytes over the hour. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "fields_proc.h"
#include "format.h"
#include "history.h"
#include "node_fields.h"
#include "sanitize.h"
#include "ui_fleet_int.h"

static void bytes_human(char *out, size_t n, double b)
{
	if (isnan(b) || b < 0)
		snprintf(out, n, "-");
	else
		fmt_human_kb(out, n, (int64_t)(b / 1024));
}


/* The hour's values as a sparkline of w columns at (y, x). */
static int spark(struct ui *u, int y, int x, int w, float *v, size_t n, enum ui_color c)
{
	struct hist_ring r = { v, n, n, 0 };
	return ui_spark(u, y, x, w, &r, 0, 0, c);
}

static int put_cell(int y, int x, int w, const char *s)
{
	int aw = w < 0 ? -w : w;
	char b[64];
	if (w < 0)
		snprintf(b, sizeof(b), "%-*.*s", aw, aw, s);
	else
		snprintf(b, sizeof(b), "%*.*s", aw, aw, s);
	ui_put(y, x, b, COLS - x);
	return x + aw + 1;
}

static int vcol_width(const struct fleet_view_col *c)
{
	int w = c->f->col.ui_w < 0 ? -c->f->col.ui_w : c->f->col.ui_w;
	return w < 5 ? 5 : w;
}

/* A node column's width: its batch header's, 9 at least. */
static int nw(const struct fleet_view *v, size_t k)
{
	return v->nodecols[k]->text_w > 9 ? v->nodecols[k]->text_w : 9;
}

static int nodes(struct ui *u, const struct fleet_view *v, int y, int ymax)
{
	int hw = 60;
	attron(ui_attr(u, C_HEADER));
	mvhline(y, 0, ' ', COLS);
	int x = put_cell(y, 0, 5, "NODE");
	size_t shown = 0;
	for (size_t k = 0; k < v->nnodecols && x + nw(v, k) <= COLS; k++, shown++) {
		char hd[32];
		snprintf(hd, sizeof(hd), "%s", v->nodecols[k]->text_hdr);
		x = put_cell(y, x, nw(v, k), hd);
	}
	if (x + 12 < COLS)
		ui_put(y, x, "USED, LAST HOUR", COLS - x);
	attroff(ui_attr(u, C_HEADER));
	y++;
	for (size_t i = 0; i < v->nnodes && y < ymax; i++, y++) {
		char id[16];
		snprintf(id, sizeof(id), "%ld", v->nodes[i].id);
		x = put_cell(y, 0, 5, id);
		for (size_t k = 0; k < shown; k++) {
			char c[32];
			fleet_view_value(c, sizeof(c), v->nodes[i].v[k],
			      v->nodecols[k]->unit == NF_KB ? FU_BYTES : FU_NUMBER);
			x = put_cell(y, x, nw(v, k), c);
		}
		if (x + 12 < COLS)
			spark(u, y, x, COLS - x < hw ? COLS - x : hw, v->nodes[i].used_hist, v->nhist,
			      C_BAR_MEM);
	}
	return y;
}

static int procs(struct ui *u, const struct fleet_view *v, long from, int y, int ymax)
{
	/* The columns that fit before 12 columns of command; the remote
	 * bytes' sparkline when there is room for it too. */
	int room = COLS - 8 - 10 - 12, used = 0;
	size_t shown = 0;
	while (shown < v->ncols && used + vcol_width(&v->cols[shown]) + 1 <= room)
		used += vcol_width(&v->cols[shown++]) + 1;
	const int sw = room - used >= 21 ? 20 : 0;
	attron(ui_attr(u, C_HEADER));
	mvhline(y, 0, ' ', COLS);
	int x = put_cell(y, 0, 7, "PID");
	x = put_cell(y, x, -9, "USER");
	for (size_t k = 0; k < shown; k++) {
		char hd[32];
		if (v->cols[k].node >= 0)
			snprintf(hd, sizeof(hd), "N%ld", v->cols[k].node);
		else
			snprintf(hd, sizeof(hd), "%s", v->cols[k].f->col.ui_hdr);
		x = put_cell(y, x, vcol_width(&v->cols[k]), hd);
	}
	int xs = x;
	if (sw)
		x = put_cell(y, x, -sw, "REMOTE, LAST HOUR");
	ui_put(y, x, "COMMAND", COLS - x);
	attroff(ui_attr(u, C_HEADER));
	y++;
	for (long i = from; i < (long)v->nprocs && y < ymax; i++, y++) {
		const struct fleet_view_proc *p = &v->procs[i];
		char c[64], user[40], comm[96];
		if (p->pid >= 0)
			snprintf(c, sizeof(c), "%ld", p->pid);
		else
			snprintf(c, sizeof(c), "-");
		x = put_cell(y, 0, 7, c);
		sanitize_term(p->user, user, sizeof(user));
		x = put_cell(y, x, -9, user);
		for (size_t k = 0; k < shown; k++) {
			fleet_view_value(c, sizeof(c), p->v[k], v->cols[k].unit);
			bool rem = v->cols[k].f == fields_proc_col(COL_REMOTE);
			if (rem)
				attron(ui_attr(u, C_REMOTE));
			x = put_cell(y, x, vcol_width(&v->cols[k]), c);
			if (rem)
				attroff(ui_attr(u, C_REMOTE));
		}
		if (sw)
			spark(u, y, xs, sw, p->hist, v->nhist, C_REMOTE);
		x = xs + (sw ? sw + 1 : 0);
		sanitize_term(p->comm, comm, sizeof(comm));
		if (x < COLS)
			ui_put(y, x, comm, COLS - x);
	}
	return y;
}

void ui_fleet_view_draw(struct ui *u, int y0, int h)
{
	struct ui_fleet *fl = u->fleet;
	const struct fleet_view *v = &fl->view;
	int y = y0, ymax = y0 + h;
	char inst[300], job[160], line[900];
	sanitize_term(fl->view_host, inst, sizeof(inst));
	sanitize_term(fl->view_job, job, sizeof(job));
	attron(ui_attr(u, C_LABEL));
	snprintf(line, sizeof(line), "host %s%s%s%s", inst, job[0] ? " (job " : "", job, job[0] ? ")" : "");
	ui_put(y++, 0, line, COLS);
	attroff(ui_attr(u, C_LABEL));
	if (fl->view_rc == 1) {
		ui_put(y, 0, "asking the server for its series...", COLS);
		return;
	}
	if (fl->view_rc) {
		char m[400];
		if (fl->view_rc == -ENOENT)
			snprintf(m, sizeof(m), "no series of this host at this time");
		else
			sanitize_term(v->nerrors ? v->errors[0].msg : strerror(-fl->view_rc), m, sizeof(m));
		attron(ui_attr(u, C_WARN));
		ui_put_wrapped(y, ymax, 0, m);
		attroff(ui_attr(u, C_WARN));
		return;
	}
	char rem[16], hot[16], slow[16], cnt[160] = "";
	bytes_human(rem, sizeof(rem), v->remote_bytes);
	bytes_human(hot, sizeof(hot), v->hot_remote_bytes);
	bytes_human(slow, sizeof(slow), v->hot_slow_bytes);
	if (!isnan(v->processes))
		snprintf(cnt, sizeof(cnt), "  processes %.0f, %zu exported%s%.0f%s", v->processes, v->nprocs,
			 isnan(v->below_min) ? "" : " (", isnan(v->below_min) ? 0 : v->below_min,
			 isnan(v->below_min) ? "" : " below --metrics-min-remote)");
	snprintf(line, sizeof(line), "remote %s  hot remote %s  hot on slower tiers %s%s", rem, hot, slow,
		 cnt);
	ui_put(y++, 0, line, COLS);
	/* The hour: the host's remote and hot remote bytes. */
	int w = COLS - 14 < 60 ? COLS - 14 : 60;
	ui_put(y, 0, "remote, hour", 13);
	spark(u, y++, 14, w, v->remote_hist, v->nhist, C_REMOTE);
	ui_put(y, 0, "hot rem, hour", 13);
	spark(u, y++, 14, w, v->hot_remote_hist, v->nhist, C_WARN);
	if (v->nerrors) {
		char m[400];
		sanitize_term(v->errors[0].msg, m, sizeof(m));
		attron(ui_attr(u, C_WARN));
		ui_put(y++, 0, m, COLS);
		attroff(ui_attr(u, C_WARN));
	}
	y = nodes(u, v, y, ymax) + 1;
	if (y < ymax)
		procs(u, v, fl->vscroll, y, ymax);
}
