/* ui_sample.c - a sample taken in: the sampler's tick (or the
 * recording's sample in a replay) into the model, then the order, the
 * rows, the Cgroups screen's rows, the history and the detail. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui_int.h"
#include "monotime.h"

/* The selected, tagged, -p and detail processes are read every tick. */
static void set_priority(struct ui *u)
{
	size_t n = 0, cap = u->ntagged + u->opt->session.filter.npids + 2;
	int *v = malloc(cap * sizeof(*v));
	if (!v)
		return;
	for (size_t i = 0; i < u->ntagged; i++)
		v[n++] = u->tagged[i].pid;
	for (size_t i = 0; i < u->opt->session.filter.npids; i++)
		v[n++] = u->opt->session.filter.pids[i];     /* -p: what the user asked to watch */
	if (u->sel_pid > 0)
		v[n++] = u->sel_pid;
	if (u->screen == SCR_DETAIL && u->detail.pid > 0)
		v[n++] = u->detail.pid;
	sampler_set_priority(u->se.smp, v, n);
	free(v);
}

void ui_sample(struct ui *u)
{
	int rc = 0;
	u->sample_due = false;
	bool to_history = true;
	if (u->replay) {
		to_history = ui_replay_sample(u);
	} else {
		set_priority(u);
		sampler_set_cgroups(u->se.smp, ui_cg_need(u));
		rc = sampler_tick(u->se.smp, &u->snap);
	}
	if (rc)
		snprintf(u->msg, sizeof(u->msg), "sampling failed: %s", strerror(-rc));
	else if (u->snap.proc_rc == 0)
		ui_prune_tags(u);   /* not after a failed scan: it lists nobody */
	col_follow_sample(&u->follow, &u->cols, &u->snap);
	snapshot_sort(&u->snap, &u->sort);
	u->sort_eff = col_sort_effective(&u->sort, &u->snap);
	ui_rebuild_rows(u);
	ui_cg_rebuild(u);
	if (to_history)
		ui_history_add(u);
	if (u->screen == SCR_DETAIL && !u->detail_exited && !u->replay) {
		int e = detail_read(u->se.root, &u->se.topo, u->detail.pid, u->detail.starttime,
				    &u->detail);
		/* Never the details of whoever got the PID next. */
		if (e == -ESRCH)
			u->detail_exited = true;
	}
	u->last_sample = monotime_now();
}
