/* fleet_cli.h - --fleet URL with -b or --json (fleet_cli.c). */
#ifndef NUMATOP_FLEET_CLI_H
#define NUMATOP_FLEET_CLI_H

#include <stdio.h>

#include "options.h"

/* The fleet's table (text, or JSON with --json) on out, what failed on
 * err; the exit status: 0, 1 (nothing could be read), 2 (a bad matcher). */
int fleet_cli_run(const struct options *o, FILE *out, FILE *err);

struct fleet_client;
/* --fleet-host INSTANCE (fleet_host_cli.c): that host's nodes and
 * processes as its exporter's series carry them, text or JSON; the exit
 * status: 0, or 1 when nothing of it could be read. */
int fleet_host_cli(struct fleet_client *cl, const struct options *o, FILE *out, FILE *err);

#endif
