/* ui_action_int.h - the migrate / rebind dialog's state, shared by its
 * logic (ui_action.c) and its drawing (ui_action_draw.c). */
#ifndef NUMATOP_UI_ACTION_INT_H
#define NUMATOP_UI_ACTION_INT_H

#include "action.h"
#include "migrate.h"
#include "rebind.h"
#include "ui_int.h"

enum act_stage { ST_CHOOSE, ST_PREVIEW, ST_RUN, ST_DONE };

struct act_item {
	struct action_target tg;
	struct migrate_job job;
	int prep_rc;            /* migrate_prepare */
	int lock_rc, mig_rc, rb_rc;
	struct rebind_result rb;
	int64_t *before, *after;   /* [nnodes] kB */
	char policy[64];
};

struct ui_action {
	bool migrate, rebind;   /* what runs on confirm */
	bool rebind_dialog;     /* opened with B (the "also migrate" toggle) */
	enum act_stage st;
	int sel;                /* node index */
	struct act_item *items;
	size_t n, cur;
	bool cancelled;
	uint64_t total_pages;
	int64_t sum_before_total;
};

/* Node index i can take what the dialog does (memory, threads). */
bool ui_action_check_node(const struct ui *u, const struct ui_action *a, int i);

#endif
