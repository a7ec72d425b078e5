/* format.h - values as text, for the text writer, the JSON writer's
 * strings and the monitor: "-" for unknown, fixed widths where said. */
#ifndef NUMATOP_FORMAT_H
#define NUMATOP_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "snapshot.h"
#include "topology.h"

const char *fmt_node_kind(const struct topology *t, size_t idx,
			  const struct node_sample *ns);
/* "12.3" or "-" for unknown (< 0). */
void fmt_pct(char *out, size_t n, double v);
/* Age of a sample: "0s", "42s", "7m", "3h"; "-" never (< 0). */
void fmt_age(char *out, size_t n, double s);
/* "812K", "65.4M", "1.2G"; at most 6 characters; "-" unknown. */
void fmt_human_kb(char *out, size_t n, int64_t kb);
/* "numa balancing: NUMA (kernel.numa_balancing=1)  hint faults 120/s
 * (local 95.0%)  numa pages migrated 10/s ..." from snapshot.nk. */
void fmt_balancing(const struct snapshot *s, char *out, size_t n);
/* "memory tiers: N0:tier4 N1:tier4"; false (out "") when none is known. */
bool fmt_tiers(const struct snapshot *s, char *out, size_t n);
/* A rate: "12/s", "1.2k/s", "-" unknown (< 0). */
void fmt_rate(char *out, size_t n, double r);
/* kB as an integer, or "-" for unknown (< 0). */
void fmt_kb(char *out, size_t n, int64_t kb);

/* A node x node table (distances, measured latency and bandwidth): a
 * corner label, a header of node names, and one row per node. */
struct fmt_matrix {
	const char *indent;      /* before each line ("" or "  ") */
	const char *corner;      /* "DISTANCE", "CPU\\MEM" */
	bool left;               /* labels left-aligned (else right) in 8 */
	int width;               /* cell width; 0: the column's name + 4 */
	bool cpu_rows;           /* rows only for nodes with CPUs */
	int decimals;
	double (*get)(const void *ctx, size_t i, size_t j);   /* < 0: "-" */
	const void *ctx;
	const bool *marks;       /* [i * nnodes + j]: a "!" after the value */
};
void fmt_node_matrix(FILE *f, const struct topology *t, const struct fmt_matrix *m);

#endif
