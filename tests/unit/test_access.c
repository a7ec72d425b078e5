/* test_access.c - access heat: a range's heat from a source's numbers
 * (access.h: DAMON's regions as ranges), and the join of a process's
 * ranges with where their pages are. */
#include "access.h"
#include "check.h"

static struct access_range reg(uint64_t s, uint64_t e, int64_t acc, int64_t age)
{
	return (struct access_range){ s, e, acc, age };
}

static void region_heat(void)
{
	struct access_range r = reg(0x1000, 0x2000, 3, 1);
	CHECK_EQ_INT(access_region_heat(&r, 0.1), ACCESS_HOT);
	CHECK(access_region_idle_s(&r, 0.1) == 0);
	r = reg(0x1000, 0x2000, 0, 49);                  /* idle 4.9 s */
	CHECK_EQ_INT(access_region_heat(&r, 0.1), ACCESS_WARM);
	r.age = 50;                                      /* 5 s: cold */
	CHECK_EQ_INT(access_region_heat(&r, 0.1), ACCESS_COLD);
	CHECK(access_region_idle_s(&r, 0.1) > 4.99 && access_region_idle_s(&r, 0.1) < 5.01);
	r.age = -1;                                      /* unknown: never cold */
	CHECK_EQ_INT(access_region_heat(&r, 0.1), ACCESS_WARM);
	CHECK(access_region_idle_s(&r, 0.1) < 0);
	CHECK_EQ_INT(access_why_parse("in_use"), ACCESS_IN_USE);
	CHECK_EQ_INT(access_why_parse("bogus"), -1);
	CHECK_EQ_INT(access_source_parse("numa_balancing"), ACCESS_SRC_NUMAB);
}

/* Three nodes; its threads work on node 0 only. Regions: cold, hot (all
 * on node 2), warm (half on 0, half on 1), hotter (on node 0). */
struct jf {
	struct access_range r[4];
	int64_t rkb[4 * 3];
	int64_t node[3];
	bool work[3];
	int64_t kb[9];
	struct access_proc out;
	struct access_region keep[8];
	int64_t keep_kb[8 * 3];
	size_t nkeep;
};

static void join_setup(struct jf *f)
{
	memset(f, 0, sizeof(*f));
	f->r[0] = reg(0x100000, 0x900000, 0, 600);     /* cold, idle 60 s */
	f->r[1] = reg(0x900000, 0x1900000, 4, 30);     /* hot */
	f->r[2] = reg(0x1900000, 0x2100000, 0, 20);    /* warm: idle 2 s */
	f->r[3] = reg(0x2100000, 0x2200000, 19, 5);    /* hotter */
	int64_t rkb[12] = { -1, -1, -1,  0, 0, 16384,  4096, 4096, 0,  1024, 0, 0 };
	memcpy(f->rkb, rkb, sizeof(rkb));
	f->node[0] = 30000; f->node[1] = 5000; f->node[2] = 20000;
	f->work[0] = true;
	f->out.hot_node_kb = f->kb;
	f->out.warm_node_kb = f->kb + 3;
	f->out.cold_node_kb = f->kb + 6;
}

static void join_in(struct jf *f, struct access_join_in *in)
{
	*in = (struct access_join_in){ .nnodes = 3, .r = f->r, .n = 4, .aggr_s = 0.1,
				       .sample_s = 0.005, .reg_node_kb = f->rkb, .node_kb = f->node,
				       .work = f->work, .home = 0 };
}

static void join_sums(void)
{
	struct jf f;
	join_setup(&f);
	struct access_join_in in;
	join_in(&f, &in);
	access_join(&in, &f.out, f.keep, 8, &f.nkeep, f.keep_kb);
	CHECK_EQ_INT(f.out.hot_kb, 16384 + 1024);
	CHECK_EQ_INT(f.out.warm_kb, 8192);
	CHECK_EQ_INT(f.out.hot_remote_kb, 16384);       /* node 2: no thread works there */
	CHECK(f.out.hot_remote_pct > 94.1 && f.out.hot_remote_pct < 94.2);
	CHECK_EQ_INT(f.out.hot_node_kb[0], 1024);
	CHECK_EQ_INT(f.out.hot_node_kb[2], 16384);
	CHECK_EQ_INT(f.out.warm_node_kb[1], 4096);
	/* Cold: numa_maps less hot and warm, per node. */
	CHECK_EQ_INT(f.out.cold_node_kb[0], 30000 - 1024 - 4096);
	CHECK_EQ_INT(f.out.cold_node_kb[1], 5000 - 4096);
	CHECK_EQ_INT(f.out.cold_node_kb[2], 20000 - 16384);
	CHECK_EQ_INT(f.out.cold_kb, 24880 + 904 + 3616);
	CHECK(f.out.cold_remote_idle_s > 59.9 && f.out.cold_remote_idle_s < 60.1);
	/* Kept: hot and warm, hottest first, each with its own kB. */
	CHECK_EQ_INT(f.nkeep, 3);
	CHECK_EQ_INT(f.keep[0].start, 0x2100000);
	CHECK_EQ_INT(f.keep[0].nr_accesses, 19);
	CHECK_EQ_INT(f.keep[0].max_accesses, 20);
	CHECK_EQ_INT(f.keep_kb[f.keep[0].kb_off], 1024);
	CHECK_EQ_INT(f.keep[1].start, 0x900000);
	CHECK_EQ_INT(f.keep_kb[f.keep[1].kb_off + 2], 16384);
	CHECK_EQ_INT(f.keep[2].heat, ACCESS_WARM);
	CHECK_EQ_INT(f.keep[2].resident_kb, 8192);
	/* At most maxreg kept, the sums unchanged. */
	join_setup(&f);
	join_in(&f, &in);
	access_join(&in, &f.out, f.keep, 1, &f.nkeep, f.keep_kb);
	CHECK_EQ_INT(f.nkeep, 1);
	CHECK_EQ_INT(f.out.hot_kb, 17408);
}

static void join_unknowns(void)
{
	struct jf f;
	struct access_join_in in;
	/* A hot region whose pages could not be asked: nothing is claimed. */
	join_setup(&f);
	f.rkb[4] = -1;
	join_in(&f, &in);
	access_join(&in, &f.out, f.keep, 8, &f.nkeep, f.keep_kb);
	CHECK_EQ_INT(f.out.hot_kb, -1);
	CHECK_EQ_INT(f.out.hot_remote_kb, -1);
	CHECK_EQ_INT(f.out.cold_kb, -1);
	CHECK_EQ_INT(f.nkeep, 0);
	/* numa_maps not known: hot is, cold is not. */
	join_setup(&f);
	join_in(&f, &in);
	in.node_kb = NULL;
	access_join(&in, &f.out, f.keep, 8, &f.nkeep, f.keep_kb);
	CHECK_EQ_INT(f.out.hot_kb, 17408);
	CHECK_EQ_INT(f.out.cold_kb, -1);
	CHECK_EQ_INT(f.out.cold_node_kb[0], -1);
	/* No working thread known: remote is off HOME (node 2 here). */
	join_setup(&f);
	join_in(&f, &in);
	in.work = NULL;
	in.home = 2;
	access_join(&in, &f.out, f.keep, 8, &f.nkeep, f.keep_kb);
	CHECK_EQ_INT(f.out.hot_remote_kb, 1024);
	/* Nothing hot: HOTREM 0, its share unknown. */
	join_setup(&f);
	f.r[1].nr_accesses = f.r[3].nr_accesses = 0;
	f.r[1].age = f.r[3].age = 100;
	join_in(&f, &in);
	access_join(&in, &f.out, f.keep, 8, &f.nkeep, f.keep_kb);
	CHECK_EQ_INT(f.out.hot_kb, 0);
	CHECK_EQ_INT(f.out.hot_remote_kb, 0);
	CHECK(f.out.hot_remote_pct < 0);
}

int main(void)
{
	RUN_TEST(region_heat);
	RUN_TEST(join_sums);
	RUN_TEST(join_unknowns);
	return CHECK_DONE();
}
