/* columns.c - the process-table column table and what reads it: names,
 * sort values, cells and column lists (the memory tier columns' values,
 * cells and default places are src/columns_tiers.c's). */
#include "columns.h"
#include "columns_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sanitize.h"
#include "format.h"
#include "tiers.h"
#include "why.h"

/* ---- values ---------------------------------------------------------- */

static bool v_pid(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = p->info.pid;
	return true;
}

static bool v_home(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = p->home;
	return p->home >= 0;
}

static bool v_cpu(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = p->cpu_pct;
	return p->cpu_pct >= 0;
}

static bool v_rss(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = (double)p->info.rss_kb;
	return p->info.rss_kb >= 0;
}

static bool v_node(const struct snap_proc *p, int node, double *v)
{
	bool ok = p->nm == NMS_OK && node >= 0;
	*v = ok ? (double)p->node_kb[node] : 0;
	return ok;
}

static bool v_remote(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = (double)p->remote_kb;
	return p->remote_kb >= 0;
}

static bool v_remote_pct(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = snap_remote_pct(p);
	return *v >= 0;
}

static bool v_time(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = (double)(p->info.utime + p->info.stime);
	return true;
}

static bool v_threads(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = (double)p->info.nthreads;
	return p->info.nthreads >= 0;
}

static bool v_age(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = p->nm_age_s;
	return p->nm_age_s >= 0;
}

static const char *s_user(const struct snap_proc *p) { return p->info.user; }
static const char *s_comm(const struct snap_proc *p) { return p->info.comm; }

static const char *s_policy(const struct snap_proc *p)
{
	return p->nm == NMS_OK && p->policy[0] ? p->policy : NULL;
}

/* ---- cells ----------------------------------------------------------- */

static void c_pid(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	snprintf(out, n, "%d", p->info.pid);
}

static void c_user(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	sanitize_term(p->info.user, out, n);
}

static void c_home(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	if (p->home >= 0)
		snprintf(out, n, "%d", c->t->nodes[p->home].id);
	else
		snprintf(out, n, "-");
}

static void c_cpu(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	fmt_pct(out, n, p->cpu_pct);
}

static void c_rss(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	col_kb_cell(c, p->info.rss_kb, false, out, n);
}

/* Not read: the reason in every text cell; the monitor says it once. */
static void c_node(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	if (p->nm == NMS_OK)
		col_kb_cell(c, p->node_kb[node], p->nm_sampled, out, n);
	else
		snprintf(out, n, "%s", !c->monitor || node == c->mark_node ? snapshot_nm_mark(p) : "");
}

static void c_remote(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	if (!c->monitor)
		fmt_kb(out, n, p->remote_kb);
	else if (p->nm == NMS_OK)
		col_kb_cell(c, p->remote_kb, p->nm_sampled, out, n);
	else
		snprintf(out, n, "%s", snapshot_nm_mark(p));
}

static void c_remote_pct(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	fmt_pct(out, n, c->monitor && p->nm != NMS_OK ? -1 : snap_remote_pct(p));
}

/* CPU time as htop's TIME+: M:SS.hh, or HhMM:SS from an hour on. */
static void c_time(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	/* hundredths of a second */
	unsigned long long t = (unsigned long long)(parse_ticks_s(p->info.utime + p->info.stime) * 100.0 + 0.5);
	unsigned long long s = t / 100, h = s / 3600;
	if (h)
		snprintf(out, n, "%lluh%02llu:%02llu", h, s / 60 % 60, s % 60);
	else
		snprintf(out, n, "%llu:%02llu.%02llu", s / 60, s % 60, t % 100);
}

static void c_threads(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	fmt_kb(out, n, p->info.nthreads);
}

static void c_age(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	fmt_age(out, n, p->nm_age_s);
}

static void c_policy(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	const char *s = s_policy(p);
	sanitize_term(s ? s : "-", out, n);
}

static const char *s_why(const struct snap_proc *p)
{
	return why_cause_name(p->why);
}

static void c_why(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	const char *s = s_why(p);
	snprintf(out, n, "%s", s ? s : "-");
}

static bool v_racc(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = snap_sched(p)->racc_pct;
	return snap_sched(p)->racc_pct >= 0;
}

/* Heat: the process's access numbers (access.h), unknown without. They
 * sort only when usable (a stale or measured HOTREM never puts a process
 * first); otherwise their cells are marked "~" (access_proc_trust). */
static bool v_hot(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	const struct access_proc *a = access_usable(p->acc);
	*v = a ? (double)a->hot_kb : 0;
	return a && a->hot_kb >= 0;
}

static bool v_hotrem(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	const struct access_proc *a = access_usable(p->acc);
	*v = a ? (double)a->hot_remote_kb : 0;
	return a && a->hot_remote_kb >= 0;
}

static bool v_hotrem_pct(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	const struct access_proc *a = access_usable(p->acc);
	*v = a ? a->hot_remote_pct : 0;
	return a && a->hot_remote_pct >= 0;
}

static void c_hot(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	col_kb_cell(c, p->acc ? p->acc->hot_kb : -1, p->acc && !access_usable(p->acc), out, n);
}

static void c_hotrem(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	col_kb_cell(c, p->acc ? p->acc->hot_remote_kb : -1, p->acc && !access_usable(p->acc), out, n);
}

static void c_hotrem_pct(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	fmt_pct(out, n, p->acc ? p->acc->hot_remote_pct : -1);
	size_t l = strlen(out);
	if (p->acc && !access_usable(p->acc) && p->acc->hot_remote_pct >= 0 && l + 1 < n) {
		out[l] = '~';
		out[l + 1] = '\0';
	}
}

static void c_racc(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	fmt_pct(out, n, snap_sched(p)->racc_pct);
}

static const char *s_cgroup(const struct snap_proc *p)
{
	return p->cgroup;
}

static void c_cgroup(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	char s[256];
	if (!p->cgroup) {
		snprintf(out, n, "-");
		return;
	}
	cgroup_short_name(p->cgroup, s, sizeof(s));
	sanitize_term(s, out, n);
}

static void c_command(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	const char *s = c->full_command && p->info.cmdline[0] ? p->info.cmdline : p->info.comm;
	sanitize_term(s, out, n);
}

/* ADVICE: the advice's action and node in a word (why.h). A move of
 * memory that waits for usable heat says "wait". */
static void c_advice(const struct col_ctx *c, const struct snap_proc *p, int node, char *out,
		     size_t n)
{
	(void)node;
	const struct why_result *w = c->snap ? snapshot_why(c->snap, p) : NULL;
	if (!w) {              /* judged small, or not read */
		snprintf(out, n, "%s", p->nm == NMS_OK ? "none" : "-");
		return;
	}
	switch (w->action) {
	case WHY_ACT_MIGRATE: snprintf(out, n, "migrate->N%d", w->node); break;
	case WHY_ACT_REBIND: snprintf(out, n, "rebind->N%d", w->node); break;
	case WHY_ACT_MIGRATE_HOT: snprintf(out, n, "hot->N%d", w->node); break;
	default: snprintf(out, n, "%s", strstr(w->text, "waits for it") ? "wait" : "none"); break;
	}
}

/* ---- the table ------------------------------------------------------- */

static const struct col_def cols[COL_NCOLS] = {
	[COL_PID] = { "PID", "PID", "PID", "process id (a thread row: its TID)",
		      7, 7, 0, false, false, v_pid, NULL, c_pid },
	[COL_USER] = { "USER", "USER", "USER", "effective user",
		       -10, -9, 1, false, false, NULL, s_user, c_user },
	[COL_HOME] = { "HOME", "HOME", "HOME", "node where most threads last ran (main thread breaks ties)",
		       4, 5, 1, false, false, v_home, NULL, c_home },
	[COL_CPU] = { "CPU%", "CPU%", "CPU%", "CPU use since the previous sample, 100 = one CPU",
		      6, 5, 1, true, false, v_cpu, NULL, c_cpu },
	[COL_RSS] = { "RSS", "RSS_KB", "RSS", "resident memory (kB)",
		      10, 6, 1, true, false, v_rss, NULL, c_rss },
	[COL_NODE] = { "N", "N", "N", "N<id>: kB resident on that node (numa_maps); N: every node",
		       10, 7, 1, true, true, v_node, NULL, c_node },
	[COL_REMOTE] = { "REMOTE", "REMOTE", "REMOTE", "kB on nodes other than HOME",
			 10, 7, 1, true, false, v_remote, NULL, c_remote },
	[COL_REMOTE_PCT] = { "REMOTE%", "REMOTE%", "REMOTE%", "REMOTE / total resident in numa_maps",
			     7, 8, 1, true, false, v_remote_pct, NULL, c_remote_pct },
	[COL_WHY] = { "WHY", "WHY", "WHY",
		      "why REMOTE: none policy cpuset shared_file spread spill moved unknown demoted "
		      "slow_tier_hot",
		      -13, -13, 1, false, false, NULL, s_why, c_why },
	[COL_RACC] = { "RACC%", "RACC%", "RACC%",
		       "kernel's sampled NUMA faults on another node than the thread's (NUMA balancing)",
		       7, 6, 1, true, false, v_racc, NULL, c_racc },
	[COL_HOT] = { "HOT", "HOT_KB", "HOT", "kB accessed in the last DAMON interval (access heat)",
		      10, 6, 1, true, false, v_hot, NULL, c_hot },
	[COL_HOTREM] = { "HOTREM", "HOTREM_KB", "HOTREM",
			 "hot kB on nodes where none of its threads works",
			 10, 7, 1, true, false, v_hotrem, NULL, c_hotrem },
	[COL_HOTREM_PCT] = { "HOTREM%", "HOTREM%", "HOTREM%", "HOTREM / HOT",
			     8, 8, 1, true, false, v_hotrem_pct, NULL, c_hotrem_pct },
	[COL_TIME] = { "TIME", "TIME", "TIME+", "CPU time used (user + system)",
		       10, 9, 1, true, false, v_time, NULL, c_time },
	[COL_THREADS] = { "THR", "THR", "THR", "number of threads",
			  5, 4, 1, true, false, v_threads, NULL, c_threads },
	[COL_AGE] = { "AGE", "AGE", "AGE", "seconds since the placement numbers were read",
		      6, 5, 1, true, false, v_age, NULL, c_age },
	[COL_CGROUP] = { "CGROUP", "CGROUP", "CGROUP",
			 "cgroup: systemd unit, container id (12), pod; the path in JSON",
			 -20, -19, 1, false, false, NULL, s_cgroup, c_cgroup },
	[COL_POLICY] = { "POLICY", "POLICY", "POLICY", "memory policy of the mappings (numa_maps)",
			 -24, -16, 2, false, false, NULL, s_policy, c_policy },
	[COL_COMMAND] = { "COMMAND", "COMMAND", "COMMAND", "command name (the monitor, and -c: the command line)",
			  -16, -16, 1, false, false, NULL, s_comm, c_command },
	[COL_FAST] = { "FAST", "FAST", "FAST", "kB on the fastest memory tier (memory_tierN, the lowest N)",
		       10, 7, 1, true, false, NULL, NULL, col_fast_cell, false, col_fast_num },
	[COL_SLOW] = { "SLOW", "SLOW", "SLOW", "kB on slower memory tiers (CXL, far memory: CPU-less nodes)",
		       10, 7, 1, true, false, NULL, NULL, col_slow_cell, false, col_slow_num },
	[COL_SLOW_PCT] = { "SLOW%", "SLOW%", "SLOW%", "SLOW / total resident in numa_maps",
			   6, 6, 1, true, false, NULL, NULL, col_slow_pct_cell, false, col_slow_pct_num },
	[COL_HOTSLOW] = { "HOTSLOW", "HOTSLOW", "HOTSLOW",
			  "hot kB on slower memory tiers (they pay the far latency: promote)",
			  10, 8, 1, true, false, col_hot_slow_num, NULL, col_hot_slow_cell },
	[COL_COLDFAST] = { "COLDFAST", "COLDFAST", "COLDFAST",
			   "cold kB on the fastest memory tier (room it could make: demote)",
			   10, 9, 1, true, false, col_cold_fast_num, NULL, col_cold_fast_cell },
	[COL_TIER] = { "T", "T", "T",
		       "T<id>: kB resident on the nodes of memory_tier<id> (numa_maps); T: every tier",
		       10, 7, 1, true, false, NULL, NULL, col_tier_cell, true, col_tier_num },
	[COL_ADVICE] = { "ADVICE", "ADVICE", "ADVICE",
			 "the one fix in short: migrate->N<id>, rebind->N<id>, hot->N<id> (its hot part), "
			 "wait (heat not usable yet), none; the whole advice: x, detail, JSON",
			 -13, -13, 1, false, false, NULL, NULL, c_advice },
};

const struct col_def *col_get(enum snap_col c)
{
	return c >= 0 && c < COL_NCOLS ? &cols[c] : NULL;
}

const char *col_help_name(enum snap_col c)
{
	return cols[c].per_node ? "N<id>" : cols[c].per_tier ? "T<id>" : cols[c].name;
}

bool col_same(enum snap_col a, int anode, enum snap_col b, int bnode)
{
	return a == b && ((!cols[a].per_node && !cols[a].per_tier) || anode == bnode);
}

void col_ref_name(const struct topology *t, struct col_ref r, char *out, size_t n)
{
	if (cols[r.col].per_node && r.node >= 0 && t && (size_t)r.node < t->nnodes)
		snprintf(out, n, "N%d", t->nodes[r.node].id);
	else if (cols[r.col].per_tier && r.node >= 0)
		snprintf(out, n, "T%d", r.node);
	else
		snprintf(out, n, "%s", cols[r.col].name);
}

/* ---- names ----------------------------------------------------------- */

int col_parse_name(const struct topology *t, const char *name, struct col_ref *out)
{
	static const struct { const char *alias; enum snap_col col; } aliases[] = {
		{ "cpu", COL_CPU }, { "mem", COL_RSS }, { "rss_kb", COL_RSS },
		{ "remote_pct", COL_REMOTE_PCT }, { "remotepct", COL_REMOTE_PCT },
		{ "racc", COL_RACC }, { "remote_access_pct", COL_RACC },
		{ "comm", COL_COMMAND }, { "threads", COL_THREADS }, { "nlwp", COL_THREADS },
		{ "time+", COL_TIME }, { "nodes", COL_NODE },
		{ "hot_kb", COL_HOT }, { "hotrem_kb", COL_HOTREM }, { "hot_remote", COL_HOTREM },
		{ "hotrem_pct", COL_HOTREM_PCT }, { "hotrempct", COL_HOTREM_PCT },
	};
	for (int c = 0; c < COL_NCOLS; c++) {
		if (strcasecmp(name, cols[c].name) == 0) {
			*out = (struct col_ref){ (enum snap_col)c, -1 };
			return 0;
		}
	}
	for (size_t i = 0; i < sizeof(aliases) / sizeof(*aliases); i++) {
		if (strcasecmp(name, aliases[i].alias) == 0) {
			*out = (struct col_ref){ aliases[i].col, -1 };
			return 0;
		}
	}
	if ((name[0] == 'N' || name[0] == 'n') && name[1] >= '0' && name[1] <= '9') {
		char *end;
		long id = strtol(name + 1, &end, 10);
		if (*end || id < 0 || id >= 0x7fffffff)
			return -EINVAL;
		int idx = t ? topology_node_index(t, (int)id) : 0;
		if (idx < 0)
			return -ENOENT;
		*out = (struct col_ref){ COL_NODE, idx };
		return 0;
	}
	return col_tier_parse(name, out) ? 0 : -EINVAL;
}

int col_parse_sort(const struct topology *t, const char *name, struct sort_key *key)
{
	struct col_ref r;
	int rc = col_parse_name(t, name, &r);
	if (rc)
		return rc;
	if ((cols[r.col].per_node || cols[r.col].per_tier) && r.node < 0)
		return -EINVAL;
	*key = (struct sort_key){ r.col, r.node, cols[r.col].desc_sort, NULL, false };
	return 0;
}

void col_valid_names(char *out, size_t n)
{
	size_t o = 0;
	out[0] = '\0';
	for (int c = 0; c < COL_NCOLS && o < n; c++)
		o += (size_t)snprintf(out + o, n - o, "%s%s", c ? " " : "",
				      col_help_name((enum snap_col)c));
}

int col_list_parse(const struct topology *t, const char *spec, struct col_list *l,
		   char *err, size_t errsz)
{
	char *copy = strdup(spec), *save = NULL;
	if (!copy)
		return -ENOMEM;
	int rc = 0;
	l->n = 0;
	/* An empty name (",,", a comma first or last) is a mistake, as in -p. */
	size_t len = strlen(spec);
	if (len && (spec[0] == ',' || spec[len - 1] == ',' || strstr(spec, ",,"))) {
		rc = -EINVAL;
		if (err)
			snprintf(err, errsz, "an empty name in the column list '%s'", spec);
	}
	for (char *tok = rc ? NULL : strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		struct col_ref r;
		rc = col_parse_name(t, tok, &r);
		if (rc == 0)
			rc = col_list_insert(l, l->n, r);
		else if (err) {
			char names[256];
			col_valid_names(names, sizeof(names));
			snprintf(err, errsz, rc == -ENOENT ? "no node '%s' on this machine (columns: %s)"
							    : "unknown column '%s' (columns: %s)", tok, names);
		}
	}
	if (!rc && l->n == 0) {
		rc = -EINVAL;
		if (err)
			snprintf(err, errsz, "empty column list");
	}
	free(copy);
	return rc;
}

/* ---- cells and headers ----------------------------------------------- */

void col_header(const struct col_ctx *c, enum snap_col col, int node, char *out, size_t n)
{
	if (col == COL_NODE && node >= 0)
		snprintf(out, n, "N%d", c->t->nodes[node].id);
	else if (cols[col].per_tier && node >= 0)
		snprintf(out, n, "T%d", node);
	else
		snprintf(out, n, "%s", c->monitor ? cols[col].ui_hdr : cols[col].text_hdr);
}

int col_width(const struct col_ctx *c, enum snap_col col)
{
	int w = c->monitor ? cols[col].ui_w : cols[col].text_w;
	return w < 0 ? -w : w;
}

void col_cell(const struct col_ctx *c, enum snap_col col, int node,
	      const struct snap_proc *p, char *out, size_t n)
{
	cols[col].cell(c, p, node, out, n);
}

void col_pad(const struct col_ctx *c, enum snap_col col, bool last,
	     const char *s, char *out, size_t n)
{
	int w = c->monitor ? cols[col].ui_w : cols[col].text_w;
	if (w > 0) {
		snprintf(out, n, "%*s", w, s);
	} else if (last) {
		snprintf(out, n, "%s", s);
	} else {
		/* Cut and padded by display columns, never inside a
		 * character (the JSON has it whole). */
		int aw = -w, used;
		size_t fit = utf8_fit(s, aw, &used);
		if (s[fit] && aw >= 1)
			fit = utf8_fit(s, aw - 1, &used);
		snprintf(out, n, "%.*s%s%*s", (int)fit, s, s[fit] ? "+" : "",
			 aw - used - (s[fit] ? 1 : 0), "");
	}
}

/* ---- sorting --------------------------------------------------------- */

int col_compare(const struct snap_proc *a, const struct snap_proc *b,
		const struct sort_key *k)
{
	const struct col_def *d = &cols[k->col];
	int r = 0;
	if (d->str) {
		const char *x = d->str(a), *y = d->str(b);
		if (!x != !y)
			return x ? -1 : 1;      /* unknown last, both ways */
		r = x ? strcmp(x, y) : 0;
	} else {
		double x = 0, y = 0;
		bool kx = d->tier_num ? d->tier_num(k->tiers, a, k->node, &x) : d->num(a, k->node, &x);
		bool ky = d->tier_num ? d->tier_num(k->tiers, b, k->node, &y) : d->num(b, k->node, &y);
		if (kx != ky)
			return kx ? -1 : 1;
		if (kx && x != y)
			r = (x < y) ? -1 : 1;
	}
	if (k->descending)
		r = -r;
	/* Heat ties (unknown, measuring, none hot): the most remote first. */
	if (r == 0 && (k->col == COL_HOT || k->col == COL_HOTREM || k->col == COL_HOTREM_PCT ||
		       k->col == COL_HOTSLOW))
		r = (b->remote_kb > a->remote_kb) - (b->remote_kb < a->remote_kb);
	if (r == 0 && k->col != COL_RSS)        /* ties: the biggest first */
		r = (b->info.rss_kb > a->info.rss_kb) - (b->info.rss_kb < a->info.rss_kb);
	if (r == 0)
		r = (a->info.pid > b->info.pid) - (a->info.pid < b->info.pid);
	return r;
}

static int cmp_proc(const void *va, const void *vb, void *ctx)
{
	return col_compare(va, vb, ctx);
}

void snapshot_sort(struct snapshot *s, const struct sort_key *key)
{
	/* glibc's qsort_r (_GNU_SOURCE): the key goes with the call, no
	 * file-static state. */
	if (s->nprocs < 2)
		return;
	struct sort_key k = col_sort_effective(key, s);
	k.tiers = &s->nk.tiers;      /* the T<id> values: this sample's tiers */
	qsort_r(s->procs, s->nprocs, sizeof(*s->procs), cmp_proc, &k);
}

struct sort_key col_sort_effective(const struct sort_key *key, const struct snapshot *s)
{
	/* Heat there (watched, usable or not yet): the order stays put while
	 * a process's heat is measuring or goes stale for a sample, and those
	 * sort as unknown, among themselves by REMOTE. */
	struct sort_key k = *key;
	if (!k.heat_default || !s->nacc)
		return k;
	k.col = tiers_multi(&s->nk.tiers) ? COL_HOTSLOW : COL_HOTREM;
	k.node = -1;
	k.descending = true;
	return k;
}

int col_setup(const struct topology *t, const char *sort, const char *spec, bool age,
	      struct sort_key *key, struct col_list *l, char *err, size_t errsz)
{
	*key = (struct sort_key){ COL_REMOTE, -1, true, NULL, true };
	if (sort && col_parse_sort(t, sort, key) != 0) {
		snprintf(err, errsz, "-s: no column '%s' on this machine", sort);
		return -EINVAL;
	}
	if (!spec)
		return 0;
	char e[480];
	int rc = col_list_parse(t, spec, l, e, sizeof(e));
	if (rc == 0 && age)
		rc = col_list_set_age(l, true);
	if (rc)
		snprintf(err, errsz, "-o: %s", e);
	return rc;
}
