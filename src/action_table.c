/* action_table.c - the table of actions (action_table.h): names, keys,
 * options, help, refusals and the engines' entry points of each. */
#include "action_table.h"

#include <string.h>

#include "action_tier.h"
#include "bitmap.h"

/* The node check of a row: "node 1 has no memory". */
static int node_refused(const struct action_check *c, const struct action_def *d, bool refused,
			char *why, size_t n)
{
	if (c->node < 0 || (size_t)c->node >= c->topo->nnodes) {
		snprintf(why, n, "no such node");
		return 1;
	}
	if (!refused)
		return 0;
	snprintf(why, n, "node %d %s", c->topo->nodes[c->node].id, d->node_refusal);
	return 1;
}

static int v_memory(const struct action_check *c, char *why, size_t n)
{
	bool no = c->node >= 0 && (size_t)c->node < c->topo->nnodes &&
		  !c->topo->nodes[c->node].has_memory;
	return node_refused(c, &action_defs[ACTION_MIGRATE], no, why, n);
}

static int v_cpus(const struct action_check *c, char *why, size_t n)
{
	bool no = c->node >= 0 && (size_t)c->node < c->topo->nnodes &&
		  bitmap_empty(&c->topo->nodes[c->node].cpus);
	return node_refused(c, &action_defs[ACTION_REBIND], no, why, n);
}

/* Hot or cold: the migrate row's node check, then the tier checks of
 * what the sample saw of the process (no room, no slower tier, a bind
 * policy). */
static int v_heat(const struct action_check *c, bool cold, char *why, size_t n)
{
	if (v_memory(c, why, n))
		return 1;
	struct tieract_move mv;
	if (c->snap && c->proc &&
	    tieract_move_of(c->snap, c->proc, c->topo->nodes[c->node].id, cold, &mv) &&
	    tieract_check(&mv, why, n) != TIERACT_OK)
		return 1;
	return 0;
}

static int v_hot(const struct action_check *c, char *why, size_t n) { return v_heat(c, false, why, n); }
static int v_cold(const struct action_check *c, char *why, size_t n) { return v_heat(c, true, why, n); }

#define JOB_ENGINE .engine = ACTION_ENGINE_JOB, \
	.job = { actjob_prepare, actjob_start, actjob_step, actjob_summarize }
#define CG_ENGINE .engine = ACTION_ENGINE_CGROUP, \
	.cg = { cgaction_prepare, cgaction_apply, cgaction_left_kb }

const struct action_def action_defs[ACTION_N] = {
	[ACTION_MIGRATE] = {
		.id = ACTION_MIGRATE, .name = "migrate", .where = ACTION_AT_PROCESSES,
		.keys = { ACTION_KEY_F(7), 'm' }, .key_label = "F7 m",
		.key_help = "migrate memory to a node (selected or tagged): preview, progress",
		.bar = "Migrate",
		.option = "migrate", .option_arg = "PID", .to_node = true,
		.option_help = "move PID's memory to --to NODE (batched move_pages)",
		.node_refusal = "has no memory", .kthread_errno = ACTION_EKTHREAD,
		.verify = v_memory, .job_migrate = true, JOB_ENGINE,
	},
	[ACTION_REBIND] = {
		.id = ACTION_REBIND, .name = "rebind", .where = ACTION_AT_PROCESSES,
		.keys = { ACTION_KEY_F(8), 'B' }, .key_label = "F8 B",
		.key_help = "bind threads to a node's CPUs (optionally migrate too)",
		.bar = "Bind",
		.option = "rebind", .option_arg = "PID", .to_node = true,
		.option_help = "set the CPU affinity of every thread of PID to the\n"
			       "CPUs of --to NODE (both options: rebind, then migrate)",
		.node_refusal = "has no CPUs (memory only)", .kthread_errno = ACTION_EKTHREAD,
		.verify = v_cpus, .job_rebind = true, JOB_ENGINE,
	},
	[ACTION_CGROUP_MOVE] = {
		.id = ACTION_CGROUP_MOVE, .name = "cgroup move", .where = ACTION_AT_CGROUPS,
		.keys = { 'm', ACTION_KEY_F(7) }, .key_label = "m F7",
		.key_help = "move the cgroup to a node: its cpuset.mems (v2; the kernel migrates its pages)",
		.option = "migrate-cgroup", .option_arg = "PATH", .to_node = true,
		.option_help = "move a cgroup (v2) to --to NODE: set its\n"
			       "cpuset.mems, the kernel migrates its pages",
		CG_ENGINE,
	},
	[ACTION_MIGRATE_HOT] = {
		.id = ACTION_MIGRATE_HOT, .name = "migrate hot", .where = ACTION_AT_DIALOG,
		.keys = { 'h' }, .key_label = "h",
		.option = "hot",
		.option_help = "with --migrate: only the memory DAMON sees accessed\n"
			       "(watched for a few seconds first); the cold rest stays",
		.kthread_errno = ACTION_EKTHREAD,
		.verify = v_hot, .job_migrate = true, .heat = 1, JOB_ENGINE,
	},
	[ACTION_MIGRATE_COLD] = {
		.id = ACTION_MIGRATE_COLD, .name = "migrate cold", .where = ACTION_AT_DIALOG,
		.keys = { 'h' }, .key_label = "h",
		.option = "cold",
		.option_help = "with --migrate: only the memory DAMON sees untouched\n"
			       "for 5 s or more (demote it to a slower tier); the hot\n"
			       "and warm ranges stay. Refused without a slower tier,\n"
			       "against a bind policy, or without room there",
		.kthread_errno = ACTION_EKTHREAD,
		.verify = v_cold, .job_migrate = true, .heat = 2, JOB_ENGINE,
	},
};

const struct action_def *action_by_option(const char *name)
{
	for (size_t i = 0; i < ACTION_N; i++)
		if (action_defs[i].option && strcmp(action_defs[i].option, name) == 0)
			return &action_defs[i];
	return NULL;
}

/* "      --migrate PID    move ..." and its further lines under the text. */
static void usage_row(FILE *f, const char *flags, const char *help)
{
	fprintf(f, "      %-15s  ", flags);
	for (const char *p = help; *p;) {
		size_t w = strcspn(p, "\n");
		fprintf(f, "%.*s\n", (int)w, p);
		p += w;
		if (*p == '\n' && *++p)
			fputs("                       ", f);
	}
}

void action_usage(FILE *f)
{
	char flags[64], to[160];
	size_t o = 0;
	to[0] = '\0';
	for (size_t i = 0; i < ACTION_N; i++) {
		const struct action_def *d = &action_defs[i];
		if (!d->option || !d->option_arg)
			continue;
		snprintf(flags, sizeof(flags), "--%s %s", d->option, d->option_arg);
		usage_row(f, flags, d->option_help);
		if (d->to_node && o < sizeof(to))
			o += (size_t)snprintf(to + o, sizeof(to) - o, "%s--%s", o ? " / " : "", d->option);
	}
	char text[200];
	snprintf(text, sizeof(text), "target node of %s", to);
	usage_row(f, "--to NODE", text);
	for (size_t i = 0; i < ACTION_N; i++) {
		const struct action_def *d = &action_defs[i];
		if (!d->option || d->option_arg)
			continue;
		snprintf(flags, sizeof(flags), "--%s", d->option);
		usage_row(f, flags, d->option_help);
	}
}
