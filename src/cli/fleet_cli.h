/* fleet_cli.h - --fleet URL with -b or --json (fleet_cli.c). */
#ifndef NUMATOP_FLEET_CLI_H
#define NUMATOP_FLEET_CLI_H

#include <stdio.h>

#include "options.h"

/* The fleet's table (text, or JSON with --json) on out, what failed on
 * err; the exit status: 0, 1 (nothing could be read), 2 (a bad matcher). */
int fleet_cli_run(const struct options *o, FILE *out, FILE *err);

#endif
