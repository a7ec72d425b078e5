/* why.h - why a process's memory is remote, and the one fix: a pure
 * decision over evidence the kernel exposes (numa_maps per policy and
 * kind, threads per node, the cpuset, the HOME node's free memory and
 * counters, HOME's history). No I/O here: the sampler gathers the
 * evidence, tests build it by hand. */
#ifndef NUMATOP_WHY_H
#define NUMATOP_WHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "numa_maps.h"
#include "tiers.h"

enum why_cause {
	WHY_NOT_READ,    /* no placement yet: nothing to judge */
	WHY_NONE, WHY_POLICY, WHY_CPUSET, WHY_SHARED_FILE, WHY_SPREAD, WHY_SPILL,
	WHY_MOVED, WHY_UNKNOWN,
	WHY_DEMOTED,     /* memory tiers: cold pages the kernel demoted */
	WHY_SLOW_TIER_HOT,   /* memory tiers: hot pages on a slower tier */
	WHY_NCAUSES
};
/* "-", "none", "policy", "cpuset", "shared_file", "spread", "spill",
 * "moved", "unknown", "demoted", "slow_tier_hot" */
extern const char *const why_cause_names[WHY_NCAUSES];
/* The name of a judged cause; NULL when not read yet (or out of range). */
const char *why_cause_name(int cause);

enum why_action { WHY_ACT_NONE, WHY_ACT_MIGRATE, WHY_ACT_REBIND, WHY_ACT_MIGRATE_HOT,
		  WHY_NACTIONS };
/* "none", "migrate", "rebind", "migrate_hot" */
extern const char *const why_action_names[WHY_NACTIONS];

/* Remote memory under this is "none": 5 % of resident, or 1 MiB. */
#define WHY_SMALL_PCT 5
#define WHY_SMALL_KB 1024
/* The HOME node is short of memory below this share of its size (when
 * its low watermark is not known). */
#define WHY_LOW_FREE_PCT 3

struct why_input {
	size_t nnodes;
	const int *node_ids;            /* [nnodes] */
	int home;                       /* node index, -1 unknown */
	int64_t total_kb, remote_kb;    /* -1 unknown (placement not read) */
	const int64_t *node_kb, *anon_kb, *file_kb;   /* [nnodes] */
	const int64_t *pol_kb;          /* [nnodes]: in mappings whose policy is
					 * not default/local, or NULL */
	enum nm_mode pol_mode;          /* the policy holding most of pol_kb */
	const char *pol_text;           /* as numa_maps prints it ("bind:1") */
	const size_t *threads_on;       /* [nnodes]: threads whose last CPU is
					 * there, or NULL */
	const size_t *work_on;          /* [nnodes]: the CPU ticks those threads
					 * used since the last sample, or NULL
					 * when not known (the first sample) or
					 * none ran: then each thread counts 1 */
	/* The cpuset (/proc/PID/status): allowed node ids, and the node ids
	 * whose CPUs the threads may run on; NULL when not read. */
	const struct bitmap *mems_allowed, *cpu_nodes;
	const char *status_why;         /* why status is unknown ("no perm"), or NULL */
	/* The HOME node: free and size (kB), its low watermark (kB, -1
	 * unknown), numa_foreign and numa_miss per second (-1 unknown). */
	int64_t home_free_kb, home_total_kb, home_low_kb;
	double home_foreign_rate, home_miss_rate;
	int64_t rss_growth_kb;          /* since the last sample, 0 none */
	int prev_home;                  /* HOME when the monitor saw it before
					 * (index), -1 unknown or unchanged */
	double kernel_migrate_rate;     /* this process's pages the kernel's NUMA
					 * balancing moves per second, -1 unknown */
	/* Access heat (access.h), when a source measured it: hot kB, hot kB
	 * on nodes where none of its threads works, how long its turn has
	 * lasted, how long its cold remote memory was untouched (-1 none);
	 * hot_kb -1: no heat, the rules above alone decide. */
	int64_t hot_kb, hot_remote_kb;
	double heat_watched_s, cold_idle_s;
	int64_t hot_slow_kb;            /* hot kB on slower tiers, -1 unknown */
	/* Its warm and cold kB on nodes where none of its threads works
	 * (as hot_remote_kb), -1 unknown. */
	int64_t warm_remote_kb, cold_remote_kb;
	/* Heat there but not to be used (access.h: measuring, stale,
	 * unseen), the hot fields above then -1: why, in words; NULL. A
	 * move of memory waits for it; unseen says so and advises nothing
	 * from it. */
	const char *heat_wait;
	bool heat_unseen;
	/* The memory tiers (node index order), or NULL: which nodes have
	 * CPUs (a rebind never names one without), which are memory-only
	 * nodes of a slower tier, and whether the kernel demotes. */
	const struct tier_model *tiers;
};

#define WHY_MAX_EVIDENCE 4
struct why_result {
	enum why_cause cause;
	char evidence[WHY_MAX_EVIDENCE][128];
	size_t nevidence;
	enum why_action action;
	int node;                       /* node id of the action, -1 none */
	char text[256];                 /* the advice in words */
};

/* The causes the totals alone decide (not read, none): true and *cause,
 * without the words why_decide would write; false: why_decide must. */
bool why_settled(const struct why_input *in, enum why_cause *cause);

/* Decide, in the order none, policy, cpuset, shared_file, spread, spill,
 * moved, unknown: the first cause the evidence supports. With heat, the
 * advice then weighs what is used: remote memory none of which is hot
 * or warm (watched WHY_HEAT_MIN_S at least) needs no move ("cold: ..."),
 * warm remote memory is used memory (the rules' advice stands); a
 * migration moves only the hot part (migrate_hot), where hot remote
 * memory is WHY_SMALL_KB or more. Heat that is there but not usable
 * (heat_wait) holds a move of memory back: the advice says why
 * ("measuring heat (12 s left)"). Last, no move of memory is ever
 * advised away from a node where its own threads worked in the window
 * and that holds WHY_SMALL_KB of it or more. */
#define WHY_HEAT_MIN_S 5.0
/* (The order with tiers: none, slow_tier_hot, policy, cpuset, demoted,
 * shared_file, spread, spill, moved, unknown. slow_tier_hot: hot memory
 * of WHY_SMALL_KB or more on slower tiers while HOME is in the fastest:
 * promote it (migrate_hot to HOME) when HOME has room. A rebind never
 * names a node without CPUs.) */
void why_decide(const struct why_input *in, struct why_result *out);

#endif
