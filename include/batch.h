/* batch.h - the non-interactive loop (-b, --json). */
#ifndef NUMATOP_BATCH_H
#define NUMATOP_BATCH_H

#include "options.h"

/* Run the batch loop; returns the process exit status. Errors go to err. */
int batch_run(const struct options *o, FILE *out, FILE *err);

/* Open the root, read the topology and make a sampler for options o.
 * Prints a clear message to err and returns -errno on failure. */
struct fsroot;
struct topology;
struct sampler;
int batch_open(const struct options *o, FILE *err, struct fsroot **root,
	       struct topology *topo, struct sampler **smp);

#endif
