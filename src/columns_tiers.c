/* columns_tiers.c - the memory tier columns of the process table (tiers.h):
 * FAST, SLOW, SLOW%, one T<id> per tier, HOTSLOW and COLDFAST (their
 * values and cells, which the table in src/columns.c names), and where the
 * default column lists put them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "columns_cells.h"
#include "format.h"
#include "tiers.h"

/* ---- FAST, SLOW, SLOW% --------------------------------------------------- */

/* p's kB on the fastest tier and on the slower ones, from its placement
 * and the sample's model: -1 unknown (not read, no model). */
static void split(const struct tier_model *m, const struct snap_proc *p, int64_t *fast,
		  int64_t *slow)
{
	tiers_split_kb(m, p->nm == NMS_OK ? p->node_kb : NULL, fast, slow);
}

bool col_fast_num(const struct tier_model *m, const struct snap_proc *p, int id, double *v)
{
	(void)id;
	int64_t fast, slow;
	split(m, p, &fast, &slow);
	*v = (double)fast;
	return fast >= 0;
}

bool col_slow_num(const struct tier_model *m, const struct snap_proc *p, int id, double *v)
{
	(void)id;
	int64_t fast, slow;
	split(m, p, &fast, &slow);
	*v = (double)slow;
	return slow >= 0;
}

bool col_slow_pct_num(const struct tier_model *m, const struct snap_proc *p, int id, double *v)
{
	(void)id;
	int64_t fast, slow;
	split(m, p, &fast, &slow);
	bool ok = slow >= 0 && p->total_kb > 0;
	*v = ok ? 100.0 * (double)slow / (double)p->total_kb : -1;
	return ok;
}

void col_fast_cell(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	int64_t fast, slow;
	split(c->tiers, p, &fast, &slow);
	col_kb_cell(c, fast, p->nm_sampled, out, n);
}

void col_slow_cell(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	int64_t fast, slow;
	split(c->tiers, p, &fast, &slow);
	col_kb_cell(c, slow, p->nm_sampled, out, n);
}

void col_slow_pct_cell(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	double v;
	fmt_pct(out, n, col_slow_pct_num(c->tiers, p, node, &v) ? v : -1);
}

/* ---- HOTSLOW, COLDFAST (tiers x access heat) ------------------------------ */

/* Sorted only when the heat is usable (access.h); else marked "~". */
bool col_hot_slow_num(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	int64_t kb = access_usable(p->acc) ? snap_hot_slow_kb(p) : -1;
	*v = (double)kb;
	return kb >= 0;
}

bool col_cold_fast_num(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	int64_t kb = access_usable(p->acc) ? snap_cold_fast_kb(p) : -1;
	*v = (double)kb;
	return kb >= 0;
}

void col_hot_slow_cell(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	col_kb_cell(c, snap_hot_slow_kb(p), p->acc && !access_usable(p->acc), out, n);
}

void col_cold_fast_cell(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	col_kb_cell(c, snap_cold_fast_kb(p), p->acc && !access_usable(p->acc), out, n);
}

/* ---- T<id>: one column per tier ------------------------------------------- */

/* The process's kB on the nodes of memory_tier<id>; -1 unknown (the
 * placement not read, no model, no such tier in it). */
static int64_t tier_kb(const struct tier_model *m, const struct snap_proc *p, int id)
{
	if (!m || !m->node || p->nm != NMS_OK || !p->node_kb)
		return -1;
	bool found = false;
	for (size_t k = 0; k < m->ntiers && !found; k++)
		found = m->tier[k].id == id;
	if (!found)
		return -1;
	int64_t kb = 0;
	for (size_t i = 0; i < m->nnodes; i++)
		if (m->node[i].tier == id && p->node_kb[i] > 0)
			kb += p->node_kb[i];
	return kb;
}

bool col_tier_num(const struct tier_model *m, const struct snap_proc *p, int id, double *v)
{
	int64_t kb = tier_kb(m, p, id);
	*v = (double)kb;
	return kb >= 0;
}

void col_tier_cell(const struct col_ctx *c, const struct snap_proc *p, int id, char *out, size_t n)
{
	col_kb_cell(c, tier_kb(c->tiers, p, id), p->nm_sampled, out, n);
}

bool col_tier_parse(const char *name, struct col_ref *out)
{
	const char *d;
	if (strncasecmp(name, "tier", 4) == 0)
		d = name + 4;
	else if (name[0] == 'T' || name[0] == 't')
		d = name + 1;
	else
		return false;
	if (!*d) {
		*out = (struct col_ref){ COL_TIER, -1 };
		return true;
	}
	if (*d < '0' || *d > '9')
		return false;
	char *end;
	errno = 0;
	long id = strtol(d, &end, 10);
	if (*end || errno || id < 0 || id >= 0x7fffffff)
		return false;
	*out = (struct col_ref){ COL_TIER, (int)id };
	return true;
}

/* ---- the default lists ---------------------------------------------------- */

int col_list_set_tiers(struct col_list *l, const struct tier_model *m)
{
	size_t nt = m ? m->ntiers : 0;
	/* Another choice's entries out: FAST and SLOW unless two tiers,
	 * SLOW% with fewer, the single tiers (put back below). */
	for (size_t i = l->n; i-- > 0;) {
		enum snap_col c = l->v[i].col;
		if (((c == COL_FAST || c == COL_SLOW) && nt != 2) || (c == COL_SLOW_PCT && nt < 2) ||
		    (c == COL_TIER && l->v[i].node >= 0))
			col_list_remove(l, i);
	}
	if (nt < 2)
		return 0;
	/* Wanted: FAST SLOW SLOW%, or T<id>... SLOW% (no T<id> beside a T
	 * entry, which shows every tier already). */
	bool every = false;
	for (size_t i = 0; i < l->n; i++)
		every |= l->v[i].col == COL_TIER;
	size_t nw = nt == 2 ? 3 : (every ? 0 : nt) + 1;
	struct col_ref *w = calloc(nw, sizeof(*w));
	if (!w)
		return -ENOMEM;
	for (size_t k = 0; k + 1 < nw; k++)
		w[k] = nt == 2 ? (struct col_ref){ k ? COL_SLOW : COL_FAST, -1 }
			       : (struct col_ref){ COL_TIER, m->tier[k].id };
	w[nw - 1] = (struct col_ref){ COL_SLOW_PCT, -1 };
	/* Where: before SLOW% (kept), else after REMOTE%, else before
	 * WHY/POLICY/COMMAND, else at the end. */
	long pos = col_list_find(l, COL_SLOW_PCT);
	if (pos < 0 && (pos = col_list_find(l, COL_REMOTE_PCT)) >= 0)
		pos++;
	static const enum snap_col before[] = { COL_WHY, COL_POLICY, COL_COMMAND };
	for (size_t k = 0; k < 3 && pos < 0; k++)
		pos = col_list_find(l, before[k]);
	size_t p = pos < 0 ? l->n : (size_t)pos;
	int rc = 0;
	for (size_t k = 0; k < nw && !rc; k++) {
		long at = col_list_find(l, w[k].col);
		if (at >= 0 && w[k].col != COL_TIER)
			p = (size_t)at + 1;      /* there already: the rest after it */
		else
			rc = col_list_insert(l, p++, w[k]);
	}
	free(w);
	return rc;
}

int col_list_set_tier_heat(struct col_list *l, bool on)
{
	static const enum snap_col tc[] = { COL_HOTSLOW, COL_COLDFAST };
	long at = -1;
	for (size_t k = 0; k < 2; k++)
		while ((at = col_list_find(l, tc[k])) >= 0 && !on)
			col_list_remove(l, (size_t)at);
	if (!on)
		return 0;
	for (size_t k = 0; k < 2; k++) {
		if (col_list_find(l, tc[k]) >= 0)
			continue;
		long pos = col_list_find(l, k ? COL_HOTSLOW : COL_SLOW_PCT);
		int rc = col_list_insert(l, pos < 0 ? l->n : (size_t)pos + 1, (struct col_ref){ tc[k], -1 });
		if (rc)
			return rc;
	}
	return 0;
}
