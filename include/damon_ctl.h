/* damon_ctl.h - our kdamond's life: made only when DAMON is free, its
 * targets changed while it runs, its tried regions asked for, and it is
 * stopped and removed on every exit path. The rules of what is ours are in
 * damon.h; every write goes through damon_ctl_ops, so tests write to a
 * fake tree and never to the kernel's.
 *
 * Start (DAMON free: nr_kdamonds == 0, nothing else):
 *   the record (owner, settings, kdamond -1 pid) is written first, so a
 *   run killed during the setup leaves something the next start can
 *   recognise; then kdamonds/nr_kdamonds 1, 0/contexts/nr_contexts 1,
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
 * Steps return 0 or -errno with a plain message (damon_ctl_message):
 * -EBUSY "DAMON is in use by someone else", -EACCES/-EPERM "needs root",
 * -ENOENT "kernel without DAMON (CONFIG_DAMON_SYSFS)", -EOPNOTSUPP
 * "kernel without DAMON for processes (CONFIG_DAMON_VADDR)", -EROFS on a
 * recorded tree (--root): nothing is ever written there. */
#ifndef NUMATOP_DAMON_CTL_H
#define NUMATOP_DAMON_CTL_H

#include <signal.h>
#include <stddef.h>

#include "damon.h"
#include "fsroot.h"

/* The one kernel call: write val to the file path (its kernel spelling,
 * "/sys/kernel/mm/damon/admin/..."). 0 or -errno. Called from
 * damon_ctl_stop_signal too: the real one uses only open, write, close. */
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
	struct damon_record rec;    /* what we wrote, valid when index >= 0 */
	char msg[256];
	/* For damon_ctl_stop_signal, made while not in a handler. */
	char sig_state[128], sig_pid[128], sig_pidval[24];
	volatile sig_atomic_t sig_armed;
};

/* Set up: the real writes when r is the live "/", else every write is
 * -EROFS; self is this process (getpid and its start time under r).
 * Tests replace c->ops and c->self afterwards. 0 or -errno. */
int damon_ctl_init(struct damon_ctl *c, const struct fsroot *r, const char *record_path);

/* Start our kdamond on 1..DAMON_MAX_TARGETS pids (see above). 0 or -errno;
 * already ours and running: the same as damon_ctl_set_targets. */
int damon_ctl_start(struct damon_ctl *c, const int *pids, size_t n);
/* Change the running kdamond's targets ("commit"). 0 or -errno; -ESRCH
 * when it is no longer ours (index -1 then). */
int damon_ctl_set_targets(struct damon_ctl *c, const int *pids, size_t n);
/* Ask for the regions ("update_schemes_tried_regions": the kernel fills
 * tried_regions during the next aggregation interval), then read them. */
int damon_ctl_request_regions(struct damon_ctl *c);
int damon_ctl_read_regions(struct damon_ctl *c, struct damon_scheme *s);
/* Stop ours ("off") and remove it (nr_kdamonds 0, only when it is the only
 * kdamond), then the record. Only a kdamond recognised as ours is
 * written. 0 (also when there was none) or -errno. */
int damon_ctl_stop(struct damon_ctl *c);
/* The same from a signal handler or an exit path that cannot allocate:
 * async-signal-safe (only open, read, write, close and unlink on strings
 * made before; errno kept). It writes only while our kdamond's pid file
 * still shows the thread we started; otherwise it leaves everything, and
 * the record, to the next start's stale check. */
void damon_ctl_stop_signal(struct damon_ctl *c);
const char *damon_ctl_message(const struct damon_ctl *c);

#endif
