/* test_why.c - each cause of remote memory from hand-built evidence, in
 * the order of the rules (none, policy, cpuset, shared_file, spread,
 * spill, moved, unknown), with the advice each gives. */
#include "why.h"
#include "check.h"

/* Two nodes (ids 0 and 4: sparse), HOME node 0 unless changed. */
static const int ids[] = { 0, 4 };

struct fx {
	struct why_input in;
	int64_t node[2], anon[2], file[2], pol[2];
	size_t thr[2];
	struct bitmap mems, cpus;
};

/* 100 MiB resident: 60 on node 0 (HOME), 40 on node 4, all anonymous,
 * default policy, 4 threads on node 0, plenty of free memory. */
static void base(struct fx *f)
{
	memset(f, 0, sizeof(*f));
	f->node[0] = 60 * 1024; f->node[1] = 40 * 1024;
	f->anon[0] = 60 * 1024; f->anon[1] = 40 * 1024;
	f->thr[0] = 4;
	bitmap_init(&f->mems);
	bitmap_init(&f->cpus);
	f->in = (struct why_input){
		.nnodes = 2, .node_ids = ids, .home = 0, .total_kb = 100 * 1024,
		.remote_kb = 40 * 1024, .node_kb = f->node, .anon_kb = f->anon, .file_kb = f->file,
		.pol_kb = f->pol, .pol_mode = NM_MODE_DEFAULT, .pol_text = "",
		.threads_on = f->thr, .home_free_kb = 8 << 20, .home_total_kb = 16 << 20,
		.home_low_kb = 64 << 10, .home_foreign_rate = 0, .home_miss_rate = 0,
		.prev_home = -1, .kernel_migrate_rate = -1,
	};
}

static void done(struct fx *f)
{
	bitmap_free(&f->mems);
	bitmap_free(&f->cpus);
}

static bool has_evidence(const struct why_result *r, const char *part)
{
	for (size_t i = 0; i < r->nevidence; i++)
		if (strstr(r->evidence[i], part))
			return true;
	return false;
}

static void not_read(void)
{
	struct fx f;
	base(&f);
	f.in.remote_kb = -1;
	struct why_result r;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_NOT_READ);
	CHECK_EQ_STR(why_cause_names[r.cause], "-");
	done(&f);
}

static void none_small(void)
{
	struct fx f;
	base(&f);
	struct why_result r;
	/* 4 % of 100 MiB: small. */
	f.in.remote_kb = 4 * 1024;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_NONE);
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	CHECK(has_evidence(&r, "= 4 %"));
	/* 900 kB of 1 MiB total: under 1 MiB, although 88 %. */
	f.in.total_kb = 1024;
	f.in.remote_kb = 900;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_NONE);
	/* 5 % exactly of 100 MiB is not small. */
	f.in.total_kb = 100 * 1024;
	f.in.remote_kb = 5 * 1024;
	why_decide(&f.in, &r);
	CHECK(r.cause != WHY_NONE);
	done(&f);
}

static void policy_interleave_and_bind(void)
{
	struct fx f;
	base(&f);
	struct why_result r;
	/* 30 of the 40 MiB remote are under interleave: intended. */
	f.pol[1] = 30 * 1024;
	f.in.pol_mode = NM_MODE_INTERLEAVE;
	f.in.pol_text = "interleave:0,4";
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_POLICY);
	CHECK_EQ_STR(why_cause_names[r.cause], "policy");
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	CHECK(strstr(r.text, "intended") != NULL);
	CHECK(has_evidence(&r, "interleave:0,4"));
	/* bind:4: rebind the threads to node 4 (an id, not an index). */
	f.in.pol_mode = NM_MODE_BIND;
	f.in.pol_text = "bind:4";
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_POLICY);
	CHECK_EQ_INT(r.action, WHY_ACT_REBIND);
	CHECK_EQ_INT(r.node, 4);
	CHECK_EQ_STR(why_action_names[r.action], "rebind");
	/* Only half under a policy: not the cause. */
	f.pol[1] = 20 * 1024;
	why_decide(&f.in, &r);
	CHECK(r.cause != WHY_POLICY);
	done(&f);
}

static void cpuset_excludes_home(void)
{
	struct fx f;
	base(&f);
	bitmap_set(&f.mems, 4);
	f.in.mems_allowed = &f.mems;
	struct why_result r;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_CPUSET);
	CHECK_EQ_INT(r.action, WHY_ACT_REBIND);
	CHECK_EQ_INT(r.node, 4);
	CHECK(has_evidence(&r, "Mems_allowed 4 excludes HOME node 0"));
	/* Allowed: not the cause (then moved/unknown). */
	bitmap_set(&f.mems, 0);
	why_decide(&f.in, &r);
	CHECK(r.cause != WHY_CPUSET);
	done(&f);
}

static void shared_file(void)
{
	struct fx f;
	base(&f);
	f.anon[1] = 10 * 1024;
	f.file[1] = 30 * 1024;
	struct why_result r;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_SHARED_FILE);
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	CHECK(strstr(r.text, "page cache on node 4") != NULL);
	CHECK(has_evidence(&r, "30.0 of 40.0 MiB remote are file pages"));
	done(&f);
}

static void spread(void)
{
	struct fx f;
	base(&f);
	f.thr[0] = 2;
	f.thr[1] = 2;
	struct why_result r;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_SPREAD);
	CHECK_EQ_INT(r.action, WHY_ACT_REBIND);
	CHECK_EQ_INT(r.node, 0);          /* most of its memory */
	CHECK(has_evidence(&r, "0:2 4:2"));
	/* 3 of 4 on node 0: a clear majority. */
	f.thr[0] = 3;
	f.thr[1] = 1;
	why_decide(&f.in, &r);
	CHECK(r.cause != WHY_SPREAD);
	/* One thread: never spread. */
	f.thr[0] = 1;
	f.thr[1] = 0;
	why_decide(&f.in, &r);
	CHECK(r.cause != WHY_SPREAD);
	done(&f);
}

static void spill(void)
{
	struct fx f;
	base(&f);
	struct why_result r;
	/* Below the low watermark. */
	f.in.home_free_kb = 32 << 10;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_SPILL);
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	CHECK(strstr(r.text, "free memory there first") != NULL);
	CHECK(has_evidence(&r, "low watermark"));
	/* No watermark known: 3 % of the node. */
	f.in.home_low_kb = -1;
	f.in.home_free_kb = (16 << 20) * 2 / 100;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_SPILL);
	CHECK(has_evidence(&r, "3 % is"));
	/* Free is fine, but numa_foreign grew while the process grew. */
	f.in.home_free_kb = 8 << 20;
	f.in.home_foreign_rate = 120;
	f.in.rss_growth_kb = 4096;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_SPILL);
	CHECK(has_evidence(&r, "numa_foreign 120/s"));
	/* The counter grew but the process did not: not this process's spill. */
	f.in.rss_growth_kb = 0;
	why_decide(&f.in, &r);
	CHECK(r.cause != WHY_SPILL);
	done(&f);
}

static void moved(void)
{
	struct fx f;
	base(&f);
	struct why_result r;
	/* Its CPUs exclude node 4, where the anonymous pages are. */
	bitmap_set(&f.cpus, 0);
	f.in.cpu_nodes = &f.cpus;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_MOVED);
	CHECK_EQ_INT(r.action, WHY_ACT_MIGRATE);
	CHECK_EQ_INT(r.node, 0);
	CHECK(has_evidence(&r, "Cpus_allowed excludes node 4"));
	/* The kernel's balancing is at it. */
	f.in.kernel_migrate_rate = 2500;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_MOVED);
	CHECK(strstr(r.text, "already moving") != NULL);
	/* Or HOME changed while watched. */
	bitmap_set(&f.cpus, 4);
	f.in.kernel_migrate_rate = -1;
	f.in.prev_home = 1;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_MOVED);
	CHECK(has_evidence(&r, "HOME moved from node 4 to node 0"));
	done(&f);
}

static void unknown(void)
{
	struct fx f;
	base(&f);
	struct why_result r;
	/* Anonymous on node 4, threads on node 0, no sign of a move. */
	bitmap_set(&f.cpus, 0);
	bitmap_set(&f.cpus, 4);
	f.in.cpu_nodes = &f.cpus;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_UNKNOWN);
	CHECK_EQ_INT(r.action, WHY_ACT_MIGRATE);
	CHECK(has_evidence(&r, "no sign of a move"));
	/* status not readable: said. */
	f.in.cpu_nodes = NULL;
	f.in.status_why = "status: no perm";
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_UNKNOWN);
	CHECK(has_evidence(&r, "status: no perm"));
	/* HOME unknown. */
	f.in.home = -1;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_UNKNOWN);
	CHECK(has_evidence(&r, "HOME unknown"));
	/* A mix: no kind holds most of the remote pages. */
	done(&f);
	base(&f);
	f.anon[1] = 15 * 1024;
	f.file[1] = 15 * 1024;
	f.pol[1] = 10 * 1024;
	f.in.pol_mode = NM_MODE_BIND;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_UNKNOWN);
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	done(&f);
}

/* The order: policy before cpuset before file ... */
static void order(void)
{
	struct fx f;
	base(&f);
	struct why_result r;
	f.pol[1] = 30 * 1024;
	f.in.pol_mode = NM_MODE_BIND;
	bitmap_set(&f.mems, 4);
	f.in.mems_allowed = &f.mems;
	f.file[1] = 30 * 1024;
	f.thr[1] = 4;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_POLICY);
	f.pol[1] = 0;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_CPUSET);
	f.in.mems_allowed = NULL;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_SHARED_FILE);
	f.file[1] = 0;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_SPREAD);
	done(&f);
}

int main(void)
{
	RUN_TEST(not_read);
	RUN_TEST(none_small);
	RUN_TEST(policy_interleave_and_bind);
	RUN_TEST(cpuset_excludes_home);
	RUN_TEST(shared_file);
	RUN_TEST(spread);
	RUN_TEST(spill);
	RUN_TEST(moved);
	RUN_TEST(unknown);
	RUN_TEST(order);
	return CHECK_DONE();
}
