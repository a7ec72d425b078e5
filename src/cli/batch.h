/* batch.h - the non-interactive loop (-b, --json). */
#ifndef NUMATOP_BATCH_H
#define NUMATOP_BATCH_H

#include <stdio.h>

#include "options.h"

/* Run the batch loop; returns the process exit status. Errors go to err. */
int batch_run(const struct options *o, FILE *out, FILE *err);

/* Monotonic seconds, and the calling thread's CPU seconds. */
double batch_now(void);
double batch_cpu(void);

#endif
