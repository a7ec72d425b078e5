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

/* The sort key (-s) and, with -o, the column list for topology t. 0, or
 * -errno with a message in err. */
struct sort_key;
struct col_list;
int batch_columns(const struct options *o, const struct topology *t, struct sort_key *key,
		  struct col_list *cols, char *err, size_t errsz);

#endif
