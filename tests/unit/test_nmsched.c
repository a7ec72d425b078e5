/* test_nmsched.c - the numa_maps budget with a fake clock: what is read,
 * kept, sampled and skipped; then the sampler on a copied recorded tree
 * with a fake clock and a fake move_pages. */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "columns.h"
#include "nmsched.h"
#include "placement.h"
#include "sampler.h"
#include "check.h"

/* ---- the scheduler alone ---- */

struct world {
	double now;              /* the fake clock */
	double cost[64];         /* what visiting process i costs */
	int visits[64];
	enum nmsched_how how[64];
};

static double w_clock(void *ctx) { return ((struct world *)ctx)->now; }

static int w_visit(void *ctx, size_t i, enum nmsched_how how)
{
	struct world *w = ctx;
	w->now += how == NMSCHED_SAMPLE ? w->cost[i] / 50 : w->cost[i];
	w->visits[i]++;
	w->how[i] = how;
	return 0;
}

/* A process as a sampler would pass it after a read at time at. */
static struct nmsched_proc proc_read_at(double at, double cost, int64_t rss_kb)
{
	return (struct nmsched_proc){ .cached = at >= 0, .last_read = at, .last_cost = cost,
				      .rss_kb = rss_kb, .cpu_pct = 0, .changed = true };
}

/* One tick: plan, run, and what a sampler records afterwards. */
static size_t tick(const struct nmsched_config *c, struct nmsched_proc *v, size_t n,
		   struct world *w, struct nmsched_stats *st)
{
	uint32_t order[64];
	double start = w->now;
	size_t k = nmsched_plan(c, v, n, start, order);
	memset(w->visits, 0, sizeof(w->visits));
	size_t done = nmsched_run(c, v, order, k, start, w_clock, w_visit, w, st);
	for (size_t i = 0; i < n; i++)
		if (w->visits[i]) {
			v[i].cached = true;
			v[i].last_read = start;
		}
	return done;
}

static void full_reads_all(void)
{
	struct nmsched_config c;
	nmsched_config_default(&c);
	c.full = true;
	struct world w = { .now = 100 };
	struct nmsched_proc v[5];
	for (int i = 0; i < 5; i++) {
		v[i] = proc_read_at(99, 0.05, 8 << 20);   /* 8 GiB, 50 ms each */
		v[i].changed = false;
		w.cost[i] = 0.05;
	}
	struct nmsched_stats st;
	CHECK_EQ_INT(tick(&c, v, 5, &w, &st), 5);
	for (int i = 0; i < 5; i++) {
		CHECK_EQ_INT(w.visits[i], 1);
		CHECK(w.how[i] == NMSCHED_READ);   /* --full never samples */
	}
	CHECK_EQ_INT(st.skipped, 0);
	CHECK(fabs(v[0].last_cost - 0.05) < 1e-9);
}

static void unchanged_are_kept(void)
{
	struct nmsched_config c;
	nmsched_config_default(&c);
	struct world w = { .now = 50 };
	struct nmsched_proc v[3];
	for (int i = 0; i < 3; i++) {
		v[i] = proc_read_at(10, 0.0001, 1000);
		w.cost[i] = 0.0001;
	}
	v[0].changed = false;
	v[2].changed = false;
	struct nmsched_stats st;
	CHECK_EQ_INT(tick(&c, v, 3, &w, &st), 1);
	CHECK_EQ_INT(w.visits[0], 0);
	CHECK_EQ_INT(w.visits[1], 1);
	CHECK_EQ_INT(w.visits[2], 0);
	CHECK(v[0].how == NMSCHED_KEEP && v[2].how == NMSCHED_KEEP);
	/* ... unless selected: priority is read every tick. */
	v[2].priority = true;
	v[1].changed = false;
	CHECK_EQ_INT(tick(&c, v, 3, &w, &st), 1);
	CHECK_EQ_INT(w.visits[2], 1);
	CHECK_EQ_INT(w.visits[1], 0);
}

static void budget_is_kept(void)
{
	struct nmsched_config c;
	nmsched_config_default(&c);          /* 20 ms */
	struct world w = { .now = 1000 };
	struct nmsched_proc v[60];
	for (int i = 0; i < 60; i++) {
		v[i] = proc_read_at(-1, 0.001, 4096);   /* new, measured 1 ms */
		v[i].cached = false;
		w.cost[i] = 0.001;
	}
	struct nmsched_stats st;
	int seen[60] = { 0 };
	for (int t = 0; t < 3; t++) {
		double t0 = w.now;
		size_t done = tick(&c, v, 60, &w, &st);
		/* 20 reads of 1 ms fit in 20 ms: never more. */
		CHECK_EQ_INT(done, 20);
		CHECK(w.now - t0 <= c.budget_s + 1e-9);
		CHECK_EQ_INT(st.skipped, 40);
		for (int i = 0; i < 60; i++)
			seen[i] += w.visits[i];
		w.now += 1.0;
	}
	/* Three ticks covered every process exactly once, stalest first. */
	for (int i = 0; i < 60; i++)
		CHECK_EQ_INT(seen[i], 1);
	/* All read; on the next ticks the one read longest ago goes first. */
	for (int i = 0; i < 60; i++)
		v[i].changed = i == 5 || i == 45;
	tick(&c, v, 60, &w, &st);
	CHECK_EQ_INT(w.visits[5] + w.visits[45], 2);
}

static void priority_ignores_budget(void)
{
	struct nmsched_config c;
	nmsched_config_default(&c);
	struct world w = { .now = 10 };
	struct nmsched_proc v[3];
	for (int i = 0; i < 3; i++) {
		v[i] = proc_read_at(9, 0.015, 1 << 18);
		w.cost[i] = 0.015;
	}
	v[0].priority = v[2].priority = true;   /* 30 ms of priority reads */
	struct nmsched_stats st;
	tick(&c, v, 3, &w, &st);
	CHECK_EQ_INT(w.visits[0], 1);
	CHECK_EQ_INT(w.visits[2], 1);
	CHECK_EQ_INT(w.visits[1], 0);           /* nothing left for the rest */
	CHECK_EQ_INT(st.skipped, 1);
}

static void stalest_and_heaviest_first(void)
{
	struct nmsched_config c;
	nmsched_config_default(&c);
	c.budget_s = 0.0015;                     /* room for one 1 ms read */
	struct world w = { .now = 100 };
	struct nmsched_proc v[3];
	for (int i = 0; i < 3; i++)
		w.cost[i] = 0.001;
	v[0] = proc_read_at(90, 0.001, 1000);
	v[1] = proc_read_at(60, 0.001, 1000);   /* stalest */
	v[2] = proc_read_at(80, 0.001, 1000);
	struct nmsched_stats st;
	tick(&c, v, 3, &w, &st);
	CHECK_EQ_INT(w.visits[1], 1);
	CHECK_EQ_INT(w.visits[0] + w.visits[2], 0);
	/* Equal age: the busy, growing one wins over the idle one. */
	w.now = 200;
	v[0] = proc_read_at(150, 0.001, 1000);
	v[1] = proc_read_at(150, 0.001, 1000);
	v[1].cpu_pct = 90;
	v[1].rss_delta_kb = 512;
	v[2] = proc_read_at(150, 0.001, 1000);
	tick(&c, v, 3, &w, &st);
	CHECK_EQ_INT(w.visits[1], 1);
	CHECK_EQ_INT(w.visits[0] + w.visits[2], 0);
}

static void big_every_ten_seconds(void)
{
	struct nmsched_config c;
	nmsched_config_default(&c);
	c.can_sample = true;
	struct world w = { .now = 0 };
	struct nmsched_proc v[2];
	v[0] = proc_read_at(-1, -1, 4 << 20);   /* 4 GiB, never read, faulting */
	v[0].cached = false;
	v[1] = proc_read_at(-1, -1, 4 << 20);
	v[1].cached = false;
	w.cost[0] = w.cost[1] = 0.040;           /* a full walk: 40 ms */
	int reads0 = 0, reads1 = 0;
	struct nmsched_stats st;
	for (int t = 0; t < 31; t++) {
		w.now = t;                           /* one tick a second */
		v[0].changed = v[1].changed = true;
		v[1].priority = t >= 20;             /* selected from t = 20 */
		tick(&c, v, 2, &w, &st);
		reads0 += w.visits[0];
		reads1 += w.visits[1];
		/* 4 GiB predicted at ~38 ms of walk: sampled, not read. */
		if (w.visits[0])
			CHECK(w.how[0] == NMSCHED_SAMPLE);
		/* Selected: an exact read while the walk stays under 4
		 * budgets (~38 ms predicted for 4 GiB, then measured). */
		if (w.visits[1] && t >= 20)
			CHECK(w.how[1] == NMSCHED_READ);
	}
	/* t = 0, 10, 20, 30: never more than once per 10 s. */
	CHECK_EQ_INT(reads0, 4);
	/* Selected from t = 20: every tick then (11), plus t = 0 and 10. */
	CHECK_EQ_INT(reads1, 13);
	CHECK(fabs(v[1].last_cost - 0.040) < 1e-9 && v[1].cost_rss_kb == 4 << 20);
	/* Selected and 16 GiB: over 4 budgets, so sampled even then. */
	v[1] = proc_read_at(30, -1, 16 << 20);
	v[1].priority = true;
	uint32_t ord[2];
	CHECK_EQ_INT(nmsched_plan(&c, v, 2, 31, ord), 1);
	CHECK(v[1].how == NMSCHED_SAMPLE);
	/* Without sampling (a recorded tree) the walk is long but must not
	 * starve: it overruns once per 10 s as the first read of a tick. */
	c.can_sample = false;
	v[0] = proc_read_at(-1, -1, 4 << 20);
	v[0].cached = false;
	reads0 = 0;
	for (int t = 100; t < 131; t++) {
		w.now = t;
		v[0].changed = true;
		tick(&c, v, 1, &w, &st);
		reads0 += w.visits[0];
		if (w.visits[0])
			CHECK(w.how[0] == NMSCHED_READ);
	}
	CHECK_EQ_INT(reads0, 4);
}

static void thp_process_is_read(void)
{
	/* A 16 GiB process backed by THP measured at 0.8 ms: the measured
	 * cost wins over the model, so it gets a real read (every 10 s). */
	struct nmsched_config c;
	nmsched_config_default(&c);
	c.can_sample = true;
	struct nmsched_proc p = proc_read_at(0, 0.0008, 16 << 20);
	uint32_t order[1];
	CHECK_EQ_INT(nmsched_plan(&c, &p, 1, 5, order), 0);     /* < 10 s */
	CHECK_EQ_INT(nmsched_plan(&c, &p, 1, 10, order), 1);
	CHECK(p.how == NMSCHED_READ);
	/* Many mappings sample even when small. */
	struct nmsched_proc q = proc_read_at(0, -1, 100 << 10);
	q.nmappings = 50000;
	CHECK_EQ_INT(nmsched_plan(&c, &q, 1, 1, order), 1);
	CHECK(q.how == NMSCHED_SAMPLE);
}

static void cost_model(void)
{
	struct nmsched_proc p = { .last_cost = -1, .rss_kb = 1 << 20, .nmappings = 0 };
	double r = nmsched_predict_read(&p);
	CHECK(r > 0.009 && r < 0.011);          /* ~9.5 ms per GiB */
	p.nmappings = 1000;
	CHECK(nmsched_predict_read(&p) > r + 0.001);
	CHECK(nmsched_predict_sample(&p) < r / 5);
	p.last_cost = 0.002;
	CHECK(nmsched_predict_read(&p) == 0.002);
	/* Measured at a quarter of today's RSS: four times the cost. */
	p.cost_rss_kb = 1 << 18;
	CHECK(fabs(nmsched_predict_read(&p) - 0.008) < 1e-12);
	p.rss_kb = -1;
	p.last_cost = -1;
	p.nmappings = 0;
	CHECK(nmsched_predict_read(&p) > 0 && nmsched_predict_read(&p) < 0.001);
}

/* ---- sampled placement against a fake move_pages ---- */

struct fake_mp {
	int calls, node_for_even, node_for_odd;
	uint64_t hole_start, hole_end;   /* pages here are not present */
};

static long fake_move_pages(void *ctx, int pid, unsigned long count, void **pages,
			    const int *nodes, int *status, int flags)
{
	struct fake_mp *f = ctx;
	(void)pid;
	(void)flags;
	f->calls++;
	if (nodes)
		return -EINVAL;                 /* placement never moves */
	for (unsigned long i = 0; i < count; i++) {
		uint64_t a = (uint64_t)(uintptr_t)pages[i];
		if (a >= f->hole_start && a < f->hole_end)
			status[i] = -ENOENT;
		else
			status[i] = (a >> 21) % 2 ? f->node_for_odd : f->node_for_even;
	}
	return 0;
}

static long deny_move_pages(void *ctx, int pid, unsigned long count, void **pages,
			    const int *nodes, int *status, int flags)
{
	(void)ctx; (void)pid; (void)count; (void)pages; (void)nodes; (void)status; (void)flags;
	return -EPERM;
}

static void maps_parsing(void)
{
	const char *maps =
		"00400000-00452000 r-xp 00000000 08:02 173521      /usr/bin/dbserver\n"
		"00e03000-00e24000 rw-p 00000000 00:00 0           [heap]\n"
		"7f0000000000-7f0000400000 rw-p 00000000 00:00 0 \n"
		"7f0000400000-7f0000600000 ---p 00000000 00:00 0 \n"
		"7f1000000000-7f1000200000 rw-s 00000000 00:0f 4242 /anon_hugepage (deleted)\n"
		"7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0   [stack]\n"
		"7ffd00100000-7ffd00102000 r--p 00000000 00:00 0   [vvar]\n"
		"7ffd00102000-7ffd00104000 r-xp 00000000 00:00 0   [vdso]\n"
		"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0  [vsyscall]\n"
		"garbage line\n"
		"7ffe00000000-7ffe00001000 rw-p 00000000 00:00 0";  /* no newline: cut */
	struct placement_vma v[16];
	size_t nv = 0;
	for (const char *p = maps; *p && nv < 16;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		nv += (size_t)placement_parse_line(p, len, &v[nv]);
		p += len + (nl != NULL);
	}
	/* The cut last line still parses as a line here: the reader only
	 * hands over whole lines. */
	CHECK_EQ_INT(nv, 6);
	CHECK(v[0].kind == PLK_FILE);
	CHECK(v[1].kind == PLK_ANON);
	CHECK(v[2].kind == PLK_ANON && v[2].end - v[2].start == 4 << 20);
	CHECK(v[3].kind == PLK_HUGE);
	CHECK(v[4].kind == PLK_ANON);
	/* Sample counts: every page of a small mapping, one per 2 MiB of a
	 * big one, never more than one per page. */
	CHECK_EQ_INT(placement_samples_for(10, 64, 512), 10);
	CHECK_EQ_INT(placement_samples_for(1000, 64, 512), 64);
	CHECK_EQ_INT(placement_samples_for(1 << 20, 64, 512), 2048);
	CHECK_EQ_INT(placement_samples_for(1 << 20, 1, 4096), 256);
}

static void sampled_estimate(void)
{
	char dir[] = "/tmp/numatop-sched-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[128];
	snprintf(path, sizeof(path), "%s/proc/77", dir);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", path);
	CHECK(system(cmd) == 0);
	snprintf(path, sizeof(path), "%s/proc/77/maps", dir);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	/* 64 MiB anon (half on node 0, half on node 2 by 2 MiB parity), of
	 * which 8 MiB are not present; 1 MiB of a file, on node 0. */
	fputs("7f0000000000-7f0004000000 rw-p 00000000 00:00 0\n"
	      "00400000-00500000 r-xp 00000000 08:02 1 /usr/bin/x\n", f);
	fclose(f);
	struct fsroot *r;
	CHECK_EQ_INT(fsroot_open(dir, &r), 0);
	int index_of_id[3] = { 0, -1, 1 };       /* nodes 0 and 2 */
	struct nm_params np = { 4, 2048, index_of_id, 3, 2, false };
	struct nm_summary sum;
	CHECK_EQ_INT(nm_summary_init(&sum, 2), 0);
	struct fake_mp fm = { .node_for_even = 0, .node_for_odd = 2,
			      .hole_start = 0x7f0000000000ull, .hole_end = 0x7f0000800000ull };
	struct placement_ops ops = { fake_move_pages, &fm };
	struct placement_scratch s = { 0 };
	CHECK_EQ_INT(placement_sample(r, 77, 4096, &np, &ops, 0, &s, &sum), 0);
	/* 56 MiB present anon split 28/28 (the 8 MiB hole is 4 even and
	 * 4 odd 2 MiB blocks); the 1 MiB file mapping: 0x400000 is even. */
	CHECK_EQ_INT(sum.anon_kb[0], 28 * 1024);
	CHECK_EQ_INT(sum.anon_kb[1], 28 * 1024);
	CHECK_EQ_INT(sum.file_kb[0], 1024);
	CHECK_EQ_INT(sum.file_kb[1], 0);
	CHECK_EQ_INT(sum.total_kb, 57 * 1024);
	CHECK_EQ_INT(sum.nmappings, 2);
	CHECK_EQ_INT(fm.calls, 1);               /* 64 + 64 samples: one batch */
	/* Not allowed (move_pages says EPERM), and gone (no maps file). */
	struct placement_ops deny = { deny_move_pages, NULL };
	CHECK_EQ_INT(placement_sample(r, 77, 4096, &np, &deny, 0, &s, &sum), -EACCES);
	CHECK_EQ_INT(placement_sample(r, 78, 4096, &np, &ops, 0, &s, &sum), -ENOENT);
	/* Many mappings: fewer samples each (64 Ki samples in all). */
	struct placement_scratch s2 = { 0 };
	int calls0 = fm.calls;
	CHECK_EQ_INT(placement_sample(r, 77, 4096, &np, &ops, 1 << 15, &s2, &sum), 0);
	CHECK(fm.calls - calls0 == 1);
	CHECK_EQ_INT(sum.total_kb, 57 * 1024);
	placement_scratch_free(&s2);
	placement_scratch_free(&s);
	nm_summary_free(&sum);
	fsroot_close(r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

/* ---- the sampler on a copied tree, with a fake clock ---- */

static double fake_now;
static double t_clock(void *ctx) { (void)ctx; return fake_now; }

/* A sparse vast mapping misled the samples: the resident set is the
 * total, the samples' split by node and kind is kept, hugetlb untouched. */
static void sampled_scaled_to_rss(void)
{
	struct nm_summary s;
	CHECK_EQ_INT(nm_summary_init(&s, 2), 0);
	s.anon_kb[0] = 3000, s.file_kb[0] = 1000, s.huge_kb[0] = 2048;
	s.anon_kb[1] = 4000, s.file_kb[1] = 0, s.huge_kb[1] = 0;
	s.other_kb = 0;
	for (size_t k = 0; k < 2; k++)
		s.node_kb[k] = s.anon_kb[k] + s.file_kb[k] + s.huge_kb[k];
	s.total_kb = s.node_kb[0] + s.node_kb[1];   /* 10048: 8000 not huge */
	placement_scale_rss(&s, 16000);             /* under-counted by half */
	CHECK_EQ_INT(s.anon_kb[0], 6000);
	CHECK_EQ_INT(s.file_kb[0], 2000);
	CHECK_EQ_INT(s.anon_kb[1], 8000);
	CHECK_EQ_INT(s.huge_kb[0], 2048);
	CHECK_EQ_INT(s.total_kb, 16000 + 2048);
	CHECK_EQ_INT(s.node_kb[0] + s.node_kb[1] + s.other_kb, s.total_kb);
	placement_scale_rss(&s, 4000);              /* over-counted */
	CHECK_EQ_INT(s.total_kb, 4000 + 2048);
	CHECK_EQ_INT(s.anon_kb[1], 2000);
	int64_t before = s.total_kb;
	placement_scale_rss(&s, -1);                /* RSS unknown: kept */
	CHECK_EQ_INT(s.total_kb, before);
	nm_summary_free(&s);
}

static void write_file(const char *dir, const char *rel, const char *text)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	FILE *f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static const struct snap_proc *find(const struct snapshot *s, int pid)
{
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i].info.pid == pid)
			return &s->procs[i];
	return NULL;
}

/* Warm-up: never-read processes first, largest first, each read or
 * sampled by the usual rule; priority exact; a kept sampled estimate of a
 * small process is read exactly once the warm-up is over. */
static void warmup_plan(void)
{
	struct nmsched_config c;
	nmsched_config_default(&c);
	c.can_sample = true;
	c.warmup = true;
	c.budget_s = 0.1;
	struct nmsched_proc v[6] = {
		proc_read_at(-1, -1, 1024),             /* 0: new, 1 MiB */
		proc_read_at(-1, -1, 2048 * 1024),      /* 1: new, 2 GiB: sampled */
		proc_read_at(-1, -1, 64 * 1024),        /* 2: new, 64 MiB */
		proc_read_at(90, 0.001, 8192),          /* 3: kept, unchanged */
		proc_read_at(90, -1, 4096),             /* 4: a sampled estimate */
		proc_read_at(-1, -1, 2048 * 1024),      /* 5: selected, 2 GiB: exact */
	};
	v[3].changed = v[4].changed = false;
	v[4].sampled = true;
	v[5].priority = true;
	uint32_t order[6];
	size_t k = nmsched_plan(&c, v, 6, 100, order);
	CHECK_EQ_INT((long)k, 4);
	CHECK_EQ_INT((long)order[0], 5);
	CHECK_EQ_INT((long)order[1], 1);
	CHECK_EQ_INT((long)order[2], 2);
	CHECK_EQ_INT((long)order[3], 0);
	CHECK_EQ_INT(v[5].how, NMSCHED_READ);
	CHECK_EQ_INT(v[1].how, NMSCHED_SAMPLE);
	CHECK_EQ_INT(v[2].how, NMSCHED_READ);
	CHECK_EQ_INT(v[0].how, NMSCHED_READ);
	CHECK_EQ_INT(v[3].how, NMSCHED_KEEP);
	CHECK_EQ_INT(v[4].how, NMSCHED_KEEP);
	/* After the warm-up, the estimate is read exactly. */
	c.warmup = false;
	k = nmsched_plan(&c, v, 6, 100, order);
	CHECK_EQ_INT(v[4].how, NMSCHED_READ);
	CHECK_EQ_INT(v[3].how, NMSCHED_KEEP);
}

/* A selected process whose read costs 64 ms (100 000 mappings) is not
 * read every tick: every 6.4 s. A cheap selected one is. */
static void priority_costly_paced(void)
{
	struct nmsched_config c;
	nmsched_config_default(&c);
	struct nmsched_proc v[2] = { proc_read_at(99, 0.064, 8192), proc_read_at(99, 0.002, 8192) };
	v[0].priority = v[1].priority = true;
	v[0].changed = v[1].changed = false;
	uint32_t order[2];
	CHECK_EQ_INT((long)nmsched_plan(&c, v, 2, 100, order), 1);
	CHECK_EQ_INT(v[0].how, NMSCHED_KEEP);
	CHECK_EQ_INT(v[1].how, NMSCHED_READ);
	nmsched_plan(&c, v, 2, 105.3, order);
	CHECK_EQ_INT(v[0].how, NMSCHED_KEEP);
	nmsched_plan(&c, v, 2, 105.5, order);
	CHECK_EQ_INT(v[0].how, NMSCHED_READ);
}

/* A clock that moves 20 ms each time it is read: budgets run out. */
static double step_now;
static double step_clock(void *ctx)
{
	(void)ctx;
	return step_now += 0.02;
}


/* The sampler's warm-up: a tick reads what its budget allows, steps in
 * between read the rest (their results in the snapshot at once), and the
 * next tick keeps them. */
static void sampler_warmup_steps(void)
{
	struct fsroot *r;
	struct topology t;
	struct sampler *s;
	CHECK_EQ_INT(fsroot_open("tests/trees/opteron4", &r), 0);
	CHECK_EQ_INT(topology_read(r, &t), 0);
	CHECK_EQ_INT(sampler_new(r, &t, PROC_BACKEND_FILES, &s), 0);
	step_now = 1000;
	sampler_set_clock(s, step_clock, NULL);
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	CHECK(snap.nprocs >= 3);
	CHECK(snap.nm_stats.warmup);
	CHECK(sampler_warming(s));
	CHECK(snap.nm_stats.known > 0 && snap.nm_stats.known < snap.nprocs);
	CHECK_EQ_INT(snap.nm_stats.budget_ms, 100);
	/* Sorted by the front end meanwhile: steps find processes by PID. */
	struct sort_key key = { COL_PID, 0, true, NULL, false };
	snapshot_sort(&snap, &key);
	int left = sampler_warmup(s, &snap, 0.01);           /* one read */
	CHECK(left > 0);
	while (left > 0)
		left = sampler_warmup(s, &snap, 0.05);
	CHECK_EQ_INT(left, 0);
	CHECK_EQ_INT((long)snap.nm_stats.known, (long)snap.nprocs);
	CHECK(!snap.nm_stats.warmup && !sampler_warming(s));
	const struct snap_proc *p = find(&snap, 1000);
	CHECK(p && p->nm == NMS_OK && p->total_kb > 0 && p->remote_kb >= 0);
	int64_t kb = p ? p->total_kb : -1;
	/* The next tick keeps them all (nothing changed), on 20 ms. */
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	CHECK_EQ_INT(snap.nm_stats.read, 0);
	CHECK_EQ_INT((long)snap.nm_stats.kept, (long)snap.nprocs);
	CHECK_EQ_INT(snap.nm_stats.budget_ms, 20);
	p = find(&snap, 1000);
	CHECK(p && p->total_kb == kb);
	snapshot_free(&snap);
	sampler_free(s);
	topology_free(&t);
	fsroot_close(r);
}

/* A clock that moves 30 ms each time it is read, from any thread. */
static atomic_long shared_reads;
static double shared_clock(void *ctx)
{
	(void)ctx;
	return 1000 + 0.03 * (double)atomic_fetch_add(&shared_reads, 1);
}

/* The warm-up's reads on threads beside the caller's: each process's
 * result is what one thread reads. */
static void sampler_warmup_threads(void)
{
	struct fsroot *r;
	struct topology t;
	struct sampler *s[2];
	struct snapshot snap[2];
	CHECK_EQ_INT(fsroot_open("tests/trees/opteron4", &r), 0);
	CHECK_EQ_INT(topology_read(r, &t), 0);
	for (int k = 0; k < 2; k++) {
		CHECK_EQ_INT(sampler_new(r, &t, PROC_BACKEND_FILES, &s[k]), 0);
		atomic_store(&shared_reads, 0);
		sampler_set_clock(s[k], shared_clock, NULL);
		sampler_set_warm_threads(s[k], k ? 3 : 0);
		memset(&snap[k], 0, sizeof(snap[k]));
		CHECK_EQ_INT(sampler_tick(s[k], &snap[k]), 0);
		CHECK(sampler_warming(s[k]));
		CHECK(snap[k].nm_stats.known < snap[k].nprocs);
		int left = 1;
		for (int step = 0; left > 0 && step < 100; step++)
			left = sampler_warmup(s[k], &snap[k], 1.0);
		CHECK_EQ_INT(left, 0);
		CHECK_EQ_INT((long)snap[k].nm_stats.known, (long)snap[k].nprocs);
		CHECK(!sampler_warming(s[k]));
	}
	CHECK_EQ_INT((long)snap[1].nprocs, (long)snap[0].nprocs);
	for (size_t i = 0; i < snap[0].nprocs; i++) {
		const struct snap_proc *a = &snap[0].procs[i];
		const struct snap_proc *b = find(&snap[1], a->info.pid);
		CHECK(b != NULL);
		if (!b)
			continue;
		CHECK_EQ_INT(b->nm, a->nm);
		CHECK_EQ_INT(b->total_kb, a->total_kb);
		CHECK_EQ_INT(b->remote_kb, a->remote_kb);
		CHECK_EQ_INT(b->nmappings, a->nmappings);
		CHECK(strcmp(b->policy, a->policy) == 0 && strcmp(b->pol_top, a->pol_top) == 0);
		for (size_t n = 0; n < t.nnodes; n++)
			CHECK_EQ_INT(b->node_kb[n], a->node_kb[n]);
	}
	/* The next tick keeps them all, as after one thread's warm-up. */
	CHECK_EQ_INT(sampler_tick(s[1], &snap[1]), 0);
	CHECK_EQ_INT(snap[1].nm_stats.read, 0);
	CHECK_EQ_INT((long)snap[1].nm_stats.kept, (long)snap[1].nprocs);
	for (int k = 0; k < 2; k++) {
		snapshot_free(&snap[k]);
		sampler_free(s[k]);
	}
	topology_free(&t);
	fsroot_close(r);
}

/* A copy of the opteron4 tree in dir (a mkdtemp template) and a sampler
 * on it: the fake clock at 1000, the default budget. false (said as a
 * SKIP of test) when not run from the project root. */
static bool tree_sampler(const char *test, char *dir, struct fsroot **r, struct topology *t,
			 struct sampler **s)
{
	CHECK(mkdtemp(dir) != NULL);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "cp -r tests/trees/opteron4/. %s/", dir);
	if (system(cmd) != 0) {
		printf("SKIP %s: run from the project root\n", test);
		return false;
	}
	CHECK_EQ_INT(fsroot_open(dir, r), 0);
	CHECK_EQ_INT(topology_read(*r, t), 0);
	CHECK_EQ_INT(sampler_new(*r, t, PROC_BACKEND_FILES, s), 0);
	fake_now = 1000;
	sampler_set_clock(*s, t_clock, NULL);
	struct nmsched_config c;
	nmsched_config_default(&c);
	sampler_set_budget(*s, &c);
	return true;
}

static void sampler_keeps_and_rereads(void)
{
	char dir[] = "/tmp/numatop-smp-XXXXXX";
	char cmd[300];
	struct fsroot *r;
	struct topology t;
	struct sampler *s;
	if (!tree_sampler("sampler_keeps_and_rereads", dir, &r, &t, &s))
		return;
	struct nmsched_config c;
	nmsched_config_default(&c);
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));

	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	const struct snap_proc *p = find(&snap, 1000);
	CHECK(p && p->nm == NMS_OK && p->nm_fresh && p->nm_age_s == 0);
	int64_t kb0 = p ? p->total_kb : -1;
	CHECK(kb0 > 0);
	CHECK_EQ_INT(snap.nm_stats.read, snap.nprocs);

	/* Nothing changed, no migrations: every result is kept, aged. */
	fake_now = 1003;
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	p = find(&snap, 1000);
	CHECK(p && p->nm == NMS_OK && !p->nm_fresh);
	CHECK(p && fabs(p->nm_age_s - 3) < 1e-9);
	CHECK(p && p->total_kb == kb0 && p->remote_kb >= 0);
	CHECK_EQ_INT(snap.nm_stats.read, 0);
	CHECK_EQ_INT(snap.nm_stats.kept, snap.nprocs);

	/* A priority PID is read even so. */
	int prio = 2000;
	CHECK_EQ_INT(sampler_set_priority(s, &prio, 1), 0);
	fake_now = 1004;
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	CHECK(find(&snap, 2000) && find(&snap, 2000)->nm_fresh);
	CHECK(find(&snap, 1000) && !find(&snap, 1000)->nm_fresh);
	CHECK_EQ_INT(snap.nm_stats.read, 1);
	sampler_set_priority(s, NULL, 0);

	/* The system migrated pages: everything is read again. */
	write_file(dir, "proc/vmstat", "numa_pages_migrated 0\npgmigrate_success 1300\n");
	fake_now = 1005;
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	CHECK_EQ_INT(snap.nm_stats.read, snap.nprocs);
	p = find(&snap, 1000);
	CHECK(p && p->nm_fresh && p->nm_age_s == 0);

	/* Then stable again; with --full every tick reads everything. */
	fake_now = 1006;
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	CHECK_EQ_INT(snap.nm_stats.read, 0);
	c.full = true;
	sampler_set_budget(s, &c);
	fake_now = 1007;
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	CHECK_EQ_INT(snap.nm_stats.read, snap.nprocs);
	CHECK(snap.nm_stats.full);

	/* A big process (RSS 2 GiB) on a new sampler with a fake
	 * move_pages: predicted at ~19 ms of walk, so sampled. */
	snapshot_free(&snap);
	sampler_free(s);
	CHECK_EQ_INT(sampler_new(r, &t, PROC_BACKEND_FILES, &s), 0);
	sampler_set_clock(s, t_clock, NULL);
	c.full = false;
	sampler_set_budget(s, &c);
	struct fake_mp fm = { .node_for_even = 1, .node_for_odd = 1 };
	struct placement_ops ops = { fake_move_pages, &fm };
	sampler_set_placement_ops(s, &ops);
	/* 2 GiB, all present (the fake says node 1), RSS 2 GiB: the estimate
	 * is the resident set, split as the samples say. */
	write_file(dir, "proc/1000/maps", "7f0000000000-7f0080000000 rw-p 00000000 00:00 0\n");
	char status[4096];
	snprintf(cmd, sizeof(cmd), "%s/proc/1000/status", dir);
	FILE *f = fopen(cmd, "r");
	size_t n = f ? fread(status, 1, sizeof(status) - 1, f) : 0;
	if (f)
		fclose(f);
	status[n] = '\0';
	char *vm = strstr(status, "VmRSS:");
	CHECK(vm != NULL);
	if (vm) {
		char *nl = strchr(vm, '\n');
		char rest[4096];
		snprintf(rest, sizeof(rest), "%s", nl ? nl : "");
		snprintf(vm, sizeof(status) - (size_t)(vm - status), "VmRSS:\t2097152 kB%s", rest);
		write_file(dir, "proc/1000/status", status);
	}
	fake_now = 1020;
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	p = find(&snap, 1000);
	CHECK(p && p->nm == NMS_OK && p->nm_sampled && p->nm_fresh);
	CHECK(p && p->total_kb == 2097152 && p->node_kb[1] == 2097152);
	CHECK_EQ_INT(snap.nm_stats.sampled, 1);
	CHECK(fm.calls == 2);   /* 1024 samples, 512 per query */
	/* Not again within 10 s although the system migrated pages. */
	write_file(dir, "proc/vmstat", "numa_pages_migrated 0\npgmigrate_success 1400\n");
	fake_now = 1025;
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	p = find(&snap, 1000);
	CHECK(p && p->nm_sampled && !p->nm_fresh && fabs(p->nm_age_s - 5) < 1e-9);
	CHECK(p && p->total_kb == 2097152 && p->node_kb[1] == 2097152);
	/* At 10 s it is due again; selected, it is read every tick. */
	fake_now = 1030;
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	p = find(&snap, 1000);
	CHECK(p && p->nm_fresh);
	int sel = 1000;
	sampler_set_priority(s, &sel, 1);
	fake_now = 1031;
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	p = find(&snap, 1000);
	CHECK(p && p->nm_fresh);
	/* Exited between the listing and the read: maps is empty, RSS was
	 * not 0, so it is gone, not a process with 0 kB. */
	snapshot_free(&snap);
	sampler_free(s);
	CHECK_EQ_INT(sampler_new(r, &t, PROC_BACKEND_FILES, &s), 0);
	sampler_set_clock(s, t_clock, NULL);
	sampler_set_budget(s, &c);
	sampler_set_placement_ops(s, &ops);
	write_file(dir, "proc/1000/maps", "");
	fake_now = 1040;
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	p = find(&snap, 1000);
	CHECK(p && p->nm == NMS_GONE && p->total_kb == -1);

	snapshot_free(&snap);
	sampler_free(s);
	topology_free(&t);
	fsroot_close(r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

/* Each process keeps its own result from tick to tick in its record while
 * others come and go around it and the front end sorts the records in
 * between: the kB stay the same process's, a newcomer is read, a PID
 * reused by another process (another start time) is not given the old
 * one's result. */
static void sampler_records_follow_pids(void)
{
	char dir[] = "/tmp/numatop-smp-XXXXXX";
	char cmd[400];
	struct fsroot *r;
	struct topology t;
	struct sampler *s;
	if (!tree_sampler("sampler_records_follow_pids", dir, &r, &t, &s))
		return;
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	const int pids[] = { 1000, 2000, 4242 };
	int64_t total[3], node[3][8];
	size_t nn = t.nnodes < 8 ? t.nnodes : 8;
	for (int i = 0; i < 3; i++) {
		const struct snap_proc *p = find(&snap, pids[i]);
		CHECK(p && p->nm == NMS_OK && p->total_kb > 0);
		total[i] = p ? p->total_kb : -1;
		for (size_t j = 0; p && j < nn; j++)
			node[i][j] = p->node_kb[j];
	}
	CHECK(total[0] != total[1] && total[1] != total[2]);
	/* Sorted by the front end (PID descending); a process leaves, one
	 * comes before the others (PID 1500, a copy of 2000). */
	struct sort_key key = { COL_PID, 0, true, NULL, false };
	snapshot_sort(&snap, &key);
	snprintf(cmd, sizeof(cmd), "cd %s/proc && rm -rf 3000 && cp -r 2000 1500 && "
		 "sed -i 's/^2000 /1500 /' 1500/stat", dir);
	CHECK(system(cmd) == 0);
	fake_now = 1002;
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	CHECK(find(&snap, 3000) == NULL);
	const struct snap_proc *nw = find(&snap, 1500);
	CHECK(nw && nw->nm_fresh && nw->total_kb == total[1]);
	for (int i = 0; i < 3; i++) {
		const struct snap_proc *p = find(&snap, pids[i]);
		CHECK(p && !p->nm_fresh && p->total_kb == total[i] && fabs(p->nm_age_s - 2) < 1e-9);
		for (size_t j = 0; p && j < nn; j++)
			CHECK_EQ_INT(p->node_kb[j], node[i][j]);
	}
	/* PID 1000 is now another process (a later start time): read, not
	 * given the last one's result; 4242 still keeps its own. */
	snapshot_sort(&snap, &key);
	snprintf(cmd, sizeof(cmd), "cd %s/proc/1000 && "
		 "awk '{ $22 = $22 + 1; print }' stat > stat.new && mv stat.new stat", dir);
	CHECK(system(cmd) == 0);
	fake_now = 1003;
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	const struct snap_proc *p = find(&snap, 1000);
	CHECK(p && p->nm_fresh && p->nm_age_s == 0 && p->cpu_pct < 0);
	p = find(&snap, 4242);
	CHECK(p && !p->nm_fresh && p->total_kb == total[2] && fabs(p->nm_age_s - 3) < 1e-9);
	/* Another snapshot on the same sampler starts afresh: nothing kept
	 * from records it never had. */
	struct snapshot other;
	memset(&other, 0, sizeof(other));
	fake_now = 1004;
	CHECK_EQ_INT(sampler_tick(s, &other), 0);
	CHECK_EQ_INT(other.nm_stats.read, other.nprocs);
	p = find(&other, 4242);
	CHECK(p && p->nm_fresh && p->total_kb == total[2]);
	snapshot_free(&other);
	snapshot_free(&snap);
	sampler_free(s);
	topology_free(&t);
	fsroot_close(r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

int main(void)
{
	RUN_TEST(full_reads_all);
	RUN_TEST(unchanged_are_kept);
	RUN_TEST(budget_is_kept);
	RUN_TEST(priority_ignores_budget);
	RUN_TEST(stalest_and_heaviest_first);
	RUN_TEST(big_every_ten_seconds);
	RUN_TEST(thp_process_is_read);
	RUN_TEST(cost_model);
	RUN_TEST(maps_parsing);
	RUN_TEST(sampled_estimate);
	RUN_TEST(sampled_scaled_to_rss);
	RUN_TEST(sampler_keeps_and_rereads);
	RUN_TEST(sampler_records_follow_pids);
	RUN_TEST(warmup_plan);
	RUN_TEST(priority_costly_paced);
	RUN_TEST(sampler_warmup_steps);
	RUN_TEST(sampler_warmup_threads);
	return CHECK_DONE();
}
