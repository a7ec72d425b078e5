/* action_watch.c - the one-off DAMON watch of one process before a move
 * of its hot or cold part (action_watch.h). */
#include "action_watch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "access.h"
#include "action_tier.h"
#include "monotime.h"
#include "sampler.h"

/* Sleep until the monotonic time `until`, or a signal. */
static void sleep_until(double until)
{
	double d = until - monotime_now();
	if (d <= 0)
		return;
	struct timespec ts = { (time_t)d, (long)((d - (double)(time_t)d) * 1e9) };
	nanosleep(&ts, NULL);
}

/* How the watch ended, from the last heat a (or none) and the sample. */
static void judge(struct action_watch *w, const struct snapshot *snap, const struct access_proc *a,
		  int gone, bool refused)
{
	int rc = a ? migrate_heat_ranges(a, w->cold, &w->rv, &w->nr) : -ENODATA;
	w->rc = rc;
	if (a) {
		w->hot_kb = a->hot_kb;
		w->hot_remote_kb = a->hot_remote_kb;
		w->cold_kb = a->cold_kb;
		w->nregions = a->nregions;
	}
	if (*w->stop)
		w->end = WATCH_INTERRUPTED;
	else if (gone == -ACTION_EEXEC)
		w->end = WATCH_EXEC;
	else if (gone || snap->nprocs != 1)
		w->end = WATCH_GONE;
	else if (refused)
		w->end = WATCH_REFUSED;
	else if (rc == -EINPROGRESS || rc == -ESTALE || (rc == -ENODATA && a && a->unseen)) {
		w->end = WATCH_NOT_USABLE;
		access_trust_text(a, w->why, sizeof(w->why));
	} else if (rc == -ENODATA) {
		w->end = WATCH_UNKNOWN;
		snprintf(w->why, sizeof(w->why), "%s",
			 !a && snap->access.why != ACCESS_ON && snap->access.why != ACCESS_NOT_YET ?
			 (snap->access.msg[0] ? snap->access.msg : access_why_text(snap->access.why)) :
			 "DAMON did not report it in time");
	} else if (rc == -E2BIG) {
		w->end = WATCH_TOO_MANY;
	} else if (rc) {
		w->end = WATCH_ERROR;
	} else if (w->cold ? a->cold_kb <= 0 : a->hot_kb <= 0 || !w->nr) {
		w->end = WATCH_NOTHING;
	} else {
		w->end = WATCH_FOUND;
	}
	/* Found: refused still when the move is (action_tier.h: demote needs
	 * a slower tier, no bind policy against it; either needs room). */
	struct tieract_move mv;
	if (w->end == WATCH_FOUND && w->nr && tieract_move_of(snap, &snap->procs[0], w->node_id, w->cold, &mv) &&
	    tieract_check(&mv, w->why, sizeof(w->why)) != TIERACT_OK)
		w->refused_after = true;
	if (w->end != WATCH_FOUND || w->refused_after) {
		free(w->rv);
		w->rv = NULL;
		w->nr = 0;
	}
}

int action_watch_run(struct action_watch *w)
{
	int pid = w->tg->pid;
	w->rv = NULL;
	w->nr = 0;
	w->rc = 0;
	w->why[0] = '\0';
	w->refused_after = false;
	w->hot_kb = w->hot_remote_kb = w->cold_kb = -1;
	w->nregions = 0;
	double t0 = monotime_now();
	w->sc.filter = (struct sampler_filter){ &pid, 1, NULL, true };
	w->sc.access = true;
	w->sc.access_watch = true;
	struct session se;
	if (session_open(&se, &w->sc, w->why, sizeof(w->why)) != 0) {
		w->end = WATCH_OPEN_FAILED;
		return -EIO;
	}
	sampler_set_priority(se.smp, &pid, 1);
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	const struct access_proc *a = NULL;
	struct tieract_move mv;
	bool refused = false;
	int gone = 0;           /* the target exited or ran a new program */
	double next = monotime_now();
	while (!*w->stop && next >= 0) {
		sleep_until(next);
		if (*w->stop)
			break;
		double start = monotime_now();
		if (sampler_tick(se.smp, &snap) != 0 || snap.nprocs != 1)
			break;
		/* The process watched is the one chosen, running the program
		 * it ran then: else the heat is not its own. */
		if ((gone = action_target_check(w->r, w->tg)) != 0)
			break;
		a = snap.procs[0].acc;
		double end = monotime_now();
		next = migrate_watch_next(t0, w->limit_s, start, end - start, end);
		/* What is refused whatever the heat (no slower tier, a policy
		 * against it) is said at once, not after the watch. */
		if (tieract_move_of(&snap, &snap.procs[0], w->node_id, w->cold, &mv)) {
			mv.kb = -1;
			if (tieract_check(&mv, w->why, sizeof(w->why)) != TIERACT_OK) {
				refused = true;
				break;
			}
		}
		/* Nothing hot yet, or not settled: watched longer, as
		 * DAMON's regions split towards what is used. */
		if (!w->cold && access_usable(a) && a->hot_kb > 0)
			break;
		/* Warm memory left may still turn cold: watched on while some is. */
		if (w->cold && access_usable(a) && a->monitored_s >= ACCESS_COLD_S + 1 &&
		    a->cold_kb >= 0 && a->warm_kb < 1024)
			break;
		if (!a && snap.access.why != ACCESS_ON && snap.access.why != ACCESS_NOT_YET)
			break;
	}
	w->watched_s = a ? a->monitored_s : monotime_now() - t0;
	judge(w, &snap, a, gone, refused);
	snapshot_free(&snap);
	session_close(&se);   /* our kdamond stops before pages move */
	return 0;
}
