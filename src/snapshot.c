/* snapshot.c - the snapshot model's lifetime and sorting. */
#include "snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const nm_state_names[] = {
	"not_read", "ok", "no_perm", "gone", "error",
};

const char *const snap_col_names[COL_NCOLS] = {
	[COL_PID] = "PID",         [COL_USER] = "USER",
	[COL_HOME] = "HOME",       [COL_CPU] = "CPU%",
	[COL_RSS] = "RSS",         [COL_NODE] = "N",
	[COL_REMOTE] = "REMOTE",   [COL_REMOTE_PCT] = "REMOTE%",
	[COL_TIME] = "TIME",       [COL_THREADS] = "THR",
	[COL_AGE] = "AGE",
	[COL_COMMAND] = "COMMAND",
};

void snapshot_free(struct snapshot *s)
{
	if (s->topo)
		nodestat_free(s->nodes, s->topo->nnodes);
	else
		free(s->nodes);
	free(s->node_load);
	free(s->ns_rate);
	free(s->procs);
	free(s->kb_pool);
	proc_list_free(&s->plist);
	memset(s, 0, sizeof(*s));
}

const char *snapshot_nm_mark(const struct snap_proc *p)
{
	switch (p->nm) {
	case NMS_NO_PERM: return "no perm";
	case NMS_GONE: return "gone";
	case NMS_ERROR: return "error";
	default: return "-";
	}
}

bool snapshot_col_default_desc(enum snap_col col)
{
	return !(col == COL_PID || col == COL_USER || col == COL_COMMAND ||
		 col == COL_HOME);
}

int snapshot_parse_col(const struct topology *t, const char *name,
		       struct sort_key *key)
{
	static const struct { const char *alias; enum snap_col col; } aliases[] = {
		{ "cpu", COL_CPU }, { "mem", COL_RSS }, { "remote_pct", COL_REMOTE_PCT },
		{ "remotepct", COL_REMOTE_PCT }, { "comm", COL_COMMAND },
		{ "threads", COL_THREADS }, { "nlwp", COL_THREADS },
	};
	for (int c = 0; c < COL_NCOLS; c++) {
		if (c != COL_NODE && strcasecmp(name, snap_col_names[c]) == 0) {
			key->col = (enum snap_col)c;
			key->node = -1;
			key->descending = snapshot_col_default_desc(key->col);
			return 0;
		}
	}
	for (size_t i = 0; i < sizeof(aliases) / sizeof(*aliases); i++) {
		if (strcasecmp(name, aliases[i].alias) == 0) {
			key->col = aliases[i].col;
			key->node = -1;
			key->descending = snapshot_col_default_desc(key->col);
			return 0;
		}
	}
	if ((name[0] == 'N' || name[0] == 'n') && name[1] >= '0' && name[1] <= '9') {
		char *end;
		long id = strtol(name + 1, &end, 10);
		int idx = *end == '\0' && id >= 0 && id < 0x7fffffff ?
			  topology_node_index(t, (int)id) : -1;
		if (idx < 0)
			return -ENOENT;
		key->col = COL_NODE;
		key->node = idx;
		key->descending = true;
		return 0;
	}
	return -EINVAL;
}

/* Value of a numeric column; false when unknown. */
static bool num_value(const struct snap_proc *p, const struct sort_key *k,
		      double *v)
{
	switch (k->col) {
	case COL_PID: *v = p->info.pid; return true;
	case COL_HOME: *v = p->home; return p->home >= 0;
	case COL_CPU: *v = p->cpu_pct; return p->cpu_pct >= 0;
	case COL_RSS: *v = (double)p->info.rss_kb; return p->info.rss_kb >= 0;
	case COL_NODE:
		*v = p->nm == NMS_OK && k->node >= 0 ? (double)p->node_kb[k->node] : 0;
		return p->nm == NMS_OK && k->node >= 0;
	case COL_REMOTE: *v = (double)p->remote_kb; return p->remote_kb >= 0;
	case COL_REMOTE_PCT: *v = p->remote_pct; return p->remote_pct >= 0;
	case COL_TIME: *v = (double)(p->info.utime + p->info.stime); return true;
	case COL_THREADS: *v = (double)p->info.nthreads; return p->info.nthreads >= 0;
	case COL_AGE: *v = p->nm_age_s; return p->nm_age_s >= 0;
	default: return false;
	}
}

static int cmp_proc(const void *va, const void *vb, void *ctx)
{
	const struct snap_proc *a = va, *b = vb;
	const struct sort_key *k = ctx;
	int r = 0;
	if (k->col == COL_USER || k->col == COL_COMMAND) {
		r = k->col == COL_USER ? strcmp(a->info.user, b->info.user)
				       : strcmp(a->info.comm, b->info.comm);
		if (k->descending)
			r = -r;
	} else {
		double x = 0, y = 0;
		bool kx = num_value(a, k, &x), ky = num_value(b, k, &y);
		if (kx != ky)
			return kx ? -1 : 1;     /* unknown last, both ways */
		if (kx && x != y)
			r = (x < y) ? -1 : 1;
		if (k->descending)
			r = -r;
	}
	if (r == 0)
		r = (a->info.pid > b->info.pid) - (a->info.pid < b->info.pid);
	return r;
}

void snapshot_sort(struct snapshot *s, const struct sort_key *key)
{
	/* glibc's qsort_r (_GNU_SOURCE): the key goes with the call, no
	 * file-static state. */
	if (s->nprocs < 2)
		return;
	qsort_r(s->procs, s->nprocs, sizeof(*s->procs), cmp_proc, (void *)key);
}

int snapshot_proc_warning(const struct snapshot *s, char *out, size_t n)
{
	if (!s->plist.nbad)
		return 0;
	snprintf(out, n, "%zu process%s skipped: /proc/%d/stat unparsable%s", s->plist.nbad,
		 s->plist.nbad == 1 ? "" : "es", s->plist.first_bad,
		 s->plist.nbad > 1 ? " (and others)" : "");
	return 1;
}
