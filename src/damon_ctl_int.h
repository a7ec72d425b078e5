/* damon_ctl_int.h - shared inside damon_ctl: the control (damon_ctl.c)
 * over the request in flight (damon_ctl_req.c), the record
 * (damon_ctl_rec.c) and the message (damon_ctl_msg.c), each below the
 * one before. */
#ifndef NUMATOP_DAMON_CTL_INT_H
#define NUMATOP_DAMON_CTL_INT_H

#include <time.h>

#include "damon_ctl.h"

/* The pause before a write that met EBUSY (DAMON's sysfs lock, taken by
 * the kdamond at the end of a window) is tried again; nanosleep only, so
 * the signal path may use it too. */
#define DAMON_CTL_BUSY_PAUSE_NS 20000000L
static inline void damon_ctl_busy_pause(void)
{
	struct timespec ts = { 0, DAMON_CTL_BUSY_PAUSE_NS };
	nanosleep(&ts, NULL);
}

/* c->msg from a format; returns rc (damon_ctl_msg.c). */
__attribute__((format(printf, 3, 4)))
int damon_ctl_say(struct damon_ctl *c, int rc, const char *fmt, ...);

/* A request in flight at a stop: "off" to our kdamond until the kernel
 * takes it or the request has its answer anyway, then the worker joined.
 * Nothing when none is in flight. */
void damon_ctl_request_end(struct damon_ctl *c);

/* The worker started on val ("commit": commit true), to the kdamond the
 * caller proved ours and on. 0 or -errno, as damon_ctl_request_start. */
int damon_ctl_request_send(struct damon_ctl *c, const char *val, bool commit);
/* A commit's answer (rc: the write's): the record names the new pids
 * alone. Called where the worker is joined (damon_ctl_rec.c). */
void damon_ctl_commit_done(struct damon_ctl *c, int rc);

/* The record file (damon_ctl_rec.c). claim: made with c->rec's text and
 * locked, or a gone run's taken over and locked (its text in *old when
 * it could be read, *had_old): 0, -EBUSY another run holds it, -errno.
 * save: c->rec written in place (and made again if it was deleted).
 * check: 0 the path names our file, 1 made again after it was deleted,
 * -EEXIST another file there (left alone), -errno. drop: unlinked when
 * the path still names our file, and the lock let go. release: a claim
 * given up before our text was written: a gone run's record taken over
 * is only unlocked (never deleted: not ours), one we made is dropped. */
int damon_ctl_rec_claim(struct damon_ctl *c, struct damon_record *old, bool *had_old);
int damon_ctl_rec_save(struct damon_ctl *c);
int damon_ctl_rec_check(struct damon_ctl *c);
void damon_ctl_rec_drop(struct damon_ctl *c);
void damon_ctl_rec_release(struct damon_ctl *c);

#endif
