/* action_cli.h - the command-line actions (--migrate, --rebind). */
#ifndef NUMATOP_ACTION_CLI_H
#define NUMATOP_ACTION_CLI_H

#include <stdio.h>

struct options;

/* Run --migrate / --rebind as o asks. Exit status: 0 done, 3 done but some
 * pages did not move, 1 failed (message on err), 4 --hot / --cold found
 * nothing to move. */
int action_cli_run(const struct options *o, FILE *out, FILE *err);
/* --migrate-cgroup PATH --to NODE: the same statuses. */
int action_cli_cgroup(const struct options *o, FILE *out, FILE *err);

#endif
