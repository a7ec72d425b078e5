/* action_tier.h - promote hot and demote cold on a machine with memory
 * tiers: whether moving a process's hot part (promote) or cold part
 * (demote) to a node can be done, or why not, in the words the command
 * line and the monitor print. Pure: the tier model, the node's free
 * memory and the process's memory policy (numa_maps' text) come in. */
#ifndef NUMATOP_ACTION_TIER_H
#define NUMATOP_ACTION_TIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"
#include "tiers.h"
#include "topology.h"

enum tieract_refusal {
	TIERACT_OK,
	TIERACT_NO_SLOW_TIER,   /* demote: one memory tier (or none): nowhere slower */
	TIERACT_NOT_SLOWER,     /* demote: the node is in the fastest tier */
	TIERACT_POLICY,         /* demote: a bind policy keeps the memory off the node */
	TIERACT_NO_ROOM,        /* the node has less free memory than what moves */
};

struct tieract_move {
	const struct tier_model *tiers;   /* NULL: none known */
	const struct topology *topo;
	size_t node;                /* the target's node index */
	bool cold;                  /* demote the cold part; else promote the hot */
	int64_t kb;                 /* what moves (not on the node yet), -1 unknown */
	int64_t free_kb;            /* the node's free memory, -1 unknown */
	const char *policy;         /* numa_maps' policy text; NULL or "" unknown */
};

/* TIERACT_OK, or the refusal with its reason in why (n > 0). Unknown
 * facts (free memory, the policy) never refuse. */
enum tieract_refusal tieract_check(const struct tieract_move *m, char *why, size_t n);

/* The move of process p's hot (cold false) or cold part to node id as
 * sample s saw it: what is not on the node yet (from its heat per node),
 * the node's free memory, p's policy. false when s has no such node. */
bool tieract_move_of(const struct snapshot *s, const struct snap_proc *p, int node_id, bool cold,
		     struct tieract_move *m);

/* Whether the numa_maps policy text (one policy, "bind=static:0-1", or a
 * summary "mixed: bind:0,default") binds memory away from node id: the
 * first such bind's node list into list (n > 0). */
bool tieract_policy_excludes(const char *policy, int node_id, char *list, size_t n);

#endif
