/* exporter.h - the benchmark's measure of numatop-tui --serve. */
#ifndef NUMATOP_BENCH_EXPORTER_H
#define NUMATOP_BENCH_EXPORTER_H

struct exporter_cost {
	double scrape_p50_ms, scrape_p95_ms;  /* GET /metrics round trip */
	double cpu_per_sample_ms;             /* the exporter's CPU per steady sample */
	double samples;                       /* steady samples it took meanwhile */
	int scrapes;
	long bytes;                           /* the last reply's size */
};

/* Start prog --serve on a free local port sampling every delay seconds,
 * scrape it `scrapes` times (half a delay apart) after its first sample,
 * stop it. 0 or -errno (-EIO: it never answered). */
int exporter_measure(const char *prog, double delay, int scrapes, struct exporter_cost *out);

#endif
