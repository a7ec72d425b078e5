/* ui_table.c - the process table: header, rows and the mouse's header
 * cells, all from the column list (columns.h) over the snapshot. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "sanitize.h"
#include "ui_int.h"

#define NODE_W 7          /* a per-node column in the monitor */

static void add_hdr(struct ui *u, int x0, int x1, enum snap_col c, int node)
{
	struct ui_hdr *h = buf_grow_array(u->hdr, &u->hdrcap, (size_t)u->nhdr + 1, sizeof(*h));
	if (!h)
		return;
	u->hdr = h;
	u->hdr[u->nhdr++] = (struct ui_hdr){ x0, x1, c, node };
}

int ui_proc_table_col_at(const struct ui *u, int x)
{
	for (int i = 0; i < u->nhdr; i++)
		if (x >= u->hdr[i].x0 && x < u->hdr[i].x1)
			return i;
	return -1;
}

bool sorted_by_hdr(const struct ui *u, int i)
{
	return col_same(u->sort_eff.col, u->sort_eff.node, u->hdr[i].col, u->hdr[i].node);
}

/* Lay the columns out: the N entry becomes one column per node when they
 * fit (with room for 12 characters of command), else one block per node,
 * else (more nodes than the width leaves) nothing: the columns after them
 * (REMOTE, the command) matter more. The T entry becomes one column per
 * tier of the sample. Fills u->hdr. */
#define UI_CMD_MIN 20

/* How many columns an entry shows besides the per-node ones: a T entry
 * one per tier, the others one. */
static size_t shown(const struct col_ctx *c, const struct col_ref *r)
{
	if (r->col == COL_TIER && r->node < 0)
		return c->tiers ? c->tiers->ntiers : 0;
	return 1;
}

/* The command keeps UI_CMD_MIN columns: the optional columns go first,
 * least useful first (never the one sorted by). The first UI_PRE_DROP of
 * them also give way to the per-node columns: where a process's memory
 * is matters more than the WHY words or the heat's detail (x and the
 * detail still say them), so the per-node kB columns stay when heat
 * arrives instead of collapsing into blocks. */
static const enum snap_col drop_order[] = { COL_WHY, COL_HOT, COL_HOTREM_PCT, COL_CGROUP,
					    COL_POLICY, COL_AGE,
					    COL_THREADS, COL_TIME, COL_RACC, COL_CPU,
					    COL_REMOTE_PCT, COL_USER };
#define UI_PRE_DROP 6

/* The width of the columns besides the per-node ones (the command at 12),
 * without those dropped. */
static int fixed_width(const struct ui *u, const struct col_ctx *c, const bool *dropped)
{
	int fixed = 0;
	for (size_t i = 0; i < u->cols.n; i++) {
		const struct col_ref *r = &u->cols.v[i];
		if ((r->col == COL_NODE && r->node < 0) || (dropped[r->col] && r->col != COL_COMMAND))
			continue;
		fixed += ((r->col == COL_COMMAND ? 12 : col_width(c, r->col)) + 1) * (int)shown(c, r);
	}
	return fixed;
}

static void layout(struct ui *u, const struct col_ctx *c)
{
	size_t nn = u->se.topo.nnodes;
	size_t nodecols = 0;
	for (size_t i = 0; i < u->cols.n; i++)
		nodecols += u->cols.v[i].col == COL_NODE && u->cols.v[i].node < 0;
	int bw = nn < 5 ? 5 : (int)nn;
	bool dropped[COL_NCOLS] = { false };
	bool expand = false, blocks_fit = false;
	/* One column per node, else blocks (REMOTE and 6 characters of
	 * command must still be seen), each first with every optional
	 * column, then with fewer of the first UI_PRE_DROP. */
	for (int pass = 0; pass < 2 && nodecols && !expand && !blocks_fit; pass++) {
		memset(dropped, 0, sizeof(dropped));
		for (size_t m = 0; m <= UI_PRE_DROP; m++) {
			if (m > 0) {
				enum snap_col d = drop_order[m - 1];
				if (d == u->sort_eff.col || col_list_find(&u->cols, d) < 0)
					continue;
				dropped[d] = true;
			}
			int fixed = fixed_width(u, c, dropped);
			if (pass == 0 && fixed + (int)(nodecols * nn) * (NODE_W + 1) <= COLS) {
				expand = true;
				break;
			}
			if (pass == 1 && fixed - 6 + (int)nodecols * (bw + 1) <= COLS) {
				blocks_fit = true;
				break;
			}
		}
	}
	if (!expand && !blocks_fit)
		memset(dropped, 0, sizeof(dropped));
	bool cmd_last = u->cols.n && u->cols.v[u->cols.n - 1].col == COL_COMMAND;
	for (size_t k = 0; cmd_last && k <= sizeof(drop_order) / sizeof(drop_order[0]); k++) {
		int w = 0;
		for (size_t i = 0; i + 1 < u->cols.n; i++) {
			const struct col_ref *r = &u->cols.v[i];
			if (r->col == COL_NODE && r->node < 0)
				w += expand ? (int)nn * (NODE_W + 1) : blocks_fit ? bw + 1 : 0;
			else if (!dropped[r->col])
				w += (col_width(c, r->col) + 1) * (int)shown(c, r);
		}
		if (COLS - w >= UI_CMD_MIN || k == sizeof(drop_order) / sizeof(drop_order[0]))
			break;
		if (drop_order[k] != u->sort_eff.col)
			dropped[drop_order[k]] = true;
	}
	u->nhdr = 0;
	int x = 0;
	for (size_t i = 0; i < u->cols.n; i++) {
		const struct col_ref *r = &u->cols.v[i];
		if (r->col == COL_NODE && r->node < 0) {
			if (expand) {
				for (size_t j = 0; j < nn; j++, x += NODE_W + 1)
					add_hdr(u, x, x + NODE_W, COL_NODE, (int)j);
			} else if (blocks_fit) {
				add_hdr(u, x, x + bw, COL_NODE, -1);
				x += bw + 1;
			}
			continue;
		}
		if (dropped[r->col] && r->col != COL_NODE && r->col != COL_COMMAND)
			continue;
		int w = col_width(c, r->col);
		for (size_t j = 0, n = shown(c, r); j < n; j++, x += w + 1) {
			bool last = i + 1 == u->cols.n && j + 1 == n;
			int id = r->col == COL_TIER && r->node < 0 ? c->tiers->tier[j].id : r->node;
			add_hdr(u, x, last ? COLS : x + w, r->col, id);
		}
	}
}

/* One block per node, its height the node's share of the process. */
static void blocks(const struct ui *u, const struct snap_proc *p, char *out, size_t n)
{
	static const char *b8[] = { " ", "\u2581", "\u2582", "\u2583", "\u2584",
				    "\u2585", "\u2586", "\u2587", "\u2588" };
	static const char *a8[] = { ".", "1", "2", "3", "4", "5", "6", "7", "8" };
	size_t o = 0;
	out[0] = '\0';
	for (size_t j = 0; j < u->se.topo.nnodes && o + 8 < n; j++) {
		const char *b = "-";
		if (p->nm == NMS_OK && p->total_kb > 0) {
			int lvl = (int)(8 * p->node_kb[j] / p->total_kb);
			if (p->node_kb[j] > 0 && lvl == 0)
				lvl = 1;
			b = u->ascii ? a8[lvl] : b8[lvl];
		} else if (p->nm == NMS_NO_PERM) {
			b = "?";
		}
		o += (size_t)snprintf(out + o, n - o, "%s", b);
	}
}

/* The text of header cell i for process p (NULL: the header itself);
 * thread row th >= 0: the thread's TID, node and a note. */
static void cell_text(struct ui *u, const struct col_ctx *c, int i, const struct snap_proc *p,
		      int th, long row, char *out, size_t n)
{
	const struct ui_hdr *h = &u->hdr[i];
	const struct topology *t = &u->se.topo;
	int w = h->x1 - h->x0;
	bool last = i + 1 == u->nhdr;
	char raw[600];
	if (!p) {
		const char *mark = sorted_by_hdr(u, i) ? (u->sort_eff.descending ? "v" : "^") : " ";
		if (h->col == COL_NODE && h->node < 0)
			snprintf(out, n, "%-*.*s", w, w, "NODES");
		else {
			col_header(c, h->col, h->node, raw, sizeof(raw));
			if (last)   /* no trailing blank */
				snprintf(out, n, "%s%s", raw, sorted_by_hdr(u, i) ? mark : "");
			else if (col_get(h->col)->ui_w < 0)
				snprintf(out, n, "%s%s%*s", raw, mark,
					 w - 1 - (int)strlen(raw) > 0 ? w - 1 - (int)strlen(raw) : 0, "");
			else
				snprintf(out, n, "%*s%s", w - 1, raw, mark);
		}
		return;
	}
	int indent = u->tree ? u->depth[row] * 2 : 0;
	if (th >= 0) {
		const struct proc_thread *tp = &snap_threads(&u->snap, p)[th];
		int node = topology_cpu_node(t, tp->last_cpu);
		raw[0] = '\0';
		if (h->col == COL_PID)
			snprintf(raw, sizeof(raw), "%d", tp->tid);
		else if (h->col == COL_HOME)
			snprintf(raw, sizeof(raw), "%d", node >= 0 ? t->nodes[node].id : -1);
		else if (h->col == COL_COMMAND) {
			char cpu[16] = "?";
			if (tp->last_cpu >= 0)
				snprintf(cpu, sizeof(cpu), "%d", tp->last_cpu);
			snprintf(raw, sizeof(raw), "%*s`- thread of %d, last CPU %s", indent, "",
				 p->info.pid, cpu);
		}
		if (h->col == COL_HOME && node < 0)
			snprintf(raw, sizeof(raw), "-");
	} else if (h->col == COL_NODE && h->node < 0) {
		blocks(u, p, raw, sizeof(raw));
		snprintf(out, n, "%s%*s", raw, w - (int)u->se.topo.nnodes > 0 ? w - (int)u->se.topo.nnodes : 0, "");
		return;
	} else {
		col_cell(c, h->col, h->node, p, raw, sizeof(raw));
		if (h->col == COL_COMMAND && indent) {
			char tmp[sizeof(raw) + 64];   /* the tree indent, then cut */
			int ind = indent < 60 ? indent : 60;   /* deep trees: 30 levels shown */
			snprintf(tmp, sizeof(tmp), "%*s`-%s", ind, "", raw);
			size_t len = strnlen(tmp, sizeof(raw) - 1);
			memcpy(raw, tmp, len);
			raw[len] = '\0';
		}
	}
	/* A terminal that shows only ASCII: one '?' per other character,
	 * before padding (the bytes would be junk and shift the columns). */
	if (u->ascii)
		sanitize_ascii(raw, raw, sizeof(raw));
	col_pad(c, h->col, last, raw, out, n);
}

void ui_draw_table(struct ui *u, int y, int h)
{
	struct col_ctx c = { &u->se.topo, true, -1, true, &u->snap.nk.tiers, &u->snap };
	layout(u, &c);
	for (int i = 0; i < u->nhdr && c.mark_node < 0; i++)
		if (u->hdr[i].col == COL_NODE)
			c.mark_node = u->hdr[i].node;   /* the first node column */
	u->table_y = y;
	u->table_h = h;
	char line[2048], cell[700];
	int o = 0;
	for (int i = 0; i < u->nhdr && o < (int)sizeof(line) - 700; i++) {
		cell_text(u, &c, i, NULL, -1, 0, cell, sizeof(cell));
		o += snprintf(line + o, sizeof(line) - (size_t)o, "%s%s", i ? " " : "", cell);
	}
	attron(ui_attr(u, C_HEADER));
	mvhline(y, 0, ' ', COLS);
	ui_put(y, 0, line, COLS);
	attroff(ui_attr(u, C_HEADER));
	y++;
	h--;
	if (u->sel < u->top)
		u->top = u->sel;
	if (u->sel >= u->top + h)
		u->top = u->sel - h + 1;
	if (u->top < 0)
		u->top = 0;
	for (int r = 0; r < h; r++, y++) {
		long row = u->top + r;
		move(y, 0);
		clrtoeol();
		if (row >= (long)u->nrows)
			continue;
		const struct snap_proc *p = &u->snap.procs[u->rows[row]];
		int th = u->thr[row];
		o = 0;
		for (int i = 0; i < u->nhdr && o < (int)sizeof(line) - 700; i++) {
			cell_text(u, &c, i, p, th, row, cell, sizeof(cell));
			o += snprintf(line + o, sizeof(line) - (size_t)o, "%s%s", i ? " " : "", cell);
		}
		int a;
		if (th >= 0)
			a = row == u->sel ? ui_attr(u, C_SELECTED) : ui_attr(u, C_DIM);
		else
			a = row == u->sel ? ui_attr(u, C_SELECTED) :
			    ui_is_tagged(u, p) ? ui_attr(u, C_TAGGED) :
			    p->nm == NMS_OK && snap_remote_pct(p) >= 50 ? ui_attr(u, C_REMOTE) : 0;
		if (a)
			attron(a);
		if (row == u->sel)
			mvhline(y, 0, ' ', COLS);
		ui_put(y, 0, line, COLS);
		if (a)
			attroff(a);
	}
}
