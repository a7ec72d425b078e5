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

/* The detail keeps at most this many mappings: the largest, in address
 * order (a process can have 65530 or more). */
#define DETAIL_MAX_MAPS 2000

struct proc_detail {
	int pid;
	uint64_t starttime;     /* the process shown (0: whoever has the PID) */
	char comm[64];          /* raw: sanitize before printing */
	int nm_rc;              /* 0, or -errno reading numa_maps */
	struct detail_mapping *maps;
	size_t nmaps;
	size_t nmaps_total;     /* mappings in numa_maps */
	int64_t rest_kb;        /* kB in the mappings not kept */
	size_t nbad;            /* numa_maps lines that did not parse */
	int64_t *kb_pool;
	struct proc_thread *threads;
	size_t nthreads;
	char cpus_allowed[256], mems_allowed[256];
};

/* Read the details of pid, the process that started at starttime (0:
 * any), streaming numa_maps. On success d's contents are replaced; on
 * error d is left as it was: -ESRCH when that process exited (or its PID
 * now names another one), other -errno. */
int detail_read(const struct fsroot *r, const struct topology *t, int pid,
		uint64_t starttime, struct proc_detail *d);
void detail_free(struct proc_detail *d);

#endif
