/* ui_setup.c - F2 Setup: the process table's columns, as htop's F2
 * Columns. Left the active columns in order, right the ones not shown;
 * every change applies at once. */
#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "ui_int.h"

/* The columns not in the list (N counts as shown when "every node" is,
 * T when "every tier" is). */
static int avail_at(const struct ui *u, int k)
{
	for (int c = 0; c < COL_NCOLS; c++) {
		const struct col_def *d = col_get((enum snap_col)c);
		bool shown = false;
		for (size_t i = 0; i < u->cols.n && !shown; i++)
			shown = u->cols.v[i].col == (enum snap_col)c &&
				((!d->per_node && !d->per_tier) || u->cols.v[i].node < 0);
		if (!shown && k-- == 0)
			return c;
	}
	return -1;
}

static int avail_count(const struct ui *u)
{
	int n = 0;
	while (avail_at(u, n) >= 0)
		n++;
	return n;
}

static void clamp(struct ui *u)
{
	int na = (int)u->cols.n, nv = avail_count(u);
	if (u->setup.sel >= na)
		u->setup.sel = na - 1;
	if (u->setup.sel < 0)
		u->setup.sel = 0;
	if (u->setup.avail >= nv)
		u->setup.avail = nv - 1;
	if (u->setup.avail < 0)
		u->setup.avail = 0;
	if (u->setup.pane == 1 && nv == 0)
		u->setup.pane = 0;
}

void ui_setup_open(struct ui *u)
{
	u->setup.sel = u->setup.avail = u->setup.pane = 0;
	u->screen = SCR_SETUP;
}


static void swap(struct ui *u, int a, int b)
{
	if (a < 0 || b < 0 || a >= (int)u->cols.n || b >= (int)u->cols.n)
		return;
	struct col_ref t = u->cols.v[a];
	u->cols.v[a] = u->cols.v[b];
	u->cols.v[b] = t;
	u->setup.sel = b;
}

void ui_setup_key(struct ui *u, int ch)
{
	bool left = u->setup.pane == 0;
	switch (ch) {
	case KEY_UP:
		if (left) u->setup.sel--; else u->setup.avail--;
		break;
	case KEY_DOWN:
		if (left) u->setup.sel++; else u->setup.avail++;
		break;
	case KEY_LEFT: case KEY_RIGHT: case '\t':
		u->setup.pane = !u->setup.pane;
		break;
	case '\n': case '\r': case KEY_ENTER: case 'a': case KEY_IC: {
		if (left) {
			u->setup.pane = 1;      /* Enter on the left: go choose one */
			break;
		}
		int c = avail_at(u, u->setup.avail);
		size_t pos = u->cols.n ? (size_t)u->setup.sel + 1 : 0;
		if (c >= 0 && col_list_insert(&u->cols, pos, (struct col_ref){ (enum snap_col)c, -1 }) == 0) {
			u->setup.sel = (int)pos;
			u->follow.added[c] = false;     /* the user's now */
		}
		break;
	}
	case KEY_DC: case 'd': case KEY_F(9):
		if (left && u->cols.n > 1)   /* at least one column stays */
			col_list_remove(&u->cols, (size_t)u->setup.sel);
		else if (left)
			snprintf(u->msg, sizeof(u->msg), "the table keeps at least one column");
		break;
	case '[': case KEY_F(7):
		if (left) swap(u, u->setup.sel, u->setup.sel - 1);
		break;
	case ']': case KEY_F(8):
		if (left) swap(u, u->setup.sel, u->setup.sel + 1);
		break;
	case 'r':
		col_list_default(&u->cols, true, false);
		col_list_set_tiers(&u->cols, &u->snap.nk.tiers);
		/* The heat's columns come back by themselves, as at start. */
		col_follow_init(&u->follow, true, true);
		break;
	case KEY_ESC: case 'q': case KEY_F(2): case KEY_F(10):
		u->screen = SCR_PROCESSES;
		break;
	}
	clamp(u);
}

void ui_setup_draw(struct ui *u, int y0, int h)
{
	int w = COLS / 2;
	attron(ui_attr(u, C_HEADER));
	mvhline(y0, 0, ' ', COLS);
	mvaddnstr(y0, 0, " Active columns (the table, in order)", w - 1);
	mvaddnstr(y0, w, " Available columns", COLS - w);
	attroff(ui_attr(u, C_HEADER));
	int rows = h - 3;
	for (int pane = 0; pane < 2; pane++) {
		int n = pane ? avail_count(u) : (int)u->cols.n;
		int sel = pane ? u->setup.avail : u->setup.sel;
		int first = sel >= rows ? sel - rows + 1 : 0;
		for (int r = 0; r < rows && first + r < n; r++) {
			int k = first + r;
			struct col_ref ref = pane ? (struct col_ref){ (enum snap_col)avail_at(u, k), -1 }
						  : u->cols.v[k];
			char name[24], line[256];
			col_ref_name(&u->se.topo, ref, name, sizeof(name));
			snprintf(line, sizeof(line), " %-8s %s", name,
				 ref.col == COL_NODE && ref.node >= 0 ? "kB resident on this node" :
				 ref.col == COL_TIER && ref.node >= 0 ? "kB resident on this memory tier"
								      : col_get(ref.col)->desc);
			bool cur = k == sel && pane == u->setup.pane;
			int a = cur ? ui_attr(u, C_SELECTED) : k == sel ? (int)A_BOLD : 0;
			attron(a);
			if (cur)
				mvhline(y0 + 1 + r, pane * w, ' ', (pane ? COLS - w : w) - 1);
			mvaddnstr(y0 + 1 + r, pane * w, line, (pane ? COLS - w : w) - 1);
			attroff(a);
		}
	}
	attron(ui_attr(u, C_FKEY_LABEL));
	mvhline(y0 + h - 1, 0, ' ', COLS);
	mvaddnstr(y0 + h - 1, 0, "Up/Down  Tab:list  Enter:add  Del:remove  [ ]:move  r:reset  Esc:done",
		  COLS);
	attroff(ui_attr(u, C_FKEY_LABEL));
}
