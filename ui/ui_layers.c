/* ui_layers.c - the heatmap's layers as state: which ones this machine
 * has (SLIT, measured latency and bandwidth, HMAT), the next one (v), and
 * a new measurement taken in (where it and the SLIT disagree). */
#include <stdio.h>
#include <stdlib.h>

#include "ui_int.h"

static bool any_known(const int64_t *v, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (v[k] >= 0)
			return true;
	return false;
}

bool ui_layer_available(const struct ui *u, enum ui_layer l)
{
	size_t nn = u->se.hmat.n * u->se.hmat.n;
	switch (l) {
	case HL_SLIT: return true;
	case HL_LATENCY:
	case HL_BANDWIDTH: return u->se.have_meas;
	case HL_HMAT_LATENCY: return u->se.have_hmat && any_known(u->se.hmat.lat_ns, nn);
	case HL_HMAT_BANDWIDTH: return u->se.have_hmat && any_known(u->se.hmat.bw_mbs, nn);
	default: return false;
	}
}

void ui_next_layer(struct ui *u)
{
	enum ui_layer l = u->heat.layer;
	for (int k = 0; k < HL_N; k++) {
		l = (enum ui_layer)((l + 1) % HL_N);
		if (ui_layer_available(u, l))
			break;
	}
	u->heat.layer = l;
	u->show_heatmap = true;
	if (l == HL_SLIT && !u->se.have_meas && !u->se.have_hmat)
		snprintf(u->msg, sizeof(u->msg), "only the SLIT here: L measures latency and bandwidth");
}

void ui_measure_adopt(struct ui *u)
{
	size_t n = u->se.topo.nnodes;
	free(u->heat.marks);
	u->heat.marks = calloc(n * n + 1, sizeof(bool));
	u->heat.note[0] = '\0';
	if (u->heat.marks)
		measure_disagreement(&u->se.topo, &u->se.meas, u->heat.note, sizeof(u->heat.note),
				     u->heat.marks);
}
