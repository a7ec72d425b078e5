/* detail.h - one process in depth: its numa_maps mappings, threads and
 * allowed CPUs/nodes, for the detail screen. Read through the rooted layer. */
#ifndef NUMATOP_DETAIL_H
#define NUMATOP_DETAIL_H

#include <stddef.h>
#include <stdint.h>

#include "fsroot.h"
#include "numa_maps.h"
#include "proc.h"
#include "topology.h"

struct detail_mapping {
	uint64_t start;
	char policy[80];
	char what[96];          /* file path, "heap", "stack", "anon" (raw) */
	bool huge;
	int64_t *node_kb;       /* [nnodes] */
	int64_t total_kb;
};

struct proc_detail {
	int pid;
	int nm_rc;              /* 0, or -errno reading numa_maps */
	struct detail_mapping *maps;
	size_t nmaps;
	int64_t *kb_pool;
	struct proc_thread *threads;
	size_t nthreads;
	char cpus_allowed[256], mems_allowed[256];
};

/* Read pid's details (replaces d's contents). 0 or -errno (gone). */
int detail_read(const struct fsroot *r, const struct topology *t, int pid,
		struct proc_detail *d);
void detail_free(struct proc_detail *d);

#endif
