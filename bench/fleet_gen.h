/* fleet_gen.h - the fleet benchmark's load: an hour of a fleet of
 * numatop-tui --serve exporters as a Prometheus server would have scraped
 * them, written as OpenMetrics for `promtool tsdb create-blocks-from
 * openmetrics`, and what the fleet client must find in it. */
#ifndef NUMATOP_BENCH_FLEET_GEN_H
#define NUMATOP_BENCH_FLEET_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct fleet_gen {
	size_t hosts, procs;        /* exporters, processes each */
	double step_s, span_s;      /* scrape interval, history (30, 3600) */
	long t_end;                 /* the last sample's time (Unix s) */
	bool recorded;              /* the recording rules' series too */
};

/* What a host is: its nodes, whether its access heat is known (DAMON),
 * whether it has a slower memory tier (its last node). */
size_t fleet_gen_nodes(size_t h);
bool fleet_gen_heat(size_t h);
bool fleet_gen_tiered(size_t h);
/* Its instance label, and back (-1: not one of ours). */
void fleet_gen_instance(size_t h, char *out, size_t n);
long fleet_gen_host_of(const struct fleet_gen *g, const char *instance);

/* At the last sample: the bytes of process pid of host h by which the
 * fleet ranks it (hot remote where the heat is known, else remote), -1
 * when h has no such pid; and the largest of them on h. */
double fleet_gen_rank_bytes(const struct fleet_gen *g, size_t h, long pid);
double fleet_gen_rank_max(const struct fleet_gen *g, size_t h);

/* The OpenMetrics text into f (ends with # EOF); the series and samples
 * written. 0 or -errno. */
int fleet_gen_write(const struct fleet_gen *g, FILE *f, size_t *series, size_t *samples);

#endif
