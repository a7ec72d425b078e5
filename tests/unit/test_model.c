/* test_model.c - HOME by thread majority, sorting with unknowns, the
 * rooted I/O layer's refusals (directories, symlink loops, escapes). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "action.h"
#include "fsroot.h"
#include "sampler.h"
#include "columns.h"
#include "snapshot.h"
#include "check.h"

/* A 4-node topology by hand: node k has CPUs 2k, 2k+1. */
static void fake_topo(struct topology *t)
{
	memset(t, 0, sizeof(*t));
	t->nnodes = 4;
	t->nodes = calloc(4, sizeof(*t->nodes));
	t->ncpu_ids = 8;
	t->cpu_node = malloc(8 * sizeof(int));
	for (int c = 0; c < 8; c++)
		t->cpu_node[c] = c / 2;
	t->nids = 4;
	t->index_of_id = malloc(4 * sizeof(int));
	for (int i = 0; i < 4; i++) {
		t->index_of_id[i] = i;
		t->nodes[i].id = i;
	}
}

/* A thread on a CPU, what it ran unknown (the process's first sample). */
#define TH(id, cpu) { .tid = (id), .last_cpu = (cpu), .ticks = -1, .run_ns = -1, .ran = -1 }

static void home_majority(void)
{
	struct topology t;
	fake_topo(&t);
	size_t counts[4];
	/* Main thread (tid 10) on node 0, two threads on node 1. */
	struct proc_thread a[] = { TH(10, 0), TH(11, 2), TH(12, 3) };
	CHECK_EQ_INT(sampler_home_node(&t, a, 3, 10, counts, -1), 1);
	/* A tie: the main thread's node wins, wherever it is listed. */
	struct proc_thread b[] = { TH(11, 6), TH(10, 1) };
	CHECK_EQ_INT(sampler_home_node(&t, b, 2, 10, counts, -1), 0);
	struct proc_thread c[] = { TH(10, 4), TH(11, 6) };
	CHECK_EQ_INT(sampler_home_node(&t, c, 2, 10, counts, -1), 2);
	/* Unknown CPUs do not vote; none known: unknown. */
	struct proc_thread d[] = { TH(10, -1), TH(11, 7) };
	CHECK_EQ_INT(sampler_home_node(&t, d, 2, 10, counts, -1), 3);
	struct proc_thread e[] = { TH(10, -1), TH(11, 99) };
	CHECK_EQ_INT(sampler_home_node(&t, e, 2, 10, counts, -1), -1);
	CHECK_EQ_INT(sampler_home_node(&t, NULL, 0, 10, counts, -1), -1);
	/* HOME stays while its node does half the busiest's work (two
	 * threads working alike on two nodes: it does not alternate). */
	struct proc_thread f[] = { TH(10, 0), TH(11, 1), TH(12, 2) };
	f[0].ran = 0;                 /* the main thread idle */
	f[1].ran = 4000000;           /* 4 ms on node 0 */
	f[2].ran = 5000000;           /* 5 ms on node 1 */
	CHECK_EQ_INT(sampler_home_node(&t, f, 3, 10, counts, -1), 1);
	CHECK_EQ_INT(sampler_home_node(&t, f, 3, 10, counts, 0), 0);
	CHECK_EQ_INT(sampler_home_node(&t, f, 3, 10, counts, 1), 1);
	f[2].ran = 9000000;           /* node 1 more than twice node 0 */
	CHECK_EQ_INT(sampler_home_node(&t, f, 3, 10, counts, 0), 1);
	f[1].ran = 0;                 /* nothing ran on the old HOME */
	f[2].ran = 1;
	CHECK_EQ_INT(sampler_home_node(&t, f, 3, 10, counts, 0), 1);
	topology_free(&t);
}

static void sort_unknown_last(void)
{
	struct topology t;
	fake_topo(&t);
	struct snap_proc p[4];
	memset(p, 0, sizeof(p));
	int64_t kb[4][16];
	memset(kb, 0, sizeof(kb));
	int64_t remote[4] = { 100, -1, 500, 100 };
	int pids[4] = { 7, 3, 5, 2 };
	static const char *const names[4] = { "c4", "c3", "c2", "c1" };
	for (int i = 0; i < 4; i++) {
		p[i].info.pid = pids[i];
		p[i].remote_kb = remote[i];
		p[i].total_kb = remote[i] < 0 ? -1 : 1000;   /* REMOTE% = remote / 10 */
		p[i].cpu_pct = i == 0 ? -1 : i;
		p[i].nm = remote[i] < 0 ? NMS_NO_PERM : NMS_OK;
		p[i].node_kb = kb[i];
		kb[i][1] = 10 * i;
		p[i].info.comm = names[i];
		p[i].info.cmdline = "";
		p[i].info.user = "?";
	}
	struct snapshot s;
	memset(&s, 0, sizeof(s));
	s.procs = p;
	s.nprocs = 4;
	s.topo = &t;
	struct sort_key k;
	CHECK_EQ_INT(col_parse_sort(&t, "REMOTE", &k), 0);
	CHECK(k.descending);
	snapshot_sort(&s, &k);
	/* 500, then the two 100s by PID, then the unknown. */
	CHECK_EQ_INT(snapshot_row(&s, 0)->info.pid, 5);
	CHECK_EQ_INT(snapshot_row(&s, 1)->info.pid, 2);
	CHECK_EQ_INT(snapshot_row(&s, 2)->info.pid, 7);
	CHECK_EQ_INT(snapshot_row(&s, 3)->info.pid, 3);
	k.descending = false;
	snapshot_sort(&s, &k);
	CHECK_EQ_INT(snapshot_row(&s, 0)->info.pid, 2);
	CHECK_EQ_INT(snapshot_row(&s, 3)->info.pid, 3);   /* unknown still last */
	CHECK_EQ_INT(col_parse_sort(&t, "pid", &k), 0);
	CHECK(!k.descending);
	snapshot_sort(&s, &k);
	CHECK_EQ_INT(snapshot_row(&s, 0)->info.pid, 2);
	CHECK_EQ_INT(snapshot_row(&s, 3)->info.pid, 7);
	CHECK_EQ_INT(col_parse_sort(&t, "cpu%", &k), 0);
	snapshot_sort(&s, &k);
	CHECK_EQ_INT(snapshot_row(&s, 3)->info.pid, 7);   /* unknown CPU% last */
	CHECK_EQ_INT(col_parse_sort(&t, "N1", &k), 0);
	CHECK_EQ_INT(k.node, 1);
	snapshot_sort(&s, &k);
	CHECK_EQ_INT(snapshot_row(&s, 3)->info.pid, 3);   /* no perm: no node value */
	CHECK_EQ_INT(col_parse_sort(&t, "command", &k), 0);
	snapshot_sort(&s, &k);
	CHECK_EQ_STR(snapshot_row(&s, 0)->info.comm, "c1");
	CHECK_EQ_INT(col_parse_sort(&t, "N9", &k), -ENOENT);
	CHECK_EQ_INT(col_parse_sort(&t, "bogus", &k), -EINVAL);
	free(s.order);
	topology_free(&t);
}

static void rooted_io(void)
{
	char dir[] = "/tmp/numatop-fsroot-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char cmd[512];
	snprintf(cmd, sizeof(cmd),
		 "cd %s && mkdir -p sys/devices/system/node/node0 proc etc && "
		 "ln -s . sys/devices/system/node/node0/cpu0 && "
		 "ln -s /etc/hostname sys/escape && mkdir sys/isdir && "
		 "echo inside > etc/hostname && printf '0-3\\n\\0' > sys/list", dir);
	CHECK_EQ_INT(system(cmd), 0);
	struct fsroot *r;
	CHECK_EQ_INT(fsroot_open(dir, &r), 0);
	CHECK(!fsroot_is_live(r));
	struct buf b = { 0 };
	/* A directory where a file is expected. */
	CHECK_EQ_INT(fsroot_read_file(r, "/sys/isdir", &b, 0), -EISDIR);
	/* An absolute symlink resolves inside the root, not the host. */
	CHECK_EQ_INT(fsroot_read_file(r, "/sys/escape", &b, 0), 0);
	CHECK_EQ_STR(b.data, "inside\n");
	CHECK_EQ_INT(fsroot_read_file(r, "/nope", &b, 0), -ENOENT);
	char s[16];
	CHECK_EQ_INT(fsroot_read_small(r, "/sys/list", s, sizeof(s)), 3);
	CHECK_EQ_STR(s, "0-3");
	/* Listing never returns or follows symlinks (node0/cpu0 -> .). */
	int *ids;
	size_t n;
	CHECK_EQ_INT(fsroot_list_ids(r, "/sys/devices/system/node/node0", "cpu",
				     FSROOT_DIRS, &ids, &n), 0);
	CHECK_EQ_INT(n, 0);
	free(ids);
	CHECK_EQ_INT(fsroot_list_ids(r, "/sys/devices/system/node", "node",
				     FSROOT_DIRS, &ids, &n), 0);
	CHECK_EQ_INT(n, 1);
	free(ids);
	/* A file larger than the limit is refused, not cut. */
	CHECK_EQ_INT(fsroot_read_file(r, "/etc/hostname", &b, 3), -EFBIG);
	buf_free(&b);
	fsroot_close(r);
	CHECK_EQ_INT(fsroot_open("/no/such/root", &r), -ENOENT);
	CHECK_EQ_INT(fsroot_open("/etc/hostname", &r), -ENOTDIR);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_EQ_INT(system(cmd), 0);
}

static void pid_reuse_guard(void)
{
	struct fsroot *r;
	CHECK_EQ_INT(fsroot_open("tests/trees/opteron4", &r), 0);
	/* proc/4242/stat says starttime 5000123 (field 22): the identity an
	 * action confirms and re-checks (action_target_lock, test_action). */
	struct action_target t;
	CHECK_EQ_INT(action_target_read(r, 4242, &t), 0);
	CHECK(t.starttime == 5000123 && t.pidfd == -1);
	CHECK_EQ_STR(t.comm, "cat");
	CHECK_EQ_INT(action_target_read(r, 77777, &t), -ESRCH); /* gone */
	fsroot_close(r);
}

/* A node's memory used and its %: unknown (never 0, never negative) when
 * either number is unknown or free exceeds total (a torn read). */
static void node_used(void)
{
	struct node_sample ns;
	memset(&ns, 0, sizeof(ns));
	const int64_t cases[][4] = {      /* total, free, used kB, used % x10 */
		{ 1000, 250, 750, 750 }, { 1000, 1000, 0, 0 }, { 1000, 0, 1000, 1000 },
		{ 1000, 1001, -1, -1 }, { -1, 10, -1, -1 }, { 1000, -1, -1, -1 }, { 0, 0, 0, -1 },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		ns.mem.mem_total_kb = cases[k][0];
		ns.mem.mem_free_kb = cases[k][1];
		CHECK_EQ_INT((int)snapshot_node_used_kb(&ns), (int)cases[k][2]);
		double pct = snapshot_node_used_pct(&ns);
		CHECK_EQ_INT(pct < 0 ? -1 : (int)(pct * 10 + 0.5), (int)cases[k][3]);
	}
	/* The page cache of the used memory: unknown when it is, or when it
	 * exceeds what is used. */
	ns.mem.mem_total_kb = 1000;
	ns.mem.mem_free_kb = 250;
	const int64_t fp[][2] = { { 500, 500 }, { 0, 0 }, { 750, 750 }, { 751, -1 }, { -1, -1 } };
	for (size_t k = 0; k < sizeof(fp) / sizeof(fp[0]); k++) {
		ns.mem.file_pages_kb = fp[k][0];
		CHECK_EQ_INT((int)snapshot_node_cache_kb(&ns), (int)fp[k][1]);
	}
	ns.mem.mem_free_kb = -1;
	ns.mem.file_pages_kb = 10;
	CHECK_EQ_INT((int)snapshot_node_cache_kb(&ns), -1);
}

int main(void)
{
	RUN_TEST(pid_reuse_guard);
	RUN_TEST(home_majority);
	RUN_TEST(sort_unknown_last);
	RUN_TEST(rooted_io);
	RUN_TEST(node_used);
	return CHECK_DONE();
}
