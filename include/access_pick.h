/* access_pick.h - whose turn it is to have its access heat measured: a
 * pure policy over candidates (no I/O, the clock passed in), as
 * nmsched.h is for numa_maps reads. The sampler (sampler_access_turns.c)
 * fills the candidates from its sample; tests build them by hand. */
#ifndef NUMATOP_ACCESS_PICK_H
#define NUMATOP_ACCESS_PICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct access_cand {
	int pid;
	int64_t remote_kb;    /* on nodes where none of its threads works */
	int64_t fast_kb;      /* on the fastest memory tier; 0 with one tier */
	double last_on;       /* when it was last watched, -1 never */
	double turn_start;    /* when its turn began, -1 not watched now */
};

/* Worth watching: memory that is remote (is it used?), or memory on the
 * fastest tier of a tiered machine (is it cold, room to demote?). */
bool access_pick_worth(const struct access_cand *c);

/* out[0..n) is chosen already (the selected and tagged); more pids are
 * added, up to max: first those whose turn (turn_s long) goes on, then
 * the worth watching, the one watched longest ago first (never watched
 * before any), among equals the remote before the fast-tier-only, then
 * the most remote, then the most on the fast tier, then the lowest pid.
 * So every candidate gets turns, and a tiered machine's fast-tier-only
 * processes are watched as well as the remote ones. Returns the count. */
size_t access_pick(const struct access_cand *c, size_t nc, double now, double turn_s, int *out,
		   size_t n, size_t max);

#endif
