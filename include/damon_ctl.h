/* damon_ctl.h - our kdamond's life: made only when DAMON is free, its
 * targets changed while it runs, its tried regions asked for, and it is
 * stopped and removed on every exit path. The rules of what is ours are in
 * damon.h; every write goes through damon_ctl_ops, so tests write to a
 * fake tree and never to the kernel's.
 *
 * Start (DAMON free: nr_kdamonds == 0, nothing else):
 *   the record (owner, settings, kdamond -1 pid) is made first, so a
 *   run killed during the setup leaves something the next start can
 *   recognise. It is made exclusively and locked for as long as we hold
 *   the kdamond (damon_ctl_rec.c): of two runs starting at once, the
 *   second finds the first's record locked and writes nothing; a record
 *   whose lock is free is a gone run's, taken over; a record deleted
 *   while we run is made again; only the file we made is ever unlinked.
 *   Then kdamonds/nr_kdamonds 1, 0/contexts/nr_contexts 1,
 *   (avail_operations must list vaddr), operations vaddr, the intervals,
 *   nr_regions min and max, targets/nr_targets N and each pid_target,
 *   schemes/nr_schemes 1, action stat and its access pattern (every
 *   region), state on; then the record again with the kdamond's pid.
 *   A step that fails undoes what was made (off, nr_kdamonds 0).
 * A stale kdamond of ours (its owner gone, its settings the record's) is
 * stopped and removed first; any other kdamond means -EBUSY and nothing
 * is written. There is no atomic "add a kdamond": between reading
 * nr_kdamonds 0 and writing 1 another tool could do the same; the kernel
 * offers nothing better.
 *
 * Asking for the regions ("update_schemes_tried_regions") is a write the
 * kernel holds until the kdamond has filled tried_regions at the end of
 * its next aggregation interval (6.12: damon_sysfs_handle_cmd looks every
 * 100 ms), up to a window and a tenth. So a worker thread makes it, one
 * at a time (damon_ctl_request_start), and a later refresh takes the
 * answer (damon_ctl_request_poll): the refresh never waits. While it is
 * in flight the kernel refuses other commands and nr_kdamonds (EBUSY),
 * and 6.12 holds DAMON's sysfs lock from the moment the kdamond takes the
 * request to its answer, so that writing state and reading pid answer
 * EBUSY as well. So the targets are not changed meanwhile
 * (damon_ctl_set_targets says -EBUSY without writing), and damon_ctl_stop
 * writes "off" (again while refused), joins the worker, then removes the
 * kdamond. A change of targets ends in a command the kernel holds the
 * same way ("commit", taken at the end of the next window): the worker
 * makes that one too, and it is answered like a request for the regions
 * (damon_ctl_request_was_commit tells them apart).
 *
 * Every later write to our kdamond is preceded by proof that it is still
 * ours (damon_ctl_prove: DAMON's files read again and matched with the
 * record we hold, the thread we started among them): someone may turn it
 * off, remove it and make their own in its place, and theirs is never
 * written, asked or credited. A kdamond of ours that DAMON stopped (a
 * commit refused, every target gone) is started again by
 * damon_ctl_set_targets with the new targets.
 *
 * Steps return 0 or -errno with a plain message (damon_ctl_message):
 * -EBUSY "DAMON is in use by someone else", -EACCES/-EPERM "needs root",
 * -ENOENT "kernel without DAMON (CONFIG_DAMON_SYSFS)", -EOPNOTSUPP
 * "kernel without DAMON for processes (CONFIG_DAMON_VADDR)", -EROFS on a
 * recorded tree (--root): nothing is ever written there. */
#ifndef NUMATOP_DAMON_CTL_H
#define NUMATOP_DAMON_CTL_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "damon.h"
#include "fsroot.h"

/* The one kernel call: write val to the file path (its kernel spelling,
 * "/sys/kernel/mm/damon/admin/..."). 0 or -errno. Called from
 * damon_ctl_stop_signal too: the real one uses only open, write, close.
 * The request's worker calls it from its own thread while the caller's
 * may write "off" (a test's fake must allow that). */
struct damon_ctl_ops {
	int (*write)(void *ctx, const char *path, const char *val);
	void *ctx;
};

struct damon_ctl {
	const struct fsroot *r;     /* reads (the live / or a test's tree) */
	struct damon_ctl_ops ops;
	char record_path[256];
	struct damon_owner_id self;
	int index;                  /* our kdamond, -1 none */
	int64_t sample_us, aggr_us; /* the next start's intervals; 0: DAMON_*_US */
	struct damon_record rec;    /* what we wrote, valid when index >= 0 */
	/* The record file, held (flock LOCK_EX) from the start of a kdamond
	 * to its removal: -1 none. Its inode: only that file is unlinked. */
	int rec_fd;
	bool rec_foreign;           /* it still holds a gone run's text */
	dev_t rec_dev;
	ino_t rec_ino;
	char msg[256];
	/* For damon_ctl_stop_signal, made while not in a handler. */
	char sig_state[128], sig_pid[128], sig_pidval[24];
	volatile sig_atomic_t sig_armed;
	/* The request for the regions in flight: its worker (req_state not
	 * DAMON_REQ_NONE: one to join), the write's path, result and round
	 * trip (valid once req_state is DAMON_REQ_DONE). */
	_Atomic int req_state;
	pthread_t req_thread;
	char req_path[128];
	const char *req_val;        /* what the worker writes */
	bool req_commit;            /* ... "commit" (else the regions) */
	int req_rc;
	double req_t0, req_ms;
};

enum { DAMON_REQ_NONE, DAMON_REQ_WAITING, DAMON_REQ_DONE };

/* Set up: the real writes when r is the live "/", else every write is
 * -EROFS; self is this process (getpid and its start time under r).
 * Tests replace c->ops and c->self afterwards. 0 or -errno. */
int damon_ctl_init(struct damon_ctl *c, const struct fsroot *r, const char *record_path);

/* Start our kdamond on 1..DAMON_MAX_TARGETS pids (see above). 0 or -errno;
 * already ours and running: the same as damon_ctl_set_targets. */
int damon_ctl_start(struct damon_ctl *c, const int *pids, size_t n);
/* Change the running kdamond's targets: the targets' files written, then
 * "commit" sent by the worker without waiting (a request in flight, see
 * damon_ctl_request_poll; the record names both sets of pids until its
 * answer). Ours but stopped (DAMON ended it): the targets written and
 * "on" again, no commit, 1 returned. 0 or -errno; -ESRCH when it is no
 * longer ours (index -1 then, the record dropped); -EBUSY, nothing
 * written, while a request is in flight. */
int damon_ctl_set_targets(struct damon_ctl *c, const int *pids, size_t n);

/* Proof that the kdamond at c->index is still ours, read now: 0 and its
 * state in *state (DAMON_KD_OFF: DAMON stopped it); -ESRCH it is not
 * (gone, or someone else's in its place: index -1, the record dropped,
 * nothing written); -EBUSY its files could not all be read this moment
 * (DAMON's lock): not proved, try later. Every request is preceded by
 * it. */
int damon_ctl_prove(struct damon_ctl *c, enum damon_kd_state *state);

/* Ask for the regions without waiting: a worker thread (every signal
 * blocked in it) writes "update_schemes_tried_regions" through c->ops,
 * once damon_ctl_prove said the kdamond is ours and on. 0; -EBUSY when
 * one is in flight or the proof must wait; -ESRCH without a kdamond of
 * ours; -ESHUTDOWN ours but stopped by DAMON (damon_ctl_set_targets
 * starts it again); -errno when the thread cannot be made. */
int damon_ctl_request_start(struct damon_ctl *c);
/* The request's answer, never waiting: 0 still waiting; 1 answered (the
 * worker joined; *ms, when ms is not NULL, the time from the start to the
 * write's return, measured in the worker); -errno the write failed (also
 * joined); -ECHILD none in flight. */
int damon_ctl_request_poll(struct damon_ctl *c, double *ms);
/* The same, waiting for the answer (the worker joined): 1 or -errno. */
int damon_ctl_request_wait(struct damon_ctl *c, double *ms);
/* A request started and not yet taken by poll or wait. */
bool damon_ctl_request_pending(const struct damon_ctl *c);
/* The last request started was a commit (damon_ctl_set_targets), not a
 * request for the regions: its answer has no regions to read. */
bool damon_ctl_request_was_commit(const struct damon_ctl *c);
/* Start and wait: 0 or -errno. */
int damon_ctl_request_regions(struct damon_ctl *c);
/* Read the answer: our scheme's tried_regions. 0 or -errno. */
int damon_ctl_read_regions(struct damon_ctl *c, struct damon_scheme *s);
/* Stop ours ("off") and remove it (nr_kdamonds 0, only when it is the only
 * kdamond), then the record. Only a kdamond recognised as ours is
 * written. A request in flight: "off" first (it ends the kernel's wait;
 * retried while the kernel says EBUSY, until the request has its answer
 * anyway), the worker joined, then the rest. 0 (also when there was
 * none) or -errno. */
int damon_ctl_stop(struct damon_ctl *c);
/* The same from a signal handler or an exit path that cannot allocate:
 * async-signal-safe (only open, read, write, close, nanosleep and unlink
 * on strings made before, and an atomic load; errno kept). It writes only
 * while our kdamond's pid file still shows the thread we started;
 * otherwise it leaves everything, and the record, to the next start's
 * stale check. With a request in flight (the kernel holds our command, so
 * the kdamond is ours and running; its pid file may answer EBUSY), unless
 * the pid file shows another thread: "off", again while the kernel says
 * EBUSY, then nr_kdamonds 0, again while it is refused (until the
 * worker's write returns, which is not joined), each for a second at
 * most; what is left is the next start's. Used by the monitor's handler
 * of the signals whose default action ends it (ui_main.c). */
void damon_ctl_stop_signal(struct damon_ctl *c);
const char *damon_ctl_message(const struct damon_ctl *c);

#endif
