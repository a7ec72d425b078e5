/* main.c - numatop-tui entry point: options, then batch or interactive. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action_cli.h"
#include "batch.h"
#include "replay_cli.h"
#include "measure_cli.h"
#include "options.h"
#include "serve.h"
#include "ui.h"

/* Output that did not arrive is a failure: a full disk, /dev/full, a
 * closed stdout. (The batch loop checks its own writes: a reader that
 * goes away is a clean end there.) */
static int finish_output(int status)
{
	errno = 0;
	int bad = fflush(stdout) != 0 || ferror(stdout);
	int e = errno;
	if (fclose(stdout) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (!bad)
		return status;
	fprintf(stderr, "numatop-tui: writing to standard output failed%s%s\n",
		e ? ": " : "", e ? strerror(e) : "");
	return status ? status : 1;
}

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
		status = finish_output(0);
	} else if (o.version) {
		printf("numatop-tui %s\n", NUMATOP_VERSION);
		status = finish_output(0);
	} else if (o.measure) {
		status = finish_output(measure_cli_run(&o, stdout, stderr));
	} else if (o.migrate_cgroup) {
		status = finish_output(action_cli_cgroup(&o, stdout, stderr));
	} else if (o.migrate_pid || o.rebind_pid) {
		status = finish_output(action_cli_run(&o, stdout, stderr));
	} else if (o.serve) {
		status = serve_run(&o, stdout, stderr);
	} else if (o.replay && (o.batch || o.json)) {
		status = replay_run(&o, stdout, stderr);
	} else if (o.batch || o.record) {
		status = batch_run(&o, stdout, stderr);
	} else {
		status = ui_run(&o);
	}
	options_free(&o);
	return status;
}
