/* ui_cgmove.c - m on the Cgroups screen: move a v2 cgroup to a node by
 * its cpuset.mems. Choose the node, preview (before kB per node), confirm;
 * the write runs in a thread (the kernel migrates while it lasts) and the
 * dialog shows the cgroup's memory on the node meanwhile, then the after
 * numbers. The cgroup is pinned by a directory fd from the preview on. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "action.h"
#include "action_cgroup.h"
#include "action_table.h"
#include "sanitize.h"
#include "ui_int.h"
#include "format.h"
#include "monotime.h"

/* Its row of the action table: name, and the engine's preview, run and
 * verify (action_cgroup.h). */
#define CGMOVE (&action_defs[ACTION_CGROUP_MOVE])

enum cgm_stage { CGM_CHOOSE, CGM_PREVIEW, CGM_RUNNING, CGM_DONE, CGM_FAILED };

struct ui_cgmove {
	enum cgm_stage stage;
	char path[512];
	int sel;                   /* node index */
	struct cgaction a;
	bool prepared, joined;
	const struct topology *t;
	pthread_t th;
	atomic_int done;
	int rc;
	char err[400];
	int64_t *now_kb, now_total;
	double t0, took;
};

static void *run(void *arg)
{
	struct ui_cgmove *m = arg;
	m->rc = CGMOVE->cg.run(m->t, &m->a, m->err, sizeof(m->err));
	atomic_store(&m->done, 1);
	return NULL;
}

bool ui_cgmove_open_p(const struct ui *u)
{
	return u->cgmove != NULL;
}

bool ui_cgmove_running(const struct ui *u)
{
	return u->cgmove && u->cgmove->stage == CGM_RUNNING;
}

void ui_cgmove_free(struct ui *u)
{
	struct ui_cgmove *m = u->cgmove;
	if (!m)
		return;
	if (m->stage == CGM_RUNNING && !m->joined)
		pthread_join(m->th, NULL);   /* a write in the kernel: it ends */
	if (m->prepared)
		cgaction_free(&m->a);
	free(m->now_kb);
	free(m);
	u->cgmove = NULL;
}

void ui_cgmove_open(struct ui *u, const char *path)
{
	if (ui_action_refused(u, CGMOVE->name))
		return;
	struct ui_cgmove *m = calloc(1, sizeof(*m));
	size_t nn = u->se.topo.nnodes ? u->se.topo.nnodes : 1;
	if (!m || !(m->now_kb = calloc(nn, sizeof(int64_t)))) {
		free(m);
		return;
	}
	snprintf(m->path, sizeof(m->path), "%s", path);
	m->t = &u->se.topo;
	m->a.dirfd = -1;
	u->cgmove = m;
}

/* The thread's end: after numbers are in m->a. */
void ui_cgmove_poll(struct ui *u)
{
	struct ui_cgmove *m = u->cgmove;
	if (!m || m->stage != CGM_RUNNING)
		return;
	if (!atomic_load(&m->done)) {
		/* The kernel's progress: the cgroup's memory now. */
		cgaction_read_now(m->t, &m->a, m->now_kb, &m->now_total);
		return;
	}
	pthread_join(m->th, NULL);
	m->joined = true;
	m->took = monotime_now() - m->t0;
	m->stage = m->rc == 0 ? CGM_DONE : CGM_FAILED;
	ui_want_sample(u);
}

void ui_cgmove_key(struct ui *u, int ch)
{
	struct ui_cgmove *m = u->cgmove;
	const struct topology *t = &u->se.topo;
	bool esc = ch == KEY_ESC || ch == 'q';
	bool enter = ch == '\n' || ch == '\r' || ch == KEY_ENTER || ch == 'y';
	switch (m->stage) {
	case CGM_CHOOSE:
		if (ch == KEY_UP && m->sel > 0)
			m->sel--;
		else if (ch == KEY_DOWN && m->sel + 1 < (int)t->nnodes)
			m->sel++;
		else if (esc)
			ui_cgmove_free(u);
		else if (enter) {
			if (CGMOVE->cg.preview(u->se.root, t, m->path, t->nodes[m->sel].id, &m->a, m->err,
					       sizeof(m->err)) != 0) {
				m->stage = CGM_FAILED;
			} else {
				m->prepared = true;
				m->stage = CGM_PREVIEW;
			}
		}
		return;
	case CGM_PREVIEW:
		if (esc || ch == 'n') {
			cgaction_free(&m->a);
			m->prepared = false;
			m->stage = CGM_CHOOSE;
		} else if (enter) {
			m->t0 = monotime_now();
			atomic_store(&m->done, 0);
			if (pthread_create(&m->th, NULL, run, m) != 0) {
				snprintf(m->err, sizeof(m->err), "cannot start the move: out of threads");
				m->stage = CGM_FAILED;
			} else {
				m->stage = CGM_RUNNING;
			}
		}
		return;
	case CGM_RUNNING:
		if (esc)
			snprintf(u->msg, sizeof(u->msg),
				 "the kernel is moving the pages: a cpuset.mems write cannot be cancelled");
		return;
	default:
		if (esc || enter)
			ui_cgmove_free(u);
		return;
	}
}

static void kb_line(int y, int x, int w, const struct topology *t, const char *label,
		    const int64_t *kb, int mark)
{
	char line[512];
	int o = snprintf(line, sizeof(line), "%-8s", label);
	for (size_t i = 0; i < t->nnodes && o < (int)sizeof(line) - 16; i++) {
		char v[16];
		fmt_human_kb(v, sizeof(v), kb[i]);
		o += snprintf(line + o, sizeof(line) - (size_t)o, " %7s%s", v, (int)i == mark ? "*" : " ");
	}
	mvaddnstr(y, x, line, w);
}

void ui_cgmove_draw(struct ui *u)
{
	struct ui_cgmove *m = u->cgmove;
	const struct topology *t = &u->se.topo;
	int w = COLS - 4 < 100 ? COLS - 4 : 100, h = 12 + (int)t->nnodes;
	if (h > LINES - 2)
		h = LINES - 2;
	if (w < 20 || h < 5)
		return;
	int y0 = (LINES - h) / 2, x0 = (COLS - w) / 2, y = y0 + 1;
	for (int k = 0; k < h; k++)
		mvhline(y0 + k, x0, ' ', w);
	attron(ui_attr(u, C_HEADER));
	mvhline(y0, x0, ' ', w);
	char path[600], line[700];
	sanitize_term(m->path, path, sizeof(path));
	if (u->ascii)
		sanitize_ascii(path, path, sizeof(path));
	snprintf(line, sizeof(line), " Move cgroup %s to a node (cpuset.mems)", path);
	mvaddnstr(y0, x0, line, w);
	attroff(ui_attr(u, C_HEADER));
	int ymax = y0 + h - 1;
	switch (m->stage) {
	case CGM_CHOOSE:
		mvaddnstr(y++, x0 + 1, "Which node? (Up/Down, Enter; Esc: cancel)", w - 2);
		for (size_t i = 0; i < t->nnodes && y < ymax; i++, y++) {
			snprintf(line, sizeof(line), "%s node %d%s", (int)i == m->sel ? ">" : " ",
				 t->nodes[i].id, t->nodes[i].has_memory ? "" : "  n/a: no memory");
			if ((int)i == m->sel)
				attron(ui_attr(u, C_SELECTED));
			mvaddnstr(y, x0 + 2, line, w - 3);
			if ((int)i == m->sel)
				attroff(ui_attr(u, C_SELECTED));
		}
		break;
	case CGM_PREVIEW: {
		int64_t off = m->a.before_total - m->a.before_kb[m->a.node_idx];
		char a[16], b[16];
		fmt_human_kb(a, sizeof(a), off);
		fmt_human_kb(b, sizeof(b), m->a.before_total);
		snprintf(line, sizeof(line), "cpuset.mems %s -> %d: the kernel moves %s of %s to node %d",
			 m->a.mems_before[0] ? m->a.mems_before : "(inherited)", m->a.node_id, a, b,
			 m->a.node_id);
		mvaddnstr(y++, x0 + 1, line, w - 2);
		mvaddnstr(y++, x0 + 1, "New memory of its processes will come from that node only. "
			  "Page cache shared with other cgroups may stay.", w - 2);
		kb_line(++y, x0 + 1, w - 2, t, "before", m->a.before_kb, m->a.node_idx);
		y += 2;
		mvaddnstr(y, x0 + 1, "Enter y: move it   Esc n: back", w - 2);
		break;
	}
	case CGM_RUNNING: {
		snprintf(line, sizeof(line), "moving to node %d: the kernel migrates while cpuset.mems "
			 "is written (%.0f s)", m->a.node_id, monotime_now() - m->t0);
		mvaddnstr(y++, x0 + 1, line, w - 2);
		kb_line(++y, x0 + 1, w - 2, t, "before", m->a.before_kb, m->a.node_idx);
		kb_line(++y, x0 + 1, w - 2, t, "now", m->now_kb, m->a.node_idx);
		break;
	}
	case CGM_DONE: {
		int64_t left = CGMOVE->cg.verify(&m->a);
		char a[16];
		fmt_human_kb(a, sizeof(a), left);
		snprintf(line, sizeof(line), "done in %.1f s: cpuset.mems.effective %s; %s stayed on "
			 "other nodes", m->took, m->a.mems_effective, a);
		mvaddnstr(y++, x0 + 1, line, w - 2);
		kb_line(++y, x0 + 1, w - 2, t, "before", m->a.before_kb, m->a.node_idx);
		kb_line(++y, x0 + 1, w - 2, t, "after", m->a.after_kb, m->a.node_idx);
		y += 2;
		mvaddnstr(y, x0 + 1, "Enter Esc: close", w - 2);
		break;
	}
	case CGM_FAILED: {
		char clean[500];
		sanitize_term(m->err, clean, sizeof(clean));
		attron(ui_attr(u, C_WARN) | A_BOLD);
		/* The reason, wrapped over the dialog's lines. */
		const char *s = clean;
		while (*s && y < ymax - 1) {
			int n = (int)strlen(s) < w - 2 ? (int)strlen(s) : w - 2;
			mvaddnstr(y++, x0 + 1, s, n);
			s += n;
		}
		attroff(ui_attr(u, C_WARN) | A_BOLD);
		mvaddnstr(ymax - 1, x0 + 1, "Enter Esc: close", w - 2);
		break;
	}
	}
}
