/* columns_follow.c - the default columns follow the sample: the heat's
 * and the tiers' columns join and leave with what the sample has
 * (columns.h: struct col_follow), for the batch text and the monitor. */
#include "columns.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tiers.h"

void col_follow_init(struct col_follow *f, bool tiers, bool heat)
{
	free(f->tier_ids);
	memset(f, 0, sizeof(*f));
	f->heat = heat;
	f->tiers = f->tier_heat = tiers;
}

void col_follow_free(struct col_follow *f)
{
	free(f->tier_ids);
	f->tier_ids = NULL;
}

/* The tier columns for m when its tier ids are not those they were set
 * for. */
static int follow_tiers(struct col_follow *f, struct col_list *l, const struct tier_model *m)
{
	bool same = f->tier_ids_set && f->ntier_ids == m->ntiers;
	for (size_t k = 0; same && k < m->ntiers; k++)
		same = f->tier_ids[k] == m->tier[k].id;
	if (same)
		return 0;
	int *ids = realloc(f->tier_ids, (m->ntiers ? m->ntiers : 1) * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	f->tier_ids = ids;
	int rc = col_list_set_tiers(l, m);
	if (rc)
		return rc;
	for (size_t k = 0; k < m->ntiers; k++)
		ids[k] = m->tier[k].id;
	f->ntier_ids = m->ntiers;
	f->tier_ids_set = true;
	/* No tiers now: HOTSLOW and COLDFAST out, back with tiers and heat. */
	if (!tiers_multi(m)) {
		col_list_set_tier_heat(l, false);
		f->tier_heat = true;
	}
	return 0;
}

int col_follow_sample(struct col_follow *f, struct col_list *l, const struct snapshot *s)
{
	bool had[COL_NCOLS];
	for (int c = 0; c < COL_NCOLS; c++)
		had[c] = col_list_find(l, (enum snap_col)c) >= 0;
	int rc = 0;
	/* Access heat came: its columns join, once. */
	if (f->heat && s->nacc && (rc = col_list_set_access(l, true)) == 0)
		f->heat = false;
	if (rc == 0 && f->tiers)
		rc = follow_tiers(f, l, &s->nk.tiers);
	/* Tiers and heat: hot memory on the slow tier, cold on the fast. */
	if (rc == 0 && f->tier_heat && s->nacc && tiers_multi(&s->nk.tiers) &&
	    (rc = col_list_set_tier_heat(l, true)) == 0)
		f->tier_heat = false;
	for (int c = 0; c < COL_NCOLS; c++)
		if (!had[c] && (c == COL_HOT || c == COL_HOTREM || c == COL_HOTREM_PCT ||
				c == COL_HOTSLOW || c == COL_COLDFAST) &&
		    col_list_find(l, (enum snap_col)c) >= 0)
			f->added[c] = true;
	return rc;
}
