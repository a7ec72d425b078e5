/* options.h - command-line options of numatop-tui. */
#ifndef NUMATOP_OPTIONS_H
#define NUMATOP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct options {
	const char *root;        /* --root, NUMATOP_TUI_ROOT, default "/" */
	bool batch, json;
	long iterations;         /* -n; 0 = until interrupted */
	double delay;            /* -d seconds */
	int *pids;               /* -p list (malloc'ed) */
	size_t npids;
	const char *user;        /* -u */
	const char *sort;        /* -s column name */
	const char *columns;     /* -o COL[,COL...] */
	bool help, version;
	bool no_mouse, no_color, ascii;
	bool proc_files;         /* --proc-files: read /proc files, not libproc2 */
	bool readonly;           /* --readonly: no action of any kind */
	int migrate_pid, rebind_pid;   /* --migrate PID, --rebind PID; 0 none */
	int to_node;             /* --to NODE, -1 none */
	double budget_ms;        /* --budget MS of numa_maps reading per sample */
	bool full;               /* --full: read every process every sample */
	bool show_age;           /* --age: show the AGE column */
	bool kernel_threads;     /* --kernel-threads: show kernel threads */
	bool measure, measure_quick;   /* --measure, --measure-quick */
};

/* --full, or -b / --json with -n 1 (one complete snapshot). */
bool options_full_scan(const struct options *o);

/* Parse argv (getopt_long; argv may be permuted). env_root is the value of
 * NUMATOP_TUI_ROOT or NULL. 0, or -EINVAL with a message in err. */
int options_parse(int argc, char **argv, const char *env_root,
		  struct options *o, char *err, size_t errsz);
void options_free(struct options *o);
void options_usage(FILE *f);

#endif
