/* ui_heatmap.c - the node-to-node heatmap: the firmware's SLIT, the
 * measured latency and bandwidth, and HMAT where the kernel has it. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output.h"
#include "ui_int.h"
#include "format.h"

/* The value of cell (i, j) on the current layer, -1 when unknown. */
static double value(const struct ui *u, size_t i, size_t j)
{
	switch (u->heat.layer) {
	case HL_LATENCY: return measure_at(&u->se.meas, i, j)->lat_ns;
	case HL_BANDWIDTH: return measure_at(&u->se.meas, i, j)->bwall_gbs;
	case HL_HMAT_LATENCY: return (double)u->se.hmat.lat_ns[i * u->se.hmat.n + j];
	case HL_HMAT_BANDWIDTH: {
		int64_t b = u->se.hmat.bw_mbs[i * u->se.hmat.n + j];
		return b < 0 ? -1 : (double)b / 1000.0;
	}
	default: return topology_distance(&u->se.topo, i, j);
	}
}

/* The HMAT layers on a machine of several memory tiers: the tiers split
 * the columns (true when there is a boundary to show). */
static bool tier_cut(const struct ui *u)
{
	const struct tier_model *m = &u->snap.nk.tiers;
	return (u->heat.layer == HL_HMAT_LATENCY || u->heat.layer == HL_HMAT_BANDWIDTH) &&
	       tiers_multi(m) && m->nnodes == u->se.topo.nnodes;
}

/* Column j starts another tier than column j - 1. */
static bool tier_starts(const struct ui *u, size_t j)
{
	const struct tier_model *m = &u->snap.nk.tiers;
	return j > 0 && tier_cut(u) && m->node[j].order != m->node[j - 1].order;
}

static void title(const struct ui *u, char *out, size_t n)
{
	char age[24];
	double secs = u->se.have_meas && u->se.meas.when > 0 ? difftime(time(NULL), u->se.meas.when) : -1;
	if (secs < 0)
		snprintf(age, sizeof(age), "an unknown time");
	else
		fmt_age(age, sizeof(age), secs);
	const char *vm = u->se.have_meas && u->se.meas.hypervisor[0] ? ", in a VM: the host's placement" : "";
	switch (u->heat.layer) {
	case HL_LATENCY:
		snprintf(out, n, "Latency, ns (measured %s ago%s%s)", age,
			 u->se.meas.quick ? ", quick" : "", vm);
		break;
	case HL_BANDWIDTH:
		snprintf(out, n, "Read bandwidth, GB/s, all CPUs (measured %s ago%s)", age, vm);
		break;
	case HL_HMAT_LATENCY:
		snprintf(out, n, "HMAT read latency, ns (firmware, access%d%s)", u->se.hmat.access,
			 tier_cut(u) ? "; |: tier boundary" : "");
		break;
	case HL_HMAT_BANDWIDTH:
		snprintf(out, n, "HMAT read bandwidth, GB/s (firmware, access%d%s)", u->se.hmat.access,
			 tier_cut(u) ? "; |: tier boundary" : "");
		break;
	default:
		snprintf(out, n, "Distances (SLIT)");
	}
}

static int heat_level(double d, double lo, double hi, bool more_is_near)
{
	if (hi <= lo)
		return 0;
	int l = (int)((d - lo) * 7 / (hi - lo) + 0.5);
	if (more_is_near)
		l = 7 - l;
	return l < 0 ? 0 : l > 7 ? 7 : l;
}

static void cell_text(const struct ui *u, double d, bool local, char *c, size_t n)
{
	if (d < 0)
		snprintf(c, n, "   -");
	else if (u->heat.layer == HL_SLIT)
		snprintf(c, n, local ? "%3.0f*" : "%4.0f", d);
	else if (d < 10 && u->heat.layer != HL_LATENCY && u->heat.layer != HL_HMAT_LATENCY)
		snprintf(c, n, local ? "%3.1f*" : "%4.1f", d);
	else if (d < 10000)
		snprintf(c, n, local ? "%3.0f*" : "%4.0f", d);
	else
		snprintf(c, n, "%4s", local ? "big*" : " big");
}

/* The ramp runs from the nearest to the farthest value known. */
static void range(const struct ui *u, double *lo, double *hi)
{
	size_t n = u->se.topo.nnodes;
	*lo = 1e300;
	*hi = -1;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			double d = value(u, i, j);
			if (d < 0)
				continue;
			*lo = d < *lo ? d : *lo;
			*hi = d > *hi ? d : *hi;
		}
	if (*hi < 0)
		*lo = *hi = 0;
}

/* Cells of 4 (SLIT) or 5 characters, one block each when too many; wide
 * enough for a blank before the largest node id (1023 needs 5). */
static int cell_width(const struct ui *u)
{
	size_t n = u->se.topo.nnodes;
	int want = u->heat.layer == HL_SLIT ? 4 : 5, fit = (int)(COLS - 6) / (int)(n ? n : 1);
	int idw = n ? snprintf(NULL, 0, "%d", u->se.topo.nodes[n - 1].id) + 1 : 2;
	if (want < idw)
		want = idw;
	return fit >= want ? want : fit >= 4 ? 4 : 1;
}

static bool has_note(const struct ui *u)
{
	return u->heat.layer == HL_LATENCY && u->heat.note[0];
}

int ui_heatmap_lines(struct ui *u)
{
	if (!ui_layer_available(u, u->heat.layer))
		u->heat.layer = HL_SLIT;
	return 1 + (cell_width(u) >= 4) + (int)u->se.topo.nnodes + has_note(u);
}

int ui_draw_heatmap_summary(struct ui *u, int y)
{
	char head[160];
	double lo, hi;
	if (!ui_layer_available(u, u->heat.layer))
		u->heat.layer = HL_SLIT;
	title(u, head, sizeof(head));
	range(u, &lo, &hi);
	char line[320];
	snprintf(line, sizeof(line), "%s: %zu nodes, %.3g..%.3g, too many for this window "
		 "(Tab: Distances, D: hide)", head, u->se.topo.nnodes, lo, hi);
	attron(ui_attr(u, C_LABEL));
	mvaddnstr(y, 0, line, COLS);
	attroff(ui_attr(u, C_LABEL));
	return y + 1;
}

/* The heatmap from row `first` of the matrix, in rows y .. maxy-1. */
static int draw_from(struct ui *u, int y, int maxy, size_t first)
{
	const struct topology *t = &u->se.topo;
	size_t n = t->nnodes;
	if (!ui_layer_available(u, u->heat.layer))
		u->heat.layer = HL_SLIT;
	bool bw = u->heat.layer == HL_BANDWIDTH || u->heat.layer == HL_HMAT_BANDWIDTH;
	double lo, hi;
	range(u, &lo, &hi);
	int cw = cell_width(u);
	bool note = has_note(u);
	int rows_left = maxy - y - 1 - (cw >= 4) - note;
	char head[160];
	title(u, head, sizeof(head));
	/* The title and its legend, cut at the edge (never wrapped onto
	 * the matrix). */
	attron(ui_attr(u, C_LABEL));
	int lx = ui_putf(y, 0, "%s  local=*  near", head);
	attroff(ui_attr(u, C_LABEL));
	for (int k = 0; k < 8 && lx < COLS - 4; k++, lx++) {
		attron(ui_attr(u, (enum ui_color)(C_HEAT0 + k)));
		mvaddch(y, lx, u->color ? ' ' : (chtype)('0' + k));
		attroff(ui_attr(u, (enum ui_color)(C_HEAT0 + k)));
	}
	if (u->heat.layer == HL_SLIT)
		ui_putf(y, lx, " far  (%.0f..%.0f)  v: layers", lo, hi);
	else
		ui_putf(y, lx, " far  (near %.3g, far %.3g)  v: layers", bw ? hi : lo, bw ? lo : hi);
	y++;
	if (cw >= 4) {
		mvaddstr(y, 0, "     ");
		for (size_t j = 0; j < n; j++) {
			mvprintw(y, 5 + (int)j * cw, "%*d", cw, t->nodes[j].id);
			if (tier_starts(u, j))     /* the tier boundary, left of its column */
				mvaddch(y, 5 + (int)j * cw, '|');
		}
		y++;
	}
	/* Every row fits, or one line is kept to say that more follow. */
	bool all = first == 0 && (int)n <= rows_left;
	for (size_t i = first; i < n && (all || rows_left-- > 1); i++, y++) {
		mvprintw(y, 0, "%4d ", t->nodes[i].id);
		for (size_t j = 0; j < n; j++) {
			double d = value(u, i, j);
			int x = 5 + (int)j * cw;
			if (x + cw > COLS)
				break;
			int lvl = i == j && u->heat.layer == HL_SLIT ? 0 : heat_level(d, lo, hi, bw);
			int a = d < 0 ? 0 : ui_attr(u, (enum ui_color)(C_HEAT0 + lvl));
			if (!u->color && i != j && lvl >= 4)
				a = A_BOLD;
			/* Cells where the measurement contradicts the SLIT. */
			if (u->heat.layer == HL_LATENCY && u->heat.marks && u->heat.marks[i * n + j])
				a |= A_UNDERLINE | A_BOLD;
			attron(a);
			if (cw >= 4) {
				char cell[16];
				cell_text(u, d, i == j, cell, sizeof(cell));
				mvprintw(y, x, "%*.*s", cw, cw, cell);
			} else {
				mvaddch(y, x, d < 0 ? '-' : i == j ? '*' : (u->color ? ' ' : (chtype)('0' + lvl)));
			}
			attroff(a);
		}
	}
	if (!all && rows_left <= 1 && n > 0)
		ui_putf(y++, 0, "  (more rows: Up/Down on the Distances screen, or a taller window)");
	if (note) {
		attron(ui_attr(u, C_WARN));
		mvaddnstr(y++, 0, u->heat.note, COLS);
		attroff(ui_attr(u, C_WARN));
	}
	return y;
}

int ui_draw_heatmap(struct ui *u, int y, int maxy)
{
	return draw_from(u, y, maxy, 0);
}

void ui_draw_heatmap_full(struct ui *u, int y0, int h)
{
	long first = u->scroll < (long)u->se.topo.nnodes ? u->scroll : 0;
	draw_from(u, y0, y0 + h, (size_t)first);
}
