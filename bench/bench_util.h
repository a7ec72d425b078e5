/* bench_util.h - measuring helpers of make bench: wall and CPU costs, the
 * kernel's floor, numastat, peak RSS, parser rate and the summary. */
#ifndef NUMATOP_BENCH_UTIL_H
#define NUMATOP_BENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "load.h"

struct cost { double wall_ms, cpu_ms; };
struct cost_mark { double wall, cpu; };

double mono_s(void);
/* A TCP port on 127.0.0.1 that was free a moment ago (the kernel's
 * choice), or -1. */
int bench_free_port(void);
void cost_begin(struct cost_mark *m);
void cost_end(const struct cost_mark *m, struct cost *out);
/* The median of three by CPU time. */
struct cost cost_median(const struct cost *c, size_t n);
/* p-th percentile (nearest rank) of n values; sorts v. */
double percentile(double *v, size_t n, double p);

/* The floor: read() every process's numa_maps into one buffer, parsing
 * nothing. When capture is given it receives the text (up to 64 MiB).
 * *mb is the number of MB read. */
void floor_read_all(struct cost *out, struct buf *capture, double *mb);
/* numastat -p PID... on the load's PIDs in one call: wall and the
 * child's CPU. */
void run_numastat(const struct load *l, struct cost *out);
/* Peak RSS in KiB of `prog -b -n 2 -d 0.1 --full` (json: --json), -1 on
 * failure, started by a small helper forked at the beginning (a child's
 * peak RSS counts what it inherits at fork). */
struct spawner { int to, from; };
int spawner_start(struct spawner *sp, const char *prog, struct load *l);
long run_peak_rss(struct spawner *sp, bool json);

/* MB/s on the capture; on lines each unlike the one before; on the
 * capture by numa_maps_parse_line alone. */
struct parser_rate { double mb_per_s, mb, distinct_mb_per_s, reference_mb_per_s; };
void parser_throughput(const struct buf *text, struct parser_rate *out);

/* One line of the table. */
struct row {
	size_t n, k;
	struct cost floor, full;
	double tick_med, tick_p95, tick_wall_med;
	struct cost numastat;
	long peak_rss_kb, peak_rss_json_kb;
	double stall_full_ms, stall_tick_ms;
	int big_reads, big_sampled;
	double big_span_s, big_min_gap_s;
	size_t nprocs;
	double floor_mb;
};
/* One line of the targets: what, the measured value against the limit
 * (le: at most, else at least), met or MISS, and where it was measured. */
void print_target(const char *what, double got, double limit, bool le, const char *unit,
		  const char *where);
/* The scale phase's rows (scale.h), nsc of them, may be none. */
struct scale_result;
void print_summary(const struct row *rows, size_t n, const struct parser_rate *pr,
		   size_t big_mib, const struct scale_result *sc, size_t nsc);

#endif
