/* action_cli.c - --migrate PID / --rebind PID --to NODE for scripts:
 * before/after kB per node, reasons for pages that did not move, exit
 * status 0 (done), 3 (some pages did not move) or 1 (failed). */
#include "action_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "action.h"
#include "migrate.h"
#include "options.h"
#include "rebind.h"
#include "sanitize.h"
#include "session.h"
#include "topology.h"

static void print_kb_row(FILE *out, const struct topology *t, const char *label,
			 const int64_t *kb)
{
	int64_t total = 0;
	fprintf(out, "%-8s", label);
	for (size_t i = 0; i < t->nnodes; i++) {
		fprintf(out, " %10lld", (long long)kb[i]);
		total += kb[i];
	}
	fprintf(out, " %11lld kB\n", (long long)total);
}

static void print_kb_header(FILE *out, const struct topology *t)
{
	fprintf(out, "%-8s", "");
	for (size_t i = 0; i < t->nnodes; i++) {
		char h[16];
		snprintf(h, sizeof(h), "N%d", t->nodes[i].id);
		fprintf(out, " %10s", h);
	}
	fprintf(out, " %11s\n", "total");
}

static int cpus_allowed(const struct fsroot *r, int pid, char *out, size_t n)
{
	char path[64], text[8192];
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	int len = fsroot_read_small(r, path, text, sizeof(text));
	if (len < 0)
		return len;
	const char *p = strstr(text, "Cpus_allowed_list:");
	if (!p)
		return -ENOENT;
	p += strlen("Cpus_allowed_list:");
	p += strspn(p, " \t");
	snprintf(out, n, "%.*s", (int)strcspn(p, "\n"), p);
	return 0;
}

static int fail(FILE *err, const struct action_target *t, const char *what, int rc)
{
	char e[256];
	fprintf(err, "numatop-tui: %s pid %d: %s\n", what, t->pid,
		action_strerror(rc, e, sizeof(e)));
	return 1;
}

static int fail_step(FILE *err, const struct action_target *t, int to_node, int rc)
{
	char e[256];
	fprintf(err, "numatop-tui: migrate pid %d: %s\n", t->pid,
		migrate_strerror(rc, to_node, e, sizeof(e)));
	return 1;
}

/* What the action could not change, said plainly. */
static void print_notes(FILE *out, const struct fsroot *r, const struct topology *t,
			const struct action_target *tg, const struct migrate_job *j,
			bool rebound)
{
	char policy[64] = "", note[256];
	if (j && j->pv.node_kb) {
		_Static_assert(sizeof(policy) == sizeof(j->pv.policy), "policy sizes");
		memcpy(policy, j->pv.policy, sizeof(policy));
		policy[sizeof(policy) - 1] = '\0';
	} else {
		int64_t *kb = calloc(t->nnodes ? t->nnodes : 1, sizeof(int64_t));
		if (kb && migrate_read_target_placement(r, t, tg, kb, policy, sizeof(policy)) != 0)
			policy[0] = '\0';
		free(kb);
	}
	if (policy[0]) {
		migrate_format_policy_note(policy, rebound, note, sizeof(note));
		fprintf(out, "note: %s\n", note);
	}
	int bal = action_numa_balancing(r);
	if (bal > 0)
		fprintf(out, "note: kernel.numa_balancing=%d: the kernel may move pages again\n", bal);
}

static int do_rebind(FILE *out, FILE *err, const struct fsroot *r,
		     const struct topology *t, const struct action_target *tg,
		     const struct topo_node *node)
{
	char before[256] = "?", after[256] = "?", want[256];
	bitmap_format_list(&node->cpus, want, sizeof(want));
	cpus_allowed(r, tg->pid, before, sizeof(before));
	struct rebind_result res;
	int rc = rebind_threads(r, tg, &node->cpus, &res);
	cpus_allowed(r, tg->pid, after, sizeof(after));
	fprintf(out, "rebind: %zu thread%s to CPUs %s (node %d): %zu set, %zu failed\n",
		res.nthreads, res.nthreads == 1 ? "" : "s", want, node->id,
		res.changed, res.failed);
	fprintf(out, "cpus allowed: before %s, after %s\n", before, after);
	(void)t;
	if (rc) {
		char e[256];
		if (res.first_error_tid)
			fprintf(err, "numatop-tui: rebind pid %d: thread %d: %s\n", tg->pid,
				res.first_error_tid, action_strerror(rc, e, sizeof(e)));
		else
			fail(err, tg, "rebind", rc);
		return 1;
	}
	return 0;
}

static int do_migrate(FILE *out, FILE *err, const struct fsroot *r,
		      const struct topology *t, const struct action_target *tg,
		      int to_node, struct migrate_job *j)
{
	int rc = migrate_prepare(r, t, tg, to_node, j);
	if (rc)
		return fail(err, tg, "migrate", rc);
	int64_t *before = calloc(t->nnodes ? t->nnodes : 1, sizeof(int64_t));
	if (!before)
		return fail(err, tg, "migrate", -ENOMEM);
	memcpy(before, j->pv.node_kb, t->nnodes * sizeof(int64_t));
	bool tty = isatty(fileno(err));
	while ((rc = migrate_step(j, 8192)) == 1)
		if (tty)
			fprintf(err, "\rmoving: %3.0f%%  %.1f MB/s ", 100 * migrate_progress(j),
				migrate_rate(j));
	if (tty)
		fprintf(err, "\r%30s\r", "");
	int status = 0;
	if (rc < 0) {
		status = fail_step(err, tg, to_node, rc);
		if (rc == -ESRCH) {
			free(before);
			return status;
		}
	}
	int64_t *after = j->pv.node_kb;   /* reused: the preview is printed */
	print_kb_header(out, t);
	print_kb_row(out, t, "before", before);
	int arc = migrate_read_target_placement(r, t, tg, after, NULL, 0);
	int ti = topology_node_index(t, to_node);
	/* What moved is what numa_maps shows arrived on the target (page
	 * counts from move_pages see a huge page once per subpage). */
	double mib = (double)j->moved * (double)j->pagesize / 1048576.0;
	if (arc == 0) {
		print_kb_row(out, t, "after", after);
		int64_t d = after[ti] - before[ti];
		mib = d > 0 ? (double)d / 1024.0 : 0;
	} else {
		fprintf(out, "after    unreadable: %s\n", strerror(-arc));
	}
	double secs = j->t_end - j->t_start;
	fprintf(out, "moved %.1f MiB to node %d in %.2f s (%.1f MB/s); %lld kB were there already\n",
		mib, to_node, secs > 0 ? secs : 0, secs > 0 ? mib * 1.048576 / secs : 0,
		(long long)j->pv.on_target_kb);
	free(before);
	uint64_t nm = migrate_not_moved(j);
	if (nm) {
		char why[512];
		migrate_format_not_moved(j, why, sizeof(why));
		fprintf(out, "not moved: %llu pages: %s\n", (unsigned long long)nm, why);
		if (!status)
			status = 3;
	}
	if (j->pv.file_kb || j->pv.huge_kb)
		fprintf(out, "stay: %lld kB page cache (shared with other users), "
			"%lld kB hugetlb\n", (long long)j->pv.file_kb, (long long)j->pv.huge_kb);
	return status;
}

int action_cli_run(const struct options *o, FILE *out, FILE *err)
{
	struct session_config sc;
	struct session se;
	char msg[512];
	options_session(o, false, &sc);
	int rc = session_open(&se, &sc, msg, sizeof(msg));
	if (rc) {
		fprintf(err, "numatop-tui: %s\n", msg);
		return 1;
	}
	const char *why = action_refusal(o->readonly, se.root);
	if (why) {
		fprintf(err, "numatop-tui: actions are %s\n", why);
		session_close(&se);
		return 1;
	}
	const struct fsroot *r = se.root;
	const struct topology *t = &se.topo;
	int status = 1;
	int idx = topology_node_index(t, o->to_node);
	const struct topo_node *node = idx >= 0 ? &t->nodes[idx] : NULL;
	int pid = o->migrate_pid ? o->migrate_pid : o->rebind_pid;
	struct action_target tg;
	struct migrate_job j;
	memset(&j, 0, sizeof(j));
	j.pagemap_fd = -1;
	if (!node) {
		fprintf(err, "numatop-tui: --to %d: no such node\n", o->to_node);
	} else if (o->rebind_pid && bitmap_empty(&node->cpus)) {
		fprintf(err, "numatop-tui: --rebind: node %d has no CPUs (memory only)\n", node->id);
	} else if (o->migrate_pid && !node->has_memory) {
		fprintf(err, "numatop-tui: --migrate: node %d has no memory\n", node->id);
	} else if ((rc = action_target_read(r, pid, &tg)) != 0) {
		status = fail(err, &tg, o->migrate_pid ? "migrate" : "rebind", rc);
	} else if ((rc = action_target_lock(r, &tg)) != 0) {
		status = fail(err, &tg, o->migrate_pid ? "migrate" : "rebind", rc);
	} else {
		char name[256];
		sanitize_term(tg.comm, name, sizeof(name));
		fprintf(out, "pid %d (%s): %s%s%s node %d\n", pid, name,
			o->rebind_pid ? "rebind" : "", o->rebind_pid && o->migrate_pid ? " and " : "",
			o->migrate_pid ? "migrate memory to" : " to", node->id);
		status = 0;
		if (o->rebind_pid)
			status = do_rebind(out, err, r, t, &tg, node);
		if (o->migrate_pid && status == 0)
			status = do_migrate(out, err, r, t, &tg, node->id, &j);
		if (!o->migrate_pid)
			fprintf(out, "note: memory was not moved (add --migrate %d to move it)\n", pid);
		print_notes(out, r, t, &tg, o->migrate_pid ? &j : NULL, o->rebind_pid != 0);
		action_target_unlock(&tg);
	}
	migrate_free(&j);
	session_close(&se);
	return status;
}
