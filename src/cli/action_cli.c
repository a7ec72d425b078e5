/* action_cli.c - --migrate PID / --rebind PID --to NODE for scripts:
 * before/after kB per node, reasons for pages that did not move, exit
 * status 0 (done), 3 (some pages did not move), 4 (--hot / --cold found
 * nothing to move) or 1 (failed). The names, node checks and engine calls
 * are the action table's (action_table.h). */
#include "action_cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "action.h"
#include "action_job.h"
#include "action_tier.h"
#include "action_watch.h"
#include "action_cgroup.h"
#include "action_migrate.h"
#include "access.h"
#include "monotime.h"
#include "options.h"
#include "action_rebind.h"
#include "action_table.h"
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
static void print_notes(FILE *out, const struct fsroot *r, const struct actjob_item *it,
			bool rebound)
{
	char note[256];
	if (it->policy[0]) {
		migrate_format_policy_note(it->policy, rebound, note, sizeof(note));
		fprintf(out, "note: %s\n", note);
	}
	int bal = action_numa_balancing(r);
	if (bal > 0)
		fprintf(out, "note: kernel.numa_balancing=%d: the kernel may move pages again\n", bal);
}

static int print_rebind(FILE *out, FILE *err, const struct actjob_item *it,
			const struct topo_node *node)
{
	char want[256];
	bitmap_format_list(&node->cpus, want, sizeof(want));
	const struct rebind_result *res = &it->rb;
	fprintf(out, "rebind: %zu thread%s to CPUs %s (node %d): %zu set, %zu failed\n",
		res->nthreads, res->nthreads == 1 ? "" : "s", want, node->id,
		res->changed, res->failed);
	fprintf(out, "cpus allowed: before %s, after %s\n", it->cpus_before, it->cpus_after);
	if (it->rb_rc) {
		char e[256];
		if (res->first_error_tid)
			fprintf(err, "numatop-tui: rebind pid %d: thread %d: %s\n", it->tg.pid,
				res->first_error_tid, action_strerror(it->rb_rc, e, sizeof(e)));
		else
			fail(err, &it->tg, "rebind", it->rb_rc);
		return 1;
	}
	return 0;
}

/* The walk with a progress line on a terminal, then before and after: the
 * engine's steps and verify through the migrate row of the action table. */
static int run_migrate(FILE *out, FILE *err, struct actjob *job, int to_node, const char *label)
{
	const struct action_def *d = &action_defs[ACTION_MIGRATE];
	const struct topology *t = job->topo;
	struct actjob_item *it = &job->items[0];
	struct migrate_job *j = &it->job;
	bool tty = isatty(fileno(err));
	while (d->job.step(job, 8192) == 1)
		if (tty)
			fprintf(err, "\rmoving: %3.0f%%  %.1f MB/s ", 100 * migrate_progress(j),
				migrate_rate(j));
	if (tty)
		fprintf(err, "\r%30s\r", "");
	int status = 0;
	/* It exited (or ran a new program) while its pages moved: said as
	 * that, whatever the kernel's call answered then (an exiting
	 * process's move_pages says EINVAL), and nothing is read after. */
	if (it->mig_rc == -ESRCH || it->mig_rc == -ACTION_EEXEC) {
		fprintf(err, "numatop-tui: migrate: PID %d %s during the move: %.1f MiB had moved\n",
			it->tg.pid, it->mig_rc == -ESRCH ? "exited (ESRCH)" :
			"ran a new program (exec); stopped", (double)j->moved * (double)j->pagesize /
			1048576.0);
		return 1;
	}
	if (it->mig_rc < 0)
		status = fail_step(err, &it->tg, to_node, it->mig_rc);
	print_kb_header(out, t);
	print_kb_row(out, t, "before", it->before);
	if (it->after_rc == 0) {
		print_kb_row(out, t, "after", it->after);
	} else if (it->after_rc == -ESRCH || it->after_rc == -ACTION_EEXEC) {
		/* It exited (ran a new program) as the walk ended: where
		 * its pages are is not known (what move_pages moved is
		 * said below). */
		const char *how = it->after_rc == -ESRCH ? "exited (ESRCH)" : "ran a new program (exec)";
		fprintf(out, "after    unknown: PID %d %s\n", it->tg.pid, how);
		fprintf(err, "numatop-tui: migrate: PID %d %s during the move (or right after it): "
			"where its pages are is not known\n", it->tg.pid, how);
		status = 1;
	} else {
		fprintf(out, "after    unreadable: %s\n", strerror(-it->after_rc));
	}
	/* Migrate hot: the hot ranges alone, where the kernel said their
	 * pages were before the walk and are after it. */
	int64_t *was = it->only ? calloc(t->nnodes ? t->nnodes : 1, sizeof(int64_t)) : NULL;
	int64_t *now = it->only ? calloc(t->nnodes ? t->nnodes : 1, sizeof(int64_t)) : NULL;
	int64_t already_kb = j->pv.on_target_kb;
	if (was && now) {
		actjob_sum_kb(job, ACTJOB_WALK_BEFORE, was);
		actjob_sum_kb(job, ACTJOB_WALK_AFTER, now);
		if (t->nnodes && was[0] >= 0) {
			fprintf(out, "the %s pages (as move_pages placed them):\n", label);
			print_kb_row(out, t, "were", was);
			print_kb_row(out, t, "are", now);
			int ix = topology_node_index(t, to_node);
			already_kb = ix >= 0 ? was[ix] : -1;
		}
	}
	free(was);
	free(now);
	/* The engine's arithmetic: what numa_maps shows arrived, else what
	 * move_pages moved. */
	struct actjob_summary sm;
	d->job.verify(job, &sm);
	double mib = sm.arrived_kb >= 0 ? (double)sm.arrived_kb / 1024.0 : sm.mib;
	fprintf(out, "moved %.1f MiB to node %d in %.2f s (%.1f MB/s); %lld kB were there already\n",
		mib, to_node, sm.secs, sm.rate_mbs, (long long)already_kb);
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

/* --hot / --cold: the ranges of the target DAMON sees accessed (hot), or
 * all outside its hot and warm ranges (cold), from the core's one-off
 * watch (action_watch.h), HOT_WAIT_S at most. 0 with *rv, 4 when nothing
 * hot (cold) was found (said), or 1 with the reason said: also when the
 * move is refused. */
#define HOT_WAIT_S 15
/* SIGINT, SIGTERM or SIGHUP during the watch: it ends, and the session
 * (our kdamond with it) is closed as on any other way out. */
static volatile sig_atomic_t heat_stop;
static void on_heat_stop(int sig)
{
	(void)sig;
	heat_stop = 1;
}

static int heat_ranges(const struct options *o, FILE *out, FILE *err, const struct fsroot *r,
		       struct action_target *tg, int node_id, bool cold,
		       struct migrate_range **rv, size_t *nr)
{
	const char *opt = cold ? "--cold" : "--hot";
	int pid = tg->pid;
	*rv = NULL;
	*nr = 0;
	struct action_watch w;
	memset(&w, 0, sizeof(w));
	options_session(o, true, &w.sc);
	w.r = r;
	w.tg = tg;
	w.node_id = node_id;
	w.cold = cold;
	w.limit_s = HOT_WAIT_S;
	w.stop = &heat_stop;
	/* The handlers for the watch only (without SA_RESTART: sleep ends). */
	static const int stops[3] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, before[3];
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_heat_stop;
	sigemptyset(&sa.sa_mask);
	heat_stop = 0;
	for (int k = 0; k < 3; k++)
		sigaction(stops[k], &sa, &before[k]);
	int orc = action_watch_run(&w);
	for (int k = 0; k < 3; k++)
		sigaction(stops[k], &before[k], NULL);
	if (orc) {
		fprintf(err, "numatop-tui: %s: %s\n", opt, w.why);
		return 1;
	}
	int status = 1;
	switch (w.end) {
	case WATCH_INTERRUPTED:
		fprintf(err, "numatop-tui: %s: PID %d: interrupted while DAMON watched it: nothing "
			"moved\n", opt, pid);
		break;
	case WATCH_EXEC:
		fprintf(err, "numatop-tui: %s: PID %d ran a new program (exec) during the watch: "
			"nothing moved\n", opt, pid);
		break;
	case WATCH_GONE:
		fprintf(err, "numatop-tui: %s: PID %d exited during the watch (ESRCH): nothing "
			"moved\n", opt, pid);
		break;
	case WATCH_REFUSED:
		fprintf(err, "numatop-tui: %s: PID %d: refused: %s\n", opt, pid, w.why);
		break;
	case WATCH_NOT_USABLE:
		fprintf(err, "numatop-tui: %s: PID %d: nothing moved: %s\n", opt, pid, w.why);
		break;
	case WATCH_UNKNOWN:
		fprintf(err, "numatop-tui: %s: the heat of PID %d is not known: %s\n", opt, pid, w.why);
		break;
	case WATCH_TOO_MANY:
		fprintf(err, "numatop-tui: --cold: PID %d has more than %d hot and warm ranges: its "
			"cold part cannot be told apart (--hot moves the hot part)\n", pid,
			ACCESS_MAX_REGIONS - 1);
		break;
	case WATCH_ERROR:
	case WATCH_OPEN_FAILED:
		fprintf(err, "numatop-tui: %s: %s\n", opt, strerror(-w.rc));
		break;
	case WATCH_NOTHING:
		/* Watched to the end and found nothing to move: said, with
		 * its own exit status, not as a move of nothing. */
		status = 4;
		fprintf(out, "pid %d: nothing %s found in %.0f s of watching: nothing moved\n", pid,
			cold ? "cold" : "hot", w.watched_s);
		break;
	case WATCH_FOUND:
		status = 0;
		if (cold)
			fprintf(out, "cold: %.1f MiB untouched for %.0f s or more, all but %zu hot and "
				"warm range%s (DAMON, watched %.0f s)\n", (double)w.cold_kb / 1024.0,
				ACCESS_COLD_S, w.nregions, w.nregions == 1 ? "" : "s", w.watched_s);
		else
			fprintf(out, "hot: %.1f MiB in %zu range%s (DAMON, watched %.0f s), %.1f MiB of "
				"it remote\n", (double)w.hot_kb / 1024.0, w.nr, w.nr == 1 ? "" : "s",
				w.watched_s, (double)(w.hot_remote_kb > 0 ? w.hot_remote_kb : 0) / 1024.0);
		if (w.refused_after) {
			fprintf(err, "numatop-tui: %s: PID %d: refused: %s\n", opt, pid, w.why);
			status = 1;
		}
		break;
	}
	if (status == 0) {
		*rv = w.rv;
		*nr = w.nr;
	} else {
		free(w.rv);
	}
	return status;
}

/* The same engine as the monitor's m / B dialogs (action_job.h), one process,
 * no preview: lock, rebind, plan, walk, after. */
static int act(FILE *out, FILE *err, const struct options *o, const struct fsroot *r,
	       const struct topology *t, int idx)
{
	const struct topo_node *node = &t->nodes[idx];
	int pid = o->migrate_pid ? o->migrate_pid : o->rebind_pid;
	const struct action_def *d = &action_defs[o->migrate_pid ? ACTION_MIGRATE : ACTION_REBIND];
	const char *what = d->name;
	struct action_target id;
	int rc = action_target_read(r, pid, &id);
	if (rc)
		return fail(err, &id, what, rc);
	struct migrate_range *hot = NULL;
	size_t nhot = 0;
	bool watched = o->migrate_hot || o->migrate_cold;
	if (watched) {
		/* Locked for the watch: each sample checks it is still the
		 * process and the program whose heat it is. */
		if ((rc = action_target_lock(r, &id)) != 0)
			return fail(err, &id, what, rc);
		int st = heat_ranges(o, out, err, r, &id, node->id, o->migrate_cold, &hot, &nhot);
		action_target_unlock(&id);
		if (st)
			return st;
		if (!nhot || (o->migrate_cold && !hot)) {
			fprintf(out, "pid %d: nothing %s found: nothing moved\n", pid,
				o->migrate_cold ? "cold" : "hot");
			free(hot);
			return 4;
		}
	}
	struct actjob job;
	actjob_init(&job, r, t);
	job.migrate = o->migrate_pid != 0;
	job.rebind = o->rebind_pid != 0;
	/* The job's target is the one read (and watched): its program and
	 * memory image too, so that an exec since is refused. */
	if ((rc = actjob_add_target(&job, &id)) != 0 ||
	    (hot && (rc = actjob_set_only(&job, 0, hot, nhot)) != 0)) {
		free(hot);
		actjob_free(&job);
		return fail(err, &id, what, rc);
	}
	free(hot);
	struct actjob_item *it = &job.items[0];
	actjob_lock(&job);
	if (it->lock_rc == -ACTION_EEXEC && watched) {
		fprintf(err, "numatop-tui: %s: PID %d ran a new program (exec) during the watch: "
			"nothing moved\n", o->migrate_cold ? "--cold" : "--hot", pid);
		actjob_free(&job);
		return 1;
	}
	if (it->lock_rc) {
		int st = fail(err, &it->tg, what, it->lock_rc);
		actjob_free(&job);
		return st;
	}
	char name[256];
	sanitize_term(it->tg.comm, name, sizeof(name));
	fprintf(out, "pid %d (%s): %s%s%s node %d\n", pid, name,
		o->rebind_pid ? "rebind" : "", o->rebind_pid && o->migrate_pid ? " and " : "",
		o->migrate_pid ? (o->migrate_hot ? "migrate hot memory to" : o->migrate_cold ?
				  "migrate cold memory to" : "migrate memory to") : " to",
		node->id);
	d->job.run(&job, idx);
	int status = 0;
	if (job.rebind) {
		/* Exited between the lock and the re-check: nothing was set. */
		status = it->lock_rc && !it->rb.nthreads ? fail(err, &it->tg,
							       action_defs[ACTION_REBIND].name, it->lock_rc)
							 : print_rebind(out, err, it, node);
	}
	if (job.migrate && status == 0) {
		if (it->lock_rc)
			status = fail(err, &it->tg, action_defs[ACTION_MIGRATE].name, it->lock_rc);
		else
			status = run_migrate(out, err, &job, node->id, o->migrate_cold ? "cold part's" : "hot ranges'");
	}
	if (!job.migrate)
		fprintf(out, "note: memory was not moved (add --migrate %d to move it)\n", pid);
	print_notes(out, r, it, job.rebind);
	actjob_free(&job);
	return status;
}

/* The session of an action, or the exit status (1, 2) with the reason
 * said: it cannot be opened, or actions are refused here. */
static int open_action(const struct options *o, FILE *err, struct session *se)
{
	struct session_config sc;
	char msg[512];
	options_session(o, false, &sc);
	int rc = session_open(se, &sc, msg, sizeof(msg));
	if (rc) {
		fprintf(err, "numatop-tui: %s\n", msg);
		return rc == SESSION_EUSAGE ? 2 : 1;
	}
	const char *why = action_refusal(o->readonly, se->root);
	if (why) {
		fprintf(err, "numatop-tui: actions are %s\n", why);
		session_close(se);
		return 1;
	}
	return 0;
}

/* The node checks of the action table's rows asked for (rebind first):
 * true with the refusal said. */
static bool node_refused(const struct options *o, const struct topology *t, int idx, FILE *err)
{
	const struct action_def *asked[2] = {
		o->rebind_pid ? &action_defs[ACTION_REBIND] : NULL,
		o->migrate_pid ? &action_defs[ACTION_MIGRATE] : NULL,
	};
	struct action_check c = { t, idx, NULL, NULL };
	char why[160];
	for (int k = 0; k < 2; k++)
		if (asked[k] && asked[k]->verify(&c, why, sizeof(why))) {
			fprintf(err, "numatop-tui: --%s: %s\n", asked[k]->option, why);
			return true;
		}
	return false;
}

int action_cli_run(const struct options *o, FILE *out, FILE *err)
{
	struct session se;
	int rc = open_action(o, err, &se);
	if (rc)
		return rc;
	const struct topology *t = &se.topo;
	int status = 1;
	int idx = topology_node_index(t, o->to_node);
	const struct topo_node *node = idx >= 0 ? &t->nodes[idx] : NULL;
	if (!node)
		fprintf(err, "numatop-tui: --to %d: no such node\n", o->to_node);
	else if (!node_refused(o, t, idx, err))
		status = act(out, err, o, se.root, t, idx);
	session_close(&se);
	return status;
}

int action_cli_cgroup(const struct options *o, FILE *out, FILE *err)
{
	const struct action_def *d = &action_defs[ACTION_CGROUP_MOVE];
	struct session se;
	char msg[512];
	int rc = open_action(o, err, &se);
	if (rc)
		return rc;
	const struct topology *t = &se.topo;
	struct cgaction a;
	char path[600];
	sanitize_term(o->migrate_cgroup, path, sizeof(path));
	int status = 1;
	if (d->cg.preview(se.root, t, o->migrate_cgroup, o->to_node, &a, msg, sizeof(msg)) != 0) {
		sanitize_term(msg, path, sizeof(path));
		fprintf(err, "numatop-tui: %s\n", path);
		session_close(&se);
		return 1;
	}
	fprintf(out, "cgroup %s: cpuset.mems %s -> %d (the kernel migrates its pages)\n", path,
		a.mems_before[0] ? a.mems_before : "(inherited)", o->to_node);
	print_kb_header(out, t);
	print_kb_row(out, t, "before", a.before_kb);
	if (d->cg.run(t, &a, msg, sizeof(msg)) != 0) {
		sanitize_term(msg, path, sizeof(path));
		fprintf(err, "numatop-tui: %s\n", path);
	} else {
		print_kb_row(out, t, "after", a.after_kb);
		int64_t left = d->cg.verify(&a);
		fprintf(out, "cpuset.mems.effective %s; on node %d: %lld of %lld kB\n", a.mems_effective,
			o->to_node, (long long)a.after_kb[a.node_idx], (long long)a.after_total);
		/* A little page cache shared with other cgroups may stay. */
		if (left > 1024 && left * 100 > a.after_total) {
			fprintf(out, "note: %lld kB stayed on other nodes (page cache shared with other "
				"cgroups, or pages the kernel could not move)\n", (long long)left);
			status = 3;
		} else {
			status = 0;
		}
	}
	cgaction_free(&a);
	session_close(&se);
	return status;
}
