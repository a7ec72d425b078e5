/* test_damon_async.c - the request for the regions in flight
 * (src/damon_ctl_req.c): made by a worker thread, answered later, never
 * waited for by the caller; no commit and no nr_kdamonds meanwhile; a
 * stop writes "off", joins the worker, then removes the kdamond.
 *
 * The fake kernel (damon_fake.h) behind a gate: "update_schemes_tried_
 * regions" is held until the test answers it, or until "off" stops the
 * kdamond (as the kernel's waiting write returns once the kdamond is no
 * longer running); nr_kdamonds says EBUSY while it is held, and "off" may
 * be made to say EBUSY a number of times (6.12 holds its sysfs lock while
 * the kdamond collects the regions). A held write gives up after
 * GATE_LIMIT_S (a caller that waited for it then fails the test instead
 * of hanging); no check depends on how long anything took. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "damon_fake.h"

#define GATE_LIMIT_S 20
#define REQ_VAL "update_schemes_tried_regions"

enum { HOLD, ANSWER, STOPPED };

struct gate {
	struct fake fk;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int block;             /* hold the request */
	int held;              /* a request is held now */
	int go;                /* HOLD, or how it ends: ANSWER, STOPPED */
	int off_busy;          /* "off" says EBUSY this many more times while one is held */
	int answer_after;      /* > 0: the held request is answered at this refused "off" */
	int nr_busy;           /* nr_kdamonds says EBUSY this many more times, held or not */
	int gave_up;           /* a held request reached GATE_LIMIT_S */
	int sig_blocked;       /* SIGTERM and SIGINT were blocked in the writing thread */
};

static struct gate g;

static void gate_log(const char *entry)
{
	if (g.fk.n < 128)
		fmt(g.fk.log[g.fk.n++], sizeof(g.fk.log[0]), "%s", entry);
}

/* Called with g.mu held: wait for the test (or "off") to end the request. */
static int gate_hold(const char *path, const char *val)
{
	char e[64];
	fmt(e, sizeof(e), "0/state=%s", val);
	gate_log(e);
	sigset_t cur;
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	g.sig_blocked = sigismember(&cur, SIGTERM) == 1 && sigismember(&cur, SIGINT) == 1;
	g.held = 1;
	g.go = HOLD;
	pthread_cond_broadcast(&g.cv);
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += GATE_LIMIT_S;
	while (g.go == HOLD)
		if (pthread_cond_timedwait(&g.cv, &g.mu, &until) != 0) {
			g.gave_up = 1;
			break;
		}
	int rc = g.gave_up ? -ETIMEDOUT : 0;
	if (g.go == ANSWER) {
		/* The regions filled, as the kernel does before it returns. */
		g.fk.quiet = 1;
		rc = fake_write(&g.fk, path, val);
		g.fk.quiet = 0;
	}
	gate_log("returned");
	g.held = 0;
	pthread_cond_broadcast(&g.cv);
	return rc;
}

static int gate_write(void *ctx, const char *path, const char *val)
{
	(void)ctx;
	pthread_mutex_lock(&g.mu);
	int rc;
	if (g.block && (strcmp(val, REQ_VAL) == 0 || strcmp(val, "commit") == 0)) {
		rc = gate_hold(path, val);
	} else if (g.held && strcmp(val, "off") == 0 && g.off_busy > 0) {
		g.off_busy--;
		gate_log("0/state=off:EBUSY");
		if (g.answer_after > 0 && --g.answer_after == 0) {
			g.go = ANSWER;
			pthread_cond_broadcast(&g.cv);
		}
		rc = -EBUSY;
	} else if (g.nr_busy > 0 && strstr(path, "/nr_kdamonds")) {
		g.nr_busy--;
		gate_log("nr_kdamonds:EBUSY");
		rc = -EBUSY;
	} else if (g.held && strstr(path, "/nr_kdamonds")) {
		gate_log("nr_kdamonds:EBUSY");
		rc = -EBUSY;
	} else {
		rc = fake_write(&g.fk, path, val);
		if (rc == 0 && g.held && strcmp(val, "off") == 0) {
			g.go = STOPPED;
			pthread_cond_broadcast(&g.cv);
		}
	}
	pthread_mutex_unlock(&g.mu);
	return rc;
}

/* Until the worker's request is held in the fake (or gave up). */
static void wait_held(void)
{
	pthread_mutex_lock(&g.mu);
	while (!g.held && !g.gave_up) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += GATE_LIMIT_S;
		if (pthread_cond_timedwait(&g.cv, &g.mu, &until) != 0)
			g.gave_up = 1;
	}
	pthread_mutex_unlock(&g.mu);
}

static void answer(void)
{
	pthread_mutex_lock(&g.mu);
	g.go = ANSWER;
	pthread_cond_broadcast(&g.cv);
	pthread_mutex_unlock(&g.mu);
}

/* Poll until the request is no longer waiting: its result. */
static int poll_until_done(struct damon_ctl *c, double *ms)
{
	int rc = 0;
	for (int i = 0; i < GATE_LIMIT_S * 1000 && (rc = damon_ctl_request_poll(c, ms)) == 0; i++) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	return rc;
}

static int log_n(void)
{
	pthread_mutex_lock(&g.mu);
	int n = g.fk.n;
	pthread_mutex_unlock(&g.mu);
	return n;
}

/* Index of the first log entry from `from` equal to want, or -1. */
static int log_find(int from, const char *want)
{
	for (int i = from; i < g.fk.n; i++)
		if (strcmp(g.fk.log[i], want) == 0)
			return i;
	return -1;
}

static void log_print(void)
{
	for (int i = 0; i < g.fk.n; i++)
		printf("  write %d: %s\n", i, g.fk.log[i]);
}

static const int two[2] = { 101, 202 };

/* Our kdamond on 101 and 202, the fake's writes behind the gate. */
static void started(struct damon_ctl *c)
{
	fresh_tree();
	pthread_mutex_lock(&g.mu);
	fake_init(&g.fk);
	g.block = 0;
	g.held = g.gave_up = g.off_busy = g.answer_after = g.sig_blocked = g.nr_busy = 0;
	g.go = HOLD;
	pthread_mutex_unlock(&g.mu);
	ctl_init(c, &g.fk, 500, 55);
	c->ops.write = gate_write;
	c->ops.ctx = &g;
	CHECK_EQ_INT(damon_ctl_start(c, two, 2), 0);
	pthread_mutex_lock(&g.mu);
	g.block = 1;
	g.fk.n = 0;
	pthread_mutex_unlock(&g.mu);
}

static const char *const regs[] = {
	"4194304 5242880 20 4", "140720308486144 140720309534720 3 1",
	"93824992231424 93824993280000 1 0", "140720308486144 140720309534720 0 2",
};

/* The writes so far are exactly want[0..n) (printed when not). */
static void log_is(const char *const *want, int n)
{
	CHECK_EQ_INT(log_n(), n);
	for (int i = 0; i < n && i < log_n(); i++)
		CHECK_EQ_STR(g.fk.log[i], want[i]);
	if (check_failed_in_test)
		log_print();
}

/* After a stop: no record, DAMON free again, no "off" given up on. */
static void all_gone(const struct damon_ctl *c)
{
	CHECK(access(recpath, F_OK) != 0);
	struct damon_status st;
	read_status(&st, &c->self);
	CHECK_EQ_INT(st.avail, DAMON_FREE);
	damon_status_free(&st);
	CHECK_EQ_INT(g.gave_up, 0);
}

/* The end of a test: nothing held any more, ours stopped, no "off"
 * given up on. */
static void stopped(struct damon_ctl *c)
{
	g.block = 0;
	CHECK_EQ_INT(damon_ctl_stop(c), 0);
	CHECK_EQ_INT(g.gave_up, 0);
}

/* Start returns while the write is held; poll says 0 until it is
 * answered, then 1 (once), and the regions are there. */
static void start_poll_answer(void)
{
	struct damon_ctl c;
	started(&c);
	g.fk.regions = regs;
	g.fk.nregions = 4;
	CHECK_EQ_INT(damon_ctl_request_poll(&c, NULL), -ECHILD);
	CHECK(!damon_ctl_request_pending(&c));
	CHECK_EQ_INT(damon_ctl_request_start(&c), 0);
	CHECK(damon_ctl_request_pending(&c));
	wait_held();
	CHECK_EQ_INT(g.gave_up, 0);      /* start did not wait for the answer */
	CHECK_EQ_INT(g.held, 1);
	CHECK_EQ_INT(g.sig_blocked, 1);  /* stop signals reach the caller's thread */
	double ms = -2;
	CHECK_EQ_INT(damon_ctl_request_poll(&c, &ms), 0);
	CHECK_EQ_INT(damon_ctl_request_poll(&c, &ms), 0);
	CHECK(ms == -2);
	CHECK(damon_ctl_request_pending(&c));
	struct damon_scheme sc;
	memset(&sc, 0, sizeof(sc));
	CHECK_EQ_INT(damon_ctl_read_regions(&c, &sc), 0);
	CHECK_EQ_INT(sc.nregions, 0);    /* not answered yet */
	answer();
	CHECK_EQ_INT(poll_until_done(&c, &ms), 1);
	CHECK(ms >= 0);
	CHECK(!damon_ctl_request_pending(&c));
	CHECK_EQ_INT(damon_ctl_request_poll(&c, NULL), -ECHILD);
	CHECK_EQ_INT(damon_ctl_read_regions(&c, &sc), 0);
	CHECK_EQ_INT(sc.nregions, 4);
	free(sc.regions);
	CHECK_EQ_INT(log_n(), 2);
	CHECK_EQ_STR(g.fk.log[0], "0/state=" REQ_VAL);
	CHECK_EQ_STR(g.fk.log[1], "returned");
	/* The next one, answered the same way; wait instead of poll. */
	CHECK_EQ_INT(damon_ctl_request_start(&c), 0);
	wait_held();
	answer();
	CHECK_EQ_INT(damon_ctl_request_wait(&c, NULL), 1);
	CHECK_EQ_INT(damon_ctl_request_wait(&c, NULL), -ECHILD);
	stopped(&c);
}

/* While one is in flight: no second request, no commit, no start, nothing
 * written for them. */
static void busy_in_flight(void)
{
	struct damon_ctl c;
	started(&c);
	CHECK_EQ_INT(damon_ctl_request_start(&c), 0);
	wait_held();
	int n = log_n();
	CHECK_EQ_INT(damon_ctl_request_start(&c), -EBUSY);
	int three[3] = { 101, 303, 404 };
	CHECK_EQ_INT(damon_ctl_set_targets(&c, three, 3), -EBUSY);
	CHECK(strstr(damon_ctl_message(&c), "in flight") != NULL);
	CHECK_EQ_INT(damon_ctl_start(&c, three, 3), -EBUSY);
	CHECK_EQ_INT(damon_ctl_request_regions(&c), -EBUSY);
	CHECK_EQ_INT(log_n(), n);        /* nothing written */
	CHECK_EQ_INT(log_find(0, "0/state=commit"), -1);
	answer();
	CHECK_EQ_INT(poll_until_done(&c, NULL), 1);
	/* Answered: the targets change again (their commit held in turn). */
	CHECK_EQ_INT(damon_ctl_set_targets(&c, three, 3), 0);
	wait_held();
	CHECK(log_find(0, "0/state=commit") > log_find(0, "returned"));
	answer();
	CHECK_EQ_INT(poll_until_done(&c, NULL), 1);
	stopped(&c);
}

/* New targets: their files written at once, "commit" the worker's (the
 * kernel holds it until the next window ends); no request for the
 * regions until it is answered; the record names both sets meanwhile and
 * the new ones alone after. */
static void commit_in_flight(void)
{
	struct damon_ctl c;
	started(&c);
	int three[3] = { 101, 303, 404 };
	CHECK_EQ_INT(damon_ctl_set_targets(&c, three, 3), 0);
	wait_held();
	CHECK(damon_ctl_request_pending(&c));
	CHECK(damon_ctl_request_was_commit(&c));
	CHECK(log_find(0, "0/contexts/0/targets/2/pid_target=404") >= 0);
	CHECK_EQ_INT(damon_ctl_request_poll(&c, NULL), 0);
	CHECK_EQ_INT(damon_ctl_request_start(&c), -EBUSY);
	struct damon_record rec;
	CHECK_EQ_INT(damon_record_load(recpath, &rec), 0);
	CHECK(rec.have_next && rec.nnext == 3 && rec.set.npids == 2);
	answer();
	CHECK_EQ_INT(poll_until_done(&c, NULL), 1);
	CHECK_EQ_INT(damon_record_load(recpath, &rec), 0);
	CHECK(!rec.have_next && rec.set.npids == 3 && rec.set.pids[1] == 303);
	/* Now the regions may be asked for. */
	CHECK_EQ_INT(damon_ctl_request_start(&c), 0);
	CHECK(!damon_ctl_request_was_commit(&c));
	wait_held();
	answer();
	CHECK_EQ_INT(poll_until_done(&c, NULL), 1);
	stopped(&c);
}

/* Stop with the request held: "off" (which ends the kernel's wait), the
 * worker joined, then nr_kdamonds 0; nothing left. */
static void stop_in_flight(void)
{
	struct damon_ctl c;
	started(&c);
	CHECK_EQ_INT(damon_ctl_request_start(&c), 0);
	wait_held();
	CHECK_EQ_INT(damon_ctl_stop(&c), 0);
	CHECK(!damon_ctl_request_pending(&c));
	static const char *const want[] = {
		"0/state=" REQ_VAL, "0/state=off", "returned", "nr_kdamonds=0",
	};
	log_is(want, 4);
	all_gone(&c);
	/* Nothing more to stop. */
	CHECK_EQ_INT(damon_ctl_stop(&c), 0);
	CHECK_EQ_INT(log_n(), 4);
}

/* "off" refused while the kdamond collects the regions (6.12): tried
 * again until taken, then as above. */
static void stop_off_refused(void)
{
	struct damon_ctl c;
	started(&c);
	CHECK_EQ_INT(damon_ctl_request_start(&c), 0);
	wait_held();
	g.off_busy = 3;
	CHECK_EQ_INT(damon_ctl_stop(&c), 0);
	static const char *const want[] = {
		"0/state=" REQ_VAL, "0/state=off:EBUSY", "0/state=off:EBUSY", "0/state=off:EBUSY",
		"0/state=off", "returned", "nr_kdamonds=0",
	};
	log_is(want, 7);
	all_gone(&c);
}

/* No request in flight, nr_kdamonds refused for a moment (the kdamond
 * held DAMON's sysfs lock as a window ended): tried again, not left. */
static void stop_nr_refused(void)
{
	struct damon_ctl c;
	started(&c);
	g.nr_busy = 2;
	CHECK_EQ_INT(damon_ctl_stop(&c), 0);
	static const char *const want[] = {
		"0/state=off", "nr_kdamonds:EBUSY", "nr_kdamonds:EBUSY", "nr_kdamonds=0",
	};
	log_is(want, 4);
	all_gone(&c);
}

/* "off" refused until the request has its answer anyway: the worker
 * joined, then off and nr_kdamonds 0 as without a request. */
static void stop_answered_meanwhile(void)
{
	struct damon_ctl c;
	started(&c);
	CHECK_EQ_INT(damon_ctl_request_start(&c), 0);
	wait_held();
	g.off_busy = 1000000;
	g.answer_after = 2;
	CHECK_EQ_INT(damon_ctl_stop(&c), 0);
	CHECK(!damon_ctl_request_pending(&c));
	int ret = log_find(0, "returned"), off = log_find(ret < 0 ? 0 : ret, "0/state=off");
	int nr = log_find(0, "nr_kdamonds=0");
	CHECK(ret > 0 && off > ret && nr > off);
	CHECK_EQ_STR(g.fk.log[g.fk.n - 1], "nr_kdamonds=0");
	CHECK_EQ_INT(log_find(0, "nr_kdamonds:EBUSY"), -1);
	if (check_failed_in_test)
		log_print();
	all_gone(&c);
}

/* From a signal handler, a request in flight: "off" (again while the
 * kernel says EBUSY), no join; nr_kdamonds 0 once the worker's write has
 * returned (refused until then), and the record removed. Nothing when
 * the pid file shows another thread; the record stays for the next
 * start then. */
static void signal_in_flight(void)
{
	for (int other = 0; other <= 2; other++) {
		struct damon_ctl c;
		started(&c);
		CHECK_EQ_INT(damon_ctl_request_start(&c), 0);
		wait_held();
		if (other == 2)
			put(KD "/0/pid", "9999\n");
		pthread_mutex_lock(&g.mu);
		g.off_busy = other == 1 ? 2 : 0;
		pthread_mutex_unlock(&g.mu);
		damon_ctl_stop_signal(&c);
		CHECK(damon_ctl_request_pending(&c));   /* not joined */
		if (other < 2) {
			/* "off" ended the kernel's wait; then nr_kdamonds. */
			CHECK_EQ_INT(damon_ctl_request_wait(&c, NULL), 1);
			int off = log_find(0, "0/state=off"), ret = log_find(0, "returned");
			CHECK(off == 1 + 2 * other && ret > off);
			CHECK_EQ_STR(g.fk.log[g.fk.n - 1], "nr_kdamonds=0");
			CHECK(access(recpath, F_OK) != 0);
		} else {
			CHECK_EQ_INT(log_n(), 1);
			answer();
			CHECK_EQ_INT(damon_ctl_request_wait(&c, NULL), 1);
			CHECK_EQ_INT(log_find(0, "nr_kdamonds=0"), -1);
			CHECK(access(recpath, F_OK) == 0);
		}
		CHECK_EQ_INT(g.gave_up, 0);
		if (check_failed_in_test)
			log_print();
	}
}

int main(void)
{
	if (fake_setup("test_damon_async") != 0) {
		printf("FAIL damon_async: the temporary tree\n");
		return 1;
	}
	pthread_mutex_init(&g.mu, NULL);
	pthread_cond_init(&g.cv, NULL);
	RUN_TEST(start_poll_answer);
	RUN_TEST(busy_in_flight);
	RUN_TEST(commit_in_flight);
	RUN_TEST(stop_in_flight);
	RUN_TEST(stop_off_refused);
	RUN_TEST(stop_nr_refused);
	RUN_TEST(stop_answered_meanwhile);
	RUN_TEST(signal_in_flight);
	fake_teardown();
	return CHECK_DONE();
}
