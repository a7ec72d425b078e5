/* options.h - command-line options of numatop-tui. */
#ifndef NUMATOP_OPTIONS_H
#define NUMATOP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "capture.h"
#include "output.h"

struct options {
	const char *root;        /* --root, NUMATOP_TUI_ROOT, default "/" */
	bool batch, json;
	const char *format;      /* --format NAME (-b: text, --json: json) */
	long iterations;         /* -n; 0 = until interrupted */
	double delay;            /* -d seconds */
	bool delay_set;          /* -d given (it wins over the settings file) */
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
	bool cgroups;            /* --cgroups: the batch text's cgroup table */
	bool access_off;         /* --access off: no access heat (DAMON) */
	bool migrate_hot;        /* --hot: --migrate only the hot ranges */
	bool migrate_cold;       /* --cold: --migrate only the cold part */
	bool full_command;       /* -c: batch text's COMMAND is the command line */
	const char *migrate_cgroup;   /* --migrate-cgroup PATH */
	bool kernel_threads;     /* --kernel-threads: show kernel threads */
	bool measure, measure_quick;   /* --measure, --measure-quick */
	const char *serve;       /* --serve [ADDR:]PORT */
	char listen_addr[64];    /* ... its address (127.0.0.1 by default) */
	int listen_port;
	struct output_metrics metrics;   /* --metrics-top, --metrics-min-remote, --metrics-by */
	const char *record;      /* -w, --record FILE|DIR/ */
	long keep_days;          /* --keep-days N (daily files) */
	const char *replay;      /* --replay FILE|DIR */
	const char *begin, *end; /* --begin TIME, --end TIME (replay) */
	const char *capture;     /* --capture DIR */
	const char *fleet;       /* --fleet URL (a Prometheus server) */
	const char *fleet_match; /* --fleet-match MATCHER */
	const char *fleet_host;  /* --fleet-host INSTANCE */
	struct capture_opts capture_opts;   /* --capture-processes (pids: -p) */
	bool capture_procs_set;
};

/* "[ADDR:]PORT" (ADDR may be [v6]): 0, or -EINVAL. */
int options_parse_listen(const char *spec, char *addr, size_t addrsz, int *port);

/* --full, or -b / --json with -n 1 (one complete snapshot). */
bool options_full_scan(const struct options *o);

/* What the session of these options opens (the sampler when `sampler`). */
struct session_config;
void options_session(const struct options *o, bool sampler, struct session_config *c);

/* The sort key (-s) and, with -o, the column list for topology t. 0, or
 * -errno with a message in err. */
struct sort_key;
struct col_list;
struct topology;
int options_columns(const struct options *o, const struct topology *t, struct sort_key *key,
		    struct col_list *cols, char *err, size_t errsz);

/* Parse argv (getopt_long; argv may be permuted). env_root is the value of
 * NUMATOP_TUI_ROOT or NULL. 0, or -EINVAL with a message in err. */
int options_parse(int argc, char **argv, const char *env_root,
		  struct options *o, char *err, size_t errsz);
void options_free(struct options *o);
void options_usage(FILE *f);

#endif
