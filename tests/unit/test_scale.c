/* test_scale.c - the pieces that make a tick cheap at 10 000 processes:
 * the live backend's kept descriptors and its fallback by path, idle
 * threads kept, the list's string store, interned policies. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"
#include "strpool.h"
#include "check.h"
#include "spawn.h"

static const struct proc_info *find(const struct proc_list *l, int pid)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].pid == pid)
			return &l->v[i];
	return NULL;
}

static void string_store(void)
{
	struct proc_list l = { 0 };
	char big[40000];
	memset(big, 'x', sizeof(big));
	const char *a = proc_list_strdup(&l, "alpha", 5);
	const char *b = proc_list_strdup(&l, big, sizeof(big));   /* its own block */
	const char *c = proc_list_strdup(&l, "gamma", 3);
	CHECK(a && b && c);
	CHECK_EQ_STR(a, "alpha");
	CHECK_EQ_INT((long)strlen(b), (long)sizeof(big));
	CHECK_EQ_STR(c, "gam");
	CHECK_EQ_STR(proc_list_strdup(&l, "", 0), "");
	/* Many small strings across blocks: all stay valid. */
	const char *v[3000];
	char t[32];
	for (int i = 0; i < 3000; i++) {
		snprintf(t, sizeof(t), "s%d", i);
		v[i] = proc_list_strdup(&l, t, strlen(t));
	}
	int bad = 0;
	for (int i = 0; i < 3000; i++) {
		snprintf(t, sizeof(t), "s%d", i);
		bad += strcmp(v[i], t) != 0;
	}
	CHECK_EQ_INT(bad, 0);
	CHECK_EQ_STR(a, "alpha");
	proc_list_clear_strings(&l);
	CHECK_EQ_INT((long)l.strs.nblocks, 1);
	proc_list_free(&l);
}

static void interned(void)
{
	struct strpool *p;
	CHECK_EQ_INT(strpool_new(&p), 0);
	const char *a = strpool_get(p, "bind:0-1");
	char buf[16];
	snprintf(buf, sizeof(buf), "bind:%d-1", 0);
	CHECK(a && strpool_get(p, buf) == a);             /* the same copy */
	CHECK(strpool_get(p, "default") != a);
	CHECK_EQ_STR(strpool_get(p, NULL), "");
	for (int i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "p%d", i);
		strpool_get(p, buf);
	}
	CHECK_EQ_INT((long)strpool_count(p), 5003);
	CHECK(strpool_get(p, "bind:0-1") == a);           /* kept across growth */
	strpool_free(p);
}

static void threads_still(void)
{
	/* Same CPU time and thread count, read 3 s ago: kept. */
	CHECK(proc_threads_still(100, 4, 10.0, 100, 4, 13.0, 10.0));
	CHECK(!proc_threads_still(100, 4, 10.0, 101, 4, 13.0, 10.0));   /* ran */
	CHECK(!proc_threads_still(100, 4, 10.0, 100, 5, 13.0, 10.0));   /* a new thread */
	CHECK(!proc_threads_still(100, 4, 10.0, 100, 4, 20.0, 10.0));   /* too old */
	CHECK(!proc_threads_still(100, 4, -1, 100, 4, 20.0, 10.0));     /* never read */
}

static void stat_still(void)
{
	/* Idle, single-threaded, read 3 s ago: its kept numbers stand. */
	CHECK(proc_stat_still(5000, 5000, 1, 'S', 10.0, 13.0, 30.0));
	CHECK(proc_stat_still(5000, 5000, 1, 'D', 10.0, 13.0, 30.0));
	CHECK(!proc_stat_still(5000, 5001, 1, 'S', 10.0, 13.0, 30.0));   /* it ran */
	CHECK(!proc_stat_still(5000, 5000, 2, 'S', 10.0, 13.0, 30.0));   /* threads */
	CHECK(!proc_stat_still(5000, 5000, -1, 'S', 10.0, 13.0, 30.0));  /* unknown */
	CHECK(!proc_stat_still(5000, 5000, 1, 'R', 10.0, 13.0, 30.0));   /* running */
	CHECK(!proc_stat_still(5000, 5000, 1, 'S', 10.0, 40.0, 30.0));   /* due */
}

/* The live backend agrees with the files backend on the processes this
 * test started (kids[0..nkids)), whether it keeps descriptors or reads by
 * path; the rest of the machine is not compared (on a busy machine
 * processes start and end between the two scans). In a child: the
 * descriptor limit is lowered there. */
static int scan_compare(struct fsroot *r, const pid_t *kids, size_t nkids, size_t *kept,
			size_t *by_path)
{
	struct proc_source *lp, *fp;
	if (proc_source_open(r, PROC_BACKEND_LIVE, &lp) || proc_source_open(r, PROC_BACKEND_FILES, &fp))
		return 1;
	struct proc_list a = { 0 }, b = { 0 };
	int bad = 0;
	for (int round = 0; round < 3 && !bad; round++) {
		if (proc_source_scan(lp, &a) || proc_source_scan(fp, &b))
			return 2;
		for (size_t i = 0; i < nkids; i++) {
			const struct proc_info *x = find(&a, kids[i]), *y = find(&b, kids[i]);
			if (!x || !y) {
				bad++;
				continue;
			}
			bad += x->starttime != y->starttime || x->uid != y->uid ||
			       x->ppid != y->ppid || strcmp(x->cmdline, y->cmdline) != 0 ||
			       strcmp(x->user, y->user) != 0 || strcmp(x->comm, y->comm) != 0;
		}
		for (size_t i = 1; i < a.n; i++)
			bad += a.v[i].pid <= a.v[i - 1].pid;   /* in PID order */
	}
	struct proc_scan_stats st;
	proc_source_stats(lp, &st);
	*kept = st.kept_fd;
	*by_path = st.by_path;
	proc_list_free(&a);
	proc_list_free(&b);
	proc_source_close(lp);
	proc_source_close(fp);
	return bad ? 3 : 0;
}

/* More processes than the 22 a budget of 300 descriptors keeps. */
#define FD_KIDS 40

static void live_fds_and_fallback(void)
{
	struct fsroot *r;
	CHECK_EQ_INT(fsroot_open("/", &r), 0);
	pid_t kids[FD_KIDS];
	for (int i = 0; i < FD_KIDS; i++)
		CHECK((kids[i] = spawn_child(0)) > 0);
	size_t kept = 0, by_path = 0;
	CHECK_EQ_INT(scan_compare(r, kids, FD_KIDS, &kept, &by_path), 0);
	CHECK(kept > 0);
	/* With 300 descriptors (a budget of 22 processes) it still lists
	 * everyone: the rest by path. */
	int p[2];
	CHECK_EQ_INT(pipe(p), 0);
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit rl = { 300, 300 };
		size_t k = 0, bp = 0;
		int crc = setrlimit(RLIMIT_NOFILE, &rl) ? 9 : scan_compare(r, kids, FD_KIDS, &k, &bp);
		size_t out[3] = { (size_t)crc, k, bp };
		if (write(p[1], out, sizeof(out)) != sizeof(out))
			_exit(1);
		_exit(0);
	}
	size_t res[3] = { 99, 0, 0 };
	close(p[1]);
	CHECK_EQ_INT((long)read(p[0], res, sizeof(res)), (long)sizeof(res));
	close(p[0]);
	waitpid(pid, NULL, 0);
	for (int i = 0; i < FD_KIDS; i++)
		if (kids[i] > 0)
			reap(kids[i]);
	CHECK_EQ_INT((long)res[0], 0);
	CHECK(res[1] <= 22);
	CHECK(res[2] > 0);
	fsroot_close(r);
}

/* A process that exits is gone at the next scan; one that starts is
 * there. Its 40 idle threads are read once, then kept. */
static void live_exit_and_idle_threads(void)
{
	struct fsroot *r;
	CHECK_EQ_INT(fsroot_open("/", &r), 0);
	struct proc_source *lp;
	CHECK_EQ_INT(proc_source_open(r, PROC_BACKEND_LIVE, &lp), 0);
	struct proc_list l = { 0 };
	struct buf scratch = { 0 };
	pid_t kid = spawn_threads(40, sleeper, 100000);
	CHECK(kid > 0);
	size_t read_then = 0;
	for (int round = 0; round < 3; round++) {
		CHECK_EQ_INT(proc_source_scan(lp, &l), 0);
		struct proc_info *p = (struct proc_info *)find(&l, kid);
		CHECK(p != NULL);
		if (!p)
			break;
		CHECK_EQ_INT((long)p->nthreads, 41);
		l.nthr = 0;
		CHECK_EQ_INT(proc_source_threads(lp, &l, p, &scratch), 0);
		CHECK_EQ_INT((long)p->thr_n, 41);
		struct proc_scan_stats st;
		proc_source_stats(lp, &st);
		if (round == 0)
			read_then = st.thr_read;
		else
			CHECK_EQ_INT((long)st.thr_kept, 1);   /* idle: kept */
	}
	CHECK_EQ_INT((long)read_then, 1);
	reap(kid);
	CHECK_EQ_INT(proc_source_scan(lp, &l), 0);
	CHECK(find(&l, kid) == NULL);
	buf_free(&scratch);
	proc_list_free(&l);
	proc_source_close(lp);
	fsroot_close(r);
}

/* A child that burns about 60 ms of CPU each time it is poked through
 * *poke, says so through *done, and sleeps in between. */
static pid_t spawn_burst(int *poke, int *done)
{
	int a[2], b[2];
	if (pipe(a) || pipe(b))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		while (read(a[0], &c, 1) == 1) {
			struct timespec t0, t;
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
			do
				clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
			while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 60000000L);
			if (write(b[1], &c, 1) != 1)
				break;
		}
		_exit(0);
	}
	close(a[0]);
	close(b[1]);
	*poke = a[1];
	*done = b[0];
	return pid;
}

/* The schedstat gate: an idle single-threaded child keeps its numbers (its
 * stat is not read again); one that ran between two scans and sleeps
 * again is read (its CPU time moved); an idle child whose parent ends
 * shows its new parent in that same scan. */
static void live_stat_gate(void)
{
	struct fsroot *r;
	CHECK_EQ_INT(fsroot_open("/", &r), 0);
	struct proc_source *lp;
	CHECK_EQ_INT(proc_source_open(r, PROC_BACKEND_LIVE, &lp), 0);
	CHECK_EQ_INT(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	/* mid: the parent of an idle grandchild, told to exit through a pipe. */
	pid_t idle = spawn_child(0);
	int poke = -1, done = -1;
	pid_t burst = spawn_burst(&poke, &done);
	int go[2], said[2];
	CHECK_EQ_INT(pipe(go), 0);
	CHECK_EQ_INT(pipe(said), 0);
	pid_t mid = fork();
	if (mid == 0) {
		pid_t g = fork();
		if (g == 0) {
			for (;;)
				pause();
		}
		if (write(said[1], &g, sizeof(g)) != sizeof(g))
			_exit(1);
		char c;
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	pid_t grand = -1;
	CHECK_EQ_INT((long)read(said[0], &grand, sizeof(grand)), (long)sizeof(grand));
	CHECK(idle > 0 && burst > 0 && mid > 0 && grand > 0);
	usleep(100000);
	struct proc_list l = { 0 };
	struct proc_scan_stats st;
	CHECK_EQ_INT(proc_source_scan(lp, &l), 0);
	const struct proc_info *p = find(&l, idle);
	uint64_t idle_t = p ? p->starttime : 0;
	p = find(&l, grand);
	CHECK(p && p->ppid == mid);
	for (int round = 0; round < 3; round++) {
		CHECK_EQ_INT(proc_source_scan(lp, &l), 0);
		p = find(&l, burst);
		uint64_t before = p ? p->utime + p->stime : 0;
		CHECK(p && p->state == 'S');
		/* It runs 60 ms (six clock ticks) and is asleep again. */
		char c = 'x';
		CHECK_EQ_INT((long)write(poke, &c, 1), 1L);
		CHECK_EQ_INT((long)read(done, &c, 1), 1L);
		usleep(20000);
		CHECK_EQ_INT(proc_source_scan(lp, &l), 0);
		p = find(&l, burst);
		CHECK(p && p->utime + p->stime > before);
	}
	proc_source_stats(lp, &st);
	CHECK(st.stat_read >= 2);          /* the burst child and this test at least */
	CHECK(st.stat_kept > 0);           /* the idle child, the grandchild, ... */
	CHECK_EQ_INT((long)(st.stat_read + st.stat_kept), (long)l.n);
	p = find(&l, idle);
	CHECK(p && p->starttime == idle_t && p->ppid == getpid() && p->state == 'S');
	/* The grandchild's parent ends: the grandchild is ours now (the
	 * subreaper), though it did not run. */
	CHECK_EQ_INT((long)write(go[1], "x", 1), 1L);
	waitpid(mid, NULL, 0);
	CHECK_EQ_INT(proc_source_scan(lp, &l), 0);
	p = find(&l, grand);
	CHECK(p != NULL);
	if (p)
		CHECK_EQ_INT(p->ppid, getpid());
	CHECK(find(&l, mid) == NULL);
	close(poke);
	close(done);
	reap(burst);
	reap(grand);
	reap(idle);
	close(go[0]);
	close(go[1]);
	close(said[0]);
	close(said[1]);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
	proc_list_free(&l);
	proc_source_close(lp);
	fsroot_close(r);
}

static int hide_pid;
static bool keep_but(void *ctx, const struct proc_info *p)
{
	(void)ctx;
	return p->pid != hide_pid;
}

/* The live backend's kept numbers are the list's own entries, so: a
 * process the list leaves out (proc_list.keep) keeps its numbers in the
 * backend and comes back with what it did meanwhile; a list the source
 * did not fill last is not trusted for them (its numbers are read). */
static void live_hidden_and_other_lists(void)
{
	struct fsroot *r;
	CHECK_EQ_INT(fsroot_open("/", &r), 0);
	struct proc_source *lp;
	CHECK_EQ_INT(proc_source_open(r, PROC_BACKEND_LIVE, &lp), 0);
	int poke = -1, done = -1;
	pid_t burst = spawn_burst(&poke, &done);
	CHECK(burst > 0);
	usleep(100000);
	struct proc_list a = { 0 }, b = { 0 };
	CHECK_EQ_INT(proc_source_scan(lp, &a), 0);
	const struct proc_info *p = find(&a, burst);
	uint64_t t0 = p ? p->utime + p->stime : 0;
	CHECK(p && p->state == 'S');
	/* Left out, it runs (60 ms), then is listed again: its new CPU time. */
	hide_pid = burst;
	a.keep = keep_but;
	CHECK_EQ_INT(proc_source_scan(lp, &a), 0);
	CHECK(find(&a, burst) == NULL);
	char c = 'x';
	CHECK_EQ_INT((long)write(poke, &c, 1), 1L);
	CHECK_EQ_INT((long)read(done, &c, 1), 1L);
	usleep(20000);
	CHECK_EQ_INT(proc_source_scan(lp, &a), 0);      /* still left out: read there */
	CHECK(find(&a, burst) == NULL);
	a.keep = NULL;
	CHECK_EQ_INT(proc_source_scan(lp, &a), 0);
	p = find(&a, burst);
	uint64_t t1 = p ? p->utime + p->stime : 0;
	CHECK(p && t1 > t0 && p->state == 'S');
	/* It runs again; another list is filled (and reads it); the first
	 * list's entry is older than the source's last read and not used. */
	CHECK_EQ_INT((long)write(poke, &c, 1), 1L);
	CHECK_EQ_INT((long)read(done, &c, 1), 1L);
	usleep(20000);
	CHECK_EQ_INT(proc_source_scan(lp, &b), 0);
	p = find(&b, burst);
	uint64_t t2 = p ? p->utime + p->stime : 0;
	CHECK(p && t2 > t1);
	CHECK_EQ_INT(proc_source_scan(lp, &a), 0);
	p = find(&a, burst);
	CHECK(p && p->utime + p->stime == t2);
	close(poke);
	close(done);
	reap(burst);
	proc_list_free(&a);
	proc_list_free(&b);
	proc_source_close(lp);
	fsroot_close(r);
}

/* A process's files through the kept directory: its own numa_maps while
 * it lives, an error (never another process's file) once it is gone;
 * the files backend has no kept directory. */
static void live_openat(void)
{
	struct fsroot *r;
	CHECK_EQ_INT(fsroot_open("/", &r), 0);
	struct proc_source *lp, *fp;
	CHECK_EQ_INT(proc_source_open(r, PROC_BACKEND_LIVE, &lp), 0);
	CHECK_EQ_INT(proc_source_open(r, PROC_BACKEND_FILES, &fp), 0);
	pid_t kid = spawn_child(0);
	struct proc_list l = { 0 };
	CHECK_EQ_INT(proc_source_scan(lp, &l), 0);
	const struct proc_info *p = find(&l, kid);
	CHECK(p != NULL);
	if (p) {
		struct proc_info info = *p;
		int fd = proc_source_openat(lp, &info, "numa_maps");
		CHECK(fd >= 0);
		char buf[256];
		CHECK(fd >= 0 && read(fd, buf, sizeof(buf)) > 0);
		if (fd >= 0)
			close(fd);
		CHECK_EQ_INT(proc_source_openat(fp, &info, "numa_maps"), -EOPNOTSUPP);
		info.starttime++;                  /* another process's identity */
		CHECK_EQ_INT(proc_source_openat(lp, &info, "numa_maps"), -EOPNOTSUPP);
		info.starttime--;
		reap(kid);
		fd = proc_source_openat(lp, &info, "numa_maps");
		CHECK(fd < 0 && fd != -EOPNOTSUPP);
		if (fd >= 0)
			close(fd);
	}
	proc_list_free(&l);
	proc_source_close(lp);
	proc_source_close(fp);
	fsroot_close(r);
}

int main(void)
{
	(void)spawn_child;
	RUN_TEST(string_store);
	RUN_TEST(interned);
	RUN_TEST(threads_still);
	RUN_TEST(stat_still);
	RUN_TEST(live_fds_and_fallback);
	RUN_TEST(live_exit_and_idle_threads);
	RUN_TEST(live_stat_gate);
	RUN_TEST(live_hidden_and_other_lists);
	RUN_TEST(live_openat);
	return CHECK_DONE();
}
