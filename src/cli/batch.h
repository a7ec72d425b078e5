/* batch.h - the batch modes (-b, --json, --format, -w). */
#ifndef NUMATOP_BATCH_H
#define NUMATOP_BATCH_H

#include <stdio.h>

#include "options.h"

/* Run the batch loop; returns the process exit status. Errors go to err. */
int batch_run(const struct options *o, FILE *out, FILE *err);

#endif
