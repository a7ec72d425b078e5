/* why.c - the cause of a process's remote memory and the one fix, from
 * the evidence in struct why_input (see why.h). Pure: no I/O, no clock. */
#include "why.h"
#include "access.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *const why_cause_names[WHY_NCAUSES] = {
	"-", "none", "policy", "cpuset", "shared_file", "spread", "spill", "moved", "unknown",
	"demoted", "slow_tier_hot",
};

const char *why_cause_name(int cause)
{
	return cause > WHY_NOT_READ && cause < WHY_NCAUSES ? why_cause_names[cause] : NULL;
}
const char *const why_action_names[WHY_NACTIONS] = { "none", "migrate", "rebind", "migrate_hot" };

static void evidence(struct why_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void evidence(struct why_result *r, const char *fmt, ...)
{
	if (r->nevidence >= WHY_MAX_EVIDENCE)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->evidence[r->nevidence++], sizeof(r->evidence[0]), fmt, ap);
	va_end(ap);
}

static void advise(struct why_result *r, enum why_action a, int node, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void advise(struct why_result *r, enum why_action a, int node, const char *fmt, ...)
{
	r->action = a;
	r->node = node;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
}

/* kB off HOME of one per-node array. */
static int64_t off_home(const struct why_input *in, const int64_t *kb)
{
	int64_t s = 0;
	for (size_t i = 0; kb && i < in->nnodes; i++)
		if ((int)i != in->home && kb[i] > 0)
			s += kb[i];
	return s;
}

/* The node index holding most of kb (off HOME when skip_home), -1 none. */
static int most(const struct why_input *in, const int64_t *kb, bool skip_home)
{
	int best = -1;
	for (size_t i = 0; kb && i < in->nnodes; i++)
		if ((!skip_home || (int)i != in->home) && kb[i] > 0 && (best < 0 || kb[i] > kb[best]))
			best = (int)i;
	return best;
}

/* Node index i has CPUs (unknown: taken as yes): a rebind can run
 * threads there. */
static bool can_run(const struct why_input *in, int i)
{
	const struct tier_model *m = in->tiers;
	return i >= 0 && (!m || !m->node || (size_t)i >= m->nnodes || m->node[i].cpus);
}

/* Node index i is memory only, in a slower tier than the fastest. */
static bool far_node(const struct why_input *in, int i)
{
	return i >= 0 && in->tiers && tiers_node_far(in->tiers, (size_t)i);
}

/* " (memory only, tier 67 of 4 67)": what a memory-only node is. */
static void far_words(const struct why_input *in, int i, char *out, size_t n)
{
	const struct tier_model *m = in->tiers;
	const struct tier_info *t = m ? tiers_node_tier(m, (size_t)i) : NULL;
	if (t && t->order > 0)
		snprintf(out, n, "memory only, in the slower memory tier %d (the fastest is %d)", t->id,
			 m->tier[0].id);
	else
		snprintf(out, n, "memory only, no CPUs");
}

static int pct(int64_t part, int64_t whole)
{
	return whole > 0 ? (int)(part * 100 / whole) : 0;
}

/* "MiB" with one decimal from kB. */
static double mib(int64_t kb)
{
	return (double)kb / 1024.0;
}

static bool spill(const struct why_input *in, struct why_result *r, int hid)
{
	bool low = false;
	if (in->home_free_kb >= 0 && in->home_total_kb > 0) {
		int64_t floor = in->home_low_kb >= 0 ? in->home_low_kb :
				in->home_total_kb * WHY_LOW_FREE_PCT / 100;
		low = in->home_free_kb <= floor;
		if (low)
			evidence(r, "node %d: %.0f MiB free of %.0f MiB (%s %.0f MiB)", hid,
				 mib(in->home_free_kb), mib(in->home_total_kb),
				 in->home_low_kb >= 0 ? "low watermark" : "3 % is", mib(floor));
	}
	bool fell = in->rss_growth_kb > 0 && (in->home_foreign_rate > 0 || in->home_miss_rate > 0);
	if (fell && !low)
		evidence(r, "node %d: numa_foreign %.0f/s, numa_miss %.0f/s while it grew %.1f MiB", hid,
			 in->home_foreign_rate > 0 ? in->home_foreign_rate : 0,
			 in->home_miss_rate > 0 ? in->home_miss_rate : 0, mib(in->rss_growth_kb));
	return low || fell;
}

/* The work of node i's threads: their CPU ticks since the last sample
 * when known, else how many there are (each counts 1). */
static size_t work(const struct why_input *in, size_t i)
{
	return in->work_on ? in->work_on[i] : in->threads_on[i];
}

/* kB worth naming: what "none" does not call small (1 MiB and 5 %). */
static bool sizable(const struct why_input *in, int64_t kb)
{
	return kb >= WHY_SMALL_KB && kb * 100 >= in->total_kb * WHY_SMALL_PCT;
}

/* kB off HOME on nodes where its own threads work: local to them now,
 * and made remote for them by a migration to HOME. */
static int64_t near_kb(const struct why_input *in)
{
	int64_t s = 0;
	for (size_t i = 0; in->threads_on && i < in->nnodes; i++)
		if ((int)i != in->home && work(in, i) > 0 && in->node_kb[i] > 0)
			s += in->node_kb[i];
	return s;
}

/* "0 and 1", "0, 1 and 4": the nodes where its threads work. */
static void work_nodes(const struct why_input *in, char *out, size_t size)
{
	size_t n = 0, k = 0, o = 0;
	for (size_t i = 0; i < in->nnodes; i++)
		n += work(in, i) > 0;
	out[0] = '\0';
	for (size_t i = 0; i < in->nnodes && o < size - 16; i++)
		if (work(in, i) > 0) {
			k++;
			o += (size_t)snprintf(out + o, size - o, "%s%d", k == 1 ? "" : k == n ? " and " : ", ",
					      in->node_ids[i]);
		}
}

/* spread: its threads work on at least two nodes, and either its remote
 * memory is mostly on those nodes (local to the threads there: it
 * follows its threads, and a migration to HOME would make it remote for
 * them) or no node has most of the work. The advice never makes a page
 * remote for threads on its node: a rebind only when the nodes its
 * threads leave hold little of its memory. */
static bool spread(const struct why_input *in, struct why_result *r, int64_t rem)
{
	if (!in->threads_on)
		return false;
	size_t total = 0, top = 0, nodes = 0;
	for (size_t i = 0; i < in->nnodes; i++) {
		size_t w = work(in, i);
		total += w;
		nodes += w > 0;
		if (w > top)
			top = w;
	}
	if (nodes < 2)
		return false;
	int64_t near = near_kb(in);
	bool follows = near * 2 > rem, even = top * 2 <= total;
	if (!follows && !even)
		return false;
	r->cause = WHY_SPREAD;
	char list[96];
	size_t o = 0;
	list[0] = '\0';
	for (size_t i = 0; i < in->nnodes && o < sizeof(list) - 24; i++)
		if (in->threads_on[i])
			o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%d:%zu", o ? " " : "",
					      in->node_ids[i], in->threads_on[i]);
	if (in->work_on) {
		char cpu[96];
		size_t c = 0;
		cpu[0] = '\0';
		for (size_t i = 0; i < in->nnodes && c < sizeof(cpu) - 24; i++)
			if (in->threads_on[i])
				c += (size_t)snprintf(cpu + c, sizeof(cpu) - c, "%s%d:%d", c ? " " : "",
						      in->node_ids[i], pct((int64_t)in->work_on[i],
									   (int64_t)total));
		evidence(r, "threads on nodes (node:threads) %s; their CPU time since the last "
			 "sample (node:%%) %s%s", list, cpu, even ? ": no node has most of it" : "");
	} else {
		evidence(r, "threads on nodes (node:threads) %s%s", list,
			 even ? ": no node has most of them" : "");
	}
	char nodes_s[64];
	work_nodes(in, nodes_s, sizeof(nodes_s));
	if (follows)
		evidence(r, "%.1f of %.1f MiB remote are on nodes where its own threads run (%s)",
			 mib(near), mib(rem), nodes_s);
	/* The node holding most of it, and what the others that its threads
	 * would leave hold. */
	int m = most(in, in->node_kb, false);
	int64_t left = 0;
	for (size_t i = 0; m >= 0 && i < in->nnodes; i++)
		if ((int)i != m && work(in, i) > 0 && in->node_kb[i] > 0)
			left += in->node_kb[i];
	if (m >= 0 && can_run(in, m) && !sizable(in, left))
		advise(r, WHY_ACT_REBIND, in->node_ids[m], "its threads are spread: rebind them to "
		       "node %d, where most of its memory is", in->node_ids[m]);
	else if (follows)
		advise(r, WHY_ACT_NONE, -1, "its memory follows its threads: threads on nodes %s, "
		       "each node's memory local to them; nothing to move", nodes_s);
	else
		advise(r, WHY_ACT_NONE, -1, "its threads and memory are spread over nodes %s: "
		       "running them on one node would make the rest remote for them", nodes_s);
	return true;
}

/* A migration to HOME would make the memory on the other nodes where
 * its threads work remote for them: when that is more than a little,
 * advise none and say so (true). */
static bool keep_near(const struct why_input *in, struct why_result *r, int hid)
{
	int64_t near = near_kb(in);
	if (!sizable(in, near))
		return false;
	char nodes_s[64];
	work_nodes(in, nodes_s, sizeof(nodes_s));
	evidence(r, "%.1f MiB of it is on nodes where its own threads run (%s)", mib(near), nodes_s);
	advise(r, WHY_ACT_NONE, -1, "migrating it to node %d would make %.1f MiB remote for its "
	       "threads that run where it is: move only what they do not use", hid, mib(near));
	return true;
}

static bool demoted(const struct why_input *in, struct why_result *r, int64_t rem)
{
	const struct tier_model *m = in->tiers;
	if (!m || m->demotion != 1 || !tiers_multi(m))
		return false;
	int64_t far = 0;
	int top = -1;
	for (size_t i = 0; i < in->nnodes; i++)
		if ((int)i != in->home && far_node(in, (int)i) && in->node_kb[i] > 0) {
			far += in->node_kb[i];
			if (top < 0 || in->node_kb[i] > in->node_kb[top])
				top = (int)i;
		}
	if (far * 2 <= rem || top < 0)
		return false;
	r->cause = WHY_DEMOTED;
	char w[96];
	far_words(in, top, w, sizeof(w));
	evidence(r, "%.1f of %.1f MiB remote are on node %d, %s", mib(far), mib(rem),
		 in->node_ids[top], w);
	evidence(r, "the kernel demotes cold pages to slower tiers (demotion_enabled)");
	advise(r, WHY_ACT_NONE, -1, "tiered memory: the kernel demoted cold pages to node %d, as "
	       "intended; it promotes them back when they get hot (kernel.numa_balancing=2)",
	       in->node_ids[top]);
	return true;
}

/* Hot memory on a slower tier while the threads run on the fastest:
 * it pays the far latency; promote it to HOME (the hot part only). */
static bool slow_tier_hot(const struct why_input *in, struct why_result *r, int hid)
{
	const struct tier_model *m = in->tiers;
	if (!m || !tiers_multi(m) || in->hot_slow_kb < WHY_SMALL_KB ||
	    tiers_node_order(m, (size_t)in->home) != 0)
		return false;
	r->cause = WHY_SLOW_TIER_HOT;
	evidence(r, "DAMON: %.1f MiB hot on slower memory tiers; its threads run on node %d, in "
		 "the fastest (tier %d)", mib(in->hot_slow_kb), hid, m->tier[0].id);
	int64_t pol = off_home(in, in->pol_kb);
	if (pol * 2 > in->remote_kb && in->pol_mode == NM_MODE_BIND)
		evidence(r, "its policy %s keeps new pages on the slow tier: promoted pages stay, "
			 "new ones follow the policy", in->pol_text && in->pol_text[0] ? in->pol_text : "bind");
	if (in->home_free_kb >= 0 && in->home_free_kb < in->hot_slow_kb) {
		advise(r, WHY_ACT_NONE, -1, "node %d has %.1f MiB free for %.1f MiB of hot memory: "
		       "free memory there first, then promote it", hid, mib(in->home_free_kb),
		       mib(in->hot_slow_kb));
		return true;
	}
	advise(r, WHY_ACT_MIGRATE_HOT, hid, "promote its hot memory (%.1f MiB) to node %d, the "
	       "fast tier; the cold rest can stay", mib(in->hot_slow_kb), hid);
	return true;
}

bool why_settled(const struct why_input *in, enum why_cause *cause)
{
	if (in->total_kb < 0 || in->remote_kb < 0)
		*cause = WHY_NOT_READ;
	else if (in->remote_kb < WHY_SMALL_KB || in->remote_kb * 100 < in->total_kb * WHY_SMALL_PCT)
		*cause = WHY_NONE;
	else
		return false;
	return true;
}

static void decide(const struct why_input *in, struct why_result *r)
{
	memset(r, 0, sizeof(*r));
	r->node = -1;
	enum why_cause settled;
	bool done = why_settled(in, &settled);
	if (done && settled == WHY_NOT_READ) {
		r->cause = WHY_NOT_READ;
		advise(r, WHY_ACT_NONE, -1, "placement not read yet");
		return;
	}
	if (done) {
		r->cause = WHY_NONE;
		evidence(r, "remote %.1f MiB = %d %% of %.1f MiB", mib(in->remote_kb),
			 pct(in->remote_kb, in->total_kb), mib(in->total_kb));
		advise(r, WHY_ACT_NONE, -1, "nothing to do: little of it is remote");
		return;
	}
	if (in->home < 0 || (size_t)in->home >= in->nnodes) {
		r->cause = WHY_UNKNOWN;
		evidence(r, "HOME unknown: no thread's last CPU is on a known node");
		advise(r, WHY_ACT_NONE, -1, "unknown: HOME is not known");
		return;
	}
	int hid = in->node_ids[in->home];
	int64_t rem = in->remote_kb;
	int big = most(in, in->node_kb, true);
	int big_id = big >= 0 ? in->node_ids[big] : -1;

	/* slow_tier_hot: what is used sits on a slower tier. */
	if (slow_tier_hot(in, r, hid))
		return;
	/* policy: the remote pages are where a policy put them. */
	int64_t pol = off_home(in, in->pol_kb);
	if (pol * 2 > rem) {
		r->cause = WHY_POLICY;
		evidence(r, "%.1f of %.1f MiB remote are in mappings with policy %s",
			 mib(pol), mib(rem), in->pol_text && in->pol_text[0] ? in->pol_text : "non-default");
		if (in->pol_mode == NM_MODE_INTERLEAVE || in->pol_mode == NM_MODE_WEIGHTED_INTERLEAVE) {
			advise(r, WHY_ACT_NONE, -1, "interleaved by its policy, as intended: remote "
			       "pages are the point of interleave");
		} else {
			int pn = most(in, in->pol_kb, true);
			int pidx = pn >= 0 ? pn : big;
			int pid_ = pn >= 0 ? in->node_ids[pn] : big_id;
			if (pidx >= 0 && !can_run(in, pidx)) {
				/* Memory-only: no rebind runs threads there. */
				char w[96];
				far_words(in, pidx, w, sizeof(w));
				evidence(r, "node %d is %s", pid_, w);
				if (far_node(in, pidx))
					advise(r, WHY_ACT_NONE, -1, "tiered memory by its policy: it binds the "
					       "memory to node %d, a slower tier without CPUs; to make it fast, "
					       "change the policy (no rebind can run threads there)", pid_);
				else
					advise(r, WHY_ACT_NONE, -1, "its policy keeps the memory on node %d, "
					       "which has no CPUs: change the policy to move it (no rebind can "
					       "run threads there)", pid_);
			} else {
				advise(r, WHY_ACT_REBIND, pid_, "its policy keeps the memory on node %d: run "
				       "its threads there (rebind to node %d)", pid_, pid_);
			}
		}
		return;
	}
	/* cpuset: local memory is not allowed. */
	if (in->mems_allowed && !bitmap_test(in->mems_allowed, (unsigned)hid)) {
		r->cause = WHY_CPUSET;
		char m[64];
		bitmap_format_list(in->mems_allowed, m, sizeof(m));
		evidence(r, "Mems_allowed %s excludes HOME node %d", m, hid);
		int to = -1;
		for (size_t i = 0; i < in->nnodes; i++)
			if (bitmap_test(in->mems_allowed, (unsigned)in->node_ids[i]) && can_run(in, (int)i) &&
			    (to < 0 || in->node_kb[i] > in->node_kb[to]))
				to = (int)i;
		if (to >= 0)
			advise(r, WHY_ACT_REBIND, in->node_ids[to], "its cpuset allows memory on %s only: "
			       "run its threads on node %d (rebind)", m, in->node_ids[to]);
		else
			advise(r, WHY_ACT_NONE, -1, "its cpuset allows memory on %s only", m);
		return;
	}
	/* demoted: most of it is on memory-only nodes of a slower tier,
	 * not by its policy, while the kernel demotes cold pages there. */
	if (demoted(in, r, rem))
		return;
	/* shared_file: page cache, placed by whoever read the file first. */
	int64_t file = off_home(in, in->file_kb);
	if (file * 2 > rem) {
		r->cause = WHY_SHARED_FILE;
		evidence(r, "%.1f of %.1f MiB remote are file pages (page cache)", mib(file), mib(rem));
		int fn = most(in, in->file_kb, true);
		advise(r, WHY_ACT_NONE, -1, "page cache on node %d, shared with whoever read the files: "
		       "migrating this process does not move it (see the mappings in the detail)",
		       fn >= 0 ? in->node_ids[fn] : -1);
		return;
	}
	/* spread: its threads work on several nodes, and its remote memory
	 * is mostly where they work, or no node has most of the work. */
	if (spread(in, r, rem))
		return;
	/* spill: HOME had no room. */
	if (spill(in, r, hid)) {
		r->cause = WHY_SPILL;
		advise(r, WHY_ACT_NONE, -1, "node %d is short of memory: free memory there first, "
		       "then migrate it back to node %d", hid, hid);
		if (in->kernel_migrate_rate > 0)
			evidence(r, "the kernel's NUMA balancing moves %.0f of its pages a second",
				 in->kernel_migrate_rate);
		return;
	}
	/* moved: anonymous pages where its threads no longer run. */
	int64_t anon = off_home(in, in->anon_kb);
	int an = most(in, in->anon_kb, true);
	if (anon * 2 > rem && an >= 0) {
		int aid = in->node_ids[an];
		bool excluded = in->cpu_nodes && can_run(in, an) &&
				!bitmap_test(in->cpu_nodes, (unsigned)aid);
		bool changed = in->prev_home >= 0 && in->prev_home != in->home;
		if (excluded)
			evidence(r, "Cpus_allowed excludes node %d, which holds %.1f MiB of its anonymous "
				 "memory", aid, mib(in->anon_kb[an]));
		if (changed)
			evidence(r, "HOME moved from node %d to node %d while watched",
				 in->node_ids[in->prev_home], hid);
		if (excluded || changed) {
			r->cause = WHY_MOVED;
			if (keep_near(in, r, hid))
				return;
			if (in->kernel_migrate_rate > 0) {
				evidence(r, "the kernel's NUMA balancing moves %.0f of its pages a second",
					 in->kernel_migrate_rate);
				advise(r, WHY_ACT_MIGRATE, hid, "its threads moved to node %d; the kernel is "
				       "already moving its memory there (or migrate it now)", hid);
			} else {
				advise(r, WHY_ACT_MIGRATE, hid, "its threads moved to node %d after it "
				       "allocated: migrate its memory to node %d", hid, hid);
			}
			return;
		}
		r->cause = WHY_UNKNOWN;
		evidence(r, "%.1f MiB anonymous on node %d, threads on node %d", mib(anon), aid, hid);
		evidence(r, "no sign of a move: %s", in->cpu_nodes ? "its CPUs include that node and "
			 "HOME did not change while watched" : in->status_why ? in->status_why :
			 "Cpus_allowed not read");
		if (!keep_near(in, r, hid))
			advise(r, WHY_ACT_MIGRATE, hid, "cause not known; migrating its memory to node %d "
			       "makes it local", hid);
		return;
	}
	r->cause = WHY_UNKNOWN;
	evidence(r, "remote %.1f MiB: anonymous %.1f, file %.1f, policy %.1f MiB: none of them most",
		 mib(rem), mib(anon), mib(file), mib(pol));
	advise(r, WHY_ACT_NONE, -1, "no single cause: see the mappings in the detail");
}

/* Heat there, not to be used (see why.h): a move of memory waits. */
static void heat_waits(const struct why_input *in, struct why_result *r)
{
	if (in->heat_unseen) {
		evidence(r, "DAMON saw none of its memory accessed while it ran: heat not seen");
		return;               /* the rules' advice, nothing from the heat */
	}
	if (r->action == WHY_ACT_MIGRATE || r->action == WHY_ACT_MIGRATE_HOT)
		advise(r, WHY_ACT_NONE, -1, "%s; a move of its memory waits for it",
		       in->heat_wait);
}

/* The advice, weighed by what is used (see why.h). */
static void heat(const struct why_input *in, struct why_result *r)
{
	if (r->cause == WHY_NONE || r->cause == WHY_NOT_READ || r->cause == WHY_SLOW_TIER_HOT)
		return;
	if (in->hot_kb < 0 && in->heat_wait) {
		heat_waits(in, r);
		return;
	}
	if (in->hot_kb < 0 || in->hot_remote_kb < 0)
		return;
	if (in->hot_remote_kb < WHY_SMALL_KB) {
		if (in->heat_watched_s < WHY_HEAT_MIN_S)
			return;
		evidence(r, "DAMON: %.1f MiB hot, %.1f MiB of it remote", mib(in->hot_kb),
			 mib(in->hot_remote_kb));
		if (r->action == WHY_ACT_NONE)
			return;
		if (in->warm_remote_kb >= WHY_SMALL_KB) {
			/* Used, if not in the last window: the rules stand. */
			evidence(r, "DAMON: %.1f MiB remote is warm (used within %.0f s)",
				 mib(in->warm_remote_kb), ACCESS_COLD_S);
			return;
		}
		if (in->cold_idle_s >= 0 && in->cold_remote_kb >= 0)
			advise(r, WHY_ACT_NONE, -1, "cold: %.1f MiB remote, untouched for %.0f s or "
			       "more: nothing to move", mib(in->cold_remote_kb), in->cold_idle_s);
		else
			advise(r, WHY_ACT_NONE, -1, "not used now: %.1f MiB remote, none of it hot "
			       "in %.0f s watched", mib(in->remote_kb), in->heat_watched_s);
		return;
	}
	evidence(r, "DAMON: %.1f of %.1f MiB hot memory is remote", mib(in->hot_remote_kb),
		 mib(in->hot_kb));
	if (r->action == WHY_ACT_MIGRATE)
		advise(r, WHY_ACT_MIGRATE_HOT, r->node, "migrate its hot memory (%.1f MiB) to "
		       "node %d; the cold rest can stay", mib(in->hot_remote_kb), r->node);
	else if (r->action == WHY_ACT_NONE && r->cause == WHY_UNKNOWN && in->home >= 0 &&
		 (size_t)in->home < in->nnodes)
		advise(r, WHY_ACT_MIGRATE_HOT, in->node_ids[in->home], "its hot memory (%.1f MiB) "
		       "is remote: migrate it to node %d", mib(in->hot_remote_kb),
		       in->node_ids[in->home]);
}

/* The last word on any move of memory: never away from a node where its
 * own threads worked in the window (work() > 0: what they ran, or on a
 * first sample every thread), where it holds memory worth naming. */
static void never_away(const struct why_input *in, struct why_result *r)
{
	if ((r->action != WHY_ACT_MIGRATE && r->action != WHY_ACT_MIGRATE_HOT) || !in->threads_on)
		return;
	for (size_t k = 0; k < in->nnodes; k++) {
		if (in->node_ids[k] == r->node || work(in, k) == 0 || in->node_kb[k] < WHY_SMALL_KB)
			continue;
		char nodes_s[64];
		work_nodes(in, nodes_s, sizeof(nodes_s));
		int to = r->node;
		evidence(r, "its threads work on nodes %s", nodes_s);
		advise(r, WHY_ACT_NONE, -1, "moving its memory to node %d would take %.1f MiB away from "
		       "its threads on node %d: nothing to move", to, mib(in->node_kb[k]),
		       in->node_ids[k]);
		return;
	}
}

void why_decide(const struct why_input *in, struct why_result *r)
{
	decide(in, r);
	heat(in, r);
	never_away(in, r);
}
