/* ui_action_draw.c - drawing the migrate / rebind dialog: node list,
 * preview, progress bar with MB/s, before/after with the reasons. */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "sanitize.h"
#include "ui_action_int.h"
#include "format.h"

static int box_w(void) { return COLS - 4 < 76 ? COLS - 4 : 76; }

static void dialog_box(struct ui *u, int y0, int x0, int h, int w, const char *title)
{
	attron(ui_attr(u, C_FKEY_LABEL));
	for (int y = 0; y < h; y++)
		mvhline(y0 + y, x0, ' ', w);
	mvaddnstr(y0, x0 + 1, title, w - 2);
	attroff(ui_attr(u, C_FKEY_LABEL));
}

static void line(struct ui *u, int y, int x0, int w, const char *s)
{
	attron(ui_attr(u, C_FKEY_LABEL));
	mvaddnstr(y, x0 + 2, s, w - 4);
	attroff(ui_attr(u, C_FKEY_LABEL));
}

/* s word-wrapped into the box from row y in colour c, stopping above row
 * ymax (the footer); returns the next free row. */
static int wrapped_in(struct ui *u, int y, int ymax, int x0, int w, const char *s,
		      enum ui_color c)
{
	int room = w - 4;
	while (*s && y < ymax) {
		int n = (int)strlen(s);
		if (n > room) {
			n = room;
			while (n > room / 2 && s[n] != ' ')
				n--;
			if (s[n] != ' ')
				n = room;
		}
		attron(ui_attr(u, c));
		mvaddnstr(y++, x0 + 2, s, n);
		attroff(ui_attr(u, c));
		s += n;
		while (*s == ' ')
			s++;
	}
	return y;
}

static int wrapped(struct ui *u, int y, int ymax, int x0, int w, const char *s)
{
	return wrapped_in(u, y, ymax, x0, w, s, C_FKEY_LABEL);
}

/* An error and its fix, in the warning colour, never cut off. */
static int wrapped_warn(struct ui *u, int y, int ymax, int x0, int w, const char *s)
{
	return wrapped_in(u, y, ymax, x0, w, s, C_WARN);
}

static void title_of(const struct ui *u, const struct ui_action *a, char *t, size_t n)
{
	const char *what = a->job.rebind && a->job.migrate ? "Rebind and migrate" :
			   a->job.rebind ? "Rebind threads of" :
			   a->hot ? "Migrate hot memory of" : a->cold ? "Migrate cold memory of" :
			   "Migrate memory of";
	if (a->job.n == 1) {
		char name[96];
		sanitize_term(a->job.items[0].tg.comm, name, sizeof(name));
		if (u->ascii)
			sanitize_ascii(name, name, sizeof(name));
		snprintf(t, n, "%s PID %d (%.40s)%s%s%s", what, a->job.items[0].tg.pid, name,
			 a->advice[0] ? " - the advice for " : "", a->advice, a->advice[0] ? " (x)" : "");
	} else {
		snprintf(t, n, "%s %zu tagged processes", what, a->job.n);
	}
	(void)u;
}

/* How much of the dialog's processes is on node i now (the last sample):
 * kB and share, "~" for an estimate, the reason when not readable. */
static void here_kb(const struct ui *u, const struct ui_action *a, int i, char *out, size_t n)
{
	int64_t sum = 0, total = 0;
	bool est = false;
	const char *why = NULL;
	size_t read = 0;
	for (size_t k = 0; k < a->job.n; k++) {
		const struct snap_proc *p = NULL;
		for (size_t j = 0; j < u->snap.nprocs && !p; j++)
			if (u->snap.procs[j].info.pid == a->job.items[k].tg.pid &&
			    u->snap.procs[j].info.starttime == a->job.items[k].tg.starttime)
				p = &u->snap.procs[j];
		if (!p || p->nm != NMS_OK) {
			why = p ? snapshot_nm_mark(p) : "gone";
			continue;
		}
		sum += p->node_kb[i];
		total += p->total_kb;
		est |= p->nm_sampled;
		read++;
	}
	if (!read) {            /* nothing readable: unknown, not 0 kB */
		snprintf(out, n, "%s", a->job.n == 1 && why ? why : "-");
		return;
	}
	char kb[16];
	fmt_human_kb(kb, sizeof(kb), sum);
	/* Some tagged processes unreadable: the sum is of the others ("+?"). */
	snprintf(out, n, "%s%s%s %3.0f%%", kb, est ? "~" : "", why ? "+?" : "",
		 total > 0 ? 100.0 * (double)sum / (double)total : 0.0);
}

static void draw_choose(struct ui *u, struct ui_action *a, int y0, int x0, int h, int w)
{
	char s[320];
	snprintf(s, sizeof(s), "%-5s   %7s  %12s  %s", "Node", "free",
		 a->job.n > 1 ? "tagged here" : "process here", "CPUs");
	line(u, y0 + 1, x0, w, s);
	int extra = UI_ACTION_REFUSED_ROWS(a), hot_rows = UI_ACTION_HOT_ROWS(a);
	int rows = h - 5 - extra - hot_rows, first = a->sel >= rows ? a->sel - rows + 1 : 0;
	for (int i = first; i < (int)u->se.topo.nnodes && i - first < rows; i++) {
		const struct topo_node *nd = &u->se.topo.nodes[i];
		char fr[16], cpus[48], here[32];
		here_kb(u, a, i, here, sizeof(here));
		fmt_human_kb(fr, sizeof(fr), u->snap.nodes && u->snap.nodes[i].mem_rc == 0 ?
		       u->snap.nodes[i].mem.mem_free_kb : -1);
		if (bitmap_empty(&nd->cpus))
			snprintf(cpus, sizeof(cpus), "none (memory only)");
		else
			bitmap_format_list(&nd->cpus, cpus, sizeof(cpus));
		snprintf(s, sizeof(s), "N%-4d %s %7s  %12s  %-24s%s", nd->id, i == a->sel ? ">" : " ",
			 fr, here, cpus, actjob_node_ok(&a->job, i) ? "" : " (n/a)");
		int at = i == a->sel ? ui_attr(u, C_SELECTED) :
			 actjob_node_ok(&a->job, i) ? ui_attr(u, C_FKEY_LABEL) : ui_attr(u, C_DIM);
		attron(at);
		mvhline(y0 + 2 + i - first, x0 + 1, ' ', w - 2);
		mvaddnstr(y0 + 2 + i - first, x0 + 2, s, w - 4);
		attroff(at);
	}
	if (extra)
		wrapped_warn(u, y0 + h - 3 - extra - hot_rows, y0 + h - 3 - hot_rows, x0, w, a->refused);
	if (a->rebind_dialog) {
		snprintf(s, sizeof(s), "[%c] also migrate memory (a)", a->job.migrate ? 'x' : ' ');
		line(u, y0 + h - 2, x0, w, s);
	}
	if (a->job.migrate && a->hot_known && a->cold) {
		char ck[16];
		fmt_human_kb(ck, sizeof(ck), a->cold_kb);
		snprintf(s, sizeof(s), "[x] only the cold part (h): %s untouched for %.0f s or more",
			 ck, ACCESS_COLD_S);
		line(u, y0 + h - 3, x0, w, s);
	} else if (a->job.migrate && a->hot_known) {
		char hk[16], rk[16];
		fmt_human_kb(hk, sizeof(hk), a->hot_kb);
		fmt_human_kb(rk, sizeof(rk), a->hot_remote_kb);
		snprintf(s, sizeof(s), "[%c] only the hot part (h): %s hot in %zu range%s, %s remote",
			 a->hot ? 'x' : ' ', hk, a->hot_ranges, a->hot_ranges == 1 ? "" : "s", rk);
		line(u, y0 + h - 3, x0, w, s);
	} else if (a->job.migrate) {
		snprintf(s, sizeof(s), "only the hot part (h): n/a, %s", a->hot_why);
		wrapped_in(u, y0 + h - 3 - hot_rows, y0 + h - 2, x0, w, s, C_DIM);
	}
	line(u, y0 + h - 1, x0, w, w - 4 >= 42 ? "Up/Down: node  Enter: preview  Esc: cancel" :
				   "Enter: preview  Esc: cancel");
}

/* label, then "N<id> kB" per node, as many lines as the nodes need. */
static int draw_kb_row(struct ui *u, int y, int ymax, int x0, int w, const char *label,
		       const int64_t *kb)
{
	char s[256];
	int len = snprintf(s, sizeof(s), "%-7s", label);
	for (size_t k = 0; k < u->se.topo.nnodes; k++) {
		char v[16], cell[32];
		fmt_human_kb(v, sizeof(v), kb[k]);
		int cl = snprintf(cell, sizeof(cell), " N%d %-8s", u->se.topo.nodes[k].id, v);
		if (len + cl > w - 4 && y < ymax) {
			line(u, y++, x0, w, s);
			len = snprintf(s, sizeof(s), "%-7s", "");
		}
		if (len + cl < (int)sizeof(s))
			len += snprintf(s + len, sizeof(s) - (size_t)len, "%s", cell);
	}
	if (y < ymax)
		line(u, y++, x0, w, s);
	return y;
}

static void draw_preview(struct ui *u, struct ui_action *a, int y0, int x0, int h, int w)
{
	char s[200], b[16], c[16], d[16];
	int64_t *kb = calloc(u->se.topo.nnodes ? u->se.topo.nnodes : 1, sizeof(int64_t));
	int y = y0 + 1;
	const struct topo_node *nd = &u->se.topo.nodes[a->sel];
	if (kb) {
		actjob_sum_kb(&a->job, ACTJOB_NOW, kb);
		y = draw_kb_row(u, y, y0 + h - 1, x0, w, "now", kb);
		free(kb);
	}
	struct actjob_summary sm;
	actjob_summarize(&a->job, &sm);
	const struct migrate_preview t = sm.pv;
	size_t planned = sm.planned;
	/* No plan could be made (no perm, exited): no numbers to show, the
	 * error below says why. */
	if (a->job.migrate && planned && (a->hot || a->cold)) {
		/* Only the hot ranges, or only the cold part: what the heat saw
		 * of it off the node. */
		int64_t off = 0;
		for (size_t i = 0; i < a->job.n; i++) {
			const struct snap_proc *p = snapshot_find_proc(&u->snap, a->job.items[i].tg.pid,
								       a->job.items[i].tg.starttime);
			const int64_t *hk = p && p->acc ? (a->cold ? p->acc->cold_node_kb :
							   p->acc->hot_node_kb) : NULL;
			for (size_t k = 0; hk && k < u->se.topo.nnodes; k++)
				if ((int)k != a->sel && hk[k] > 0)
					off += hk[k];
		}
		fmt_human_kb(b, sizeof(b), off);
		fmt_human_kb(c, sizeof(c), a->cold ? a->cold_kb : a->hot_kb);
		snprintf(s, sizeof(s), "will move to N%d: about %s (the %s off it; %s %s in all)",
			 nd->id, b, a->cold ? "cold part" : "hot ranges", c, a->cold ? "cold" : "hot");
		line(u, y++, x0, w, s);
		line(u, y++, x0, w, a->cold ? "its hot and warm ranges stay where they are" :
					      "the rest of its memory stays where it is");
	} else if (a->job.migrate && planned) {
		fmt_human_kb(b, sizeof(b), t.move_kb);
		fmt_human_kb(c, sizeof(c), t.on_target_kb);
		snprintf(s, sizeof(s), "will move to N%d: %s (%s already there)", nd->id, b, c);
		line(u, y++, x0, w, s);
		fmt_human_kb(b, sizeof(b), t.shared_kb);
		snprintf(s, sizeof(s), "  of which shared with other processes: %s%s", b,
			 t.shared_kb ? " (moves only with CAP_SYS_NICE)" : "");
		line(u, y++, x0, w, s);
		if (t.file_anon_kb) {
			/* numa_maps counts a file mapping's private copies over all
			 * nodes, not per node: how many are off the target is an
			 * estimate until the walk asks page by page. */
			fmt_human_kb(b, sizeof(b), t.file_anon_kb);
			snprintf(s, sizeof(s), "  and about %s private copies in file mappings", b);
			line(u, y++, x0, w, s);
		}
		fmt_human_kb(b, sizeof(b), t.file_kb);
		fmt_human_kb(d, sizeof(d), t.huge_kb);
		snprintf(s, sizeof(s), "will not move: %s page cache (file pages), %s hugetlb", b, d);
		line(u, y++, x0, w, s);
	}
	if (a->job.rebind) {
		char cpus[64];
		bitmap_format_list(&nd->cpus, cpus, sizeof(cpus));
		snprintf(s, sizeof(s), "threads will run on CPUs %s (node %d)", cpus, nd->id);
		line(u, y++, x0, w, s);
	}
	/* What cannot be changed, said before anything is done. */
	if (a->job.n == 1 && a->job.items[0].prep_rc == 0) {
		migrate_format_policy_note(a->job.items[0].policy, a->job.rebind, s, sizeof(s));
		y = wrapped(u, y, y0 + h - 1, x0, w, s);
	} else if (a->job.n > 1) {
		y = wrapped(u, y, y0 + h - 1, x0, w, "memory policies stay (another process's "
			    "policy cannot be changed): future allocations follow each process's own");
	}
	if (action_numa_balancing(u->se.root) > 0)
		y = wrapped(u, y, y0 + h - 1, x0, w,
			    "kernel.numa_balancing is on: the kernel may move pages again");
	int pid;
	if (y < y0 + h - 1 && actjob_first_error(&a->job, 0, s, sizeof(s), &pid)) {
		char m[240];
		snprintf(m, sizeof(m), "PID %d: %s", pid, s);
		y = wrapped_warn(u, y, y0 + h - 1, x0, w, m);
	}
	line(u, y0 + h - 1, x0, w, "Enter: start  Esc: back");
}

static void draw_run(struct ui *u, struct ui_action *a, int y0, int x0, int w)
{
	struct actjob_summary sm;
	actjob_summarize(&a->job, &sm);
	double f = sm.progress;
	int bw = w - 12;
	char s[160];
	attron(ui_attr(u, C_BAR_MEM));
	mvhline(y0 + 2, x0 + 2, u->ascii ? '#' : ACS_CKBOARD, (int)(f * bw));
	attroff(ui_attr(u, C_BAR_MEM));
	snprintf(s, sizeof(s), "%3.0f%%", f * 100);
	mvaddstr(y0 + 2, x0 + 3 + bw, s);
	snprintf(s, sizeof(s), "process %zu of %zu: %.1f MiB moved, %.1f MB/s",
		 a->job.cur + 1 > a->job.n ? a->job.n : a->job.cur + 1, a->job.n, sm.mib, sm.rate_mbs);
	line(u, y0 + 3, x0, w, s);
	line(u, y0 + 5, x0, w, a->job.cancelled ? "cancelling..." : "Esc: cancel");
}

static void draw_done(struct ui *u, struct ui_action *a, int y0, int x0, int h, int w)
{
	char s[240], e[200];
	int y = y0 + 1;
	int64_t *kb = calloc(u->se.topo.nnodes ? u->se.topo.nnodes : 1, sizeof(int64_t));
	if (a->job.migrate && kb) {
		actjob_sum_kb(&a->job, ACTJOB_BEFORE, kb);
		y = draw_kb_row(u, y, y0 + h - 1, x0, w, "before", kb);
		actjob_sum_kb(&a->job, ACTJOB_AFTER, kb);
		y = draw_kb_row(u, y, y0 + h - 1, x0, w, "after", kb);
		/* Migrate hot: the hot ranges alone, as move_pages placed them. */
		actjob_sum_kb(&a->job, ACTJOB_WALK_BEFORE, kb);
		if ((a->hot || a->cold) && u->se.topo.nnodes && kb[0] >= 0) {
			y = draw_kb_row(u, y, y0 + h - 1, x0, w, a->cold ? "cold was" : "hot was", kb);
			actjob_sum_kb(&a->job, ACTJOB_WALK_AFTER, kb);
			y = draw_kb_row(u, y, y0 + h - 1, x0, w, a->cold ? "cold is" : "hot is", kb);
		}
	}
	free(kb);
	struct actjob_summary sm;
	actjob_summarize(&a->job, &sm);
	size_t acted = 0;
	for (size_t i = 0; i < a->job.n; i++)
		acted += !a->job.items[i].prep_rc && !a->job.items[i].lock_rc;
	if (acted == 0)
		line(u, y++, x0, w, "nothing done:");
	if (acted && a->job.rebind) {
		snprintf(s, sizeof(s), "rebind: %zu of %zu threads set", sm.set, sm.threads);
		line(u, y++, x0, w, s);
	}
	if (acted && a->job.migrate) {
		char m[16];
		fmt_human_kb(m, sizeof(m), sm.arrived_kb);
		snprintf(s, sizeof(s), "moved %s to N%d (%llu pages by move_pages)%s", m,
			 u->se.topo.nodes[a->sel].id, (unsigned long long)sm.moved,
			 a->job.cancelled ? " (cancelled)" : "");
		line(u, y++, x0, w, s);
		for (int r = 0; r < MIG_NREASONS; r++)
			if (sm.failed[r]) {
				snprintf(s, sizeof(s), "not moved: %llu pages %s",
					 (unsigned long long)sm.failed[r], migrate_reason_text[r]);
				line(u, y++, x0, w, s);
			}
	}
	int pid;
	for (int which = 0; which < 4; which++)
		if (actjob_first_error(&a->job, which, e, sizeof(e), &pid) && y < y0 + h - 1) {
			snprintf(s, sizeof(s), "PID %d: %s", pid, e);
			y = wrapped_warn(u, y, y0 + h - 1, x0, w, s);
		}
	line(u, y0 + h - 1, x0, w, "Enter: close");
}

void ui_action_draw(struct ui *u)
{
	struct ui_action *a = u->act;
	if (!a)
		return;
	int w = box_w();
	/* Preview and result: room for the kB rows of many nodes (about
	 * five to a line). */
	int kbl = u->se.topo.nnodes > 5 ? (int)((u->se.topo.nnodes - 1) / 5) : 0;
	int h = a->st == ST_CHOOSE ? (int)u->se.topo.nnodes + 5 + UI_ACTION_REFUSED_ROWS(a) +
						     UI_ACTION_HOT_ROWS(a) : a->st == ST_RUN ? 7 :
		12 + 2 * kbl + (a->hot || a->cold ? 2 + 2 * kbl : 0);
	if (h > LINES - 2)
		h = LINES - 2;
	int y0 = (LINES - h) / 2, x0 = (COLS - w) / 2;
	char t[160];
	title_of(u, a, t, sizeof(t));
	dialog_box(u, y0, x0, h, w, t);
	switch (a->st) {
	case ST_CHOOSE: draw_choose(u, a, y0, x0, h, w); break;
	case ST_PREVIEW: draw_preview(u, a, y0, x0, h, w); break;
	case ST_RUN: draw_run(u, a, y0, x0, w); break;
	case ST_DONE: draw_done(u, a, y0, x0, h, w); break;
	}
}
