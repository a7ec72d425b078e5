/* tiers.h - the memory tier model: each node's memory tier
 * (/sys/devices/virtual/memory_tiering/memory_tierN/nodelist) and whether
 * it has CPUs, the tiers in order fast -> slow (the lower N, the faster),
 * each node's and tier's HMAT figures from its initiators
 * (nodeN/access1, else access0: {read,write}_{latency,bandwidth}), and
 * the kernel's tiering knobs (demotion_enabled, the promotion rate
 * limit). Reads go through fsroot (a recorded tree works alike); the
 * parsers and the model's questions are pure. Unknown is -1, never 0. */
#ifndef NUMATOP_TIERS_H
#define NUMATOP_TIERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "fsroot.h"
#include "topology.h"

struct tier_node {
	int id;                       /* node id */
	int tier;                     /* memory_tierN, -1 in none */
	int order;                    /* its tier's place, 0 fastest; -1 none */
	bool cpus;                    /* the node has CPUs */
	int access;                   /* HMAT access class read: 1, 0; -1 none */
	int64_t read_lat_ns, write_lat_ns;    /* -1 unknown */
	int64_t read_bw_mbs, write_bw_mbs;    /* MB/s, -1 unknown */
};

struct tier_info {
	int id;                       /* memory_tierN */
	int order;                    /* 0 fastest */
	size_t nnodes;
	bool cpus;                    /* one of its nodes has CPUs */
	/* Its slowest node's figures (highest latency, lowest bandwidth
	 * among the nodes that have them), -1 unknown. */
	int64_t read_lat_ns, write_lat_ns, read_bw_mbs, write_bw_mbs;
};

struct tier_model {
	size_t nnodes;
	struct tier_node *node;       /* [nnodes], topology order */
	struct tier_info *tier;       /* [ntiers], fast -> slow */
	size_t ntiers;
	int demotion;                 /* /sys/kernel/mm/numa/demotion_enabled:
				       * 1, 0, -1 unknown */
	int64_t promote_limit_mbps;   /* kernel.numa_balancing_promote_rate_limit_MBps,
				       * -1 unknown */
};

/* Read everything for topology t. 0 (parts missing are unknown), or
 * -ENOMEM. A tree without memory_tiering gives no tiers (ntiers 0). */
int tiers_read(const struct fsroot *r, const struct topology *t, struct tier_model *m);
/* From node[].tier and the nodes' figures: the orders and the tier
 * table (for a model built by hand, or replayed). 0 or -ENOMEM. */
int tiers_build(struct tier_model *m);
/* An empty model of n nodes: every field unknown. 0 or -ENOMEM. */
int tiers_init(struct tier_model *m, size_t n);
/* dst (emptied first, may hold an old model) as a copy of src. */
int tiers_copy(struct tier_model *dst, const struct tier_model *src);
void tiers_free(struct tier_model *m);

/* "true"/"1"/"y"... 1, "false"/"0"/"n"... 0, else -1. */
int tiers_parse_bool(const char *s);
/* A decimal count ("80\n"): its value; 0 (what the kernel prints when
 * the firmware gave nothing), garbage or overflow: -1. */
int64_t tiers_parse_hmat(const char *s);

/* More than one tier: the tier columns and views have something to say. */
bool tiers_multi(const struct tier_model *m);
/* The tier of node index i: its order (0 fastest), -1 none or unknown. */
int tiers_node_order(const struct tier_model *m, size_t i);
/* The tier table's entry of node index i, NULL none. */
const struct tier_info *tiers_node_tier(const struct tier_model *m, size_t i);
/* The fastest tier order a process may use: the lowest order among the
 * nodes whose id is in mems (NULL: every node); -1 none. */
int tiers_fastest_order(const struct tier_model *m, const struct bitmap *mems);
/* Node index i is in the fastest tier the process could use (mems as
 * above); false when its tier is unknown. */
bool tiers_node_fastest(const struct tier_model *m, size_t i, const struct bitmap *mems);
/* Node index i is a slow-tier node without CPUs (memory only): pages
 * there are tiered memory, never a place to run threads. */
bool tiers_node_far(const struct tier_model *m, size_t i);

/* A process's kB by tier: fast (the fastest tier), slow (every slower
 * one); both -1 when there are no tiers or node_kb is NULL. kB on nodes
 * in no tier count in neither. */
void tiers_split_kb(const struct tier_model *m, const int64_t *node_kb, int64_t *fast,
		    int64_t *slow);
/* kB per tier into out[ntiers] (fast -> slow), from node_kb [nnodes]. */
void tiers_kb(const struct tier_model *m, const int64_t *node_kb, int64_t *out);

#endif
