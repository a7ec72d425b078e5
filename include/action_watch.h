/* action_watch.h - the one-off DAMON watch of one process that --hot and
 * --cold run before a move (the monitor's heat comes from its own
 * sampler): a session of its own that watches the target first, sample
 * by sample, until its heat is usable (hot), or until cold can be said
 * (ACCESS_COLD_S and a second, longer while warm memory may still turn
 * cold), at most limit_s by the monotonic clock (migrate_watch_next).
 * The target (locked by the caller: PID, start time, program and memory
 * image) is checked at every sample: one that exits or runs a new
 * program stops the watch. No printing: the front end says the end. */
#ifndef NUMATOP_ACTION_WATCH_H
#define NUMATOP_ACTION_WATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "action.h"
#include "action_migrate.h"
#include "session.h"

enum action_watch_end {
	WATCH_FOUND,         /* ranges to move in rv (hot, or the cold part) */
	WATCH_NOTHING,       /* watched to the end: nothing hot (cold) */
	WATCH_INTERRUPTED,   /* *stop was set */
	WATCH_EXEC,          /* the target ran a new program */
	WATCH_GONE,          /* the target exited */
	WATCH_REFUSED,       /* the move is refused whatever the heat (why) */
	WATCH_NOT_USABLE,    /* heat measuring, stale or unseen (why) */
	WATCH_UNKNOWN,       /* no heat: why (DAMON's state, or late) */
	WATCH_TOO_MANY,      /* --cold: more hot and warm ranges than kept */
	WATCH_ERROR,         /* rc */
	WATCH_OPEN_FAILED,   /* the session could not be opened (why) */
};

struct action_watch {
	/* In: */
	struct session_config sc;      /* the session (filter, access: set here) */
	const struct fsroot *r;        /* the target's root */
	struct action_target *tg;      /* locked */
	int node_id;                   /* where the memory would go */
	bool cold;
	double limit_s;
	volatile sig_atomic_t *stop;   /* set by a signal: the watch ends */
	/* Out: */
	enum action_watch_end end;
	int rc;
	struct migrate_range *rv;      /* malloc'ed, WATCH_FOUND only */
	size_t nr;
	double watched_s;
	int64_t hot_kb, hot_remote_kb, cold_kb;
	size_t nregions;
	/* WATCH_FOUND, then the move refused (action_tier.h): said after
	 * what was found; rv empty. */
	bool refused_after;
	char why[512];
};

/* Run it: w->end and the numbers. 0, or -errno when it could not start
 * (w->end WATCH_OPEN_FAILED, the reason in why). */
int action_watch_run(struct action_watch *w);

#endif
