/* measure_cli.h - numatop-tui --measure / --measure-quick. */
#ifndef NUMATOP_MEASURE_CLI_H
#define NUMATOP_MEASURE_CLI_H

#include <stdio.h>

struct options;

/* Measure, print (text or --json), save for the monitor. Exit status 0,
 * 1 failed (message on err), 130 cancelled by a signal. */
int measure_cli_run(const struct options *o, FILE *out, FILE *err);

/* The result as text matrices: latency, NUMA factor, bandwidth,
 * placement, beside the SLIT (and HMAT). */
struct hmat;
struct measure_result;
struct topology;
void measure_write_text(FILE *f, const struct topology *t, const struct measure_result *res,
			const struct hmat *h);

#endif
