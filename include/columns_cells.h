/* columns_cells.h - the cells the process facts' columns share (the kB
 * cell, src/columns_cell.c) and the memory tier columns' values and cells
 * (src/columns_tiers.c), which their rows in src/fields_proc.c name. */
#ifndef NUMATOP_COLUMNS_CELLS_H
#define NUMATOP_COLUMNS_CELLS_H

#include "columns.h"

/* kB: an integer in text, "65.4M" in the monitor; a sampled estimate
 * (maps + move_pages) ends in '~' where asked. */
void col_kb_cell(const struct col_ctx *c, int64_t kb, bool sampled, char *out, size_t n);

/* FAST, SLOW, SLOW%, HOTSLOW, COLDFAST (their row's num and cell). */
bool col_fast_num(const struct tier_model *m, const struct snap_proc *p, int id, double *v);
bool col_slow_num(const struct tier_model *m, const struct snap_proc *p, int id, double *v);
bool col_slow_pct_num(const struct tier_model *m, const struct snap_proc *p, int id, double *v);
bool col_hot_slow_num(const struct snap_proc *p, int node, double *v);
bool col_cold_fast_num(const struct snap_proc *p, int node, double *v);
void col_fast_cell(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n);
void col_slow_cell(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n);
void col_slow_pct_cell(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n);
void col_hot_slow_cell(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n);
void col_cold_fast_cell(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n);

/* T<id>: kB on the nodes of memory_tier<id> (id: the ref's node), from
 * the sample's model; unknown without the placement, the model or the
 * tier. */
bool col_tier_num(const struct tier_model *m, const struct snap_proc *p, int id, double *v);
void col_tier_cell(const struct col_ctx *c, const struct snap_proc *p, int id, char *out, size_t n);
/* "T4", "tier67", "t100" (the tier id into out->node), "T" / "tier"
 * (every tier, -1): true; anything else false. */
bool col_tier_parse(const char *name, struct col_ref *out);

#endif
