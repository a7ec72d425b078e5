/* ui_fleet_int.h - what the Fleet screen's files share: its state (the
 * table shown, the host open, the thread that asks the server and what
 * it brought; the columns are the core's, fleet_cols[]) and its keys. */
#ifndef NUMATOP_UI_FLEET_INT_H
#define NUMATOP_UI_FLEET_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "fleet.h"
#include "ui_int.h"

#define UI_FLEET_STEP_S 60.0        /* t and T: one minute */

struct ui_fleet {
	struct fleet_client *cl;     /* used by the thread only, once started */
	char url[512], match[512];
	/* The thread, and what passes between it and the screen (under mu). */
	pthread_t th;
	bool th_on;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	atomic_bool cancel;          /* quitting: a transfer under way ends */
	bool quit, busy;
	bool ask_table, ask_view;    /* asked, not taken by the thread yet */
	double ask_at;
	char ask_host[256];
	struct fleet got;            /* the thread's answers, not taken in yet */
	int got_rc;
	double got_at;
	bool got_ready;
	struct fleet_view got_view;
	int got_view_rc;
	bool got_view_ready;
	/* The screen's (the main thread's only). */
	struct fleet f;              /* the table shown: the last read */
	double f_at;                 /* its time (0: live) */
	struct fleet_error errs[FQ_N];   /* what the last refresh could not get */
	size_t nerrs;
	int rc;                      /* the last refresh's; 1: none yet */
	double asked, good;          /* monotime of the last ask, of the last good answer */
	time_t good_wall;
	bool busy_shown;             /* a request under way */
	long tables;                 /* complete tables taken in */
	double at;                   /* the time shown: 0 live, else Unix s */
	size_t *rows, nrows;         /* the hosts shown (filter, order) */
	long sel;
	char sel_inst[256];
	int sort;                    /* a column of fleet_cols[] */
	bool desc, labels, help;
	int want_prompt;             /* a key asked for this prompt */
	/* The host open (Enter), 0 rows scrolled. */
	bool in_view;
	char view_host[256], view_job[128];
	struct fleet_view view;
	int view_rc;                 /* 1: asked, not come yet */
	long vscroll;
};

/* ---- ui_fleet.c: state, the thread, keys ---------------------------------- */
extern const struct ui_key ui_fleet_keys[];
extern const size_t ui_fleet_nkeys;
void ui_fleet_rebuild(struct ui *u);

/* ---- ui_fleet_view.c: the host open ---------------------------------------- */
void ui_fleet_view_draw(struct ui *u, int y0, int h);

#endif
