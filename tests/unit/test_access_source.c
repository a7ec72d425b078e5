/* test_access_source.c - the access source interface (access_source.h):
 * DAMON's table complete and its recorded() over synthetic kdamonds
 * trees; and a fake source, a table of this file's own, driving the
 * sampler on a recorded tree and on the live machine (this process
 * only): the heat comes from whatever source the sampler is given, and
 * the sampler keeps the interface's protocol (start, one request at a
 * time, poll, the errors' reasons, close). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "access_source.h"
#include "check.h"
#include "damon_fake.h"
#include "fsroot.h"
#include "sampler.h"
#include "topology.h"

/* ---- a kdamonds tree (damon_fake.h's, in a temporary directory) ---- */

/* One kdamond, vaddr, targets 101 and 202, a stat scheme whose tried
 * regions are nreg of (start, end, nr_accesses, age). */
static void kdamond_tree(const unsigned long long (*reg)[4], size_t nreg)
{
	static const char *const w[][2] = {
		{ "nr_kdamonds", "1\n" }, { "0/state", "on\n" }, { "0/pid", "4242\n" },
		{ "0/contexts/nr_contexts", "1\n" }, { "0/contexts/0/operations", "vaddr\n" },
		{ "0/contexts/0/monitoring_attrs/intervals/sample_us", "50000\n" },
		{ "0/contexts/0/monitoring_attrs/intervals/aggr_us", "1000000\n" },
		{ "0/contexts/0/monitoring_attrs/intervals/update_us", "1000000\n" },
		{ "0/contexts/0/targets/nr_targets", "2\n" },
		{ "0/contexts/0/targets/0/pid_target", "101\n" },
		{ "0/contexts/0/targets/1/pid_target", "202\n" },
		{ "0/contexts/0/schemes/nr_schemes", "1\n" },
		{ "0/contexts/0/schemes/0/action", "stat\n" },
	};
	char rel[256], v[64];
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		fmt(rel, sizeof(rel), KD "/%s", w[i][0]);
		put(rel, w[i][1]);
	}
	static const char *const f[] = { "start", "end", "nr_accesses", "age" };
	for (size_t r = 0; r < nreg; r++)
		for (size_t k = 0; k < 4; k++) {
			fmt(rel, sizeof(rel), KD "/0/contexts/0/schemes/0/tried_regions/%zu/%s", r, f[k]);
			fmt(v, sizeof(v), "%llu\n", reg[r][k]);
			put(rel, v);
		}
}

/* DAMON's source opened on a fresh tree (fake_setup's: nr_kdamonds 0);
 * NULL, the tree gone, when either failed (checked). */
static void *damon_source_open(void)
{
	void *st = NULL;
	char msg[160] = "";
	if (fake_setup("test_access_source") != 0) {
		CHECK(0);
		return NULL;
	}
	CHECK_EQ_INT(access_source_damon.open(&st, root, msg, sizeof(msg)), 0);
	CHECK(st != NULL);
	if (!st)
		fake_teardown();
	return st;
}

static void damon_source_close(void *st)
{
	access_source_damon.close(st);
	fake_teardown();
}

/* ---- DAMON's table ---- */

static void damon_ops_complete(void)
{
	const struct access_source_ops *o = &access_source_damon;
	CHECK_EQ_STR(access_source_names[o->id], "damon");
	CHECK_EQ_STR(o->title, "DAMON");
	CHECK_EQ_STR(o->thread, "kdamond");
	CHECK(o->open && o->close && o->stop_signal && o->start && o->retarget && o->stop);
	CHECK(o->ask && o->pending && o->poll && o->state && o->message && o->idle && o->recorded);
	/* Its numbers are heat (read back from JSON); none's and RACC%'s are not. */
	CHECK(access_source_measures(o->id) && access_source_name_measures("damon"));
	CHECK(!access_source_measures(ACCESS_SRC_NONE) && !access_source_measures(ACCESS_SRC_NUMAB));
	CHECK(!access_source_name_measures("numa_balancing") && !access_source_name_measures("x"));
	CHECK(!access_source_name_measures(NULL));
}

/* A recorded kdamond: its regions leave as ranges, split by target at
 * the fall in address; its pids, window and thread with them. Nothing is
 * ever written on a recorded tree (a start is refused). */
static void damon_recorded(void)
{
	static const unsigned long long reg[][4] = {
		{ 0x1000, 0x5000, 3, 0 }, { 0x5000, 0x9000, 0, 7 },   /* 101 */
		{ 0x2000, 0x3000, 20, 1 },                            /* 202 */
	};
	void *st = damon_source_open();
	if (!st)
		return;
	kdamond_tree(reg, 3);
	const struct access_source_ops *o = &access_source_damon;
	struct access_answer a;
	CHECK_EQ_INT(o->recorded(st, &a), ACCESS_ON);
	CHECK_EQ_INT(a.ntargets, 2);
	CHECK(a.pids && a.pids[0] == 101 && a.pids[1] == 202);
	CHECK(a.first != NULL);
	if (a.first && a.r) {
		CHECK_EQ_INT(a.first[0], 0);
		CHECK_EQ_INT(a.first[1], 2);
		CHECK_EQ_INT(a.first[2], 3);
		CHECK_EQ_INT(a.r[1].start, 0x5000);
		CHECK_EQ_INT(a.r[1].end, 0x9000);
		CHECK_EQ_INT(a.r[1].nr_accesses, 0);
		CHECK_EQ_INT(a.r[1].age, 7);
		CHECK_EQ_INT(a.r[2].nr_accesses, 20);
	}
	CHECK(a.window_s == 1.0 && a.sample_s == 0.05);
	CHECK_EQ_INT(a.thread_pid, 4242);
	int pid = 101;
	CHECK(o->start(st, &pid, 1, false) < 0);
	damon_source_close(st);
}

/* Regions that cannot be told apart by target (one run for two
 * targets): still the kdamond's results, nobody's ranges. No kdamonds
 * directory: no DAMON. */
static void damon_recorded_unsplit(void)
{
	static const unsigned long long reg[][4] = { { 0x1000, 0x5000, 3, 0 }, { 0x5000, 0x9000, 0, 7 } };
	void *st = damon_source_open();
	if (!st)
		return;
	sh("rm -rf %s/sys", tree);
	put("proc/meminfo", "");
	const struct access_source_ops *o = &access_source_damon;
	struct access_answer a;
	CHECK_EQ_INT(o->recorded(st, &a), ACCESS_NO_DAMON);
	kdamond_tree(reg, 2);
	CHECK_EQ_INT(o->recorded(st, &a), ACCESS_ON);
	CHECK_EQ_INT(a.ntargets, 2);
	CHECK(a.first == NULL);
	damon_source_close(st);
}

/* ---- a fake source: the second source, in this file only ---- */

struct fake_src {
	int opened, closed, starts, retargets, stops, asks, polls;
	int start_rc;              /* what start answers */
	const char *msg;
	bool fine, running, pending;
	int pids[ACCESS_MAX_TARGETS];
	size_t n;
	bool recorded;             /* the tree's results: pids 1000, 2000 */
	uint64_t lo, hi;           /* the range each target's answer has */
	int64_t thread;
	struct access_range r[2 * ACCESS_MAX_TARGETS];
	size_t first[ACCESS_MAX_TARGETS + 1];
};

static struct fake_src src;

static int f_open(void **st, const struct fsroot *r, char *msg, size_t n)
{
	(void)r;
	(void)msg;
	(void)n;
	src.opened++;
	*st = &src;
	return 0;
}

static void f_close(void *st)
{
	struct fake_src *f = st;
	f->closed++;
	f->running = f->pending = false;
}

static void f_stop_signal(void *st)
{
	((struct fake_src *)st)->running = false;
}

static int f_start(void *st, const int *pids, size_t n, bool fine)
{
	struct fake_src *f = st;
	f->starts++;
	if (f->start_rc)
		return f->start_rc;
	f->fine = fine;
	f->running = true;
	memcpy(f->pids, pids, n * sizeof(*pids));
	f->n = n;
	return 0;
}

static int f_retarget(void *st, const int *pids, size_t n)
{
	struct fake_src *f = st;
	f->retargets++;
	memcpy(f->pids, pids, n * sizeof(*pids));
	f->n = n;
	return 0;
}

static int f_stop(void *st)
{
	struct fake_src *f = st;
	f->stops++;
	f->running = false;
	return 0;
}

static int f_ask(void *st)
{
	struct fake_src *f = st;
	if (f->pending)
		return -EBUSY;
	f->asks++;
	f->pending = true;
	return 0;
}

static bool f_pending(const void *st)
{
	return ((const struct fake_src *)st)->pending;
}

/* Each target: one range, hot. */
static void f_answer(struct fake_src *f, size_t ntargets, struct access_answer *out)
{
	for (size_t t = 0; t < ntargets; t++) {
		f->r[t] = (struct access_range){ f->lo, f->hi, 5, 0 };
		f->first[t] = t;
	}
	f->first[ntargets] = ntargets;
	out->r = f->r;
	out->first = f->first;
	out->ntargets = ntargets;
	out->window_s = 2.0;
	out->sample_s = 0.1;
	out->thread_pid = f->thread;
}

static int f_poll(void *st, size_t ntargets, double *ms, struct access_answer *out)
{
	struct fake_src *f = st;
	memset(out, 0, sizeof(*out));
	f->polls++;
	if (!f->pending)
		return -ECHILD;
	f->pending = false;
	*ms = 12;
	f_answer(f, ntargets, out);
	return 1;
}

static void f_state(const void *st, struct access_source_state *out)
{
	const struct fake_src *f = st;
	out->running = f->running;
	out->window_s = 2.0;
	out->sample_s = 0.1;
	out->thread_pid = f->running ? f->thread : -1;
}

static const char *f_message(const void *st)
{
	return ((const struct fake_src *)st)->msg;
}

static void f_idle(void *st, enum access_why *why, char *msg, size_t n)
{
	(void)st;
	*why = ACCESS_NOT_YET;
	snprintf(msg, n, "fake: idle");
}

static enum access_why f_recorded(void *st, struct access_answer *out)
{
	struct fake_src *f = st;
	memset(out, 0, sizeof(*out));
	if (!f->recorded)
		return ACCESS_RECORDED;
	f->pids[0] = 1000;
	f->pids[1] = 2000;
	f_answer(f, 2, out);
	out->pids = f->pids;
	return ACCESS_ON;
}

/* Any id of enum access_source: the sampler passes on the source's. */
static const struct access_source_ops fake_ops = {
	.id = ACCESS_SRC_NUMAB, .title = "FAKE", .thread = "faked",
	.open = f_open, .close = f_close, .stop_signal = f_stop_signal,
	.start = f_start, .retarget = f_retarget, .stop = f_stop,
	.ask = f_ask, .pending = f_pending, .poll = f_poll, .state = f_state,
	.message = f_message, .idle = f_idle, .recorded = f_recorded,
};

static const struct snap_proc *find(const struct snapshot *s, int pid)
{
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i].info.pid == pid)
			return &s->procs[i];
	return NULL;
}

static double fake_now(void *ctx)
{
	return *(double *)ctx;
}

/* The sampler the fake source is given to, and what it samples. */
struct rig {
	struct fsroot *r;
	struct topology t;
	struct sampler *s;
	struct snapshot snap;
	int self;       /* on the live machine, the one process sampled */
	double now;     /* and its clock */
};

/* A sampler of the tree at path with the fake source, its access in mode;
 * on the live machine, of this process only and on the clock g->now (from
 * 100). 0, or -1 when the root did not open (checked). */
static int rig_open(struct rig *g, const char *path, enum sampler_access mode)
{
	memset(g, 0, sizeof(*g));
	if (fsroot_open(path, &g->r) != 0) {
		CHECK(0);
		return -1;
	}
	CHECK_EQ_INT(topology_read(g->r, &g->t), 0);
	CHECK_EQ_INT(sampler_new(g->r, &g->t, PROC_BACKEND_FILES, &g->s), 0);
	if (fsroot_is_live(g->r)) {
		g->self = getpid();
		struct sampler_filter flt = { &g->self, 1, NULL, false };
		sampler_set_filter(g->s, &flt);
		CHECK_EQ_INT(sampler_set_priority(g->s, &g->self, 1), 0);
		g->now = 100;
		sampler_set_clock(g->s, fake_now, &g->now);
	}
	CHECK_EQ_INT(sampler_set_access(g->s, mode), 0);
	CHECK_EQ_INT(sampler_set_access_source(g->s, &fake_ops), 0);
	return 0;
}

/* Its sample, the sampler (which closes the source) and the root freed. */
static void rig_close(struct rig *g)
{
	snapshot_free(&g->snap);
	sampler_free(g->s);
	topology_free(&g->t);
	fsroot_close(g->r);
}

/* A recorded tree: the fake's results are the heat, with its id. */
static void fake_recorded(void)
{
	memset(&src, 0, sizeof(src));
	src.recorded = true;
	src.lo = 0x400000;
	src.hi = 0x800000;
	src.thread = 4242;
	struct rig g;
	if (rig_open(&g, "tests/trees/opteron4", SAMPLER_ACCESS_ON) != 0)
		return;
	CHECK_EQ_INT(sampler_tick(g.s, &g.snap), 0);
	CHECK_EQ_INT(src.opened, 1);
	CHECK_EQ_INT(src.starts + src.asks, 0);       /* a recorded tree: only read */
	CHECK_EQ_INT(g.snap.access.why, ACCESS_ON);
	CHECK_EQ_INT(g.snap.access.source, ACCESS_SRC_NUMAB);
	CHECK_EQ_INT(g.snap.access.monitored, 2);
	CHECK(g.snap.access.window_s == 2.0);
	CHECK_EQ_INT(g.snap.access.kdamond_pid, 4242);
	const struct snap_proc *p = find(&g.snap, 1000);
	CHECK(p && p->acc && p->acc->source == ACCESS_SRC_NUMAB && p->acc->window_s == 2.0);
	p = find(&g.snap, 3000);
	CHECK(p && !p->acc);
	/* Opened: the sampler's source for good. */
	CHECK_EQ_INT(sampler_set_access_source(g.s, &access_source_damon), -EBUSY);
	rig_close(&g);
	CHECK_EQ_INT(src.closed, 1);
}

/* The live machine, this process only (no kernel source is touched): the
 * sampler starts the fake on it, asks, takes the answer a sample later,
 * never asks twice at once, and closes it when freed. */
static void fake_live(void)
{
	static char buf[1 << 20];
	memset(buf, 1, sizeof(buf));
	memset(&src, 0, sizeof(src));
	src.lo = ((uintptr_t)buf + 4095) & ~(uintptr_t)4095;
	src.hi = src.lo + (1 << 19);
	src.thread = getpid();
	struct rig g;
	if (rig_open(&g, "/", SAMPLER_ACCESS_WATCH) != 0)
		return;
	if (!fsroot_is_live(g.r)) {
		SKIP_TEST("fake_live", "/ is not the live root");
		rig_close(&g);
		return;
	}
	struct nmsched_config c;
	nmsched_config_default(&c);
	c.full = true;
	sampler_set_budget(g.s, &c);
	CHECK_EQ_INT(sampler_tick(g.s, &g.snap), 0);
	CHECK_EQ_INT(src.starts, 1);
	CHECK(src.fine);                              /* WATCH: the finer window */
	CHECK(src.n == 1 && src.pids[0] == g.self);
	CHECK_EQ_INT(src.asks, 1);
	CHECK_EQ_INT(g.snap.access.why, ACCESS_ON);
	CHECK_EQ_INT(g.snap.access.source, ACCESS_SRC_NUMAB);
	CHECK_EQ_INT(g.snap.access.monitored, 1);
	CHECK_EQ_INT(g.snap.access.kdamond_pid, g.self);
	CHECK(!find(&g.snap, g.self) || !find(&g.snap, g.self)->acc);   /* asked, not answered yet */
	g.now += 2;
	CHECK_EQ_INT(sampler_tick(g.s, &g.snap), 0);
	CHECK_EQ_INT(src.polls, 1);
	CHECK_EQ_INT(src.starts, 1);
	CHECK_EQ_INT(src.retargets, 0);               /* the same target */
	CHECK_EQ_INT(src.asks, 2);                    /* the next request */
	CHECK(g.snap.access.request_ms == 12);
	const struct snap_proc *p = find(&g.snap, g.self);
	CHECK(p && p->acc);
	if (p && p->acc) {
		CHECK_EQ_INT(p->acc->source, ACCESS_SRC_NUMAB);
		CHECK(p->acc->window_s == 2.0);
		CHECK(p->acc->hot_kb > 0);
		CHECK_EQ_INT(p->acc->nregions, 1);
	}
	rig_close(&g);
	CHECK_EQ_INT(src.closed, 1);
	CHECK(!src.running);
}

/* A start the source refuses: its errno in the reason's words (the
 * interface's, whatever the source), its message as it said it. */
static void fake_live_refused(void)
{
	static const struct { int rc; enum access_why why; } cases[] = {
		{ -EBUSY, ACCESS_IN_USE }, { -ENOENT, ACCESS_NO_DAMON },
		{ -EOPNOTSUPP, ACCESS_NO_VADDR }, { -EACCES, ACCESS_NOT_ROOT },
		{ -EIO, ACCESS_ERROR },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&src, 0, sizeof(src));
		src.start_rc = cases[i].rc;
		src.msg = "fake: refused";
		struct rig g;
		if (rig_open(&g, "/", SAMPLER_ACCESS_ON) != 0)
			return;
		CHECK_EQ_INT(sampler_tick(g.s, &g.snap), 0);
		CHECK_EQ_INT(src.starts, 1);
		CHECK_EQ_INT(src.asks, 0);
		CHECK_EQ_INT(g.snap.access.why, cases[i].why);
		CHECK_EQ_STR(g.snap.access.msg, "fake: refused");
		CHECK_EQ_INT(g.snap.access.source, ACCESS_SRC_NONE);
		rig_close(&g);
		CHECK_EQ_INT(src.closed, 1);
	}
}

int main(void)
{
	RUN_TEST(damon_ops_complete);
	RUN_TEST(damon_recorded);
	RUN_TEST(damon_recorded_unsplit);
	RUN_TEST(fake_recorded);
	RUN_TEST(fake_live);
	RUN_TEST(fake_live_refused);
	return CHECK_DONE();
}
