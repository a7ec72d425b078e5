/* ui_replay.c - the monitor on a recording (--replay FILE|DIR): each
 * sample rebuilt into the model by the replay (src/replay.c); the keys
 * that move through it are in ui_replay_keys.c, the moves taken in by
 * ui_replay_move.c. The screens read the model as live; actions are
 * refused (ui_guard.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curses.h>

#include "record.h"
#include "replay.h"
#include "ui_int.h"

struct ui_replay {
	struct replay *r;
	bool fresh;                /* u->snap is the sample moved to, not yet
				    * in the history */
	bool built_kthreads;       /* the filter u->snap was built with */
	size_t said;               /* warnings shown */
};

/* -p, -u and K as the live sampler applies them. */
static void set_filter(struct ui *u)
{
	const struct ui_config *o = u->opt;
	struct sampler_filter f = o->session.filter;
	f.kernel_threads = u->kernel_threads;
	replay_set_filter(u->rp->r, &f);
	u->rp->built_kthreads = u->kernel_threads;
}

/* The newest warning not shown yet (a sample skipped, damage). */
static bool say_warning(struct ui *u, const char *before)
{
	struct ui_replay *rp = u->rp;
	size_t n = replay_nwarnings(rp->r);
	if (rp->said >= n)
		return false;
	snprintf(u->msg, sizeof(u->msg), "%s%s%s", before ? before : "", before ? "; " : "",
		 replay_warning(rp->r, n - 1));
	rp->said = n;
	return true;
}

/* What the monitor made of the previous topology and layers. */
static void adopt(struct ui *u)
{
	free(u->heat.marks);
	u->heat.marks = NULL;
	u->heat.note[0] = '\0';
	if (u->se.have_meas)
		ui_measure_adopt(u);
}

/* The node history up to the current sample, from the recording: up to
 * REPLAY_PREFILL samples before it. Processes' history grows as samples
 * are stepped through. */
#define REPLAY_PREFILL 60
static void prefill(struct ui *u)
{
	replay_history(u->rp->r, &u->se, &u->hist, REPLAY_PREFILL);
}

int ui_replay_open(struct ui *u, const struct ui_config *o, char *err, size_t errsz)
{
	struct ui_replay *rp = calloc(1, sizeof(*rp));
	if (!rp)
		return -ENOMEM;
	u->rp = rp;
	u->replay = true;
	int rc = replay_open(&rp->r, o->replay, err, errsz);
	if (rc)
		return rc;
	u->kernel_threads = o->session.filter.kernel_threads;
	set_filter(u);
	time_t when = 0;
	bool at = o->begin && rec_parse_time(o->begin, replay_start(rp->r), &when) == 0;
	bool new_topo;
	char why[300];
	rc = replay_move(rp->r, at ? REPLAY_AT : REPLAY_FIRST, when, &u->se, &u->snap, &new_topo,
			 why, sizeof(why));
	if (rc) {
		snprintf(err, errsz, "%s: %s", o->replay, rc == -ENOENT ? "none of its samples can be read" : why);
		return rc;
	}
	rp->fresh = true;
	adopt(u);
	prefill(u);
	say_warning(u, NULL);
	return 0;
}

void ui_replay_close(struct ui *u)
{
	struct ui_replay *rp = u->rp;
	if (!rp)
		return;
	snapshot_free(&u->snap);      /* made against the replay's topology */
	replay_close(rp->r, &u->se);
	free(rp);
	u->rp = NULL;
}

bool ui_replay_sample(struct ui *u)
{
	struct ui_replay *rp = u->rp;
	if (rp->fresh && rp->built_kthreads == u->kernel_threads) {
		rp->fresh = false;
		return true;
	}
	/* The same sample again (K changed the filter, a screen wants it
	 * read now): the history has it already. */
	bool was_fresh = rp->fresh, new_topo;
	char err[300];
	set_filter(u);
	if (replay_move(rp->r, REPLAY_SAME, 0, &u->se, &u->snap, &new_topo, err, sizeof(err)) != 0)
		snprintf(u->msg, sizeof(u->msg), "%s", err);
	rp->fresh = false;
	return was_fresh;
}

/* Move; the sample is rebuilt (and the node history with it), to be
 * taken in by ui_sample (ui_replay_move.c). False: it could not, said. */
bool ui_replay_go(struct ui *u, enum replay_to to, time_t when, const char *none)
{
	struct ui_replay *rp = u->rp;
	bool new_topo;
	char err[300];
	set_filter(u);
	int rc = replay_move(rp->r, to, when, &u->se, &u->snap, &new_topo, err, sizeof(err));
	if (rc) {
		if (!say_warning(u, rc == -ENOENT ? none : err))
			snprintf(u->msg, sizeof(u->msg), "%s", rc == -ENOENT ? none : err);
		return false;
	}
	if (new_topo)
		adopt(u);
	/* Stepping on adds to the history; any other move rebuilds it from
	 * the samples before the new one. */
	if (to != REPLAY_NEXT || new_topo)
		prefill(u);
	rp->fresh = true;
	return true;
}

bool ui_replay_say(struct ui *u)
{
	return say_warning(u, NULL);
}

time_t ui_replay_when(const struct ui *u)
{
	return replay_when(u->rp->r);
}

void ui_replay_status(const struct ui *u, char *out, size_t n)
{
	const struct replay *r = u->rp->r;
	char when[64] = "?";
	struct tm tm;
	time_t t = replay_when(r);
	/* With the recorder's sample number: samples less than a second
	 * apart (the recording's times are in seconds) are told apart, and
	 * t visibly moves. */
	if (t >= 0 && localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z", &tm);
	const char *f = strrchr(replay_file(r), '/');
	snprintf(out, n, "replay %s  sample %u  %s", when, u->snap.seq, f ? f + 1 : replay_file(r));
}
