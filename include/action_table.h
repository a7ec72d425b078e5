/* action_table.h - the actions as one table: for each its name, its keys in
 * the monitor (the key bar and the help screen read them), its command-line
 * option and --help text (the man page, docs/options.md and the bash
 * completion read that), what refuses it, and its engine's entry points:
 * preview, run and verify (the check of the target node before, and what
 * is read afterwards). Both front ends dispatch through it. A new action is
 * a row here, its engine's module, and its dialog or command. */
#ifndef NUMATOP_ACTION_TABLE_H
#define NUMATOP_ACTION_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "action_cgroup.h"
#include "action_job.h"
#include "snapshot.h"
#include "topology.h"

enum action_id {
	ACTION_MIGRATE,         /* a process's memory to a node */
	ACTION_REBIND,          /* its threads to a node's CPUs */
	ACTION_CGROUP_MOVE,     /* a v2 cgroup's cpuset.mems */
	ACTION_MIGRATE_HOT,     /* migrate (promote) only the hot part */
	ACTION_MIGRATE_COLD,    /* migrate (demote) only the cold part */
	ACTION_N
};

/* Where its keys are taken. */
enum action_where {
	ACTION_AT_PROCESSES,    /* the main key table (ui_keys[]) */
	ACTION_AT_DIALOG,       /* inside the migrate dialog */
	ACTION_AT_CGROUPS,      /* the Cgroups screen */
};

/* A key without curses: a character, or function key n. */
#define ACTION_KEY_F(n) (0x10000 + (n))
#define ACTION_KEY_IS_F(k) ((k) > 0x10000 && (k) <= 0x10000 + 24)
#define ACTION_NKEYS 2

/* How the work is done. */
enum action_engine {
	ACTION_ENGINE_JOB,      /* action_job.h: per process, in batches */
	ACTION_ENGINE_CGROUP,   /* action_cgroup.h: one write the kernel carries out */
};

/* What verify needs: the machine, the chosen node, and for the tier
 * checks of hot and cold the process as the sample saw it (NULL: not
 * checked). */
struct action_check {
	const struct topology *topo;
	int node;                       /* node index */
	const struct snapshot *snap;
	const struct snap_proc *proc;
};

struct action_def {
	enum action_id id;
	const char *name;               /* "migrate": in messages and refusals */
	/* The monitor. */
	enum action_where where;
	int keys[ACTION_NKEYS];         /* first the one the bar shows; 0 none */
	const char *key_label;          /* "F7 m", as the help screen names them */
	const char *key_help;           /* the help screen's text, NULL none */
	const char *bar;                /* its label on the key bar, or NULL */
	/* The command line. */
	const char *option;             /* "migrate" for --migrate, NULL none */
	const char *option_arg;         /* "PID", "PATH"; NULL: a switch that
					 * changes the action it goes with */
	const char *option_help;        /* --help's text, '\n' between its lines */
	bool to_node;                   /* the option takes --to NODE */
	/* Refusals besides action_refusal() (--readonly, a recorded tree) and
	 * the errnos action_strerror() says: what a node that cannot take it
	 * lacks ("node 1 " before it; NULL: verify says it), and the errno
	 * that refuses a kernel thread (0: none). */
	const char *node_refusal;
	int kthread_errno;
	/* The node check (and for hot and cold the tier checks,
	 * action_tier.h): 0, or 1 with the reason in why. NULL: the engine's
	 * preview checks (the cgroup move). */
	int (*verify)(const struct action_check *c, char *why, size_t n);
	enum action_engine engine;
	/* ACTION_ENGINE_JOB: what the job does, and which part of the
	 * memory (heat: 0 all, 1 hot, 2 cold; migrate_heat_ranges). */
	bool job_migrate, job_rebind;
	int heat;
	/* The engine's entry points (the row's engine only). */
	struct {
		void (*preview)(struct actjob *j, int node);
		void (*run)(struct actjob *j, int node);
		int (*step)(struct actjob *j, size_t max_pages);
		void (*verify)(const struct actjob *j, struct actjob_summary *s);
	} job;
	struct {
		int (*preview)(const struct fsroot *r, const struct topology *t, const char *path,
			       int node_id, struct cgaction *a, char *err, size_t errsz);
		int (*run)(const struct topology *t, struct cgaction *a, char *err, size_t errsz);
		int64_t (*verify)(const struct cgaction *a);
	} cg;
};

extern const struct action_def action_defs[ACTION_N];

/* The row of --NAME (without the dashes), or NULL. */
const struct action_def *action_by_option(const char *name);
/* The actions' lines of --help: the actions' options, --to NODE (naming
 * those that take it), then the switches that change an action. */
void action_usage(FILE *f);

#endif
