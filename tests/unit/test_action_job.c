/* test_action_job.c - the action engine that the monitor's m / B dialogs and
 * --migrate / --rebind share, on live children of this test: lock, plan,
 * confirm, rebind, walk, after and the summary; a reused PID, a target
 * that exits between preview and confirm, cancel; signals through the
 * pidfd. */
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "action_job.h"
#include "check.h"
#include "session.h"
#include "spawn.h"

static struct session se;

static int open_live(void)
{
	struct session_config c = { .root = "/" };
	char err[256];
	return session_open(&se, &c, err, sizeof(err));
}

static int node_with_memory_and_cpus(void)
{
	for (size_t i = 0; i < se.topo.nnodes; i++)
		if (se.topo.nodes[i].has_memory && !bitmap_empty(&se.topo.nodes[i].cpus))
			return (int)i;
	return -1;
}

static int add_child(struct actjob *j, pid_t pid, int delta)
{
	struct action_target id;
	int rc = action_target_read(se.root, pid, &id);
	if (rc)
		return rc;
	return actjob_add(j, id.pid, id.starttime + (uint64_t)delta, id.comm);
}

/* Rebind and migrate one child with 3 threads: every thread set, the walk
 * ends, the placement is read before and after, nothing failed. */
static void engine_live(void)
{
	int node = node_with_memory_and_cpus();
	pid_t pid = spawn_child(3);
	CHECK(pid > 0 && node >= 0);
	struct actjob j;
	actjob_init(&j, se.root, &se.topo);
	j.migrate = j.rebind = true;
	CHECK_EQ_INT(add_child(&j, pid, 0), 0);
	CHECK(actjob_node_ok(&j, node));
	CHECK(!actjob_node_ok(&j, (int)se.topo.nnodes));
	actjob_prepare(&j, node);
	struct actjob_item *it = &j.items[0];
	CHECK_EQ_INT(it->prep_rc, 0);
	CHECK(it->tg.pidfd >= 0);              /* locked from the preview on */
	/* One node: nothing is off the target, so there is nothing to walk. */
	CHECK(se.topo.nnodes > 1 ? j.total_pages > 0 : j.total_pages == 0);
	CHECK(it->before[node] > 0);
	actjob_start(&j, node);
	CHECK_EQ_INT(it->lock_rc, 0);
	CHECK_EQ_INT(it->rb_rc, 0);
	CHECK_EQ_INT(it->rb.nthreads, 4);
	CHECK_EQ_INT(it->rb.changed, 4);
	CHECK(j.running && !j.done);
	int steps = 0;
	while (actjob_step(&j, 64) == 1 && steps < 100000)
		steps++;
	CHECK(j.done && !j.running);
	CHECK_EQ_INT(it->mig_rc, 0);
	CHECK_EQ_INT(it->after_rc, 0);
	CHECK_EQ_INT(it->tg.pidfd, -1);        /* let go when done */
	struct actjob_summary s;
	actjob_summarize(&j, &s);
	CHECK_EQ_INT(s.planned, 1);
	CHECK_EQ_INT(s.threads, 4);
	CHECK_EQ_INT(s.set, 4);
	CHECK(s.arrived_kb >= 0);
	CHECK(s.progress > 0.99);
	for (int r = 0; r < MIG_NREASONS; r++)
		CHECK_EQ_INT(s.failed[r], 0);
	int64_t *kb = calloc(se.topo.nnodes, sizeof(int64_t));
	actjob_sum_kb(&j, ACTJOB_AFTER, kb);
	CHECK(kb[node] > 0);
	/* What the walk visited: on one node nothing (unknown, not 0 kB);
	 * else every visited page is on the target afterwards. */
	actjob_sum_kb(&j, ACTJOB_WALK_AFTER, kb);
	if (se.topo.nnodes == 1) {
		CHECK_EQ_INT(kb[0], -1);
	} else {
		for (size_t k = 0; k < se.topo.nnodes; k++)
			CHECK((int)k == node ? kb[k] > 0 : kb[k] == 0);
	}
	free(kb);
	char e[128];
	int epid;
	for (int stage = 0; stage < 4; stage++)
		CHECK_EQ_INT(actjob_first_error(&j, stage, e, sizeof(e), &epid), 0);
	actjob_free(&j);
	reap(pid);
}

/* Migrate hot: ranges set, then all the memory again (NULL). */
static void only_ranges(void)
{
	pid_t pid = spawn_child(1);
	CHECK(pid > 0);
	struct actjob j;
	actjob_init(&j, se.root, &se.topo);
	j.migrate = true;
	CHECK_EQ_INT(add_child(&j, pid, 0), 0);
	struct migrate_range r[2] = { { 0x1000, 0x3000, false }, { 0x8000, 0x9000, false } };
	CHECK_EQ_INT(actjob_set_only(&j, 0, r, 2), 0);
	CHECK(j.items[0].only && j.items[0].nonly == 2 && j.items[0].only[1].start == 0x8000);
	CHECK_EQ_INT(actjob_set_only(&j, 0, r, 0), 0);   /* only nothing */
	CHECK(j.items[0].only && j.items[0].nonly == 0);
	CHECK_EQ_INT(actjob_set_only(&j, 0, NULL, 0), 0); /* everything */
	CHECK(!j.items[0].only && j.items[0].nonly == 0);
	actjob_free(&j);
	reap(pid);
}

/* The PID the user saw, but another start time: nothing is done to it,
 * and what is unknown stays unknown (never 0 kB). */
static void engine_reused_pid(void)
{
	int node = node_with_memory_and_cpus();
	pid_t pid = spawn_child(1);
	cpu_set_t before;
	CHECK_EQ_INT(sched_getaffinity(pid, sizeof(before), &before), 0);
	struct actjob j;
	actjob_init(&j, se.root, &se.topo);
	j.migrate = j.rebind = true;
	CHECK_EQ_INT(add_child(&j, pid, 1), 0);
	actjob_lock(&j);
	CHECK_EQ_INT(j.items[0].lock_rc, -ESRCH);
	actjob_start(&j, node);
	while (actjob_step(&j, 64) == 1)
		;
	CHECK(j.done);
	CHECK_EQ_INT(j.items[0].rb.nthreads, 0);
	CHECK_EQ_INT(j.items[0].job.scanned, 0);
	int64_t *kb = calloc(se.topo.nnodes, sizeof(int64_t));
	actjob_sum_kb(&j, ACTJOB_AFTER, kb);
	CHECK_EQ_INT(kb[node], -1);
	free(kb);
	char e[128];
	int epid = 0;
	CHECK_EQ_INT(actjob_first_error(&j, 1, e, sizeof(e), &epid), 1);
	CHECK_EQ_INT(epid, pid);
	CHECK(strstr(e, "ESRCH") != NULL);
	actjob_free(&j);
	reap(pid);
}

/* Previewed, then the target exits (a zombie): the confirm re-checks it
 * and does nothing; the other target of the same job still runs. */
static void engine_exit_after_preview(void)
{
	int node = node_with_memory_and_cpus();
	pid_t gone = spawn_child(0), stays = spawn_child(2);
	struct actjob j;
	actjob_init(&j, se.root, &se.topo);
	j.rebind = true;
	CHECK_EQ_INT(add_child(&j, gone, 0), 0);
	CHECK_EQ_INT(add_child(&j, stays, 0), 0);
	actjob_prepare(&j, node);
	CHECK_EQ_INT(j.items[0].prep_rc, 0);
	CHECK_EQ_INT(j.items[1].prep_rc, 0);
	CHECK(j.items[1].policy[0] != '\0');    /* read for the policy note */
	kill(gone, SIGKILL);
	siginfo_t si;
	CHECK_EQ_INT(waitid(P_PID, (id_t)gone, &si, WEXITED | WNOWAIT), 0);
	actjob_start(&j, node);
	CHECK(j.done);                          /* rebind only: done at once */
	CHECK_EQ_INT(j.items[0].lock_rc, -ESRCH);
	CHECK_EQ_INT(j.items[0].rb.nthreads, 0);
	CHECK_EQ_INT(j.items[1].lock_rc, 0);
	CHECK_EQ_INT(j.items[1].rb.changed, 3);
	struct actjob_summary s;
	actjob_summarize(&j, &s);
	CHECK_EQ_INT(s.set, 3);
	actjob_free(&j);
	reap(gone);
	reap(stays);
}

/* Esc before the first batch: nothing walked, done, said cancelled. */
static void engine_cancel(void)
{
	int node = node_with_memory_and_cpus();
	pid_t pid = spawn_child(0);
	struct actjob j;
	actjob_init(&j, se.root, &se.topo);
	j.migrate = true;
	CHECK_EQ_INT(add_child(&j, pid, 0), 0);
	actjob_start(&j, node);                 /* no preview: locked here */
	CHECK_EQ_INT(j.items[0].lock_rc, 0);
	actjob_cancel(&j);
	CHECK_EQ_INT(actjob_step(&j, 64), 0);
	CHECK(j.done && j.cancelled);
	CHECK_EQ_INT(j.items[0].job.scanned, 0);
	CHECK_EQ_INT(j.items[0].after_rc, 0);   /* the after is still read */
	actjob_free(&j);
	reap(pid);
}

/* k: the signal goes through a pidfd opened after the start time was
 * checked; a reused PID gets nothing. */
static void signal_through_pidfd(void)
{
	pid_t pid = spawn_child(0);
	struct action_target t;
	CHECK_EQ_INT(action_target_read(se.root, pid, &t), 0);
	struct action_target other = t;
	other.starttime++;
	CHECK_EQ_INT(action_target_signal(se.root, &other, SIGTERM), -ESRCH);
	CHECK_EQ_INT(kill(pid, 0), 0);          /* untouched */
	CHECK_EQ_INT(action_target_signal(se.root, &t, SIGTERM), 0);
	int st = 0;
	CHECK_EQ_INT(waitpid(pid, &st, 0), pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	CHECK_EQ_INT(t.pidfd, -1);
}

/* Where the m and B dialogs start, on the 4-node tree: a migrate on HOME,
 * a rebind on the node with most of the memory, else HOME, else the
 * first node that can take it. */
static void default_node(void)
{
	struct session t4;
	struct session_config c = { .root = "tests/trees/opteron4" };
	char err[256];
	CHECK_EQ_INT(session_open(&t4, &c, err, sizeof(err)), 0);
	CHECK_EQ_INT(t4.topo.nnodes, 4);
	struct actjob j;
	actjob_init(&j, t4.root, &t4.topo);
	int64_t kb[4] = { 100, 50, 900, 10 };
	struct snap_proc p;
	memset(&p, 0, sizeof(p));
	p.home = 1;
	p.nm = NMS_OK;
	p.total_kb = 1060;
	p.node_kb = kb;
	j.migrate = true;
	CHECK_EQ_INT(actjob_default_node(&j, &p), 1);
	j.migrate = false;
	j.rebind = true;
	CHECK_EQ_INT(actjob_default_node(&j, &p), 2);
	p.nm = NMS_NO_PERM;                     /* placement unknown: HOME */
	CHECK_EQ_INT(actjob_default_node(&j, &p), 1);
	p.home = -1;                            /* nothing known: the first */
	CHECK_EQ_INT(actjob_default_node(&j, &p), 0);
	actjob_free(&j);
	session_close(&t4);
}

int main(void)
{
	if (open_live() != 0) {
		printf("FAIL test_action_job: cannot open the live machine\n");
		return 1;
	}
	RUN_TEST(engine_live);
	RUN_TEST(only_ranges);
	RUN_TEST(engine_reused_pid);
	RUN_TEST(engine_exit_after_preview);
	RUN_TEST(engine_cancel);
	RUN_TEST(signal_through_pidfd);
	RUN_TEST(default_node);
	session_close(&se);
	return CHECK_DONE();
}
