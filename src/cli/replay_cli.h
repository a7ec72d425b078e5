/* replay_cli.h - --replay FILE|DIR in batch: the recorded samples. */
#ifndef NUMATOP_REPLAY_CLI_H
#define NUMATOP_REPLAY_CLI_H

#include <stdio.h>

#include "options.h"

/* Print the samples of o->replay between --begin and --end (at most -n)
 * as their recorded JSON lines; damage is said on err. Exit status. */
int replay_run(const struct options *o, FILE *out, FILE *err);

#endif
