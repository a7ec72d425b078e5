/* snapshot_tiers.h - a sample's memory tiers as the views show them: per
 * tier its memory in use and free, and the kernel's promotion and
 * demotion rates (nodeN/vmstat) per node and per tier; the lines the batch
 * text and the monitor's Tiers view print. */
#ifndef NUMATOP_SNAPSHOT_TIERS_H
#define NUMATOP_SNAPSHOT_TIERS_H

#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

/* Pages per second the kernel promoted into node i (pgpromote_success)
 * and demoted out of it (pgdemote_kswapd + pgdemote_direct); -1 unknown. */
double snapshot_node_promote_rate(const struct snapshot *s, size_t i);
double snapshot_node_demote_rate(const struct snapshot *s, size_t i);

struct tier_sum {
	int64_t total_kb, free_kb;    /* summed over its nodes; -1 unknown */
	double promote_rate, demote_rate;   /* pages/s, -1 unknown */
	int64_t promoted, demoted;    /* the counters since boot, -1 unknown */
};
/* Tier j (fast -> slow) of the sample's model. */
void snapshot_tier_sum(const struct snapshot *s, size_t j, struct tier_sum *out);

/* "tier4  fastest  N0  CPUs  80 ns 20.0 GB/s  used 1.8G of 2.0G
 *  promoted -/s  demoted 6/s" (one tier, j fast -> slow). */
void snapshot_tier_text(const struct snapshot *s, size_t j, char *out, size_t n);
/* "tiering: balancing tiering (2), demotion on, promotion limit 65536 MB/s" */
void snapshot_tiering_text(const struct snapshot *s, char *out, size_t n);

/* Each process's hot_slow_kb and cold_fast_kb from its heat (acc) and
 * the sample's tiers: after the heat is in place (the sampler, a replay). */
void snapshot_tiers_heat(struct snapshot *s);

#endif
