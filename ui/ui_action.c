/* ui_action.c - the migrate (m) and rebind (B) dialogs: choose a node,
 * preview, confirm, run in small batches with a progress bar (Esc
 * cancels), then before/after per node. The work itself is the core's
 * (migrate.c, rebind.c); targets are the processes the user saw, by PID
 * and start time from the snapshot. */
#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sanitize.h"
#include "ui_action_int.h"

bool ui_action_check_node(const struct ui *u, const struct ui_action *a, int i)
{
	const struct topo_node *nd = &u->se.topo.nodes[i];
	if (a->migrate && !nd->has_memory)
		return false;
	if (a->rebind && bitmap_empty(&nd->cpus))
		return false;
	return true;
}

void ui_action_free(struct ui *u)
{
	struct ui_action *a = u->act;
	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++) {
		action_target_unlock(&a->items[i].tg);
		migrate_free(&a->items[i].job);
		free(a->items[i].before);
		free(a->items[i].after);
	}
	free(a->items);
	free(a);
	u->act = NULL;
}

void ui_action_open(struct ui *u, bool migrate)
{
	const char *why = action_refusal(u->opt->readonly, u->se.root);
	if (why) {
		snprintf(u->msg, sizeof(u->msg), "%s: %s", migrate ? "migrate" : "rebind", why);
		return;
	}
	const struct snap_proc *sel = ui_selected(u);
	if (!sel)
		return;
	ui_action_free(u);
	struct ui_action *a = calloc(1, sizeof(*a));
	size_t want = u->ntagged ? u->ntagged : 1;
	if (!a || !(a->items = calloc(want, sizeof(*a->items)))) {
		free(a);
		snprintf(u->msg, sizeof(u->msg), "out of memory");
		return;
	}
	for (size_t i = 0; i < u->snap.nprocs && a->n < want; i++) {
		const struct snap_proc *p = &u->snap.procs[i];
		if (u->ntagged ? !ui_is_tagged(u, p) : p != sel)
			continue;
		struct act_item *it = &a->items[a->n++];
		it->tg = (struct action_target){ .pid = p->info.pid,
			.starttime = p->info.starttime, .pidfd = -1 };
		memcpy(it->tg.comm, p->info.comm, sizeof(it->tg.comm));
		it->job.pagemap_fd = -1;
	}
	a->migrate = migrate;
	a->rebind = a->rebind_dialog = !migrate;
	/* Start where the user usually goes: migrate to the process's HOME
	 * (memory follows the threads); rebind to the node that holds most
	 * of its memory (threads follow the memory). Else the first usable. */
	int start = sel->home;
	if (!migrate && sel->nm == NMS_OK && sel->total_kb > 0) {
		for (int i = 0; i < (int)u->se.topo.nnodes; i++)
			if (start < 0 || sel->node_kb[i] > sel->node_kb[start])
				start = i;
	}
	a->sel = -1;
	if (start >= 0 && ui_action_check_node(u, a, start))
		a->sel = start;
	for (int i = 0; i < (int)u->se.topo.nnodes && a->sel < 0; i++)
		if (ui_action_check_node(u, a, i))
			a->sel = i;
	u->act = a;
	if (a->sel < 0) {
		snprintf(u->msg, sizeof(u->msg), "no node can take %s", migrate ? "memory" : "threads");
		ui_action_free(u);
		return;
	}
	u->screen = SCR_ACTION;
}

/* One item's plan (migrate) or placement and policy (rebind only), read
 * while its pidfd is held: the target is locked (start time checked)
 * first, and still alive after the read, so what the preview shows is
 * the confirmed process's and no other's. */
static int plan_item(struct ui *u, struct ui_action *a, struct act_item *it, int id)
{
	migrate_free(&it->job);
	int rc = it->tg.pidfd >= 0 ? action_target_alive(&it->tg)
				   : action_target_lock(u->se.root, &it->tg);
	if (rc)
		return rc;
	if (a->migrate) {
		rc = migrate_prepare(u->se.root, &u->se.topo, &it->tg, id, &it->job);
		if (rc == 0) {
			memcpy(it->before, it->job.pv.node_kb, u->se.topo.nnodes * sizeof(int64_t));
			snprintf(it->policy, sizeof(it->policy), "%s", it->job.pv.policy);
		}
	} else {
		return migrate_read_target_placement(u->se.root, &u->se.topo, &it->tg, it->before,
						     it->policy, sizeof(it->policy));
	}
	return rc ? rc : action_target_alive(&it->tg);
}

/* Build every item's plan and preview for the chosen node. */
static void prepare(struct ui *u, struct ui_action *a)
{
	int id = u->se.topo.nodes[a->sel].id;
	size_t nn = u->se.topo.nnodes ? u->se.topo.nnodes : 1;
	a->total_pages = 0;
	for (size_t i = 0; i < a->n; i++) {
		struct act_item *it = &a->items[i];
		if (!it->before)
			it->before = calloc(nn, sizeof(int64_t));
		if (!it->after)
			it->after = calloc(nn, sizeof(int64_t));
		it->prep_rc = !it->before || !it->after ? -ENOMEM : plan_item(u, a, it, id);
		if (it->prep_rc == 0 && a->migrate)
			a->total_pages += it->job.total_pages;
	}
}

/* Confirmed: the preview may have been open for a while, so each target
 * is checked again (its pidfd, held since the preview) and its plan made
 * anew; then rebind at once, and the migration walk runs from
 * ui_action_work(). */
static void start(struct ui *u, struct ui_action *a)
{
	const struct topo_node *nd = &u->se.topo.nodes[a->sel];
	a->total_pages = 0;
	for (size_t i = 0; i < a->n; i++) {
		struct act_item *it = &a->items[i];
		if (it->prep_rc)
			continue;
		it->lock_rc = action_target_alive(&it->tg);
		if (it->lock_rc == 0 && a->rebind)
			it->rb_rc = rebind_threads(u->se.root, &it->tg, &nd->cpus, &it->rb);
		/* As on the command line: a failed rebind stops that item. */
		if (it->lock_rc == 0 && a->migrate && it->rb_rc == 0) {
			it->lock_rc = plan_item(u, a, it, nd->id);
			if (it->lock_rc == 0)
				a->total_pages += it->job.total_pages;
		}
	}
	a->cur = 0;
	a->st = a->migrate ? ST_RUN : ST_DONE;
	if (!a->migrate)
		for (size_t i = 0; i < a->n; i++)
			action_target_unlock(&a->items[i].tg);
}

static void finish(struct ui *u, struct ui_action *a)
{
	for (size_t i = 0; i < a->n; i++) {
		struct act_item *it = &a->items[i];
		int rc = it->prep_rc || it->lock_rc ? -1 :
			 migrate_read_target_placement(u->se.root, &u->se.topo, &it->tg, it->after, NULL, 0);
		if (rc && it->after)
			for (size_t k = 0; k < u->se.topo.nnodes; k++)
				it->after[k] = -1;
		action_target_unlock(&it->tg);
	}
	a->st = ST_DONE;
}

bool ui_action_running(const struct ui *u)
{
	return u->act && u->act->st == ST_RUN;
}

void ui_action_work(struct ui *u, double seconds)
{
	struct ui_action *a = u->act;
	double t0 = action_now();
	while (a && a->st == ST_RUN && action_now() - t0 < seconds) {
		if (a->cur >= a->n || a->cancelled) {
			finish(u, a);
			break;
		}
		struct act_item *it = &a->items[a->cur];
		if (it->prep_rc || it->lock_rc || it->rb_rc) {
			a->cur++;
			continue;
		}
		int rc = migrate_step(&it->job, 2048);
		if (rc <= 0) {
			it->mig_rc = rc;
			a->cur++;
		}
	}
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
		if (ch == KEY_UP || ch == KEY_DOWN) {
			int d = ch == KEY_UP ? -1 : 1;
			for (int i = a->sel + d; i >= 0 && i < (int)u->se.topo.nnodes; i += d)
				if (ui_action_check_node(u, a, i)) {
					a->sel = i;
					break;
				}
		} else if (a->rebind_dialog && (ch == 'a' || ch == ' ')) {
			a->migrate = !a->migrate;
			if (!ui_action_check_node(u, a, a->sel))
				a->migrate = false;
		} else if (ch == '\n' || ch == KEY_ENTER) {
			prepare(u, a);
			a->st = ST_PREVIEW;
		} else if (ch == KEY_ESC || ch == 'q') {
			ui_action_free(u);
			u->screen = SCR_PROCESSES;
		}
		break;
	case ST_PREVIEW:
		if (ch == '\n' || ch == KEY_ENTER || ch == 'y')
			start(u, a);
		else if (ch == KEY_ESC || ch == 'q' || ch == 'n')
			a->st = ST_CHOOSE;
		break;
	case ST_RUN:
		if (ch == KEY_ESC || ch == 'q')
			a->cancelled = true;
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

