/* damon_ctl_req.c - the request for the regions in flight (damon_ctl.h):
 * one worker thread at a time makes the write the kernel holds until
 * its answer; the caller looks at it without waiting, or waits. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "damon_ctl_int.h"
#include "monotime.h"

/* The worker: the one write, its result and how long it took. */
static void *req_main(void *arg)
{
	struct damon_ctl *c = arg;
	int rc = c->ops.write(c->ops.ctx, c->req_path, c->req_val);
	c->req_rc = rc;
	c->req_ms = (monotime_now() - c->req_t0) * 1000.0;
	atomic_store_explicit(&c->req_state, DAMON_REQ_DONE, memory_order_release);
	return NULL;
}

int damon_ctl_request_send(struct damon_ctl *c, const char *val, bool commit)
{
	if (damon_ctl_request_pending(c))
		return damon_ctl_say(c, -EBUSY, "DAMON: a request (%s) is in flight",
				     c->req_commit ? "commit" : "the regions");
	if (c->index < 0)
		return damon_ctl_say(c, -ESRCH, "DAMON: no kdamond of ours");
	snprintf(c->req_path, sizeof(c->req_path), DAMON_KDAMONDS "/%d/state", c->index);
	c->req_val = val;
	c->req_commit = commit;
	c->req_rc = 0;
	c->req_ms = -1;
	c->req_t0 = monotime_now();
	atomic_store(&c->req_state, DAMON_REQ_WAITING);
	/* Every signal blocked in the worker: a stop signal reaches the
	 * caller's thread, whose sleep it ends. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&c->req_thread, NULL, req_main, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		atomic_store(&c->req_state, DAMON_REQ_NONE);
		return damon_ctl_say(c, -rc, "DAMON: no thread for the request for the regions: %s",
				     strerror(rc));
	}
	return 0;
}

/* Join the worker, whose write has returned or is about to. */
static int req_join(struct damon_ctl *c, double *ms)
{
	pthread_join(c->req_thread, NULL);
	atomic_store(&c->req_state, DAMON_REQ_NONE);
	if (ms)
		*ms = c->req_ms;
	if (c->req_commit)
		damon_ctl_commit_done(c, c->req_rc);
	if (c->req_rc)
		return damon_ctl_say(c, c->req_rc, "DAMON: writing %s to %s: %s", c->req_val,
				     c->req_path, strerror(-c->req_rc));
	return 1;
}

int damon_ctl_request_poll(struct damon_ctl *c, double *ms)
{
	int st = atomic_load_explicit(&c->req_state, memory_order_acquire);
	if (st == DAMON_REQ_NONE)
		return -ECHILD;
	return st == DAMON_REQ_DONE ? req_join(c, ms) : 0;
}

int damon_ctl_request_wait(struct damon_ctl *c, double *ms)
{
	if (!damon_ctl_request_pending(c))
		return -ECHILD;
	return req_join(c, ms);
}

bool damon_ctl_request_pending(const struct damon_ctl *c)
{
	return atomic_load(&c->req_state) != DAMON_REQ_NONE;
}

bool damon_ctl_request_was_commit(const struct damon_ctl *c)
{
	return c->req_commit;
}

/* How many refused "off"s at most (10 s of pauses): the kernel
 * answers the request within about one aggregation interval, and then
 * the join below needs no "off"; the bound only ends the writes to a
 * kernel that keeps refusing (the join then waits for the answer). */
#define REQ_OFF_TRIES 500

void damon_ctl_request_end(struct damon_ctl *c)
{
	if (!damon_ctl_request_pending(c))
		return;
	/* Our command is pending in the kernel: the kdamond at c->index is
	 * ours and running (nr_kdamonds is refused meanwhile, so nobody can
	 * have made another in its place). "off" stops it, and the waiting
	 * write then returns within the kernel's 100 ms. */
	char pidpath[128], want[24], v[32];
	snprintf(pidpath, sizeof(pidpath), DAMON_KDAMONDS "/%d/pid", c->index);
	snprintf(want, sizeof(want), "%lld", (long long)c->rec.kdamond_pid);
	for (int i = 0; c->index >= 0 && i < REQ_OFF_TRIES; i++) {
		if (atomic_load_explicit(&c->req_state, memory_order_acquire) == DAMON_REQ_DONE)
			break;
		/* The pid file (when it can be read: EBUSY while the kernel
		 * holds our command) must show the thread we started. */
		if (fsroot_read_small(c->r, pidpath, v, sizeof(v)) >= 0 && strcmp(v, want) != 0)
			break;
		int rc = c->ops.write(c->ops.ctx, c->req_path, "off");
		if (rc != -EBUSY)
			break;
		damon_ctl_busy_pause();
	}
	/* Before nr_kdamonds: refused while the command is pending. */
	req_join(c, NULL);
}
