/* ui_screens.c - the Nodes and Topology screens and the sort menu. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <curses.h>

#include "output.h"
#include "sanitize.h"
#include "ui_int.h"
#include "format.h"
#include "snapshot_tiers.h"


struct warn_lines {
	int y, ymax;
};

static void warn_line(void *ctx, const char *line)
{
	struct warn_lines *w = ctx;
	w->y = ui_put_wrapped(w->y, w->ymax, 0, line);
}

/* The Nodes table's columns: header, width, and the order in which they
 * are left out on a narrow terminal (0: never). */
enum { NODE_NCOLS = 13 };
static const struct { const char *hdr; int w, drop; } node_cols[NODE_NCOLS] = {
	{ "NODE", 5, 0 }, { "TOTAL_kB", 11, 0 }, { "FREE_kB", 11, 0 }, { "FILE_kB", 10, 6 },
	{ "ANON_kB", 10, 7 }, { "SHMEM_kB", 9, 5 }, { "numa_hit", 12, 8 }, { "miss", 9, 9 },
	{ "foreign", 9, 3 }, { "other", 9, 4 }, { "hit/s", 8, 0 }, { "miss/s", 8, 0 },
	{ "other/s", 8, 1 },
};

static void node_cols_line(const bool *on, const char *const *cells, char *out, size_t n)
{
	size_t o = 0;
	out[0] = '\0';
	for (int k = 0; k < NODE_NCOLS && o < n; k++)
		if (on[k])
			o += (size_t)snprintf(out + o, n - o, "%s%*s", k ? " " : "", node_cols[k].w,
					      cells ? cells[k] : node_cols[k].hdr);
}

static void node_cols_fit(bool *on)
{
	int w = 0;
	for (int k = 0; k < NODE_NCOLS; k++) {
		on[k] = true;
		w += node_cols[k].w + (k > 0);
	}
	for (int d = 1; d <= 9 && w > COLS; d++)
		for (int k = 0; k < NODE_NCOLS; k++)
			if (node_cols[k].drop == d && on[k]) {
				on[k] = false;
				w -= node_cols[k].w + 1;
			}
}

void ui_draw_nodes(struct ui *u, int y0, int h)
{
	const struct topology *t = &u->se.topo;
	const struct snapshot *s = &u->snap;
	int y = y0, ymax = y0 + h;
	/* The columns that fit, whole: the least needed go first. */
	bool on[NODE_NCOLS];
	node_cols_fit(on);
	char line[512];
	node_cols_line(on, NULL, line, sizeof(line));
	attron(ui_attr(u, C_HEADER));
	mvhline(y, 0, ' ', COLS);
	mvaddnstr(y++, 0, line, COLS);
	attroff(ui_attr(u, C_HEADER));
	for (size_t i = 0; i < t->nnodes && y < ymax; i++) {
		const struct node_sample *ns = &s->nodes[i];
		char v[NODE_NCOLS][24];
		snprintf(v[0], sizeof(v[0]), "%d", t->nodes[i].id);
		fmt_kb(v[1], sizeof(v[1]), ns->mem.mem_total_kb);
		fmt_kb(v[2], sizeof(v[2]), ns->mem.mem_free_kb);
		fmt_kb(v[3], sizeof(v[3]), ns->mem.file_pages_kb);
		fmt_kb(v[4], sizeof(v[4]), ns->mem.anon_pages_kb);
		fmt_kb(v[5], sizeof(v[5]), ns->mem.shmem_kb);
		fmt_kb(v[6], sizeof(v[6]), ns->ns.v[NUMASTAT_HIT]);
		fmt_kb(v[7], sizeof(v[7]), ns->ns.v[NUMASTAT_MISS]);
		fmt_kb(v[8], sizeof(v[8]), ns->ns.v[NUMASTAT_FOREIGN]);
		fmt_kb(v[9], sizeof(v[9]), ns->ns.v[NUMASTAT_OTHER_NODE]);
		fmt_pct(v[10], sizeof(v[10]), s->ns_rate[i][NUMASTAT_HIT]);
		fmt_pct(v[11], sizeof(v[11]), s->ns_rate[i][NUMASTAT_MISS]);
		fmt_pct(v[12], sizeof(v[12]), s->ns_rate[i][NUMASTAT_OTHER_NODE]);
		const char *cells[NODE_NCOLS];
		for (int k = 0; k < NODE_NCOLS; k++)
			cells[k] = v[k];
		node_cols_line(on, cells, line, sizeof(line));
		mvaddnstr(y++, 0, line, COLS);
		for (size_t p = 0; p < ns->npools && y < ymax; p++) {
			snprintf(line, sizeof(line), "      hugepages %lld kB: %lld total, %lld free",
				 (long long)ns->pools[p].size_kb, (long long)ns->pools[p].nr,
				 (long long)ns->pools[p].free);
			attron(ui_attr(u, C_DIM));
			mvaddnstr(y++, 0, line, COLS);
			attroff(ui_attr(u, C_DIM));
		}
		const char *kind = fmt_node_kind(t, i, ns);
		if (kind[0] && y < ymax)
			mvaddnstr(y++, 6, kind, COLS - 6);
		if (y < ymax && u->hist.samples > 1)
			ui_history_node_line(u, i, y++, 6, COLS - 6);
	}
	/* The kernel's NUMA balancing and tiers, then per node its rates. */
	if (s->nk.node && y + 1 < ymax) {
		fmt_balancing(s, line, sizeof(line));
		y = ui_put_wrapped(y + 1, ymax, 0, line);
		if (fmt_tiers(s, line, sizeof(line)) && y < ymax)
			y = ui_put_wrapped(y, ymax, 0, line);
		/* Several tiers: each, fast -> slow, and the kernel's knobs. */
		for (size_t j = 0; tiers_multi(&s->nk.tiers) && j < s->nk.tiers.ntiers && y < ymax; j++) {
			snapshot_tier_text(s, j, line, sizeof(line));
			y = ui_put_wrapped(y, ymax, 2, line);
			if (y < ymax && u->hist.samples > 1)
				ui_history_tier_line(u, j, y++, 4, COLS - 4);
		}
		if (tiers_multi(&s->nk.tiers) && y < ymax) {
			snapshot_tiering_text(s, line, sizeof(line));
			y = ui_put_wrapped(y, ymax, 2, line);
		}
		for (size_t i = 0; i < t->nnodes && y < ymax; i++) {
			const double *r = s->nk.node_rate[i];
			char a[24], b[24], c[24], d[24];
			fmt_rate(a, sizeof(a), r[NVM_PAGES_MIGRATED]);
			fmt_rate(b, sizeof(b), r[NVM_PGMIGRATE_SUCCESS]);
			fmt_rate(c, sizeof(c), r[NVM_PGPROMOTE_SUCCESS]);
			fmt_rate(d, sizeof(d), r[NVM_PGDEMOTE_KSWAPD] >= 0 && r[NVM_PGDEMOTE_DIRECT] >= 0 ?
				 r[NVM_PGDEMOTE_KSWAPD] + r[NVM_PGDEMOTE_DIRECT] : -1);
			snprintf(line, sizeof(line), "%5d  numa pages migrated %s  pgmigrate %s  promoted %s"
				 "  demoted %s", t->nodes[i].id, a, b, c, d);
			attron(ui_attr(u, C_DIM));
			y = ui_put_wrapped(y, ymax, 0, line);
			attroff(ui_attr(u, C_DIM));
		}
	}
	attron(ui_attr(u, C_WARN));
	for (size_t i = 0; i < t->nwarnings && y < ymax; i++)
		y = ui_put_wrapped(y, ymax, 0, t->warnings[i]);
	struct warn_lines wl = { y, ymax };
	snapshot_warnings(&u->snap, warn_line, &wl);
	attroff(ui_attr(u, C_WARN));
}

static void cache_text(const struct topo_cpu *c, char *out, size_t n)
{
	size_t o = 0;
	out[0] = '\0';
	for (size_t k = 0; k < c->ncaches && o + 48 < n; k++) {
		const struct topo_cache *ca = &c->caches[k];
		char share[64];
		size_t need = bitmap_format_list(&ca->shared, share, sizeof(share));
		if (need >= sizeof(share))
			snprintf(share, sizeof(share), "%u CPUs", bitmap_count(&ca->shared));
		o += (size_t)snprintf(out + o, n - o, " L%d%c %lldK[%s]", ca->level,
				      ca->type[0] == 'D' ? 'd' : ca->type[0] == 'I' ? 'i' : ' ',
				      (long long)ca->size_kb, share);
	}
}

/* Per node: its packages, then one line per core with the core's SMT
 * siblings and caches (and who shares them): the article's tables 5.1-5.3.
 * Up/Down/PgUp/PgDn scroll, so a 256-CPU box reads as well as a 2-socket. */
struct topo_lines { int y, ymax; long skip, n; };

static bool topo_line(struct topo_lines *tl, int attr, const char *text)
{
	long i = tl->n++;
	if (i < tl->skip)
		return true;
	if (tl->y >= tl->ymax)
		return false;
	attron(attr);
	mvaddnstr(tl->y++, 0, text, COLS);
	attroff(attr);
	return true;
}

void ui_draw_topology(struct ui *u, int y0, int h)
{
	const struct topology *t = &u->se.topo;
	struct topo_lines tl = { y0, y0 + h - 1, u->scroll, 0 };
	char line[512];
	bool more = true;
	for (size_t i = 0; i < t->nnodes && more; i++) {
		const struct topo_node *nd = &t->nodes[i];
		char cpus[256];
		size_t need = bitmap_format_list(&nd->cpus, cpus, sizeof(cpus));
		if (need >= sizeof(cpus))
			snprintf(cpus + sizeof(cpus) - 4, 4, "...");
		snprintf(line, sizeof(line), "node %d: CPUs %s (%u online)  %s", nd->id,
			 need ? cpus : "none", nd->ncpus_online, fmt_node_kind(t, i, &u->snap.nodes[i]));
		more = topo_line(&tl, ui_attr(u, C_LABEL) | A_BOLD, line);
		int lastpkg = -2;
		for (int c = bitmap_next(&nd->cpus, 0); c >= 0 && more; c = bitmap_next(&nd->cpus, c + 1)) {
			const struct topo_cpu *cpu = topology_cpu(t, c);
			if (!cpu)
				continue;
			/* One line per core: skip CPUs that are a later SMT sibling. */
			int first = bitmap_next(&cpu->thread_siblings, 0);
			if (first >= 0 && first != c && bitmap_test(&nd->cpus, (unsigned)first))
				continue;
			if (cpu->package != lastpkg) {
				snprintf(line, sizeof(line), "  package %d", cpu->package);
				more = topo_line(&tl, 0, line);
				lastpkg = cpu->package;
			}
			char sib[64], caches[256];
			need = bitmap_format_list(&cpu->thread_siblings, sib, sizeof(sib));
			if (!need)
				snprintf(sib, sizeof(sib), "%d", c);
			cache_text(cpu, caches, sizeof(caches));
			snprintf(line, sizeof(line), "    core %-3d cpu %-9s%s%s", cpu->core, sib,
				 cpu->online == 0 ? " offline" : "", caches);
			more = more && topo_line(&tl, 0, line);
		}
	}
	if (!more) {
		move(y0 + h - 1, 0);
		clrtoeol();
		attron(ui_attr(u, C_DIM));
		mvaddnstr(y0 + h - 1, 0, "(more: Down / PgDn to scroll)", COLS);
		attroff(ui_attr(u, C_DIM));
	}
}

/* F6: every column of the table, the per-node one as one entry per node,
 * the per-tier one as one per tier of the sample. */
size_t ui_sort_menu_len(const struct ui *u)
{
	return COL_NCOLS - 2 + u->se.topo.nnodes + u->snap.nk.tiers.ntiers;
}

void ui_sort_menu_entry(const struct ui *u, size_t i, struct sort_key *k, char *label, size_t n)
{
	size_t nn = u->se.topo.nnodes;
	/* Past the end (the sample's tiers changed under the menu): the
	 * sort as it is. */
	*k = u->sort_eff;
	if (n)
		label[0] = '\0';
	for (int c = 0; c < COL_NCOLS; c++) {
		const struct col_def *d = col_get((enum snap_col)c);
		if (d->per_node) {
			if (i < nn) {
				*k = (struct sort_key){ (enum snap_col)c, (int)i, d->desc_sort, NULL, false };
				snprintf(label, n, "N%d (kB on node %d)", u->se.topo.nodes[i].id, u->se.topo.nodes[i].id);
				return;
			}
			i -= nn;
		} else if (d->per_tier) {
			const struct tier_model *m = &u->snap.nk.tiers;
			if (i < m->ntiers) {
				int id = m->tier[i].id;
				*k = (struct sort_key){ (enum snap_col)c, id, d->desc_sort, NULL, false };
				snprintf(label, n, "T%d (kB on tier %d)", id, id);
				return;
			}
			i -= m->ntiers;
		} else if (i-- == 0) {
			*k = (struct sort_key){ (enum snap_col)c, -1, d->desc_sort, NULL, false };
			snprintf(label, n, "%s", d->name);
			return;
		}
	}
}

void ui_draw_sort_menu(struct ui *u)
{
	size_t n = ui_sort_menu_len(u);
	int h = LINES - 4, w = 30;
	if ((int)n + 3 < h)
		h = (int)n + 3;
	int y0 = 2, x0 = 2;
	long first = u->sort_sel >= h - 3 ? u->sort_sel - (h - 4) : 0;
	attron(ui_attr(u, C_FKEY_LABEL));
	for (int y = 0; y < h; y++)
		mvhline(y0 + y, x0, ' ', w);
	mvprintw(y0, x0 + 1, "Sort by (Enter, Esc)");
	attroff(ui_attr(u, C_FKEY_LABEL));
	for (int r = 0; r < h - 2 && (size_t)(first + r) < n; r++) {
		struct sort_key k;
		char label[64];
		ui_sort_menu_entry(u, (size_t)(first + r), &k, label, sizeof(label));
		bool cur = col_same(k.col, k.node, u->sort_eff.col, u->sort_eff.node);
		int a = first + r == u->sort_sel ? ui_attr(u, C_SELECTED) : ui_attr(u, C_FKEY_LABEL);
		attron(a);
		mvprintw(y0 + 1 + r, x0 + 1, "%c %-*.*s", cur ? '*' : ' ', w - 4, w - 4, label);
		attroff(a);
	}
}

/* The sort menu's keys: Up/Down, Enter sorts, Esc q F6 close. */
void ui_sort_menu_key(struct ui *u, int ch)
{
	int n = (int)ui_sort_menu_len(u);
	if (ch == KEY_UP && u->sort_sel > 0)
		u->sort_sel--;
	else if (ch == KEY_DOWN && u->sort_sel + 1 < n)
		u->sort_sel++;
	else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		struct sort_key k;
		char label[64];
		ui_sort_menu_entry(u, (size_t)u->sort_sel, &k, label, sizeof(label));
		ui_set_sort(u, k.col, k.node);
		u->screen = SCR_PROCESSES;
	} else if (ch == KEY_ESC || ch == 'q' || ch == KEY_F(6)) {
		u->screen = SCR_PROCESSES;
	}
}
