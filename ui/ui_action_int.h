/* ui_action_int.h - the migrate / rebind dialog's state, shared by its
 * logic (ui_action.c) and its drawing (ui_action_draw.c). The work is the
 * core's action engine (action_job.h); the dialog only presents it. */
#ifndef NUMATOP_UI_ACTION_INT_H
#define NUMATOP_UI_ACTION_INT_H

#include "action_job.h"
#include "action_table.h"
#include "ui_int.h"

enum act_stage { ST_CHOOSE, ST_PREVIEW, ST_RUN, ST_DONE };

struct ui_action {
	const struct action_def *def;   /* migrate or rebind: its name, engine */
	struct actjob job;      /* what runs on confirm, its targets and results */
	bool rebind_dialog;     /* opened with B (the "also migrate" toggle) */
	enum act_stage st;
	int sel;                /* node index */
	char advice[24];        /* opened by x: the cause it fixes, "" */
	/* Migrate hot or cold (h: all, hot, cold): only the ranges the access
	 * heat saw used move, or only the rest (cold: untouched ACCESS_COLD_S
	 * or more). Offered when every target's heat is known (hot_why says
	 * why not); cold when it can be said of every target. */
	bool hot, hot_known, cold, cold_known;
	int64_t hot_kb, hot_remote_kb, cold_kb;
	size_t hot_ranges;
	char hot_why[256];
	/* Enter refused the hot or cold move to the chosen node (action_tier.h:
	 * no room, no slower tier, a policy against it): said in the dialog
	 * until the choice changes. */
	char refused[400];
};
/* The dialog's rows for a refusal (0 none). */
#define UI_ACTION_REFUSED_ROWS(a) ((a)->refused[0] ? 3 : 0)
/* A second row for why the hot part is not known (never cut). */
#define UI_ACTION_HOT_ROWS(a) ((a)->job.migrate && !(a)->hot_known ? 1 : 0)

/* Sets each target's ranges for the chosen mode (a->hot, a->cold) from
 * the snapshot's heat; false (the reason in u->msg, or a->refused when
 * the move to the chosen node is refused) when it cannot. */
bool ui_action_apply_hot(struct ui *u, struct ui_action *a);

#endif
