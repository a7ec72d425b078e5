/* topology.h - nodes, CPUs, caches and the distance matrix, read through
 * the rooted I/O layer from /sys/devices/system/{node,cpu}. */
#ifndef NUMATOP_TOPOLOGY_H
#define NUMATOP_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "fsroot.h"

struct topo_cache {
	int level;
	char type[16];          /* Data, Instruction, Unified */
	int64_t size_kb;        /* -1 unknown */
	struct bitmap shared;   /* CPUs sharing it */
};

struct topo_cpu {
	int id;
	int online;             /* 1, 0, or -1 unknown (treated as online) */
	bool has_topology;      /* topology/ present */
	int package, die, core, cluster;        /* -1 unknown */
	struct bitmap thread_siblings, core_siblings;
	struct topo_cache *caches;
	size_t ncaches;
	int node_index;         /* -1: in no node */
};

struct topo_node {
	int id;
	struct bitmap cpus;     /* from cpulist, else cpumap */
	unsigned ncpus_online;
	bool has_memory;        /* MemTotal > 0 at read time */
	int64_t mem_total_kb;   /* at read time; samples re-read it */
};

/* Node ids above this are refused (with a warning). */
#define TOPO_MAX_NODE_ID ((1 << 16) - 1)

struct topology {
	struct topo_node *nodes;   /* sorted by id */
	size_t nnodes;
	int *dist;                 /* nnodes*nnodes, row = from, -1 unknown */
	bool dist_known;
	struct topo_cpu *cpus;     /* sorted by id */
	size_t ncpus;
	int *index_of_id;          /* node id -> index or -1 */
	size_t nids;
	int *cpu_node;             /* cpu id -> node index or -1 */
	size_t ncpu_ids;
	bool synthetic;            /* no NUMA directory: one implicit node 0 */
	struct bitmap online_nodes, possible_nodes;
	char **warnings;           /* readable notes about broken input */
	size_t nwarnings;
	int64_t default_huge_kb;   /* Hugepagesize in /proc/meminfo, -1 unknown */
};

/* Read everything. 0 or -errno only when nothing usable is there (a root
 * without /sys is -ENOENT); broken parts become warnings and unknowns. */
int topology_read(const struct fsroot *r, struct topology *t);
void topology_free(struct topology *t);

/* For a topology built by hand (a replayed one): index_of_id (node id
 * -> index) from t->nodes. 0 or -ENOMEM. */
int topology_build_index(struct topology *t);

int topology_node_index(const struct topology *t, int node_id);
/* Node index of a CPU id, -1 if unknown. */
int topology_cpu_node(const struct topology *t, int cpu);
const struct topo_cpu *topology_cpu(const struct topology *t, int cpu);
/* Distance between node indexes, -1 unknown. */
int topology_distance(const struct topology *t, size_t from, size_t to);

struct nm_params;
/* Page sizes (base, and Hugepagesize as read with the topology) and the
 * node id map that numa_maps_summarize() needs. */
void topology_nm_params(const struct topology *t, struct nm_params *p);

#endif
