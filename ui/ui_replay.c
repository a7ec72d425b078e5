/* ui_replay.c - the monitor on a recording (--replay FILE|DIR): each
 * sample rebuilt into the model by the replay (src/replay.c), moved
 * through with t / T (next / previous), b (jump to a time), Home / End
 * (first / last). The screens read the model as live; actions are
 * refused. */
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

/* Move; the sample is rebuilt and the rows with it. */
static void move_to(struct ui *u, enum replay_to to, time_t when, const char *none)
{
	struct ui_replay *rp = u->rp;
	bool new_topo;
	char err[300];
	set_filter(u);
	int rc = replay_move(rp->r, to, when, &u->se, &u->snap, &new_topo, err, sizeof(err));
	if (rc) {
		if (!say_warning(u, rc == -ENOENT ? none : err))
			snprintf(u->msg, sizeof(u->msg), "%s", rc == -ENOENT ? none : err);
		return;
	}
	if (new_topo)
		adopt(u);
	/* Stepping on adds to the history; any other move rebuilds it from
	 * the samples before the new one. */
	if (to != REPLAY_NEXT || new_topo)
		prefill(u);
	rp->fresh = true;
	ui_sample(u);
	if (!say_warning(u, NULL) && !u->msg[0])
		ui_replay_status(u, u->msg, sizeof(u->msg));
}

void ui_replay_jump(struct ui *u, const char *text)
{
	time_t when;
	if (rec_parse_time(text, replay_when(u->rp->r), &when) != 0) {
		snprintf(u->msg, sizeof(u->msg), "not a time: use HH:MM[:SS] or YYYY-MM-DD HH:MM");
		return;
	}
	move_to(u, REPLAY_AT, when, "no sample there can be read");
	/* A time in a gap of the recording (the recorder stopped): said,
	 * with where the monitor went instead. */
	time_t got = replay_when(u->rp->r);
	double iv = u->snap.interval_s > 0 ? u->snap.interval_s : 1;
	struct tm a, b;
	if (got > when && (double)(got - when) > 1.5 * iv + 1 && localtime_r(&when, &a) &&
	    localtime_r(&got, &b)) {
		char from[16], to[16];
		strftime(from, sizeof(from), "%H:%M:%S", &a);
		strftime(to, sizeof(to), "%H:%M:%S", &b);
		snprintf(u->msg, sizeof(u->msg), "no samples %s-%s: showing %s", from, to, to);
	}
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

static void k_next(struct ui *u, int ch) { (void)ch; move_to(u, REPLAY_NEXT, 0, "the last sample"); }
static void k_prev(struct ui *u, int ch) { (void)ch; move_to(u, REPLAY_PREV, 0, "the first sample"); }
static void k_first(struct ui *u, int ch) { (void)ch; move_to(u, REPLAY_FIRST, 0, "no samples"); }
static void k_last(struct ui *u, int ch) { (void)ch; move_to(u, REPLAY_LAST, 0, "no samples"); }
static void k_jump(struct ui *u, int ch) { (void)ch; ui_prompt_open(u, UI_PROMPT_TIME); }

/* In replay these come before the main table (t is the tree there, T the
 * time sort, Home/End the first/last process: F5 and F6 still do those). */
const struct ui_key ui_replay_keys[] = {
	{ 't', k_next, "t T", "replay: next / previous sample", NULL, false },
	{ 'T', k_prev, NULL, NULL, NULL, false },
	{ 'b', k_jump, "b", "replay: jump to a time (HH:MM, YYYY-MM-DD HH:MM)", NULL, false },
	{ KEY_HOME, k_first, "Home End", "replay: first / last sample", NULL, false },
	{ KEY_END, k_last, NULL, NULL, NULL, false },
};
const size_t ui_nreplay_keys = sizeof(ui_replay_keys) / sizeof(ui_replay_keys[0]);

bool ui_replay_key(struct ui *u, int ch)
{
	if (!u->replay || (u->screen != SCR_PROCESSES && u->screen != SCR_NODES && u->screen != SCR_DETAIL))
		return false;
	for (size_t i = 0; i < ui_nreplay_keys; i++)
		if (ui_replay_keys[i].key == ch) {
			u->msg[0] = '\0';
			ui_replay_keys[i].fn(u, ch);
			return true;
		}
	return false;
}
