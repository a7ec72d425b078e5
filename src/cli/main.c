/* main.c - numatop-tui entry point: options, then batch or interactive. */
#include <stdio.h>
#include <stdlib.h>

#include "action_cli.h"
#include "batch.h"
#include "measure_cli.h"
#include "options.h"
#include "ui.h"

int main(int argc, char **argv)
{
	struct options o;
	char err[256];
	if (options_parse(argc, argv, getenv("NUMATOP_TUI_ROOT"), &o, err, sizeof(err)) != 0) {
		fprintf(stderr, "numatop-tui: %s\nTry 'numatop-tui --help'.\n", err);
		options_free(&o);
		return 2;
	}
	int status;
	if (o.help) {
		options_usage(stdout);
		status = 0;
	} else if (o.version) {
		printf("numatop-tui %s\n", NUMATOP_VERSION);
		status = 0;
	} else if (o.measure) {
		status = measure_cli_run(&o, stdout, stderr);
	} else if (o.migrate_pid || o.rebind_pid) {
		status = action_cli_run(&o, stdout, stderr);
	} else if (o.batch) {
		status = batch_run(&o, stdout, stderr);
	} else {
		status = ui_run(&o);
	}
	options_free(&o);
	return status;
}
