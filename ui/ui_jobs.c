/* ui_jobs.c - the monitor's background jobs as one table: the main loop
 * asks which one runs, how long to wait for a key while it does, lets it
 * work between keys, and frees them all at the end. A new job (an
 * action, a measurement) is one row here and its own file. */
#include "ui_int.h"

static void action_step(struct ui *u)
{
	ui_action_work(u, 0.05);   /* batches for ~50 ms between redraws */
}

/* Sampling stops while any of these runs: a migration's pages are moving,
 * and a measurement would be disturbed by it. */
static const struct ui_job ui_jobs[] = {
	{ "migrate or rebind", 0, ui_action_running, action_step, ui_action_free },
	{ "measure distances", 100, ui_measure_running, ui_measure_poll, ui_measure_free },
	{ "move a cgroup", 100, ui_cgmove_running, ui_cgmove_poll, ui_cgmove_free },
};
#define UI_NJOBS (sizeof(ui_jobs) / sizeof(ui_jobs[0]))

const struct ui_job *ui_job_running(const struct ui *u)
{
	for (size_t i = 0; i < UI_NJOBS; i++)
		if (ui_jobs[i].running(u))
			return &ui_jobs[i];
	return NULL;
}

void ui_jobs_free(struct ui *u)
{
	for (size_t i = 0; i < UI_NJOBS; i++)
		ui_jobs[i].free(u);
}
