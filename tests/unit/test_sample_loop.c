/* test_sample_loop.c - the non-interactive modes' one sampling loop on the
 * recorded tree: as many samples as asked, each sorted before it is
 * handed over; an emit that ends it cleanly, one that fails (its error
 * and message come back), a stop set meanwhile; no sample after the end. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sample_loop.h"
#include "session.h"
#include "check.h"

struct seen {
	int calls, end_at, fail_at, stop_at;
	volatile sig_atomic_t *stop;
	bool sorted;
};

static int emit(void *ctx, const struct snapshot *s, double wall_s, double cpu_s, char *msg,
		size_t msgsz)
{
	struct seen *e = ctx;
	e->calls++;
	if (wall_s < 0 || cpu_s < 0 || s->nprocs == 0)
		e->sorted = false;
	/* Sorted by PID ascending, as the key asks. */
	for (size_t i = 1; i < s->nprocs; i++)
		if (snapshot_row(s, i - 1)->info.pid > snapshot_row(s, i)->info.pid)
			e->sorted = false;
	if (e->calls == e->stop_at)
		*e->stop = 1;
	if (e->calls == e->fail_at) {
		snprintf(msg, msgsz, "writing output: broken");
		return -EIO;
	}
	return e->calls == e->end_at ? 1 : 0;
}

static void run(struct session *se, long iterations, struct seen *e, int *rc, char *msg)
{
	static volatile sig_atomic_t stop;
	stop = 0;
	e->stop = &stop;
	e->sorted = true;
	struct sort_key key = { COL_PID, -1, false, NULL, false };
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	struct sample_loop l = { .smp = se->smp, .key = &key, .delay = 0, .iterations = iterations,
				 .stop = &stop, .emit = emit, .ctx = e };
	*rc = sample_loop_run(&l, &snap, msg, 256);
	snapshot_free(&snap);
}

static void loop(void)
{
	struct session se;
	char err[256], msg[256] = "";
	struct session_config c = { .root = "tests/trees/opteron4", .sampler = true };
	CHECK_EQ_INT(session_open(&se, &c, err, sizeof(err)), 0);
	int rc;
	struct seen e = { 0 };
	run(&se, 3, &e, &rc, msg);
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(e.calls, 3);
	CHECK(e.sorted);
	e = (struct seen){ .end_at = 2 };
	run(&se, 10, &e, &rc, msg);
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(e.calls, 2);
	e = (struct seen){ .fail_at = 2 };
	run(&se, 10, &e, &rc, msg);
	CHECK_EQ_INT(rc, -EIO);
	CHECK_EQ_INT(e.calls, 2);
	CHECK_EQ_STR(msg, "writing output: broken");
	e = (struct seen){ .stop_at = 4 };
	run(&se, 0, &e, &rc, msg);
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(e.calls, 4);
	session_close(&se);
}

int main(void)
{
	RUN_TEST(loop);
	return CHECK_DONE();
}
