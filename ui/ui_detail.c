/* ui_detail.c - the process-detail screen (Enter): why it is remote, the
 * kernel's balancing and the access heat (its hot regions, hottest
 * first), history, placement per node, threads and mappings. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <curses.h>

#include "access_json.h"
#include "format.h"
#include "sanitize.h"
#include "ui_int.h"

/* The mapping a region starts in: the last kept mapping at or before
 * its start ("" when none is kept there). */
static const char *region_mapping(const struct proc_detail *d, uint64_t start)
{
	const char *what = "";
	for (size_t i = 0; i < d->nmaps && d->maps[i].start <= start; i++)
		what = d->maps[i].what;
	return what;
}

/* Access heat: the source, the sums and the hot regions; or why there is
 * none. Returns the next row. */
static int draw_heat(struct ui *u, const struct snap_proc *p, int y, int ymax)
{
	const struct topology *t = &u->se.topo;
	const struct access_proc *a = p->acc;
	char line[1024];
	if (!a || a->hot_kb < 0) {
		enum access_why w = access_proc_why(&u->snap, p);
		const char *text = u->snap.access.why != ACCESS_ON && u->snap.access.msg[0] ?
				   u->snap.access.msg : access_why_text(w);
		attron(ui_attr(u, C_DIM));
		ui_putf(y++, 0, "access heat: unknown -- %s%s", text,
			w == ACCESS_NOT_YET && p->remote_kb == 0 ?
			" (only processes with remote memory are watched)" : "");
		attroff(ui_attr(u, C_DIM));
		return y;
	}
	char hot[16], rem[16], warm[16], cold[16], pct[16], age[16];
	fmt_human_kb(hot, sizeof(hot), a->hot_kb);
	fmt_human_kb(rem, sizeof(rem), a->hot_remote_kb);
	fmt_human_kb(warm, sizeof(warm), a->warm_kb);
	fmt_human_kb(cold, sizeof(cold), a->cold_kb);
	fmt_pct(pct, sizeof(pct), a->hot_remote_pct);
	fmt_age(age, sizeof(age), a->age_s);
	attron(ui_attr(u, C_LABEL));
	ui_putf(y++, 0, "access heat (%s, window %.1fs, watched %.0fs, %s ago): hot %s, %s of it "
		 "remote (%s%%); warm %s; cold %s", access_source_names[a->source], a->window_s,
		 a->monitored_s, age, hot, rem, pct, warm, cold);
	attroff(ui_attr(u, C_LABEL));
	char why[160];
	if (!access_usable(a) && y < ymax) {
		/* Shown, never acted on (access_proc_trust). */
		attron(ui_attr(u, C_DIM));
		ui_putf(y++, 0, "  not used to decide: %s", access_trust_text(a, why, sizeof(why)));
		attroff(ui_attr(u, C_DIM));
	}
	if (t->nnodes > 1 && y < ymax) {
		int n = snprintf(line, sizeof(line), "  hot by node:");
		for (size_t k = 0; k < t->nnodes && n < (int)sizeof(line) - 32; k++) {
			char v[16];
			fmt_human_kb(v, sizeof(v), a->hot_node_kb[k]);
			n += snprintf(line + n, sizeof(line) - (size_t)n, "  N%d%s %s", t->nodes[k].id,
				      p->home == (int)k ? "*" : "", v);
		}
		mvaddnstr(y++, 0, line, COLS);
	}
	if (!a->nregions || y >= ymax)
		return y;
	attron(ui_attr(u, C_HEADER));
	mvhline(y, 0, ' ', COLS);
	int n = snprintf(line, sizeof(line), "%-33s %7s %7s %6s", "HOT/WARM REGION", "SIZE",
			 "ACCESS", "AGE");
	for (size_t k = 0; k < t->nnodes && n < COLS - 20; k++) {
		char h[16];
		snprintf(h, sizeof(h), "N%d", t->nodes[k].id);
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %7s", h);
	}
	snprintf(line + n, sizeof(line) - (size_t)n, " MAPPING");
	mvaddnstr(y++, 0, line, COLS);
	attroff(ui_attr(u, C_HEADER));
	/* Hottest first, as many as leave room for the rest of the screen. */
	size_t shown = 0, room = (ymax - y > 12 ? (size_t)(ymax - y) / 2 : 6u);
	for (size_t i = 0; i < a->nregions && y < ymax - 1 && shown < room; i++, shown++) {
		const struct access_region *r = &a->regions[i];
		char sz[16], acc[16], ra[16], what[200];
		fmt_human_kb(sz, sizeof(sz), (int64_t)((r->end - r->start) / 1024));
		if (r->nr_accesses >= 0)
			snprintf(acc, sizeof(acc), "%u/%d", (unsigned)r->nr_accesses, r->max_accesses);
		else
			snprintf(acc, sizeof(acc), "?/%d", r->max_accesses);
		fmt_age(ra, sizeof(ra), r->age_s);
		n = snprintf(line, sizeof(line), "%016llx-%016llx %7s %7s %6s",
			     (unsigned long long)r->start, (unsigned long long)r->end, sz, acc, ra);
		const int64_t *kb = snapshot_region_node_kb(&u->snap, r);
		for (size_t k = 0; k < t->nnodes && n < COLS - 20; k++) {
			char v[16];
			fmt_human_kb(v, sizeof(v), kb[k]);
			n += snprintf(line + n, sizeof(line) - (size_t)n, " %7s", v);
		}
		sanitize_term(region_mapping(&u->detail, r->start), what, sizeof(what));
		if (u->ascii)
			sanitize_ascii(what, what, sizeof(what));
		snprintf(line + n, sizeof(line) - (size_t)n, " %s", what);
		bool remote = false;
		for (size_t k = 0; k < t->nnodes; k++)
			remote |= (int)k != p->home && p->home >= 0 && kb[k] > 0;
		int at = r->heat != ACCESS_HOT ? (int)A_NORMAL : remote ? ui_attr(u, C_REMOTE) : (int)A_BOLD;
		attron(at);
		mvaddnstr(y++, 0, line, COLS);
		attroff(at);
	}
	if (shown < a->nregions && y < ymax) {
		attron(ui_attr(u, C_DIM));
		ui_putf(y++, 0, "  and %zu more region%s", a->nregions - shown,
			 a->nregions - shown == 1 ? "" : "s");
		attroff(ui_attr(u, C_DIM));
	}
	return y;
}

void ui_draw_detail(struct ui *u, int y0, int h)
{
	const struct topology *t = &u->se.topo;
	const struct proc_detail *d = &u->detail;
	const struct snap_proc *p = NULL;
	for (size_t i = 0; i < u->snap.nprocs && !u->detail_exited; i++)
		if (u->snap.procs[i].info.pid == d->pid &&
		    u->snap.procs[i].info.starttime == d->starttime)
			p = &u->snap.procs[i];
	int y = y0, ymax = y0 + h;
	char comm[300];
	sanitize_term(d->comm, comm, sizeof(comm));
	if (u->ascii)
		sanitize_ascii(comm, comm, sizeof(comm));
	attron(ui_attr(u, C_LABEL) | A_BOLD);
	ui_putf(y++, 0, "PID %d  %s", d->pid, comm);
	attroff(ui_attr(u, C_LABEL) | A_BOLD);
	if (u->detail_exited) {
		attron(ui_attr(u, C_WARN) | A_BOLD);
		mvaddnstr(y++, 0, "This process exited: its last numbers are shown (Esc: back).", COLS);
		attroff(ui_attr(u, C_WARN) | A_BOLD);
	}
	ui_putf(y++, 0, "Cpus_allowed %s   Mems_allowed %s", d->cpus_allowed, d->mems_allowed);
	if (p && why_cause_name(p->why)) {
		const struct why_result *w = snapshot_why(&u->snap, p);
		attron(ui_attr(u, C_LABEL));
		ui_putf(y++, 0, "why remote: %s -- %s%s", why_cause_name(p->why),
			 w ? w->text : "nothing to do: little of it is remote",
			 w && w->action != WHY_ACT_NONE ? " (x: do it)" : "");
		attroff(ui_attr(u, C_LABEL));
		for (size_t k = 0; w && k < w->nevidence && y < ymax; k++)
			ui_putf(y++, 2, "- %s", w->evidence[k]);
	}
	if (p && (snap_sched(p)->racc_pct >= 0 || snap_sched(p)->kmig_pages >= 0)) {
		char racc[16], age[16], rate[24];
		fmt_pct(racc, sizeof(racc), snap_sched(p)->racc_pct);
		fmt_age(age, sizeof(age), snap_sched(p)->sched_age_s);
		fmt_rate(rate, sizeof(rate), snap_sched(p)->kmig_rate);
		ui_putf(y++, 0, "kernel (NUMA balancing, %s ago): RACC%% %s of its sampled faults remote;"
			 " migrated %.1f MiB of it (%s pages)", age, racc,
			 snap_sched(p)->kmig_pages > 0 ? (double)snap_sched(p)->kmig_pages * (double)sysconf(_SC_PAGESIZE) /
			 1048576.0 : 0.0, rate);
	}
	if (p && y < ymax)
		y = draw_heat(u, p, y, ymax);
	if (p && p->cgroup) {
		char cg[600];
		sanitize_term(p->cgroup, cg, sizeof(cg));
		if (u->ascii)
			sanitize_ascii(cg, cg, sizeof(cg));
		ui_putf(y++, 0, "cgroup %s", cg);
	}
	if (p && p->nm == NMS_OK) {
		char age[16];
		fmt_age(age, sizeof(age), p->nm_age_s);
		ui_putf(y++, 0, "placement: %s, sampled %s ago", p->nm_sampled ?
			 "estimated from maps + move_pages queries (~)" : "numa_maps", age);
	}
	const struct hist_proc *hp = p ? history_proc(&u->hist, p->info.pid, p->info.starttime) : NULL;
	if (hp && hp->remote_pct.n > 1 && y < ymax) {
		double lo = 0, hi = 0;
		hist_range(&hp->remote_pct, &lo, &hi);
		int x = ui_putf(y, 0, "REMOTE%% over %zu samples (%.1f..%.1f) ", hp->remote_pct.n, lo, hi);
		ui_spark(u, y++, x, COLS - x, &hp->remote_pct, 0, 100, C_REMOTE);
		for (size_t j = 0; j < t->nnodes && y < ymax; j++) {
			double a = 0, b = 0;
			if (!hist_range(&hp->node_kb[j], &a, &b))
				continue;
			x = ui_putf(y, 0, "  N%-3d kB %9.0f..%-9.0f ", t->nodes[j].id, a, b);
			ui_spark(u, y++, x, COLS - x, &hp->node_kb[j], 0, 0, C_BAR_MEM);
		}
	}
	if (p && p->nm == NMS_OK) {
		for (size_t j = 0; j < t->nnodes && y < ymax; j++) {
			/* The bar, and 33 columns for its numbers after it. */
			int w = COLS - 52 > 10 ? COLS - 52 : 10;
			int64_t tot = p->total_kb > 0 ? p->total_kb : 1;
			int na = (int)(w * snap_kb(p, t->nnodes, SNAP_KB_ANON)[j] / tot), nf = (int)(w * snap_kb(p, t->nnodes, SNAP_KB_FILE)[j] / tot);
			int nh = (int)(w * snap_kb(p, t->nnodes, SNAP_KB_HUGE)[j] / tot);
			ui_putf(y, 0, "N%-3d%s %9lldK [", t->nodes[j].id, p->home == (int)j ? "*" : " ",
				 (long long)p->node_kb[j]);
			attron(ui_attr(u, C_BAR_USER));
			for (int k = 0; k < na; k++) addch('a');
			attroff(ui_attr(u, C_BAR_USER));
			attron(ui_attr(u, C_BAR_MEM));
			for (int k = 0; k < nf; k++) addch('f');
			attroff(ui_attr(u, C_BAR_MEM));
			attron(ui_attr(u, C_BAR_SYS));
			for (int k = 0; k < nh; k++) addch('h');
			attroff(ui_attr(u, C_BAR_SYS));
			mvaddch(y, 17 + w, ']');
			ui_putf(y, 19 + w, "anon %lldK file %lldK huge %lldK", (long long)snap_kb(p, t->nnodes, SNAP_KB_ANON)[j],
				 (long long)snap_kb(p, t->nnodes, SNAP_KB_FILE)[j], (long long)snap_kb(p, t->nnodes, SNAP_KB_HUGE)[j]);
			y++;
		}
	} else {
		char why[200];
		snprintf(why, sizeof(why), "numa_maps: %s", !p ? "unknown" : p->nm == NMS_NO_PERM ?
			 snapshot_no_perm_why() : nm_state_names[p->nm]);
		y = ui_put_wrapped(y, ymax, 0, why);
	}
	if (u->replay) {
		attron(ui_attr(u, C_DIM));
		mvaddnstr(y++, 0, "replay: threads and per-mapping placement are not recorded "
			  "(they are read live only)", COLS);
		attroff(ui_attr(u, C_DIM));
		return;
	}
	char thr[512];
	int o = snprintf(thr, sizeof(thr), "threads (tid:cpu/node):");
	for (size_t i = 0; i < d->nthreads && o < (int)sizeof(thr) - 24; i++) {
		int node = topology_cpu_node(t, d->threads[i].last_cpu);
		o += snprintf(thr + o, sizeof(thr) - (size_t)o, " %d:%d/%s%d", d->threads[i].tid,
			      d->threads[i].last_cpu, node >= 0 ? "N" : "?",
			      node >= 0 ? t->nodes[node].id : 0);
	}
	mvaddnstr(y++, 0, thr, COLS);
	if (y >= ymax)
		return;
	attron(ui_attr(u, C_HEADER));
	mvhline(y, 0, ' ', COLS);
	ui_putf(y, 0, "%-16s %-22s", "ADDRESS", "POLICY");
	int x = 40;
	for (size_t j = 0; j < t->nnodes && x < COLS - 20; j++, x += 9)
		ui_putf(y, x, "%8s%d", "N", t->nodes[j].id);
	ui_putf(y, x, " MAPPING");
	attroff(ui_attr(u, C_HEADER));
	y++;
	if (d->nm_rc) {
		ui_putf(y, 0, "numa_maps: %s", fsroot_strerror(-d->nm_rc));
		return;
	}
	if ((d->nmaps < d->nmaps_total || d->nbad) && y < ymax) {
		char note[200];
		int k = 0;
		if (d->nmaps < d->nmaps_total)
			k = snprintf(note, sizeof(note), "the %zu largest of %zu mappings (the rest: %lld kB) ",
				     d->nmaps, d->nmaps_total, (long long)d->rest_kb);
		if (d->nbad)
			snprintf(note + k, sizeof(note) - (size_t)k, "%zu numa_maps line%s not understood: "
				 "numbers are partial", d->nbad, d->nbad == 1 ? "" : "s");
		attron(ui_attr(u, C_WARN));
		mvaddnstr(y++, 0, note, COLS);
		attroff(ui_attr(u, C_WARN));
	}
	for (long i = u->scroll; i < (long)d->nmaps && y < ymax; i++, y++) {
		const struct detail_mapping *m = &d->maps[i];
		bool remote = false;
		for (size_t j = 0; p && j < t->nnodes; j++)
			if ((int)j != p->home && m->node_kb[j] > 0)
				remote = p->home >= 0;
		char line[1024], what[200], pol[96];
		sanitize_term(m->what, what, sizeof(what));
		sanitize_term(m->policy, pol, sizeof(pol));
		if (u->ascii) {
			sanitize_ascii(what, what, sizeof(what));
			sanitize_ascii(pol, pol, sizeof(pol));
		}
		int n = snprintf(line, sizeof(line), "%016llx %-22.22s", (unsigned long long)m->start, pol);
		x = 40;
		for (size_t j = 0; j < t->nnodes && x < COLS - 20; j++, x += 9)
			n += snprintf(line + n, sizeof(line) - (size_t)n, " %8lld", (long long)m->node_kb[j]);
		snprintf(line + n, sizeof(line) - (size_t)n, " %s%s", m->huge ? "[huge] " : "", what);
		if (remote)
			attron(ui_attr(u, C_REMOTE));
		mvaddnstr(y, 0, line, COLS);
		if (remote)
			attroff(ui_attr(u, C_REMOTE));
	}
}

