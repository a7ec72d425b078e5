/* ui_processes.c - the Processes screen: node panels and the distance
 * heatmap in what the process table leaves, the status line between
 * them and the table. */
#include <curses.h>

#include "ui_int.h"

/* The first panel style whose lines fit in room. */
static bool panels_fit(const struct ui *u, int room, enum ui_panel_mode *m)
{
	static const enum ui_panel_mode modes[] = { PANEL_TWO, PANEL_ONE, PANEL_FLOW };
	for (size_t k = 0; k < sizeof(modes) / sizeof(*modes); k++) {
		int need = ui_panel_lines(u, modes[k]);
		if (need >= 0 && need <= room) {
			*m = modes[k];
			return true;
		}
	}
	return false;
}

/* The Processes screen in rows y0 .. y0+h-1: node panels and heatmap in
 * what the table leaves (at least half the height, and never fewer than
 * 5 rows), then the status line and the table. The panels go from two
 * lines a node, to one, to several columns, to the busiest nodes with
 * "+N more"; the heatmap from whole to one line pointing to its screen. */
void ui_draw_processes(struct ui *u, int y0, int h)
{
	int table_min = h / 2 > 6 ? h / 2 : 6;
	int top = h - 1 - table_min > 0 ? h - 1 - table_min : 0;
	int heat = u->show_heatmap ? ui_heatmap_lines(u) : 0;
	enum ui_panel_mode m = PANEL_FLOW;
	/* The whole heatmap when the panels fit beside it in some style. */
	bool heat_whole = heat <= top && (!u->show_nodes || panels_fit(u, top - heat, &m));
	int heat_lines = !u->show_heatmap || top < 1 ? 0 : heat_whole ? heat : 1;
	if (u->show_nodes && !heat_whole && !panels_fit(u, top - heat_lines, &m))
		m = PANEL_FLOW;      /* the busiest, and "+N more" */
	int y = y0;
	if (u->show_nodes)
		y = ui_draw_panels(u, y, top - heat_lines, m);
	if (heat_lines)
		y = heat_whole ? ui_draw_heatmap(u, y, y + heat) : ui_draw_heatmap_summary(u, y);
	ui_draw_status(u, y++);
	ui_draw_table(u, y, y0 + h - y);
}
