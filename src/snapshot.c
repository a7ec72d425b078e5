/* snapshot.c - the snapshot model's lifetime and warnings. */
#include "snapshot.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsroot.h"
#include "sanitize.h"

const char *const nm_state_names[] = {
	"not_read", "ok", "no_perm", "gone", "error",
};

const struct snap_sched snap_sched_unknown = { -1, -1, -1, -1 };

struct snap_sched *snapshot_sched_add(struct snapshot *s)
{
	if (s->nsched == s->schedcap)
		return NULL;
	struct snap_sched *e = &s->sched[s->nsched++];
	*e = snap_sched_unknown;
	return e;
}

void snapshot_free(struct snapshot *s)
{
	if (s->topo)
		nodestat_free(s->nodes, s->topo->nnodes);
	else
		free(s->nodes);
	free(s->node_load);
	free(s->node_ticks);
	free(s->ns_rate);
	if ((void *)s->plist.v == (void *)s->procs)
		s->plist.v = NULL;      /* one array: the sampler scans into procs */
	free(s->procs);
	free(s->order);
	free(s->kb_pool);
	free(s->why);
	free(s->sched);
	free(s->nk.node);
	free(s->nk.node_rate);
	free(s->nk.tier);
	free(s->acc);
	free(s->acc_reg);
	free(s->acc_kb);
	tiers_free(&s->nk.tiers);
	free(s->low_kb);
	proc_list_free(&s->plist);
	cgroup_set_free(&s->cgroups);
	for (size_t i = 0; i < s->nrec_strings; i++)
		free(s->rec_strings[i]);
	free(s->rec_strings);
	memset(s, 0, sizeof(*s));
}

const char *snapshot_balancing_name(int mode)
{
	switch (mode) {
	case 0: return "off";
	case 1: return "NUMA";
	case 2: return "tiering";
	case 3: return "NUMA+tiering";
	default: return mode < 0 ? "unknown" : "on";
	}
}

int64_t snapshot_node_used_kb(const struct node_sample *ns)
{
	int64_t tot = ns->mem.mem_total_kb, fr = ns->mem.mem_free_kb;
	return tot >= 0 && fr >= 0 && fr <= tot ? tot - fr : -1;
}

int64_t snapshot_node_cache_kb(const struct node_sample *ns)
{
	int64_t used = snapshot_node_used_kb(ns), fp = ns->mem.file_pages_kb;
	return used >= 0 && fp >= 0 && fp <= used ? fp : -1;
}

double snapshot_node_used_pct(const struct node_sample *ns)
{
	int64_t used = snapshot_node_used_kb(ns);
	return used >= 0 && ns->mem.mem_total_kb > 0 ? 100.0 * (double)used / (double)ns->mem.mem_total_kb
						       : -1;
}

double snapshot_hint_local_pct(const struct snap_numa_kernel *nk)
{
	double h = nk->sys_rate[NVM_HINT_FAULTS], l = nk->sys_rate[NVM_HINT_FAULTS_LOCAL];
	return h > 0 && l >= 0 ? 100.0 * l / h : -1;
}

const struct why_result *snapshot_why(const struct snapshot *s, const struct snap_proc *p)
{
	return p->why_idx >= 0 && (size_t)p->why_idx < s->nwhy ? &s->why[p->why_idx] : NULL;
}

int snapshot_keep_string(struct snapshot *s, const char *v, char **out)
{
	char **g = realloc(s->rec_strings, (s->nrec_strings + 1) * sizeof(char *));
	if (!g)
		return -ENOMEM;
	s->rec_strings = g;
	if (!(g[s->nrec_strings] = strdup(v ? v : "")))
		return -ENOMEM;
	if (out)
		*out = g[s->nrec_strings];
	s->nrec_strings++;
	return 0;
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

static size_t say(void (*fn)(void *, const char *), void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static size_t say(void (*fn)(void *, const char *), void *ctx, const char *fmt, ...)
{
	if (fn) {
		char line[256];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(line, sizeof(line), fmt, ap);
		va_end(ap);
		fn(ctx, line);
	}
	return 1;
}

/* A file that exists but could not be read (its absence is normal in
 * recorded trees). */
static bool broken(int rc)
{
	return rc && rc != -ENOENT;
}

size_t snapshot_no_perm(const struct snapshot *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->nprocs; i++)
		n += s->procs[i].nm == NMS_NO_PERM;
	return n;
}

/* As root the advice would be wrong: what root cannot read is a process
 * with capabilities this program lacks (a container's bounding set), or
 * of another user namespace. */
const char *snapshot_no_perm_why(void)
{
	return geteuid() == 0 ? "not readable even as root (more privileged than this program, or "
				"in another user namespace)"
			      : "not readable: run as root or with CAP_SYS_PTRACE";
}

bool snapshot_no_perm_text(const struct snapshot *s, char *out, size_t n)
{
	size_t np = snapshot_no_perm(s);
	out[0] = '\0';
	if (!np)
		return false;
	snprintf(out, n, "%zu of %zu process%s %s", np, s->nprocs, s->nprocs == 1 ? "" : "es",
		 snapshot_no_perm_why());
	return true;
}

bool snapshot_no_perm_short(const struct snapshot *s, char *lng, size_t nl, char *shrt,
			    size_t ns)
{
	size_t np = snapshot_no_perm(s);
	lng[0] = shrt[0] = '\0';
	if (!np)
		return false;
	snprintf(lng, nl, "%zu unreadable%s", np, geteuid() == 0 ? " even as root" : ": run as root");
	snprintf(shrt, ns, "%zu unreadable", np);
	return true;
}

size_t snapshot_warnings(const struct snapshot *s,
			 void (*fn)(void *ctx, const char *line), void *ctx)
{
	size_t n = 0;
	const struct proc_list *pl = &s->plist;
	if (s->replayed) {
		for (size_t i = 0; i < s->rec_nwarnings; i++)
			n += say(fn, ctx, "%s", s->rec_strings[i]);
		return n;
	}
	char np[160];
	if (snapshot_no_perm_text(s, np, sizeof(np)))
		n += say(fn, ctx, "%s", np);
	if (s->proc_rc)
		n += say(fn, ctx, "process list unreadable: %s", fsroot_strerror(-s->proc_rc));
	if (pl->nbad)
		n += say(fn, ctx, "%zu process%s skipped: /proc/%d/stat unparsable%s", pl->nbad,
			 pl->nbad == 1 ? "" : "es", pl->first_bad, pl->nbad > 1 ? " (and others)" : "");
	if (pl->nunread)
		n += say(fn, ctx, "%zu process%s left out: /proc/%d/stat: %s%s", pl->nunread,
			 pl->nunread == 1 ? "" : "es", pl->first_unread,
			 fsroot_strerror(pl->unread_errno), pl->nunread > 1 ? " (and others)" : "");
	if (broken(s->stat_rc))
		n += say(fn, ctx, "/proc/stat: %s: CPU load unknown", fsroot_strerror(s->stat_rc));
	if (broken(s->vmstat_rc))
		n += say(fn, ctx, "/proc/vmstat: %s: migration counters unknown",
			 fsroot_strerror(s->vmstat_rc));
	const struct topology *t = s->topo;
	for (size_t i = 0; t && s->nodes && i < t->nnodes; i++)
		if (broken(s->nodes[i].numastat_rc) && s->nodes[i].numastat_rc != -EINVAL)
			n += say(fn, ctx, "node%d/numastat: %s: NUMA counters unknown", t->nodes[i].id,
				 fsroot_strerror(s->nodes[i].numastat_rc));
	size_t other = 0, bad = 0, huge = 0;
	int other_id = -1, other_pid = 0, bad_pid = 0, huge_pid = 0;
	for (size_t i = 0; i < s->nprocs; i++) {      /* the first shown */
		const struct snap_proc *p = snapshot_row(s, i);
		if (p->nm != NMS_OK)
			continue;
		if (p->unknown_node_kb > 0 && other++ == 0)
			other_id = p->unknown_node_id, other_pid = p->info.pid;
		if (p->nm_warnings && bad++ == 0)
			bad_pid = p->info.pid;
		if (p->huge_unknown && huge++ == 0)
			huge_pid = p->info.pid;
	}
	if (other)
		n += say(fn, ctx, "pages on node %d, which the topology does not have (PID %d%s): "
			 "counted as unknown node, not as remote", other_id, other_pid,
			 other > 1 ? " and others" : "");
	if (bad)
		n += say(fn, ctx, "%zu process%s with numa_maps lines not understood (PID %d): "
			 "their numbers are partial", bad, bad == 1 ? "" : "es", bad_pid);
	if (huge)
		n += say(fn, ctx, "%zu process%s with hugetlb pages of unknown size (PID %d; no "
			 "Hugepagesize in /proc/meminfo): not counted", huge, huge == 1 ? "" : "es",
			 huge_pid);
	const struct cgroup_set *cs = &s->cgroups;
	if (s->have_cgroups && cs->truncated && cs->first_cut >= 0 && (size_t)cs->first_cut < cs->n) {
		/* The end of the path (whole components), made printable. */
		const char *path = cs->v[cs->first_cut].path, *tail = path;
		size_t len = strlen(path);
		if (len > 60) {
			tail = path + len - 60;
			const char *slash = strchr(tail, '/');
			tail = slash ? slash : tail;
		}
		char shown[96];
		sanitize_term(tail, shown, sizeof(shown));
		n += say(fn, ctx, "cgroups: %zu not read below %s%s (deeper than %d levels, or over %d "
			 "cgroups): process counts above them unknown", cs->truncated,
			 tail == path ? "" : "...", shown, CGROUP_MAX_DEPTH, CGROUP_MAX);
	}
	return n;
}

const struct snap_proc *snapshot_find_proc(const struct snapshot *s, int pid, uint64_t starttime)
{
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i].info.pid == pid &&
		    (!starttime || s->procs[i].info.starttime == starttime))
			return &s->procs[i];
	return NULL;
}

const int64_t *snapshot_region_node_kb(const struct snapshot *s, const struct access_region *r)
{
	return s->acc_kb + r->kb_off;
}
