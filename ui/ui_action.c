/* ui_action.c - the migrate (m) and rebind (B) dialogs: choose a node,
 * preview, confirm, run in small batches with a progress bar (Esc
 * cancels), then before/after per node. The work itself is the core's
 * action engine (action_job.c), as on the command line, reached through
 * the action table (action_table.h); targets are the processes the user
 * saw, by PID and start time from the snapshot. */
#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sanitize.h"
#include "ui_action_int.h"
#include "monotime.h"

void ui_action_free(struct ui *u)
{
	struct ui_action *a = u->act;
	if (!a)
		return;
	actjob_free(&a->job);
	free(a);
	u->act = NULL;
}

void ui_action_open(struct ui *u, bool migrate)
{
	ui_action_open_at(u, migrate, -1, NULL, false);
}

/* What migrate hot would move: the targets' hot kB, the remote part and
 * the ranges, or why it cannot be offered. */
static void hot_offer(struct ui *u, struct ui_action *a)
{
	a->hot_known = a->cold_known = a->job.n > 0;
	a->hot_kb = a->hot_remote_kb = a->cold_kb = 0;
	a->hot_ranges = 0;
	for (size_t i = 0; i < a->job.n && a->hot_known; i++) {
		const struct snap_proc *p = snapshot_find_proc(&u->snap, a->job.items[i].tg.pid,
							       a->job.items[i].tg.starttime);
		const struct access_proc *h = p ? p->acc : NULL;
		if (h && h->hot_kb >= 0 && !access_usable(h)) {
			/* There, but not to act on: measured, stale, unseen. */
			a->hot_known = false;
			char t[160];
			snprintf(a->hot_why, sizeof(a->hot_why), "PID %d: %s", a->job.items[i].tg.pid,
				 access_trust_text(h, t, sizeof(t)));
			break;
		}
		if (!h || h->hot_kb < 0) {
			a->hot_known = false;
			const struct access_status *st = &u->snap.access;
			snprintf(a->hot_why, sizeof(a->hot_why), "the heat of PID %d is not known: %s",
				 a->job.items[i].tg.pid,
				 st->why != ACCESS_ON ? (st->msg[0] ? st->msg : access_why_text(st->why)) :
				 "not watched yet (its turn comes; the most remote first)");
			break;
		}
		a->hot_kb += h->hot_kb;
		a->hot_remote_kb += h->hot_remote_kb > 0 ? h->hot_remote_kb : 0;
		a->cold_known &= h->cold_kb >= 0 && h->monitored_s >= ACCESS_COLD_S &&
				 h->nregions < ACCESS_MAX_REGIONS;
		a->cold_kb += h->cold_kb > 0 ? h->cold_kb : 0;
		for (size_t k = 0; k < h->nregions; k++)
			a->hot_ranges += h->regions[k].heat == ACCESS_HOT;
	}
	a->cold_known &= a->hot_known;
	if (a->hot_known)
		a->hot_why[0] = '\0';
}

bool ui_action_apply_hot(struct ui *u, struct ui_action *a)
{
	for (size_t i = 0; i < a->job.n; i++) {
		const struct snap_proc *p = snapshot_find_proc(&u->snap, a->job.items[i].tg.pid,
							       a->job.items[i].tg.starttime);
		const struct access_proc *h = p ? p->acc : NULL;
		if (!a->hot && !a->cold) {
			actjob_set_only(&a->job, i, NULL, 0);
			continue;
		}
		struct migrate_range *r = NULL;
		size_t n = 0;
		int rc = migrate_heat_ranges(h, a->cold, &r, &n);
		if (rc == 0)
			rc = actjob_set_only(&a->job, i, r ? r : (struct migrate_range[1]){ { 0, 0, false } },
					     n);
		free(r);
		/* The tier checks of the hot or cold row (action_tier.h). */
		const struct action_def *d = &action_defs[a->cold ? ACTION_MIGRATE_COLD : ACTION_MIGRATE_HOT];
		struct action_check chk = { &u->se.topo, a->sel, &u->snap, p };
		char why[320];
		if (rc == 0 && d->verify(&chk, why, sizeof(why))) {
			snprintf(a->refused, sizeof(a->refused), "PID %d: refused: %s",
				 a->job.items[i].tg.pid, why);
			return false;
		}
		if (rc) {
			snprintf(u->msg, sizeof(u->msg), "migrate %s: PID %d: %s", a->cold ? "cold" : "hot",
				 a->job.items[i].tg.pid, rc == -ENOMEM ? "out of memory" :
				 rc == -E2BIG ? "too many hot and warm ranges to tell the cold part apart" :
				 rc == -EINPROGRESS || rc == -ESTALE ?
				 access_trust_text(h, (char[160]){ 0 }, 160) :
				 "its heat is not known now");
			return false;
		}
	}
	return true;
}

void ui_action_open_at(struct ui *u, bool migrate, int node_idx, const char *advice, bool hot)
{
	const struct action_def *d = &action_defs[migrate ? ACTION_MIGRATE : ACTION_REBIND];
	if (ui_action_refused(u, d->name))
		return;
	const struct snap_proc *sel = ui_selected(u);
	if (!sel)
		return;
	ui_action_free(u);
	struct ui_action *a = calloc(1, sizeof(*a));
	if (!a) {
		snprintf(u->msg, sizeof(u->msg), "out of memory");
		return;
	}
	u->act = a;
	a->def = d;
	actjob_init(&a->job, u->se.root, &u->se.topo);
	size_t kthreads = 0;
	for (size_t i = 0; i < u->snap.nprocs; i++) {
		const struct snap_proc *p = snapshot_row(&u->snap, i);
		if (u->ntagged ? !ui_is_tagged(u, p) : p != sel)
			continue;
		/* A kernel thread's memory and CPUs are the kernel's. */
		if (p->info.kthread) {
			kthreads++;
			continue;
		}
		if (actjob_add(&a->job, p->info.pid, p->info.starttime, p->info.comm) != 0) {
			snprintf(u->msg, sizeof(u->msg), "out of memory");
			ui_action_free(u);
			return;
		}
	}
	if (a->job.n == 0) {
		char text[160];
		snprintf(u->msg, sizeof(u->msg), "%s: %s", d->name,
			 action_strerror(d->kthread_errno, text, sizeof(text)));
		ui_action_free(u);
		return;
	}
	if (kthreads)
		snprintf(u->msg, sizeof(u->msg), "%zu kernel thread%s left out", kthreads,
			 kthreads == 1 ? "" : "s");
	a->job.migrate = d->job_migrate;
	a->job.rebind = a->rebind_dialog = d->job_rebind;
	/* Start where the user usually goes (HOME for a migrate), or where
	 * the advice says. */
	a->sel = actjob_default_node(&a->job, sel);
	if (node_idx >= 0 && (size_t)node_idx < u->se.topo.nnodes && a->sel >= 0)
		a->sel = node_idx;
	if (advice)
		snprintf(a->advice, sizeof(a->advice), "%s", advice);
	/* The advice "migrate hot" opens the dialog on the hot part. */
	hot_offer(u, a);
	a->hot = a->hot_known && hot && migrate;
	if (a->sel < 0) {
		snprintf(u->msg, sizeof(u->msg), "no node can take %s", migrate ? "memory" : "threads");
		ui_action_free(u);
		return;
	}
	u->screen = SCR_ACTION;
}

bool ui_action_running(const struct ui *u)
{
	return u->act && u->act->st == ST_RUN;
}

/* Batches for about `seconds`, then back to the keys (Esc) and a redraw. */
void ui_action_work(struct ui *u, double seconds)
{
	struct ui_action *a = u->act;
	double t0 = monotime_now();
	while (a && a->st == ST_RUN && monotime_now() - t0 < seconds)
		if (a->def->job.step(&a->job, 2048) == 0)
			a->st = ST_DONE;
}

void ui_action_key(struct ui *u, int ch)
{
	struct ui_action *a = u->act;
	if (!a) {
		u->screen = SCR_PROCESSES;
		return;
	}
	switch (a->st) {
	case ST_CHOOSE:
		a->refused[0] = '\0';    /* said until the choice changes */
		if (ch == KEY_UP || ch == KEY_DOWN) {
			int d = ch == KEY_UP ? -1 : 1;
			for (int i = a->sel + d; i >= 0 && i < (int)u->se.topo.nnodes; i += d)
				if (actjob_node_ok(&a->job, i)) {
					a->sel = i;
					break;
				}
		} else if (a->rebind_dialog && (ch == 'a' || ch == ' ')) {
			a->job.migrate = !a->job.migrate;
			if (!actjob_node_ok(&a->job, a->sel))
				a->job.migrate = false;
		} else if (ui_action_key_is(&action_defs[ACTION_MIGRATE_HOT], ch) && a->job.migrate) {
			/* all -> hot -> cold (when it can be said) -> all */
			hot_offer(u, a);
			if (!a->hot_known) {
				snprintf(u->msg, sizeof(u->msg), "migrate hot: %s", a->hot_why);
			} else if (!a->hot && !a->cold) {
				a->hot = true;
			} else if (a->hot && a->cold_known) {
				a->hot = false;
				a->cold = true;
			} else {
				a->hot = a->cold = false;
			}
		} else if (ch == '\n' || ch == KEY_ENTER) {
			if (!ui_action_apply_hot(u, a))
				break;
			a->def->job.preview(&a->job, a->sel);
			a->st = ST_PREVIEW;
		} else if (ch == KEY_ESC || ch == 'q') {
			ui_action_free(u);
			u->screen = SCR_PROCESSES;
		}
		break;
	case ST_PREVIEW:
		if (ch == '\n' || ch == KEY_ENTER || ch == 'y') {
			/* Confirmed: the preview may have been open for a while, so
			 * the engine checks each target again and plans anew. */
			a->def->job.run(&a->job, a->sel);
			a->st = a->job.done ? ST_DONE : ST_RUN;
		}
		else if (ch == KEY_ESC || ch == 'q' || ch == 'n')
			a->st = ST_CHOOSE;
		break;
	case ST_RUN:
		if (ch == KEY_ESC || ch == 'q')
			actjob_cancel(&a->job);
		break;
	case ST_DONE:
		if (ch == '\n' || ch == KEY_ENTER || ch == KEY_ESC || ch == 'q') {
			ui_action_free(u);
			u->screen = SCR_PROCESSES;
			u->last_sample = 0;   /* sample again now */
		}
		break;
	}
}

