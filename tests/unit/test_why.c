/* test_why.c - each cause of remote memory from hand-built evidence, in
 * the order of the rules (none, policy, cpuset, shared_file, spread,
 * spill, moved, unknown), with the advice each gives. */
#include <sys/stat.h>
#include <unistd.h>

#include "fsroot.h"
#include "nmsched.h"
#include "sampler.h"
#include "snapshot.h"
#include "topology.h"
#include "tiers.h"
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
		.hot_kb = -1, .hot_remote_kb = -1, .cold_idle_s = -1, .hot_slow_kb = -1,
		.warm_remote_kb = -1, .cold_remote_kb = -1,
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
	/* 2 threads on each node, its memory on node 4 (HOME 0 holds 512
	 * kB): the threads on node 0 leave little behind, rebind them all to
	 * node 4. */
	f.node[0] = f.anon[0] = 512;
	f.node[1] = f.anon[1] = 60 * 1024;
	f.in.total_kb = 60 * 1024 + 512;
	f.in.remote_kb = 60 * 1024;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_SPREAD);
	CHECK_EQ_INT(r.action, WHY_ACT_REBIND);
	CHECK_EQ_INT(r.node, 4);          /* most of its memory */
	CHECK(has_evidence(&r, "0:2 4:2"));
	/* 60 MiB on node 0 and 40 on node 4, 2 threads on each: each part
	 * is local to threads of its own, a rebind to node 0 would make 40
	 * MiB remote for the two on node 4 (before: "rebind to node 0"). */
	base(&f);
	f.thr[0] = 2;
	f.thr[1] = 2;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_SPREAD);
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	CHECK(strstr(r.text, "follows its threads") != NULL);
	/* 3 of 4 on node 0 is a majority, but the fourth is on node 4 with
	 * 40 MiB beside it: still spread, still nothing to move. */
	f.thr[0] = 3;
	f.thr[1] = 1;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_SPREAD);
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	/* All on node 0, or one thread: never spread. */
	f.thr[0] = 4;
	f.thr[1] = 0;
	why_decide(&f.in, &r);
	CHECK(r.cause != WHY_SPREAD);
	f.thr[0] = 1;
	why_decide(&f.in, &r);
	CHECK(r.cause != WHY_SPREAD);
	done(&f);
}

/* True when r's advice would make memory remote for the threads beside
 * it: a migration away from a node where its threads work, or a rebind
 * of threads away from a node holding more than a little of it. */
static bool harms(const struct fx *f, const struct why_result *r)
{
	for (size_t i = 0; i < 2; i++) {
		size_t w = f->in.work_on ? f->in.work_on[i] : f->thr[i];
		if (!w || f->node[i] < WHY_SMALL_KB)
			continue;
		if (r->action == WHY_ACT_MIGRATE && r->node != ids[i])
			return true;
		if (r->action == WHY_ACT_REBIND && r->node != ids[i])
			return true;
	}
	return false;
}

/* Issue 29's guest: two threads pinned one per node, each writing 16 MiB
 * of its own (first touch: local to each), and an idle main thread on
 * node 4. By thread count (its first sample) node 4 has 2 of 3 and is
 * HOME; by CPU time the idle one weighs nothing and either node may be
 * HOME. Either way its remote memory is local to a working thread of its
 * own: spread, and nothing to move (before: unknown, "migrate its memory
 * to node 4", which makes thread 1's memory remote). The class: any
 * split of its memory between the nodes its threads work on, whichever
 * is HOME, and whether or not the status was read. */
static void spread_memory_follows_threads(void)
{
	static const int64_t parts[][2] = { { 16, 16 }, { 28, 4 }, { 4, 28 }, { 10, 22 } };
	size_t work[2];
	for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++)
		for (int home = 0; home < 2; home++)
			for (int timed = 0; timed < 2; timed++)
				for (int status = 0; status < 2; status++) {
					struct fx f;
					base(&f);
					f.node[0] = f.anon[0] = parts[k][0] * 1024;
					f.node[1] = f.anon[1] = parts[k][1] * 1024;
					f.in.total_kb = 32 * 1024;
					f.in.home = home;
					f.in.remote_kb = f.node[!home];
					f.thr[0] = 1;
					f.thr[1] = 2;
					work[0] = 97;          /* ticks since the last sample */
					work[1] = 101;         /* thread 2; the main one 0 */
					f.in.work_on = timed ? work : NULL;
					bitmap_set(&f.cpus, 0);
					bitmap_set(&f.cpus, 4);
					bitmap_set(&f.mems, 0);
					bitmap_set(&f.mems, 4);
					if (status) {
						f.in.mems_allowed = &f.mems;
						f.in.cpu_nodes = &f.cpus;
					}
					struct why_result r;
					why_decide(&f.in, &r);
					if (r.cause != WHY_SPREAD || r.action != WHY_ACT_NONE || harms(&f, &r))
						printf("  %lld:%lld MiB, HOME %d, %s, status %s: cause %s, "
						       "advice %s %d: %s\n", (long long)parts[k][0],
						       (long long)parts[k][1], ids[home],
						       timed ? "by CPU time" : "by count",
						       status ? "read" : "not read", why_cause_names[r.cause],
						       why_action_names[r.action], r.node, r.text);
					CHECK_EQ_INT(r.cause, WHY_SPREAD);
					CHECK_EQ_INT(r.action, WHY_ACT_NONE);
					CHECK_EQ_INT(r.node, -1);
					CHECK(!harms(&f, &r));
					CHECK(strstr(r.text, "follows its threads") != NULL);
					CHECK(strstr(r.text, "nodes 0 and 4") != NULL);
					CHECK(has_evidence(&r, "0:1 4:2"));
					CHECK(!timed || has_evidence(&r, "CPU time"));
					done(&f);
				}
}

/* Idle threads do not decide: one thread works on node 0 beside 28 MiB,
 * three idle ones sit on node 4 beside 4 MiB it no longer uses (HOME 0,
 * as their CPU time says). By count they would make it spread; by CPU
 * time only node 0 works, so the 4 MiB is the one remote part and
 * migrating it to node 0 harms nobody. And an idle majority on node 4
 * does not make node 4 HOME for a migration: the advice never moves the
 * working thread's memory away from it. */
static void idle_threads_do_not_decide(void)
{
	struct fx f;
	base(&f);
	f.node[0] = f.anon[0] = 28 * 1024;
	f.node[1] = f.anon[1] = 4 * 1024;
	f.in.total_kb = 32 * 1024;
	f.in.remote_kb = 4 * 1024;
	f.thr[0] = 1;
	f.thr[1] = 3;
	size_t work[2] = { 100, 0 };
	f.in.work_on = work;
	struct why_result r;
	why_decide(&f.in, &r);
	CHECK(r.cause != WHY_SPREAD);
	CHECK_EQ_INT(r.action, WHY_ACT_MIGRATE);
	CHECK_EQ_INT(r.node, 0);
	CHECK(!harms(&f, &r));
	/* Counted (no CPU time known), the idle three make node 4 a place
	 * where threads run, so its 4 MiB stays: spread, nothing moved. */
	f.in.work_on = NULL;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_SPREAD);
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	/* HOME given as node 4 (as a count would have it) while the only
	 * working thread is on node 0 with 28 MiB: neither a migration to
	 * node 4 nor a rebind away from node 0 is advised. */
	f.in.work_on = work;
	f.in.home = 1;
	f.in.remote_kb = 28 * 1024;
	why_decide(&f.in, &r);
	CHECK(!harms(&f, &r));
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

/* ---- memory tiers: node 4 memory-only in a slower tier ---- */

static const struct snap_proc *find(const struct snapshot *s, int pid);
static const struct why_result *why_of(const struct snapshot *s, const struct snap_proc *p);

/* The fixture's two nodes as tiers: node 0 (index 0) with CPUs in tier
 * 4, node 4 (index 1) memory-only in tier 67; demotion as given. */
static void tiered(struct fx *f, struct tier_model *m, int demotion)
{
	tiers_init(m, 2);
	m->node[0] = (struct tier_node){ .id = 0, .tier = 4, .cpus = true, .access = -1,
					 .read_lat_ns = 80, .write_lat_ns = -1, .read_bw_mbs = -1,
					 .write_bw_mbs = -1 };
	m->node[1] = (struct tier_node){ .id = 4, .tier = 67, .cpus = false, .access = -1,
					 .read_lat_ns = 300, .write_lat_ns = -1, .read_bw_mbs = -1,
					 .write_bw_mbs = -1 };
	m->demotion = demotion;
	tiers_build(m);
	f->in.tiers = m;
}

/* A rebind never names a node without CPUs, whatever the cause: a
 * policy that binds to the memory-only node (the bug: "rebind to node
 * 1"), a cpuset that allows it and HOME only partly, spread threads with
 * most memory there, with demotion on and off. */
static void tiers_never_rebind_cpuless(void)
{
	for (int demotion = -1; demotion <= 1; demotion++) {
		for (int scen = 0; scen < 4; scen++) {
			struct fx f;
			struct tier_model m;
			base(&f);
			tiered(&f, &m, demotion);
			if (scen == 0) {              /* bind:4, all remote bound */
				f.pol[1] = 40 * 1024;
				f.in.pol_mode = NM_MODE_BIND;
				f.in.pol_text = "bind:4";
			} else if (scen == 1) {       /* cpuset: memory on 4 only */
				bitmap_set(&f.mems, 4);
				f.in.mems_allowed = &f.mems;
			} else if (scen == 2) {       /* preferred:4, most there */
				f.node[0] = f.anon[0] = 10 * 1024;
				f.node[1] = f.anon[1] = 90 * 1024;
				f.in.remote_kb = 90 * 1024;
				f.pol[1] = 90 * 1024;
				f.in.pol_mode = NM_MODE_PREFER;
				f.in.pol_text = "prefer:4";
			} else {                      /* threads "spread", most on 4 */
				f.node[0] = f.anon[0] = 2 * 1024;
				f.node[1] = f.anon[1] = 98 * 1024;
				f.in.remote_kb = 98 * 1024;
				f.thr[0] = 2;
				f.thr[1] = 2;
			}
			struct why_result r;
			why_decide(&f.in, &r);
			if (r.action == WHY_ACT_REBIND && r.node == 4)
				printf("  demotion %d, scenario %d: %s: %s\n", demotion, scen,
				       why_cause_names[r.cause], r.text);
			CHECK(!(r.action == WHY_ACT_REBIND && r.node == 4));
			CHECK(r.action != WHY_ACT_MIGRATE || r.node == 0);
			tiers_free(&m);
			done(&f);
		}
	}
	/* Bound to the slow tier: its policy, explained as tiered memory. */
	struct fx f;
	struct tier_model m;
	base(&f);
	tiered(&f, &m, 1);
	f.pol[1] = 40 * 1024;
	f.in.pol_mode = NM_MODE_BIND;
	f.in.pol_text = "bind:4";
	struct why_result r;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_POLICY);
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	CHECK(strstr(r.text, "tiered memory") != NULL);
	CHECK(has_evidence(&r, "node 4 is memory only, in the slower memory tier 67"));
	/* Without tiers (the same node, CPUs unknown): the rebind as before. */
	f.in.tiers = NULL;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.action, WHY_ACT_REBIND);
	CHECK_EQ_INT(r.node, 4);
	tiers_free(&m);
	done(&f);
}

/* Pages on the memory-only slow node, default policy: demoted while the
 * kernel demotes (intended, no action); with demotion off, not demoted,
 * and a memory-only node is never one its CPUs "exclude" (moved). */
static void tiers_demoted(void)
{
	struct fx f;
	struct tier_model m;
	base(&f);
	tiered(&f, &m, 1);
	bitmap_set(&f.cpus, 0);         /* Cpus_allowed: node 0's CPUs, all there are */
	f.in.cpu_nodes = &f.cpus;
	struct why_result r;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_DEMOTED);
	CHECK_EQ_STR(why_cause_name(r.cause), "demoted");
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	CHECK(has_evidence(&r, "remote are on node 4, memory only"));
	CHECK(strstr(r.text, "as intended") != NULL);
	/* File pages demoted too: still demoted, not shared_file. */
	f.file[1] = 40 * 1024;
	f.anon[1] = 0;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_DEMOTED);
	f.file[1] = 0;
	f.anon[1] = 40 * 1024;
	/* Demotion off or unknown: not demoted, not moved (node 4 has no
	 * CPUs to exclude), and the fix names node 0. */
	for (int d = -1; d <= 0; d++) {
		m.demotion = d;
		why_decide(&f.in, &r);
		CHECK(r.cause != WHY_DEMOTED);
		CHECK(r.cause != WHY_MOVED);
		CHECK(r.action != WHY_ACT_REBIND);
		CHECK(r.action == WHY_ACT_NONE || r.node == 0);
	}
	/* One tier: nothing is "slow", never demoted. */
	m.demotion = 1;
	m.node[1].tier = 4;
	tiers_build(&m);
	why_decide(&f.in, &r);
	CHECK(r.cause != WHY_DEMOTED);
	tiers_free(&m);
	done(&f);
}

/* Hot memory on the slow tier (node 4, memory only) while the threads
 * run on node 0 in the fastest: slow_tier_hot, promote the hot part to
 * node 0 even when a bind policy put it there (said in the evidence);
 * without room on node 0 no action but the reason; too little hot, or
 * no heat: the causes as before (demoted, policy). */
static void tiers_slow_tier_hot(void)
{
	struct fx f;
	struct tier_model m;
	base(&f);
	tiered(&f, &m, 1);
	f.pol[1] = 40 * 1024;
	f.in.pol_mode = NM_MODE_BIND;
	f.in.pol_text = "bind:4";
	f.in.hot_kb = 36 * 1024;
	f.in.hot_remote_kb = 32 * 1024;
	f.in.hot_slow_kb = 32 * 1024;
	f.in.heat_watched_s = 10;
	struct why_result r;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_SLOW_TIER_HOT);
	CHECK_EQ_STR(why_cause_name(r.cause), "slow_tier_hot");
	CHECK_EQ_INT(r.action, WHY_ACT_MIGRATE_HOT);
	CHECK_EQ_INT(r.node, 0);
	CHECK(strstr(r.text, "promote its hot memory (32.0 MiB) to node 0") != NULL);
	CHECK(has_evidence(&r, "32.0 MiB hot on slower memory tiers"));
	CHECK(has_evidence(&r, "its policy bind:4 keeps new pages on the slow tier"));
	/* No room for it on node 0. */
	f.in.home_free_kb = 8 * 1024;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_SLOW_TIER_HOT);
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	CHECK(strstr(r.text, "node 0 has 8.0 MiB free for 32.0 MiB of hot memory") != NULL);
	f.in.home_free_kb = 8 << 20;
	/* Under 1 MiB hot there, or no heat: the policy decides. */
	f.in.hot_slow_kb = 512;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_POLICY);
	f.in.hot_slow_kb = -1;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_POLICY);
	/* Default policy, cold there: demoted, not slow_tier_hot. */
	f.pol[1] = 0;
	f.in.pol_mode = NM_MODE_DEFAULT;
	f.in.hot_slow_kb = 0;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_DEMOTED);
	/* One tier: nothing is slow. */
	f.in.hot_slow_kb = 32 * 1024;
	m.node[1].tier = 4;
	tiers_build(&m);
	why_decide(&f.in, &r);
	CHECK(r.cause != WHY_SLOW_TIER_HOT);
	tiers_free(&m);
	done(&f);
}

/* The sampler on tests/trees/tiered2: 100 bound to the memory-only node
 * 1 is its policy with no rebind; 200, unbound with 16 MiB on node 1
 * while the kernel demotes, is demoted with no action. */
static void sampler_tiered_tree(void)
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
	const struct snap_proc *p = find(&snap, 100);
	const struct why_result *w = why_of(&snap, p);
	CHECK(p && p->why == WHY_POLICY);
	CHECK(w && w->action == WHY_ACT_NONE);
	CHECK(w && !(w->action == WHY_ACT_REBIND && w->node == 1));
	p = find(&snap, 200);
	w = why_of(&snap, p);
	CHECK(p && p->why == WHY_DEMOTED);
	CHECK(w && w->action == WHY_ACT_NONE);
	snapshot_free(&snap);
	sampler_free(s);
	topology_free(&t);
	fsroot_close(r);
}

/* ---- the sampler on a tree: CPU time per thread decides HOME ---- */

static void put(const char *dir, const char *rel, const char *text, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fwrite(text, 1, len, f);
		fclose(f);
	}
}

/* Thread tid of process pid in the tree (its task stat; the main thread
 * also the process's stat, with the process's ticks), on cpu, with
 * utime ticks. */
static void put_thread(const char *dir, int pid, int tid, int cpu, unsigned long utime,
		       unsigned long proc_utime)
{
	char rel[128], text[512];
#define STAT_FMT "%d (spreadhog) S 1 %d %d 0 -1 4194560 100 0 0 0 %lu 0 0 0 20 0 3 0 " \
		 "5000000 100000000 8192 18446744073709551615 4194304 4238324 " \
		 "140737488346512 0 0 0 0 0 0 0 0 0 17 %d 0 0 0 0 0\n"
	int n = snprintf(text, sizeof(text), STAT_FMT, tid, pid, pid, utime, cpu);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d", pid, tid);
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	mkdir(path, 0755);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", pid, tid);
	put(dir, rel, text, (size_t)n);
	if (tid == pid) {
		n = snprintf(text, sizeof(text), STAT_FMT, pid, pid, pid, proc_utime, cpu);
		snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
		put(dir, rel, text, (size_t)n);
	}
}

/* A process of 3 threads (pid, pid+1, pid+2) with kb0 / kb1 kB of
 * anonymous memory on nodes 0 / 1. */
static void put_proc(const char *dir, int pid, int kb0, int kb1)
{
	char path[512], text[1024];
	snprintf(path, sizeof(path), "%s/proc/%d", dir, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/%d/task", dir, pid);
	mkdir(path, 0755);
	char rel[64];
	int n = snprintf(text, sizeof(text),
			 "Name:\tspreadhog\nState:\tS (sleeping)\nTgid:\t%d\nPid:\t%d\nPPid:\t1\n"
			 "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nVmRSS:\t%d kB\nThreads:\t3\n"
			 "Cpus_allowed:\tff\nCpus_allowed_list:\t0-7\n"
			 "Mems_allowed:\t00000000,0000000f\nMems_allowed_list:\t0-3\n",
			 pid, pid, kb0 + kb1);
	snprintf(rel, sizeof(rel), "proc/%d/status", pid);
	put(dir, rel, text, (size_t)n);
	snprintf(rel, sizeof(rel), "proc/%d/cmdline", pid);
	put(dir, rel, "spreadhog\0", 10);
	snprintf(rel, sizeof(rel), "proc/%d/cgroup", pid);
	put(dir, rel, "0::/\n", 5);
	n = 0;
	if (kb0)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "7f0000000000 default anon=%d "
			      "dirty=%d N0=%d kernelpagesize_kB=4\n", kb0 / 4, kb0 / 4, kb0 / 4);
	if (kb1)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "7f1000000000 default anon=%d "
			      "dirty=%d N1=%d kernelpagesize_kB=4\n", kb1 / 4, kb1 / 4, kb1 / 4);
	snprintf(rel, sizeof(rel), "proc/%d/numa_maps", pid);
	put(dir, rel, text, (size_t)n);
}

static const struct snap_proc *find(const struct snapshot *s, int pid)
{
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i].info.pid == pid)
			return &s->procs[i];
	return NULL;
}

static const struct why_result *why_of(const struct snapshot *s, const struct snap_proc *p)
{
	return p && p->why_idx >= 0 && (size_t)p->why_idx < s->nwhy ? &s->why[p->why_idx] : NULL;
}

/* A copy of the 4-node tree in dir (a mkdtemp template) to write
 * processes into; false (said as a SKIP of test) when it cannot be made. */
static bool opteron4_copy(char *dir, const char *test)
{
	char cmd[300];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(cmd, sizeof(cmd), "cp -r tests/trees/opteron4/. %s/", dir);
	if (system(cmd) != 0) {
		printf("SKIP %s: run from the project root\n", test);
		return false;
	}
	return true;
}

/* The sampler test's end: its model, sampler, topology and tree gone. */
static void opteron4_end(struct snapshot *snap, struct sampler *s, struct topology *t,
			 struct fsroot *r, const char *dir)
{
	char cmd[300];
	snapshot_free(snap);
	sampler_free(s);
	topology_free(t);
	fsroot_close(r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

/* On the 4-node tree (CPUs 0-1 node 0, 2-3 node 1), two processes of
 * three threads, sampled twice with CPU time given to some threads in
 * between. 5000 is the guest of issue 29: its main thread idle on node
 * 1, thread 5001 working on node 0 and 5002 on node 1, 16 MiB beside
 * each. 6000: two idle threads on node 1, one working on node 0 beside
 * all of its 16 MiB: HOME is node 0 (before: node 1, the idle majority,
 * making its 16 MiB "remote" and advising to migrate it away from the
 * one thread using it). */
static void sampler_idle_threads(void)
{
	char dir[] = "/tmp/numatop-why-XXXXXX";
	if (!opteron4_copy(dir, "sampler_idle_threads"))
		return;
	put_proc(dir, 5000, 16384, 16384);
	put_proc(dir, 6000, 16384, 0);
	/* pid, tid, CPU, its ticks, the process's */
	put_thread(dir, 5000, 5000, 2, 10, 1010);
	put_thread(dir, 5000, 5001, 0, 500, 0);
	put_thread(dir, 5000, 5002, 3, 500, 0);
	put_thread(dir, 6000, 6000, 2, 10, 1010);
	put_thread(dir, 6000, 6001, 0, 1000, 0);
	put_thread(dir, 6000, 6002, 3, 0, 0);
	struct fsroot *r;
	struct topology t;
	struct sampler *s;
	CHECK_EQ_INT(fsroot_open(dir, &r), 0);
	CHECK_EQ_INT(topology_read(r, &t), 0);
	CHECK_EQ_INT(sampler_new(r, &t, PROC_BACKEND_FILES, &s), 0);
	struct nmsched_config c;
	nmsched_config_default(&c);
	c.full = true;
	sampler_set_budget(s, &c);
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	/* First sample: no CPU time since a previous one, threads are
	 * counted (2 of 3 on node 1). 5000 is spread all the same. */
	const struct snap_proc *p = find(&snap, 5000);
	CHECK(p && p->home == 1 && p->info.thr_n == 3);
	const struct why_result *w = why_of(&snap, p);
	CHECK(p && p->why == WHY_SPREAD);
	CHECK(w && w->action == WHY_ACT_NONE);
	p = find(&snap, 6000);
	CHECK(p && p->home == 1);
	/* Then 5001 and 5002 work 100 ticks each, 6001 works 100 ticks; the
	 * main threads and 6002 stay idle. */
	put_thread(dir, 5000, 5000, 2, 10, 1210);
	put_thread(dir, 5000, 5001, 0, 600, 0);
	put_thread(dir, 5000, 5002, 3, 600, 0);
	put_thread(dir, 6000, 6000, 2, 10, 1110);
	put_thread(dir, 6000, 6001, 0, 1100, 0);
	put_thread(dir, 6000, 6002, 3, 0, 0);
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	p = find(&snap, 5000);
	w = why_of(&snap, p);
	CHECK(p && p->why == WHY_SPREAD);
	CHECK(w && w->action == WHY_ACT_NONE && strstr(w->text, "follows its threads"));
	CHECK(w && w->nevidence > 0 && strstr(w->evidence[0], "0:1 1:2"));
	if (p && w)
		printf("  5000: HOME %d, %s: %s | %s -> %s\n", p->home, why_cause_names[w->cause],
		       w->evidence[0], w->nevidence > 1 ? w->evidence[1] : "", w->text);
	p = find(&snap, 6000);
	CHECK(p && p->home == 0);
	CHECK(p && p->remote_kb == 0 && p->why == WHY_NONE);
	w = why_of(&snap, p);
	CHECK(!w || w->action != WHY_ACT_MIGRATE);
	/* Nothing ran since: no CPU time to weigh by, counted again; the
	 * idle majority does not take HOME back (it stays while its node
	 * has half the work of the busiest: 1 thread against 2). */
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	p = find(&snap, 6000);
	CHECK(p && p->home == 0);
	opteron4_end(&snap, s, &t, r, dir);
}

/* task/TID/schedstat: the thread's run time in ns. */
static void put_runtime(const char *dir, int pid, int tid, unsigned long long ns)
{
	char rel[128], text[96];
	int n = snprintf(text, sizeof(text), "%llu 0 %llu\n", ns, ns / 1000000);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/schedstat", pid, tid);
	put(dir, rel, text, (size_t)n);
}

/* Issue 39 in a guest: one thread per node, each waking every 100 ms to
 * touch its own 16 MiB (a few ms a second: a clock tick only now and
 * then), the main thread idle. By ticks, one sample saw only one of them
 * work: HOME and WHY alternated, and the advice was to migrate the memory
 * to one node, away from the other node's thread. By run time in ns both
 * work in every sample; a thread quiet in one sample (its run time read
 * unchanged) still counts for a while: spread, HOME steady, never a move
 * of its memory. */
static void sampler_brief_wakes(void)
{
	char dir[] = "/tmp/numatop-why-XXXXXX";
	if (!opteron4_copy(dir, "sampler_brief_wakes"))
		return;
	put_proc(dir, 7000, 16384, 16384);
	unsigned long long ns1 = 1000000, ns2 = 1000000;
	unsigned long t1 = 0, t2 = 0, tp = 0;
	struct fsroot *r;
	struct topology t;
	struct sampler *s;
	CHECK_EQ_INT(fsroot_open(dir, &r), 0);
	CHECK_EQ_INT(topology_read(r, &t), 0);
	CHECK_EQ_INT(sampler_new(r, &t, PROC_BACKEND_FILES, &s), 0);
	struct nmsched_config c;
	nmsched_config_default(&c);
	c.full = true;
	sampler_set_budget(s, &c);
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	int home = -2;
	for (int tick = 0; tick < 7; tick++) {
		/* The ticks: one thread's now and then, never both at once. */
		put_thread(dir, 7000, 7000, 2, 0, tp);
		put_thread(dir, 7000, 7001, 0, t1, 0);
		put_thread(dir, 7000, 7002, 3, t2, 0);
		put_runtime(dir, 7000, 7000, 500000);
		put_runtime(dir, 7000, 7001, ns1);
		put_runtime(dir, 7000, 7002, ns2);
		CHECK_EQ_INT(sampler_tick(s, &snap), 0);
		const struct snap_proc *p = find(&snap, 7000);
		const struct why_result *w = p ? why_of(&snap, p) : NULL;
		CHECK(p != NULL);
		if (!p)
			break;
		printf("  tick %d: HOME %d, %s, %s\n", tick, p->home, why_cause_names[p->why],
		       w ? w->text : "-");
		if (tick > 0) {
			CHECK_EQ_INT(p->why, WHY_SPREAD);
			CHECK(!w || (w->action != WHY_ACT_MIGRATE && w->action != WHY_ACT_MIGRATE_HOT));
			if (home != -2)
				CHECK_EQ_INT(p->home, home);
			home = p->home;
		}
		/* 4 ms each a second; 7001 quiet in tick 3, and 7002 (on
		 * HOME's node) in tick 5 while 7001 works: its run time read
		 * unchanged, as a loaded host's starved CPU leaves it. */
		if (tick != 2)
			ns1 += 4000000;
		if (tick != 4)
			ns2 += 4000000;
		if (tick % 2)
			t1++;
		else
			t2++;
		tp++;
	}
	opteron4_end(&snap, s, &t, r, dir);
}

/* Access heat: the moved case (its threads left node 4, where 40 MiB of
 * its anonymous memory stayed) weighed by what is used. */
static void heat_case(struct fx *f, int64_t hot, int64_t hotrem, double watched, double idle)
{
	base(f);
	f->in.prev_home = 1;
	f->in.hot_kb = hot;
	f->in.hot_remote_kb = hotrem;
	f->in.heat_watched_s = watched;
	f->in.cold_idle_s = idle;
	/* The remote memory not hot: cold when a cold region was seen. */
	f->in.warm_remote_kb = hot >= 0 ? 0 : -1;
	f->in.cold_remote_kb = hot >= 0 && idle >= 0 ? f->in.remote_kb - hotrem : -1;
}

static void heat_cold_remote_needs_no_move(void)
{
	struct fx f;
	struct why_result r;
	heat_case(&f, -1, -1, 0, -1);
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.action, WHY_ACT_MIGRATE);      /* without heat: move it all */
	heat_case(&f, 10 * 1024, 0, 12, 30);
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_MOVED);
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	CHECK(strstr(r.text, "cold: 40.0 MiB remote, untouched for 30 s or more") != NULL);
	CHECK(has_evidence(&r, "DAMON: 10.0 MiB hot, 0.0 MiB of it remote"));
	/* Less than 1 MiB hot remote is cold too; no cold region: "not used". */
	heat_case(&f, 10 * 1024, 512, 12, -1);
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	CHECK(strstr(r.text, "not used now: 40.0 MiB remote") != NULL);
	done(&f);
}

/* Warm remote memory (used within 5 s, not in the last window) is used
 * memory: never called cold, the rules' advice stands. Only the cold
 * part is named when it is cold. */
static void heat_warm_is_used(void)
{
	struct fx f;
	struct why_result r;
	heat_case(&f, 10 * 1024, 0, 12, 8);
	f.in.warm_remote_kb = 38 * 1024;
	f.in.cold_remote_kb = 2 * 1024;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.action, WHY_ACT_MIGRATE);
	CHECK(strstr(r.text, "cold") == NULL);
	CHECK(has_evidence(&r, "38.0 MiB remote is warm"));
	f.in.warm_remote_kb = 512;     /* a little warm: the cold part is named */
	f.in.cold_remote_kb = 39 * 1024 + 512;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	CHECK(strstr(r.text, "cold: 39.5 MiB remote") != NULL);
	done(&f);
}

/* No move of memory away from a node where its own threads worked in the
 * window, whatever the cause said: an idle thread there does not hold it
 * back, a thread that ran does. */
static void never_away_from_own_threads(void)
{
	struct fx f;
	struct why_result r;
	size_t work[2] = { 100, 0 };
	base(&f);
	f.in.prev_home = 1;                     /* moved: migrate to node 0 */
	f.thr[1] = 1;                           /* a thread on node 4 ... */
	f.in.work_on = work;                    /* ... idle */
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.action, WHY_ACT_MIGRATE);
	work[1] = 1;                            /* it ran (1 ns: at all) */
	why_decide(&f.in, &r);
	CHECK(r.action != WHY_ACT_MIGRATE && r.action != WHY_ACT_MIGRATE_HOT);
	/* Hot remote memory off both: migrate hot, not away from node 4. */
	f.in.hot_kb = 30 * 1024;
	f.in.hot_remote_kb = 20 * 1024;
	f.in.heat_watched_s = 20;
	why_decide(&f.in, &r);
	CHECK(r.action != WHY_ACT_MIGRATE && r.action != WHY_ACT_MIGRATE_HOT);
	done(&f);
}

/* Heat there but not usable (access.h): a move of memory waits, in words;
 * unseen heat says so and advises nothing from it. */
static void heat_not_usable_waits(void)
{
	struct fx f;
	struct why_result r;
	heat_case(&f, -1, -1, 0, -1);
	f.in.heat_wait = "measuring heat (12 s left)";
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_MOVED);
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	CHECK(strstr(r.text, "measuring heat (12 s left); a move of its memory waits for it") != NULL);
	f.in.heat_wait = "heat not fresh: read 27 s ago";
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	CHECK(strstr(r.text, "heat not fresh") != NULL);
	f.in.heat_wait = "heat not seen: ...";
	f.in.heat_unseen = true;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.action, WHY_ACT_MIGRATE);      /* the rules alone */
	CHECK(has_evidence(&r, "heat not seen"));
	done(&f);
}

static void heat_hot_remote_moves_only_hot(void)
{
	struct fx f;
	struct why_result r;
	heat_case(&f, 30 * 1024, 20 * 1024, 1, -1);   /* hot: said at once */
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_MOVED);
	CHECK_EQ_INT(r.action, WHY_ACT_MIGRATE_HOT);
	CHECK_EQ_INT(r.node, 0);
	CHECK(strstr(r.text, "migrate its hot memory (20.0 MiB) to node 0") != NULL);
	CHECK(has_evidence(&r, "DAMON: 20.0 of 30.0 MiB hot memory is remote"));
	CHECK_EQ_STR(why_action_names[r.action], "migrate_hot");
	done(&f);
}

static void heat_not_said_too_soon(void)
{
	struct fx f;
	struct why_result r;
	/* Watched 2 s: idle ranges cannot be called cold yet. */
	heat_case(&f, 10 * 1024, 0, 2, -1);
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.action, WHY_ACT_MIGRATE);
	/* A rebind (policy) with nothing hot remote: nothing to do either. */
	base(&f);
	f.pol[1] = 40 * 1024;
	f.in.pol_mode = NM_MODE_BIND;
	f.in.pol_text = "bind:4";
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.action, WHY_ACT_REBIND);
	f.in.hot_kb = 0;
	f.in.hot_remote_kb = 0;
	f.in.heat_watched_s = 20;
	f.in.cold_idle_s = 20;
	why_decide(&f.in, &r);
	CHECK_EQ_INT(r.cause, WHY_POLICY);
	CHECK_EQ_INT(r.action, WHY_ACT_NONE);
	done(&f);
}

/* The stat of process 7000 (task false) or of its thread tid (task true,
 * in proc/7000/task/TID): utime ticks, nthreads threads, last on CPU cpu. */
static void put_stat7(const char *dir, bool task, int tid, unsigned long utime, int nthreads,
		      int cpu)
{
	char rel[128], text[512], path[512];
	int n = snprintf(text, sizeof(text),
			 "%d (ticker) S 1 7000 7000 0 -1 4194560 100 0 0 0 %lu 0 0 0 20 0 %d 0 "
			 "5000000 100000000 8192 18446744073709551615 4194304 4238324 "
			 "140737488346512 0 0 0 0 0 0 0 0 0 17 %d 0 0 0 0 0\n",
			 tid, utime, nthreads, cpu);
	if (!task) {
		put(dir, "proc/7000/stat", text, (size_t)n);
		return;
	}
	snprintf(path, sizeof(path), "%s/proc/7000/task/%d", dir, tid);
	mkdir(path, 0755);
	snprintf(rel, sizeof(rel), "proc/7000/task/%d/stat", tid);
	put(dir, rel, text, (size_t)n);
}

static int64_t ran_of(const struct snapshot *s, int tid)
{
	const struct snap_proc *p = find(s, 7000);
	for (size_t k = 0; p && k < p->info.thr_n; k++)
		if (snap_threads(s, p)[k].tid == tid)
			return snap_threads(s, p)[k].ran;
	return -2;
}

/* Each thread's CPU ticks since the previous sample (proc_thread.ran),
 * as a process goes from one thread to two and back: a single-threaded
 * process's one thread is the process (no per-thread history is kept
 * for it); its main thread, once it has others, counts from the
 * process's ticks then; a thread born since counts all of its ticks. */
static void sampler_thread_ticks(void)
{
	char dir[] = "/tmp/numatop-thr-XXXXXX";
	if (!opteron4_copy(dir, "sampler_thread_ticks"))
		return;
	char path[512];
	snprintf(path, sizeof(path), "%s/proc/7000", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/7000/task", dir);
	mkdir(path, 0755);
	put(dir, "proc/7000/cmdline", "ticker\0", 7);
	struct fsroot *r;
	struct topology t;
	struct sampler *s;
	put_stat7(dir, false, 7000, 100, 1, 0);
	CHECK_EQ_INT(fsroot_open(dir, &r), 0);
	CHECK_EQ_INT(topology_read(r, &t), 0);
	CHECK_EQ_INT(sampler_new(r, &t, PROC_BACKEND_FILES, &s), 0);
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	/* Per sample: the process's ticks and threads, the main thread's and
	 * 7001's ticks (-1: no such thread), and what each ran since (-2:
	 * not listed). */
	static const struct {
		int proc, nthr, main, t1;
		int ran_main, ran_t1;
	} step[] = {
		{ 100, 1, -1, -1, -1, -2 },     /* first sample: nothing since */
		{ 130, 1, -1, -1, 30, -2 },
		/* A second thread: the main thread's 140 against the
		 * process's 130 then; 7001 born since. */
		{ 160, 2, 140, 20, 10, 20 },
		/* Two threads both times: each from its own ticks then. */
		{ 175, 2, 150, 25, 10, 5 },
		/* One thread again: the process's ticks since (175 then),
		 * not the main thread's (150). */
		{ 190, 1, -1, -1, 15, -2 },
	};
	for (size_t i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
		put_stat7(dir, false, 7000, (unsigned long)step[i].proc, step[i].nthr, 0);
		if (step[i].main >= 0)
			put_stat7(dir, true, 7000, (unsigned long)step[i].main, step[i].nthr, 0);
		if (step[i].t1 >= 0)
			put_stat7(dir, true, 7001, (unsigned long)step[i].t1, step[i].nthr, 2);
		CHECK_EQ_INT(sampler_tick(s, &snap), 0);
		CHECK_EQ_INT((int)ran_of(&snap, 7000), step[i].ran_main);
		CHECK_EQ_INT((int)ran_of(&snap, 7001), step[i].ran_t1);
	}
	opteron4_end(&snap, s, &t, r, dir);
}

int main(void)
{
	RUN_TEST(not_read);
	RUN_TEST(sampler_brief_wakes);
	RUN_TEST(heat_cold_remote_needs_no_move);
	RUN_TEST(heat_warm_is_used);
	RUN_TEST(never_away_from_own_threads);
	RUN_TEST(heat_not_usable_waits);
	RUN_TEST(heat_hot_remote_moves_only_hot);
	RUN_TEST(heat_not_said_too_soon);
	RUN_TEST(none_small);
	RUN_TEST(policy_interleave_and_bind);
	RUN_TEST(cpuset_excludes_home);
	RUN_TEST(shared_file);
	RUN_TEST(spread);
	RUN_TEST(spread_memory_follows_threads);
	RUN_TEST(idle_threads_do_not_decide);
	RUN_TEST(sampler_idle_threads);
	RUN_TEST(sampler_thread_ticks);
	RUN_TEST(spill);
	RUN_TEST(moved);
	RUN_TEST(unknown);
	RUN_TEST(order);
	RUN_TEST(tiers_never_rebind_cpuless);
	RUN_TEST(tiers_demoted);
	RUN_TEST(tiers_slow_tier_hot);
	RUN_TEST(sampler_tiered_tree);
	return CHECK_DONE();
}
