/* ui_cgroups.c - the Cgroups screen: the memory hierarchy as a tree
 * (collapsible, siblings sorted by a column), per cgroup its processes,
 * memory per node, REMOTE and effective cpuset; Enter shows its
 * processes in the process table. Reads snapshot.cgroups only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "sanitize.h"
#include "ui_int.h"
#include "format.h"

/* The columns the screen sorts by (< > choose, I inverts). */
enum { CGS_NAME, CGS_PROCS, CGS_MEM, CGS_REMOTE, CGS_NSORT };
static const char *const sort_names[CGS_NSORT] = { "CGROUP", "PROCS", "MEM", "REMOTE" };

static int64_t sort_value(const struct cgroup_info *c, int col)
{
	switch (col) {
	case CGS_PROCS: return c->procs_tree;
	case CGS_MEM: return c->have_numa ? c->total_kb : -1;
	case CGS_REMOTE: return c->remote_kb;
	default: return 0;
	}
}

struct sib_ctx {
	const struct cgroup_set *cs;
	int col;
	bool desc;
};

static int cmp_sib(const void *a, const void *b, void *ctx)
{
	const struct sib_ctx *k = ctx;
	const struct cgroup_info *x = &k->cs->v[*(const size_t *)a], *y = &k->cs->v[*(const size_t *)b];
	int r = 0;
	if (k->col == CGS_NAME) {
		r = strcmp(x->path, y->path);
		if (k->desc)
			r = -r;
	} else {
		int64_t vx = sort_value(x, k->col), vy = sort_value(y, k->col);
		if (vx != vy) {
			if (vx < 0 || vy < 0)      /* unknown last both ways */
				return vx < 0 ? 1 : -1;
			r = (vx > vy) - (vx < vy);
			if (k->desc)
				r = -r;
		} else {
			r = strcmp(x->path, y->path);
		}
	}
	return r;
}

bool ui_cg_collapsed(const struct ui *u, const char *path)
{
	for (size_t i = 0; i < u->cg.ncollapsed; i++)
		if (strcmp(u->cg.collapsed[i], path) == 0)
			return true;
	return false;
}

static void toggle_collapsed(struct ui *u, const char *path, bool want)
{
	for (size_t i = 0; i < u->cg.ncollapsed; i++) {
		if (strcmp(u->cg.collapsed[i], path) == 0) {
			if (!want) {
				free(u->cg.collapsed[i]);
				u->cg.collapsed[i] = u->cg.collapsed[--u->cg.ncollapsed];
			}
			return;
		}
	}
	if (!want)
		return;
	char **v = realloc(u->cg.collapsed, (u->cg.ncollapsed + 1) * sizeof(*v));
	char *p = strdup(path);
	if (!v || !p) {
		free(p);
		if (v)
			u->cg.collapsed = v;
		return;
	}
	u->cg.collapsed = v;
	u->cg.collapsed[u->cg.ncollapsed++] = p;
}

/* The rows: preorder, children of a cgroup sorted by the key, the
 * descendants of collapsed ones left out. O(n log n). */
void ui_cg_rebuild(struct ui *u)
{
	const struct cgroup_set *cs = &u->snap.cgroups;
	size_t n = u->snap.have_cgroups ? cs->n : 0;
	u->cg.nrows = 0;
	if (!n)
		return;
	size_t *rows = realloc(u->cg.rows, n * sizeof(*rows));
	size_t *kids = malloc(n * sizeof(*kids)), *first = calloc(n + 1, sizeof(*first));
	size_t *stack = malloc(n * sizeof(*stack));
	if (!rows || !kids || !first || !stack) {
		if (rows)
			u->cg.rows = rows;
		free(kids);
		free(first);
		free(stack);
		return;
	}
	u->cg.rows = rows;
	/* Children grouped by parent (counting sort), then each group sorted. */
	for (size_t i = 0; i < n; i++)
		if (cs->v[i].parent >= 0)
			first[cs->v[i].parent + 1]++;
	for (size_t i = 0; i < n; i++)
		first[i + 1] += first[i];
	size_t *fill = malloc(n * sizeof(*fill));
	if (!fill) {
		free(kids);
		free(first);
		free(stack);
		return;
	}
	memcpy(fill, first, n * sizeof(*fill));
	for (size_t i = 0; i < n; i++)
		if (cs->v[i].parent >= 0)
			kids[fill[cs->v[i].parent]++] = i;
	free(fill);
	struct sib_ctx k = { cs, u->cg.sort, u->cg.desc };
	for (size_t i = 0; i < n; i++)
		if (first[i + 1] - first[i] > 1)
			qsort_r(kids + first[i], first[i + 1] - first[i], sizeof(*kids), cmp_sib, &k);
	/* Depth-first from the roots (index 0, and any orphan). */
	size_t sp = 0;
	for (size_t i = n; i-- > 0;)
		if (cs->v[i].parent < 0)
			stack[sp++] = i;
	while (sp) {
		size_t i = stack[--sp];
		rows[u->cg.nrows++] = i;
		if (ui_cg_collapsed(u, cs->v[i].path))
			continue;
		for (size_t j = first[i + 1]; j-- > first[i];)
			stack[sp++] = kids[j];
	}
	free(kids);
	free(first);
	free(stack);
	/* Keep the selection on the same cgroup. */
	long sel = 0;
	for (size_t r = 0; r < u->cg.nrows; r++)
		if (strcmp(cs->v[rows[r]].path, u->cg.sel_path) == 0)
			sel = (long)r;
	u->cg.sel = sel;
}

static const struct cgroup_info *selected(const struct ui *u)
{
	if (u->cg.sel < 0 || (size_t)u->cg.sel >= u->cg.nrows)
		return NULL;
	return &u->snap.cgroups.v[u->cg.rows[u->cg.sel]];
}

static void select_row(struct ui *u, long r)
{
	if (!u->cg.nrows)
		return;
	r = r < 0 ? 0 : r >= (long)u->cg.nrows ? (long)u->cg.nrows - 1 : r;
	u->cg.sel = r;
	snprintf(u->cg.sel_path, sizeof(u->cg.sel_path), "%s", u->snap.cgroups.v[u->cg.rows[r]].path);
}

static bool has_children(const struct cgroup_set *cs, size_t i)
{
	return i + 1 < cs->n && cs->v[i + 1].parent == (int)i;
}

/* A key of the Cgroups screen (or of its move dialog): false when it is
 * none, for the main key table. */
bool ui_cgroups_key(struct ui *u, int ch)
{
	if (ui_cgmove_open_p(u)) {
		ui_cgmove_key(u, ch);
		return true;
	}
	const struct cgroup_info *c = selected(u);
	int page = u->table_h > 2 ? u->table_h - 1 : 10;
	if (ui_action_key_is(&action_defs[ACTION_CGROUP_MOVE], ch)) {
		if (c)
			ui_cgmove_open(u, c->path);
		return true;
	}
	switch (ch) {
	case KEY_UP: select_row(u, u->cg.sel - 1); return true;
	case KEY_DOWN: select_row(u, u->cg.sel + 1); return true;
	case KEY_PPAGE: select_row(u, u->cg.sel - page); return true;
	case KEY_NPAGE: select_row(u, u->cg.sel + page); return true;
	case KEY_HOME: select_row(u, 0); return true;
	case KEY_END: select_row(u, (long)u->cg.nrows - 1); return true;
	case '-': case KEY_LEFT: case '+': case KEY_RIGHT: case ' ':
		if (c) {
			bool collapse = ch == '-' || ch == KEY_LEFT ||
					(ch == ' ' && !ui_cg_collapsed(u, c->path));
			toggle_collapsed(u, c->path, collapse);
			ui_cg_rebuild(u);
		}
		return true;
	case '<': case '>':
		u->cg.sort = (u->cg.sort + (ch == '>' ? 1 : CGS_NSORT - 1)) % CGS_NSORT;
		u->cg.desc = u->cg.sort != CGS_NAME;
		ui_cg_rebuild(u);
		return true;
	case 'I':
		u->cg.desc = !u->cg.desc;
		ui_cg_rebuild(u);
		return true;
	case '\n': case '\r': case KEY_ENTER:
		if (c && strlen(c->path) + 7 >= sizeof(u->filter)) {
			snprintf(u->msg, sizeof(u->msg), "the cgroup path is too long for a filter");
		} else if (c) {
			snprintf(u->filter, sizeof(u->filter), "cgroup %s", c->path);
			u->screen = SCR_PROCESSES;
			u->sel = 0;
			u->top = 0;
			ui_rebuild_rows(u);
		}
		return true;
	default:
		return false;
	}
}

/* The tree's drawing prefix of row r: "  " per level, then a mark. */
static void tree_prefix(const struct ui *u, size_t i, char *out, size_t n)
{
	const struct cgroup_set *cs = &u->snap.cgroups;
	const struct cgroup_info *c = &cs->v[i];
	int d = c->depth < 20 ? c->depth : 20;
	size_t o = 0;
	for (int k = 0; k < d && o + 3 < n; k++) {
		out[o++] = ' ';
		out[o++] = ' ';
	}
	const char *mark = !has_children(cs, i) ? "  " : ui_cg_collapsed(u, c->path) ? "+ " : "- ";
	snprintf(out + o, n - o, "%s", mark);
}

void ui_draw_cgroups(struct ui *u, int y0, int h)
{
	const struct topology *t = &u->se.topo;
	const struct cgroup_set *cs = &u->snap.cgroups;
	int y = y0, ymax = y0 + h;
	if (!u->snap.have_cgroups) {
		mvaddnstr(y, 0, "Reading cgroups: the next sample has them.", COLS);
		return;
	}
	if (cs->layout == CGROUP_NONE) {
		mvaddnstr(y, 0, "No cgroup hierarchy is mounted under /sys/fs/cgroup.", COLS);
		return;
	}
	char line[1024];
	snprintf(line, sizeof(line), "cgroups (%s, memory hierarchy): %zu   sorted by %s %s   "
		 "Enter: its processes  m: move to a node  -/+ Space: fold  < >: sort  I: invert",
		 cgroup_layout_names[cs->layout], cs->n, sort_names[u->cg.sort],
		 u->cg.desc ? "desc" : "asc");
	attron(ui_attr(u, C_DIM));
	mvaddnstr(y++, 0, line, COLS);
	attroff(ui_attr(u, C_DIM));
	/* Header: PROCS MEM N<id>... REMOTE MEMS CPUS CGROUP */
	int o = snprintf(line, sizeof(line), "%6s %7s", "PROCS", "MEM");
	for (size_t j = 0; j < t->nnodes && o < (int)sizeof(line) - 40; j++) {
		char nm[16];
		snprintf(nm, sizeof(nm), "N%d", t->nodes[j].id);
		o += snprintf(line + o, sizeof(line) - (size_t)o, " %7s", nm);
	}
	snprintf(line + o, sizeof(line) - (size_t)o, " %7s %-8s %-10s %s", "REMOTE", "MEMS", "CPUS",
		 "CGROUP");
	attron(ui_attr(u, C_HEADER));
	mvhline(y, 0, ' ', COLS);
	mvaddnstr(y++, 0, line, COLS);
	attroff(ui_attr(u, C_HEADER));
	u->table_h = ymax - y;
	if (u->cg.sel < u->cg.top)
		u->cg.top = u->cg.sel;
	if (u->table_h > 0 && u->cg.sel >= u->cg.top + u->table_h)
		u->cg.top = u->cg.sel - u->table_h + 1;
	for (long r = u->cg.top; r < (long)u->cg.nrows && y < ymax; r++, y++) {
		size_t i = u->cg.rows[r];
		const struct cgroup_info *c = &cs->v[i];
		char a[16], b[16], tmp[16];
		fmt_kb(a, sizeof(a), c->procs_tree);
		fmt_human_kb(b, sizeof(b), c->have_numa ? c->total_kb : -1);
		o = snprintf(line, sizeof(line), "%6s %7s", a,
			     c->state == CGS_OK ? b : cgroup_state_names[c->state]);
		for (size_t j = 0; j < t->nnodes && o < (int)sizeof(line) - 40; j++) {
			fmt_human_kb(tmp, sizeof(tmp), c->have_numa ? c->node_kb[j] : -1);
			o += snprintf(line + o, sizeof(line) - (size_t)o, " %7s", tmp);
		}
		char mems[64], cpus[64], pre[64], name[512], clean[600];
		fmt_human_kb(tmp, sizeof(tmp), c->remote_kb);
		if (!c->have_mems || bitmap_format_list(&c->mems, mems, sizeof(mems)) == 0)
			snprintf(mems, sizeof(mems), "-");
		if (!c->have_cpus || bitmap_format_list(&c->cpus, cpus, sizeof(cpus)) == 0)
			snprintf(cpus, sizeof(cpus), "-");
		tree_prefix(u, i, pre, sizeof(pre));
		const char *base = strrchr(c->path, '/');
		snprintf(name, sizeof(name), "%s%s", pre, c->parent < 0 ? "/" : base ? base + 1 : c->path);
		sanitize_term(name, clean, sizeof(clean));
		if (u->ascii)
			sanitize_ascii(clean, clean, sizeof(clean));
		snprintf(line + o, sizeof(line) - (size_t)o, " %7s %-8.8s %-10.10s %s", tmp, mems, cpus,
			 clean);
		bool sel = r == u->cg.sel;
		if (sel)
			attron(ui_attr(u, C_SELECTED));
		else if (c->remote_kb > 0)
			attron(ui_attr(u, C_REMOTE));
		mvhline(y, 0, ' ', COLS);
		ui_put(y, 0, line, COLS);
		if (sel)
			attroff(ui_attr(u, C_SELECTED));
		else if (c->remote_kb > 0)
			attroff(ui_attr(u, C_REMOTE));
	}
	if (cs->truncated && y < ymax) {
		snprintf(line, sizeof(line), "%zu cgroups not read (over %d, or deeper than %d)",
			 cs->truncated, CGROUP_MAX, CGROUP_MAX_DEPTH);
		mvaddnstr(y, 0, line, COLS);
	}
	if (ui_cgmove_open_p(u))
		ui_cgmove_draw(u);
}

void ui_cgroups_free(struct ui *u)
{
	for (size_t i = 0; i < u->cg.ncollapsed; i++)
		free(u->cg.collapsed[i]);
	free(u->cg.collapsed);
	free(u->cg.rows);
	u->cg.collapsed = NULL;
	u->cg.rows = NULL;
	u->cg.ncollapsed = u->cg.nrows = 0;
}
