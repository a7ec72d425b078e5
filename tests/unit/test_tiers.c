/* test_tiers.c - the memory tier model: its parsers, a tiered tree (node
 * 1 memory-only in a slower tier, HMAT access classes, the kernel's
 * knobs), a one-tier tree and one without tiers, a model built by hand
 * (sparse ids, a node in no tier, three tiers), the per-tier sums, and
 * the sampler's FAST/SLOW per process. */
#include <unistd.h>

#include "fsroot.h"
#include "nmsched.h"
#include "sampler.h"
#include "snapshot.h"
#include "columns.h"
#include "tiers.h"
#include "topology.h"
#include "check.h"

static void parse_bool(void)
{
	CHECK_EQ_INT(tiers_parse_bool("true"), 1);
	CHECK_EQ_INT(tiers_parse_bool("true\n"), 1);
	CHECK_EQ_INT(tiers_parse_bool("1"), 1);
	CHECK_EQ_INT(tiers_parse_bool("Y"), 1);
	CHECK_EQ_INT(tiers_parse_bool("false"), 0);
	CHECK_EQ_INT(tiers_parse_bool("0\n"), 0);
	CHECK_EQ_INT(tiers_parse_bool("n"), 0);
	/* Anything else is unknown, never false. */
	CHECK_EQ_INT(tiers_parse_bool(""), -1);
	CHECK_EQ_INT(tiers_parse_bool("truex"), -1);
	CHECK_EQ_INT(tiers_parse_bool("2"), -1);
	CHECK_EQ_INT(tiers_parse_bool(NULL), -1);
}

static void parse_hmat(void)
{
	CHECK_EQ_INT(tiers_parse_hmat("80"), 80);
	CHECK_EQ_INT(tiers_parse_hmat("300\n"), 300);
	CHECK_EQ_INT(tiers_parse_hmat("20480"), 20480);
	/* 0 is the kernel's "the firmware gave nothing": unknown. */
	CHECK_EQ_INT(tiers_parse_hmat("0"), -1);
	CHECK_EQ_INT(tiers_parse_hmat(""), -1);
	CHECK_EQ_INT(tiers_parse_hmat("-5"), -1);
	CHECK_EQ_INT(tiers_parse_hmat("80ns"), -1);
	CHECK_EQ_INT(tiers_parse_hmat("99999999999999999999999"), -1);
	CHECK_EQ_INT(tiers_parse_hmat(NULL), -1);
}

static int read_tree(const char *dir, struct topology *t, struct tier_model *m)
{
	struct fsroot *r;
	if (fsroot_open(dir, &r) != 0)
		return -1;
	int rc = topology_read(r, t);
	if (rc == 0)
		rc = tiers_read(r, t, m);
	fsroot_close(r);
	return rc;
}

/* tests/trees/tiered2: node 0 with the CPUs in memory_tier4 (80 ns,
 * 20480 MB/s), node 1 memory-only in memory_tier67 (300 ns, 5120 MB/s),
 * demotion on, a promotion limit of 65536 MB/s. */
static void tiered_tree(void)
{
	struct topology t;
	struct tier_model m;
	if (read_tree("tests/trees/tiered2", &t, &m) != 0) {
		printf("  tests/trees/tiered2 not readable (run from the project root)\n");
		CHECK(0);
		return;
	}
	CHECK_EQ_INT(m.nnodes, 2);
	CHECK_EQ_INT(m.ntiers, 2);
	CHECK(tiers_multi(&m));
	CHECK_EQ_INT(m.tier[0].id, 4);
	CHECK_EQ_INT(m.tier[1].id, 67);
	CHECK(m.tier[0].cpus && !m.tier[1].cpus);
	CHECK_EQ_INT(m.node[0].tier, 4);
	CHECK_EQ_INT(m.node[1].tier, 67);
	CHECK_EQ_INT(tiers_node_order(&m, 0), 0);
	CHECK_EQ_INT(tiers_node_order(&m, 1), 1);
	CHECK(m.node[0].cpus && !m.node[1].cpus);
	CHECK_EQ_INT(m.node[0].access, 1);
	CHECK_EQ_INT(m.node[0].read_lat_ns, 80);
	CHECK_EQ_INT(m.node[1].read_lat_ns, 300);
	CHECK_EQ_INT(m.node[1].write_lat_ns, 300);
	CHECK_EQ_INT(m.node[0].read_bw_mbs, 20480);
	CHECK_EQ_INT(m.node[1].read_bw_mbs, 5120);
	CHECK_EQ_INT(m.tier[1].read_lat_ns, 300);
	CHECK_EQ_INT(m.tier[1].read_bw_mbs, 5120);
	CHECK_EQ_INT(m.demotion, 1);
	CHECK_EQ_INT(m.promote_limit_mbps, 65536);
	CHECK(!tiers_node_far(&m, 0));
	CHECK(tiers_node_far(&m, 1));
	CHECK(tiers_node_fastest(&m, 0, NULL));
	CHECK(!tiers_node_fastest(&m, 1, NULL));
	/* A cpuset that allows node 1 only: its fastest tier is node 1's. */
	struct bitmap mems;
	bitmap_init(&mems);
	bitmap_set(&mems, 1);
	CHECK_EQ_INT(tiers_fastest_order(&m, &mems), 1);
	CHECK(tiers_node_fastest(&m, 1, &mems));
	bitmap_free(&mems);
	/* A copy is a model of its own. */
	struct tier_model c;
	memset(&c, 0, sizeof(c));
	CHECK_EQ_INT(tiers_copy(&c, &m), 0);
	tiers_free(&m);
	CHECK_EQ_INT(c.ntiers, 2);
	CHECK_EQ_INT(c.tier[1].id, 67);
	CHECK_EQ_INT(c.node[1].read_lat_ns, 300);
	tiers_free(&c);
	topology_free(&t);
}

/* opteron4: four nodes in one tier, no HMAT, no knobs: one tier is
 * not "tiered", every figure unknown (never 0). */
static void one_tier_tree(void)
{
	struct topology t;
	struct tier_model m;
	if (read_tree("tests/trees/opteron4", &t, &m) != 0) {
		CHECK(0);
		return;
	}
	CHECK_EQ_INT(m.ntiers, 1);
	CHECK(!tiers_multi(&m));
	CHECK_EQ_INT(m.tier[0].nnodes, 4);
	CHECK_EQ_INT(m.tier[0].read_lat_ns, -1);
	CHECK_EQ_INT(m.node[2].access, -1);
	CHECK_EQ_INT(m.node[2].read_bw_mbs, -1);
	CHECK_EQ_INT(m.demotion, -1);
	CHECK_EQ_INT(m.promote_limit_mbps, -1);
	for (size_t i = 0; i < 4; i++)
		CHECK(!tiers_node_far(&m, i));
	int64_t kb[4] = { 10, 20, 30, 40 }, fast, slow;
	tiers_split_kb(&m, kb, &fast, &slow);
	CHECK_EQ_INT(fast, 100);
	CHECK_EQ_INT(slow, 0);
	tiers_free(&m);
	topology_free(&t);
}

/* A tree without memory_tiering (an older kernel): no tiers, and the
 * per-process split is unknown, not 0. */
static void no_tiers_tree(void)
{
	char dir[] = "/tmp/numatop-tiers-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "cp -r tests/trees/tiered2/. %s/ && rm -rf %s/sys/devices/virtual "
		 "%s/sys/kernel/mm/numa/demotion_enabled && echo garbage > "
		 "%s/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps", dir, dir, dir, dir);
	CHECK(system(cmd) == 0);
	struct topology t;
	struct tier_model m;
	CHECK_EQ_INT(read_tree(dir, &t, &m), 0);
	CHECK_EQ_INT(m.ntiers, 0);
	CHECK_EQ_INT(m.node[1].tier, -1);
	CHECK_EQ_INT(tiers_node_order(&m, 1), -1);
	CHECK_EQ_INT(m.node[1].read_lat_ns, 300);   /* HMAT without tiers */
	CHECK_EQ_INT(m.demotion, -1);
	CHECK_EQ_INT(m.promote_limit_mbps, -1);
	CHECK(!tiers_node_far(&m, 1));
	int64_t kb[2] = { 5, 7 }, fast, slow;
	tiers_split_kb(&m, kb, &fast, &slow);
	CHECK_EQ_INT(fast, -1);
	CHECK_EQ_INT(slow, -1);
	tiers_free(&m);
	topology_free(&t);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

/* By hand: nodes 0, 2, 5, 9; tiers 67 (node 0), 4 (node 2), none
 * (node 5), 100 (node 9): the order follows the ids, not the nodes. */
static void built_by_hand(void)
{
	struct tier_model m;
	CHECK_EQ_INT(tiers_init(&m, 4), 0);
	static const int ids[] = { 0, 2, 5, 9 }, tier[] = { 67, 4, -1, 100 };
	for (size_t i = 0; i < 4; i++) {
		m.node[i].id = ids[i];
		m.node[i].tier = tier[i];
		m.node[i].cpus = i == 1;
	}
	m.node[0].read_lat_ns = 200;
	CHECK_EQ_INT(tiers_build(&m), 0);
	CHECK_EQ_INT(m.ntiers, 3);
	CHECK_EQ_INT(m.tier[0].id, 4);
	CHECK_EQ_INT(m.tier[1].id, 67);
	CHECK_EQ_INT(m.tier[2].id, 100);
	CHECK_EQ_INT(m.node[0].order, 1);
	CHECK_EQ_INT(m.node[1].order, 0);
	CHECK_EQ_INT(m.node[2].order, -1);
	CHECK_EQ_INT(m.node[3].order, 2);
	CHECK_EQ_INT(m.tier[1].read_lat_ns, 200);
	CHECK_EQ_INT(m.tier[2].read_lat_ns, -1);
	CHECK(tiers_node_far(&m, 0) && tiers_node_far(&m, 3));
	CHECK(!tiers_node_far(&m, 1) && !tiers_node_far(&m, 2));
	int64_t kb[4] = { 100, 1000, 50, 7 }, fast, slow, per[3];
	tiers_split_kb(&m, kb, &fast, &slow);
	CHECK_EQ_INT(fast, 1000);
	CHECK_EQ_INT(slow, 107);       /* node 5 (no tier) in neither */
	tiers_kb(&m, kb, per);
	CHECK_EQ_INT(per[0], 1000);
	CHECK_EQ_INT(per[1], 100);
	CHECK_EQ_INT(per[2], 7);
	tiers_split_kb(&m, NULL, &fast, &slow);
	CHECK_EQ_INT(fast, -1);
	/* Out of range asks: unknown. */
	CHECK_EQ_INT(tiers_node_order(&m, 4), -1);
	CHECK(tiers_node_tier(&m, 4) == NULL);
	CHECK(tiers_node_tier(&m, 3) == &m.tier[2]);
	tiers_free(&m);
}

/* The sampler on tiered2: the model in the snapshot, and FAST / SLOW
 * per process from its pages (100: 64 MiB bound to node 1). */
static void sampler_fast_slow(void)
{
	struct fsroot *r;
	struct topology t;
	struct sampler *s;
	if (fsroot_open("tests/trees/tiered2", &r) != 0) {
		CHECK(0);
		return;
	}
	CHECK_EQ_INT(topology_read(r, &t), 0);
	CHECK_EQ_INT(sampler_new(r, &t, PROC_BACKEND_FILES, &s), 0);
	struct nmsched_config c;
	nmsched_config_default(&c);
	c.full = true;
	sampler_set_budget(s, &c);
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	CHECK_EQ_INT(snap.nk.tiers.ntiers, 2);
	CHECK_EQ_INT(snap.nk.tiers.demotion, 1);
	size_t seen = 0;
	/* The FAST and SLOW columns' values: the sample's model over the
	 * process's placement. */
	const struct col_def *fd = col_get(COL_FAST), *sd = col_get(COL_SLOW);
	for (size_t i = 0; i < snap.nprocs; i++) {
		const struct snap_proc *p = &snap.procs[i];
		double fast = -2, slow = -2;
		CHECK(fd->tier_num(&snap.nk.tiers, p, -1, &fast));
		CHECK(sd->tier_num(&snap.nk.tiers, p, -1, &slow));
		if (p->info.pid == 100) {
			CHECK_EQ_INT((long)slow, 65536);
			CHECK_EQ_INT((long)fast, 96);
			seen++;
		} else if (p->info.pid == 200) {
			CHECK_EQ_INT((long)slow, 16384);
			CHECK_EQ_INT((long)fast, 49248);
			seen++;
		} else if (p->info.pid == 300) {
			CHECK_EQ_INT((long)slow, 0);
			seen++;
		}
	}
	CHECK_EQ_INT(seen, 3);
	snapshot_free(&snap);
	sampler_free(s);
	topology_free(&t);
	fsroot_close(r);
}

int main(void)
{
	RUN_TEST(parse_bool);
	RUN_TEST(parse_hmat);
	RUN_TEST(tiered_tree);
	RUN_TEST(one_tier_tree);
	RUN_TEST(no_tiers_tree);
	RUN_TEST(built_by_hand);
	RUN_TEST(sampler_fast_slow);
	return CHECK_DONE();
}
