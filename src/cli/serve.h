/* serve.h - the --serve front end: an HTTP endpoint for Prometheus. */
#ifndef NUMATOP_SERVE_H
#define NUMATOP_SERVE_H

#include <stdio.h>

#include "options.h"

/* Sample every -d and answer GET /metrics until SIGTERM/SIGINT/SIGHUP.
 * The exit status: 0, 1 (cannot listen, sampling failed), 2 (usage). */
int serve_run(const struct options *o, FILE *out, FILE *err);

#endif
