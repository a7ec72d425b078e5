/* output_prom_fam.h - the families of the Prometheus exposition by name
 * (one row each in src/output_prom_fam.c): what the exposition writes
 * and what reads its series back through a Prometheus server (the fleet
 * client's queries) name them by these values, never by their text. */
#ifndef NUMATOP_OUTPUT_PROM_FAM_H
#define NUMATOP_OUTPUT_PROM_FAM_H

#include "output.h"

/* The families, one row each (output.h); the node memory families come
 * first, from the node fields' table, then the per-process gauges from the
 * process facts' (fields_proc.h: a process's remote bytes are
 * fields_proc_col(COL_REMOTE)->prom). */
enum fam {
	F_NODE_CPUS, F_NODE_CPU_SECONDS, F_NODE_NUMA_EVENTS, F_NODE_DISTANCE, F_NODE_LATENCY,
	F_NODE_BANDWIDTH, F_MEAS_TIME,
	F_COMM_PROCESSES, F_COMM_MEMORY, F_COMM_RESIDENT, F_COMM_REMOTE, F_BELOW_MIN,
	F_HOST_REMOTE, F_HOST_HOT_REMOTE, F_HOST_HOT_SLOW, F_BUILD,
	F_PROCESSES, F_WARNINGS, F_SCRAPE_DURATION, F_SAMPLE_CPU, F_SAMPLES, F_NM_READS,
	F_NODE_TIER, F_TIER_ORDER, F_TIER_NODES, F_TIER_LATENCY, F_TIER_BANDWIDTH, F_TIER_TOTAL, F_TIER_FREE,
	F_TIER_PROMOTED, F_TIER_DEMOTED, F_TIER_DEMOTION,
	F_COMM_HOT_REMOTE, F_NODE_HOT, F_ACC_SOURCE, F_ACC_MONITORED, F_ACC_WINDOW, F_ACC_KDAMOND_CPU,
	F_N
};

/* The row of family f (its name as its samples are written). */
const struct prom_family *output_prom_fam(enum fam f);

#endif
