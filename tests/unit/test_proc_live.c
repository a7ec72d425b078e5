/* test_proc_live.c - the two process backends agree on the live machine, and a
 * live sample of this very process is right. */
#include <stdio.h>
#include <unistd.h>

#include "proc.h"
#include "sampler.h"
#include "check.h"
#include "spawn.h"

static const struct proc_info *find(const struct proc_list *l, int pid)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].pid == pid)
			return &l->v[i];
	return NULL;
}

/* The processes this test started: the backends must agree on each.
 * The rest of the machine is not compared (processes come and go between
 * two scans on a busy machine, and kernel workers rename themselves). */
#define AGREE_KIDS 6

static void backends_agree(void)
{
	pid_t kids[AGREE_KIDS + 1];
	for (int i = 0; i < AGREE_KIDS; i++)
		kids[i] = spawn_child(i % 3);
	kids[AGREE_KIDS] = getpid();
	struct fsroot *r;
	CHECK_EQ_INT(fsroot_open("/", &r), 0);
	CHECK(fsroot_is_live(r));
	struct proc_source *lp, *fp;
	CHECK_EQ_INT(proc_source_open(r, PROC_BACKEND_LIVE, &lp), 0);
	CHECK_EQ_INT(proc_source_open(r, PROC_BACKEND_FILES, &fp), 0);
	struct proc_list a = { 0 }, b = { 0 };
	CHECK_EQ_INT(proc_source_scan(lp, &a), 0);
	CHECK_EQ_INT(proc_source_scan(fp, &b), 0);
	for (int i = 0; i <= AGREE_KIDS; i++) {
		CHECK(kids[i] > 0);
		const struct proc_info *x = find(&a, kids[i]), *y = find(&b, kids[i]);
		CHECK(x != NULL && y != NULL);
		if (!x || !y)
			continue;
		CHECK(x->starttime == y->starttime);
		CHECK_EQ_STR(x->comm, y->comm);
		CHECK_EQ_STR(x->cmdline, y->cmdline);
		CHECK_EQ_STR(x->user, y->user);
		CHECK_EQ_INT(x->uid, y->uid);
		CHECK_EQ_INT(x->ppid, y->ppid);
		CHECK_EQ_INT((long)x->nthreads, (long)y->nthreads);
		/* The children sleep in pause(): they do not run between the
		 * scans, so their last CPU is one fact read twice. */
		if (kids[i] != getpid())
			CHECK_EQ_INT(x->last_cpu, y->last_cpu);
	}
	for (int i = 0; i < AGREE_KIDS; i++)
		if (kids[i] > 0)
			reap(kids[i]);
	proc_list_free(&a);
	proc_list_free(&b);
	proc_source_close(lp);
	proc_source_close(fp);
	/* libproc2 cannot read a recorded tree. */
	struct fsroot *t;
	CHECK_EQ_INT(fsroot_open("tests/trees", &t), 0);
	CHECK(!fsroot_is_live(t));
	CHECK_EQ_INT(proc_source_open(t, PROC_BACKEND_LIVE, &lp), -EINVAL);
	fsroot_close(t);
	fsroot_close(r);
}

static void sample_self(void)
{
	/* Touch memory so numa_maps has something to count. */
	size_t sz = 8 << 20;
	char *mem = malloc(sz);
	memset(mem, 1, sz);
	struct fsroot *r;
	struct topology t;
	struct sampler *s;
	CHECK_EQ_INT(fsroot_open("/", &r), 0);
	CHECK_EQ_INT(topology_read(r, &t), 0);
	CHECK(t.nnodes >= 1);
	CHECK_EQ_INT(sampler_new(r, &t, PROC_BACKEND_AUTO, &s), 0);
	int me = getpid();
	struct sampler_filter f = { &me, 1, NULL, false };
	sampler_set_filter(s, &f);
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	CHECK_EQ_INT(snap.nprocs, 1);
	if (snap.nprocs == 1) {
		const struct snap_proc *p = &snap.procs[0];
		CHECK_EQ_INT(p->info.pid, me);
		CHECK_EQ_INT(p->nm, NMS_OK);
		CHECK(p->total_kb >= 8192);
		int64_t sum = 0;
		for (size_t i = 0; i < t.nnodes; i++)
			sum += p->node_kb[i];
		CHECK_EQ_INT(sum, p->total_kb);
		CHECK(p->home >= 0);
		CHECK(p->cpu_pct < 0);        /* unknown on the first sample */
		CHECK(snap.node_load[0].busy < 0);
	}
	usleep(200000);
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	CHECK(snap.interval_s > 0.1);
	CHECK(snap.node_load[0].busy >= 0 && snap.node_load[0].busy <= 100);
	if (snap.nprocs == 1)
		CHECK(snap.procs[0].cpu_pct >= 0);
	/* Everyone else's memory is either read or marked, never silent. */
	sampler_set_filter(s, NULL);
	CHECK_EQ_INT(sampler_tick(s, &snap), 0);
	CHECK(snap.nprocs > 5);
	for (size_t i = 0; i < snap.nprocs; i++) {
		const struct snap_proc *p = &snap.procs[i];
		if (p->nm != NMS_OK)
			CHECK(p->total_kb == -1 && p->remote_kb == -1);
	}
	snapshot_free(&snap);
	sampler_free(s);
	topology_free(&t);
	fsroot_close(r);
	free(mem);
}

int main(void)
{
	RUN_TEST(backends_agree);
	RUN_TEST(sample_self);
	return CHECK_DONE();
}
