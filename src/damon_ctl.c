/* damon_ctl.c - start, change, ask and stop our kdamond (see damon_ctl.h).
 * Every write to DAMON goes through c->ops.write, and only to a kdamond
 * damon_classify() said is ours. */
#include "damon_ctl_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safefile.h"

/* The real write: one write(2) of the value, as sysfs wants it. */
static int live_write(void *ctx, const char *path, const char *val)
{
	(void)ctx;
	int fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t len = strlen(val);
	ssize_t n = write(fd, val, len);
	int rc = n < 0 ? -errno : (size_t)n != len ? -EIO : 0;
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

/* A recorded tree is never written. */
static int readonly_write(void *ctx, const char *path, const char *val)
{
	(void)ctx;
	(void)path;
	(void)val;
	return -EROFS;
}

int damon_ctl_init(struct damon_ctl *c, const struct fsroot *r, const char *record_path)
{
	memset(c, 0, sizeof(*c));
	atomic_init(&c->req_state, DAMON_REQ_NONE);
	c->r = r;
	c->index = -1;
	c->rec_fd = -1;
	c->ops.write = fsroot_is_live(r) ? live_write : readonly_write;
	if ((size_t)snprintf(c->record_path, sizeof(c->record_path), "%s",
			     record_path ? record_path : DAMON_RECORD_PATH) >= sizeof(c->record_path))
		return -ENAMETOOLONG;
	c->self.pid = (int)getpid();
	return damon_owner_starttime(r, c->self.pid, &c->self.starttime);
}

const char *damon_ctl_message(const struct damon_ctl *c)
{
	return c->msg;
}

/* Write a value to kdamonds/<K>/<rest> (K < 0: kdamonds/<rest>). */
static int wr(struct damon_ctl *c, int k, const char *rest, const char *val)
{
	char path[512];
	if (k < 0)
		snprintf(path, sizeof(path), DAMON_KDAMONDS "/%s", rest);
	else
		snprintf(path, sizeof(path), DAMON_KDAMONDS "/%d/%s", k, rest);
	int rc = c->ops.write(c->ops.ctx, path, val);
	if (rc)
		damon_ctl_say(c, rc, "DAMON: writing %s to %s: %s", val, path, strerror(-rc));
	return rc;
}

static int wr_num(struct damon_ctl *c, int k, const char *rest, uint64_t v)
{
	char val[32];
	snprintf(val, sizeof(val), "%llu", (unsigned long long)v);
	return wr(c, k, rest, val);
}

static int save_record(struct damon_ctl *c)
{
	return damon_ctl_rec_save(c);
}

static void remove_record(struct damon_ctl *c)
{
	damon_ctl_rec_drop(c);
}

/* Read and classify; st freed by the caller. While we hold our record,
 * what we hold is the record (a file deleted or changed by someone does
 * not make our kdamond anyone else's); otherwise the file's. */
static int look(struct damon_ctl *c, struct damon_status *st)
{
	int rc = damon_read(c->r, st);
	if (rc)
		return damon_ctl_say(c, rc, "DAMON: %s", strerror(-rc));
	struct damon_record rec;
	int have;
	if (c->rec_fd >= 0) {
		rec = c->rec;
		have = 1;
	} else {
		have = damon_record_load(c->record_path, &rec) == 0;
	}
	damon_classify(c->r, st, have ? &rec : NULL, &c->self);
	if (st->ours >= 0 && st->kd[st->ours].owner == DAMON_OWNER_SELF)
		c->rec = rec;
	return 0;
}

/* The refusal for a state that is not free, stale or ours. */
static int refuse(struct damon_ctl *c, const struct damon_status *st)
{
	switch (st->avail) {
	case DAMON_UNAVAILABLE:
		return damon_ctl_say(c, -ENOENT, "kernel without DAMON (CONFIG_DAMON_SYSFS)");
	case DAMON_NOT_PERMITTED:
		return damon_ctl_say(c, st->err ? st->err : -EACCES, "DAMON needs root");
	case DAMON_ERROR:
		return damon_ctl_say(c, st->err ? st->err : -EIO,
				     "DAMON's files could not be read: %s",
				     strerror(st->err ? -st->err : EIO));
	default:
		return damon_ctl_say(c, -EBUSY,
				     "DAMON is in use by someone else (%lld kdamond%s): not used",
				     (long long)st->nr_kdamonds, st->nr_kdamonds == 1 ? "" : "s");
	}
}

/* A stop that meets EBUSY tries again this many times (1 s of pauses). */
#define STOP_TRIES 50

/* Stop (and, when it is the only kdamond, remove) kdamond k, known ours. */
static int stop_remove(struct damon_ctl *c, const struct damon_status *st, int k)
{
	int rc = 0;
	if (st->kd[k].state != DAMON_KD_OFF)
		rc = wr(c, k, "state", "off");
	if (rc)
		return rc;
	/* Again just before: nr_kdamonds rebuilds every kdamond's directory. */
	char v[32];
	int64_t n = -1;
	if (fsroot_read_small(c->r, DAMON_KDAMONDS "/nr_kdamonds", v, sizeof(v)) >= 0)
		damon_parse_i64(v, strlen(v), &n);
	if (n == 1 && k == 0)
		rc = wr(c, -1, "nr_kdamonds", "0");
	return rc;
}

/* Everything after nr_kdamonds 1, on kdamond 0. */
static int setup(struct damon_ctl *c)
{
	const struct damon_settings *s = &c->rec.set;
	int rc = wr(c, 0, "contexts/nr_contexts", "1");
	if (rc)
		return rc;
	char ops[128];
	int n = fsroot_read_small(c->r, DAMON_KDAMONDS "/0/contexts/0/avail_operations", ops,
				  sizeof(ops));
	/* Absent on kernels before 5.19's file: try, and let the write say. */
	if (n >= 0) {
		int found = 0;
		char *save = NULL;
		for (char *t = strtok_r(ops, " \n", &save); t; t = strtok_r(NULL, " \n", &save))
			found |= strcmp(t, "vaddr") == 0;
		if (!found)
			return damon_ctl_say(c, -EOPNOTSUPP,
					     "kernel without DAMON for processes (CONFIG_DAMON_VADDR)");
	}
	static const char *const attr_files[5] = {
		"intervals/sample_us", "intervals/aggr_us", "intervals/update_us",
		"nr_regions/min", "nr_regions/max",
	};
	const int64_t attr[5] = { s->sample_us, s->aggr_us, s->update_us,
				  s->min_regions, s->max_regions };
	if ((rc = wr(c, 0, "contexts/0/operations", s->operations)))
		return rc;
	for (int i = 0; i < 5; i++) {
		char f[96];
		snprintf(f, sizeof(f), "contexts/0/monitoring_attrs/%s", attr_files[i]);
		if ((rc = wr_num(c, 0, f, (uint64_t)attr[i])))
			return rc;
	}
	if ((rc = wr_num(c, 0, "contexts/0/targets/nr_targets", s->npids)))
		return rc;
	for (size_t i = 0; i < s->npids; i++) {
		char f[96];
		snprintf(f, sizeof(f), "contexts/0/targets/%zu/pid_target", i);
		if ((rc = wr_num(c, 0, f, (uint64_t)s->pids[i])))
			return rc;
	}
	static const char *const pat[6] = {
		"sz/min", "sz/max", "nr_accesses/min", "nr_accesses/max", "age/min", "age/max",
	};
	const uint64_t patv[6] = { 0, DAMON_ANY_SZ, 0, DAMON_ANY_U32, 0, DAMON_ANY_U32 };
	if ((rc = wr(c, 0, "contexts/0/schemes/nr_schemes", "1")) ||
	    (rc = wr(c, 0, "contexts/0/schemes/0/action", "stat")))
		return rc;
	for (int i = 0; i < 6; i++) {
		char f[96];
		snprintf(f, sizeof(f), "contexts/0/schemes/0/access_pattern/%s", pat[i]);
		if ((rc = wr_num(c, 0, f, patv[i])))
			return rc;
	}
	return wr(c, 0, "state", "on");
}

/* Made when not in a handler: what damon_ctl_stop_signal compares. */
static void arm_signal(struct damon_ctl *c)
{
	c->sig_armed = 0;
	if (c->index < 0 || c->rec.kdamond_pid <= 0)
		return;
	snprintf(c->sig_state, sizeof(c->sig_state), DAMON_KDAMONDS "/%d/state", c->index);
	snprintf(c->sig_pid, sizeof(c->sig_pid), DAMON_KDAMONDS "/%d/pid", c->index);
	snprintf(c->sig_pidval, sizeof(c->sig_pidval), "%lld", (long long)c->rec.kdamond_pid);
	c->sig_armed = 1;
}

/* The kernel refuses commands and nr_kdamonds while ours is pending. */
static int busy(struct damon_ctl *c)
{
	return damon_ctl_say(c, -EBUSY, "DAMON: not changed while a request (%s) is in flight",
			     c->req_commit ? "commit" : "the regions");
}

int damon_ctl_start(struct damon_ctl *c, const int *pids, size_t n)
{
	c->msg[0] = '\0';
	if (n == 0 || n > DAMON_MAX_TARGETS)
		return damon_ctl_say(c, -EINVAL, "DAMON: 1 to %d processes, not %zu",
				     DAMON_MAX_TARGETS, n);
	if (damon_ctl_request_pending(c))
		return busy(c);
	struct damon_status st;
	int rc = look(c, &st);
	if (rc)
		return rc;
	if (st.avail == DAMON_OURS) {
		c->index = st.ours;
		damon_status_free(&st);
		return damon_ctl_set_targets(c, pids, n);
	}
	if (st.avail != DAMON_FREE && st.avail != DAMON_STALE) {
		rc = refuse(c, &st);
		damon_status_free(&st);
		return rc;
	}
	damon_status_free(&st);

	/* Our record, made and locked first: another run starting now finds
	 * it held and writes nothing. A gone run's record is taken over
	 * under its lock, and DAMON read again with it. */
	memset(&c->rec, 0, sizeof(c->rec));
	c->rec.owner = c->self;
	c->rec.kdamond = 0;
	c->rec.kdamond_pid = -1;
	damon_settings_default(&c->rec.set, pids, n);
	if (c->sample_us > 0)
		c->rec.set.sample_us = c->sample_us;
	if (c->aggr_us > 0)
		c->rec.set.aggr_us = c->aggr_us;
	struct damon_record mine = c->rec, old;
	bool had_old = false;
	if ((rc = damon_ctl_rec_claim(c, &old, &had_old)) != 0)
		return rc;
	if ((rc = damon_read(c->r, &st)) != 0) {
		c->rec = mine;
		damon_ctl_rec_release(c);
		return damon_ctl_say(c, rc, "DAMON: %s", strerror(-rc));
	}
	damon_classify(c->r, &st, had_old ? &old : NULL, &c->self);
	if (st.avail == DAMON_STALE) {
		/* Left by a run that is gone: ours for certain, the only one. */
		rc = stop_remove(c, &st, st.ours);
		damon_status_free(&st);
		if (rc || (rc = damon_read(c->r, &st)) != 0) {
			c->rec = mine;
			damon_ctl_rec_release(c);
			return rc;
		}
		damon_classify(c->r, &st, NULL, &c->self);
	}
	c->rec = mine;
	if (st.avail != DAMON_FREE) {
		rc = refuse(c, &st);
		damon_status_free(&st);
		damon_ctl_rec_release(c);
		return rc;
	}
	damon_status_free(&st);
	if ((rc = save_record(c))) {
		damon_ctl_rec_release(c);
		return rc;
	}
	if ((rc = wr(c, -1, "nr_kdamonds", "1"))) {
		remove_record(c);
		return rc == -EBUSY ?
		       damon_ctl_say(c, rc, "DAMON is in use by someone else: not used") : rc;
	}
	c->index = 0;
	if ((rc = setup(c)) != 0) {
		char keep[sizeof(c->msg)];
		memcpy(keep, c->msg, sizeof(keep));
		/* Ours, just made, never on (setup's last step is "on"), and
		 * the only one: undo. */
		wr(c, -1, "nr_kdamonds", "0");
		remove_record(c);
		c->index = -1;
		memcpy(c->msg, keep, sizeof(c->msg));
		return rc;
	}
	char v[32];
	int64_t pid = -1;
	if (fsroot_read_small(c->r, DAMON_KDAMONDS "/0/pid", v, sizeof(v)) >= 0 &&
	    damon_parse_i64(v, strlen(v), &pid) == 0 && pid > 0)
		c->rec.kdamond_pid = pid;
	rc = save_record(c);
	arm_signal(c);
	return rc;
}

/* Ours no more: nothing of it is written again, and our record goes. */
static int lost(struct damon_ctl *c, const char *why)
{
	c->index = -1;
	c->sig_armed = 0;
	remove_record(c);
	return damon_ctl_say(c, -ESRCH, "DAMON: our kdamond %s: not written", why);
}

/* st read now: is the kdamond at c->index ours? 1 yes, 0 no, -EBUSY its
 * files could not all be read. */
static int still_ours(const struct damon_ctl *c, const struct damon_status *st)
{
	if (c->index < 0)
		return 0;
	if (st->ours == c->index && st->kd[c->index].owner == DAMON_OWNER_SELF)
		return 1;
	if (c->index < (int)st->nkd && !st->kd[c->index].complete)
		return -EBUSY;
	return 0;
}

int damon_ctl_prove(struct damon_ctl *c, enum damon_kd_state *state)
{
	*state = DAMON_KD_UNKNOWN;
	if (c->index < 0)
		return damon_ctl_say(c, -ESRCH, "DAMON: no kdamond of ours");
	struct damon_status st;
	int rc = look(c, &st);
	if (rc)
		return rc == -EBUSY ? rc : lost(c, "could not be read");
	int ours = still_ours(c, &st);
	if (ours > 0)
		*state = st.kd[c->index].state;
	int64_t nr = st.nr_kdamonds;
	damon_status_free(&st);
	if (ours == -EBUSY)
		return damon_ctl_say(c, -EBUSY, "DAMON: its files are busy: not proved ours now");
	if (!ours)
		return lost(c, nr <= c->index ? "was removed by someone else" :
			    "was replaced by someone else's");
	/* The record deleted while we run: made again. */
	damon_ctl_rec_check(c);
	return 0;
}

/* A request sent to our kdamond, never to one that is not ours any more
 * (someone may have turned ours off, removed it and made theirs in its
 * place): proved first, and on. */
static int send_proved(struct damon_ctl *c, const char *val, bool commit)
{
	if (damon_ctl_request_pending(c))
		return damon_ctl_say(c, -EBUSY, "DAMON: a request (%s) is in flight",
				     c->req_commit ? "commit" : "the regions");
	enum damon_kd_state state;
	int rc = damon_ctl_prove(c, &state);
	if (rc)
		return rc;
	if (state != DAMON_KD_ON)
		return damon_ctl_say(c, -ESHUTDOWN, "DAMON stopped our kdamond");
	return damon_ctl_request_send(c, val, commit);
}

int damon_ctl_set_targets(struct damon_ctl *c, const int *pids, size_t n)
{
	c->msg[0] = '\0';
	if (n == 0 || n > DAMON_MAX_TARGETS)
		return damon_ctl_say(c, -EINVAL, "DAMON: 1 to %d processes, not %zu",
				     DAMON_MAX_TARGETS, n);
	if (damon_ctl_request_pending(c))
		return busy(c);
	struct damon_status st;
	int rc = look(c, &st);
	if (rc)
		return rc;
	if (c->index < 0 && st.avail == DAMON_OURS)
		c->index = st.ours;    /* damon_ctl_start found it */
	int ours = still_ours(c, &st);
	enum damon_kd_state state = ours > 0 ? st.kd[c->index].state : DAMON_KD_UNKNOWN;
	damon_status_free(&st);
	if (ours == -EBUSY)
		return damon_ctl_say(c, -EBUSY, "DAMON: its files are busy: not proved ours now");
	if (!ours)
		return lost(c, "is gone");
	int k = c->index;
	c->rec.kdamond = k;
	/* The record names both sets while the files change. */
	c->rec.have_next = true;
	c->rec.nnext = n;
	memcpy(c->rec.next_pids, pids, n * sizeof(*pids));
	if ((rc = save_record(c)))
		return rc;
	rc = wr_num(c, k, "contexts/0/targets/nr_targets", n);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		char f[96];
		snprintf(f, sizeof(f), "contexts/0/targets/%zu/pid_target", i);
		rc = wr_num(c, k, f, (uint64_t)pids[i]);
	}
	if (rc)
		return rc;
	if (state == DAMON_KD_OFF) {
		/* Stopped by DAMON (a commit it refused, or every target
		 * gone): started again on the new targets, a new thread. */
		damon_ctl_commit_done(c, 0);
		if ((rc = wr(c, k, "state", "on")) != 0)
			return rc;
		char v[32], path[96];
		int64_t pid = -1;
		snprintf(path, sizeof(path), DAMON_KDAMONDS "/%d/pid", k);
		if (fsroot_read_small(c->r, path, v, sizeof(v)) >= 0 &&
		    damon_parse_i64(v, strlen(v), &pid) == 0 && pid > 0)
			c->rec.kdamond_pid = pid;
		if ((rc = save_record(c)))
			return rc;
		arm_signal(c);
		return 1;
	}
	/* Held by the kernel until the next window ends: the worker's. */
	return send_proved(c, "commit", true);
}

int damon_ctl_request_start(struct damon_ctl *c)
{
	return send_proved(c, "update_schemes_tried_regions", false);
}

int damon_ctl_request_regions(struct damon_ctl *c)
{
	int rc = damon_ctl_request_start(c);
	if (rc == 0)
		rc = damon_ctl_request_wait(c, NULL);
	return rc < 0 ? rc : 0;
}


int damon_ctl_read_regions(struct damon_ctl *c, struct damon_scheme *s)
{
	if (c->index < 0)
		return damon_ctl_say(c, -ESRCH, "DAMON: no kdamond of ours");
	int rc = damon_read_regions(c->r, c->index, 0, 0, s);
	return rc ? damon_ctl_say(c, rc, "DAMON: tried regions: %s", fsroot_strerror(rc)) : 0;
}

int damon_ctl_stop(struct damon_ctl *c)
{
	c->sig_armed = 0;
	/* First: while it is in flight, our kdamond's files answer EBUSY
	 * (look would not know it) and nr_kdamonds is refused. */
	damon_ctl_request_end(c);
	if (c->index < 0)
		return 0;
	int rc;
	for (int i = 0;; i++) {
		struct damon_status st;
		if ((rc = look(c, &st)) != 0)
			break;
		bool mine = st.ours >= 0 && st.kd[st.ours].owner == DAMON_OWNER_SELF;
		if (mine && (rc = stop_remove(c, &st, st.ours)) == 0)
			remove_record(c);
		/* DAMON's sysfs lock, taken by the kdamond at the end of each
		 * window, makes a write (or our kdamond's pid) say EBUSY for a
		 * moment: tried again rather than left running. Not ours any
		 * more (gone, or rebuilt by someone), every file read: nothing
		 * written. */
		bool again = mine ? rc == -EBUSY :
			     c->index < (int)st.nkd && !st.kd[c->index].complete;
		damon_status_free(&st);
		if (!again || i >= STOP_TRIES)
			break;
		damon_ctl_busy_pause();
	}
	c->index = -1;
	/* Not ours any more, or left running after every try: our record
	 * goes either way (it names nothing of ours, or the next start's
	 * stale check finds the kdamond by its settings no more). */
	if (rc == 0)
		remove_record(c);
	return rc;
}

/* Does the rooted file path hold exactly want (blanks aside)? Only
 * openat, read, close. */
static int holds(const struct fsroot *r, const char *path, const char *want)
{
	char v[32];
	if (fsroot_read_small(r, path, v, sizeof(v)) < 0)
		return 0;
	return strcmp(v, want) == 0;
}

/* Does it hold something else (read, and not want)? */
static int holds_other(const struct fsroot *r, const char *path, const char *want)
{
	char v[32];
	if (fsroot_read_small(r, path, v, sizeof(v)) < 0)
		return 0;
	return strcmp(v, want) != 0;
}

/* The record, only when its path still names the file we made (stat and
 * unlink: async-signal-safe). */
static void unlink_ours(const struct damon_ctl *c)
{
	struct stat sb;
	if (c->rec_fd >= 0 && stat(c->record_path, &sb) == 0 && sb.st_dev == c->rec_dev &&
	    sb.st_ino == c->rec_ino)
		unlink(c->record_path);
}

void damon_ctl_stop_signal(struct damon_ctl *c)
{
	if (!c || !c->sig_armed)
		return;
	c->sig_armed = 0;
	int saved = errno;
	if (atomic_load(&c->req_state) == DAMON_REQ_WAITING) {
		/* Our command is pending: the kdamond is ours and running,
		 * its pid file may say EBUSY, and so may "off" while it
		 * collects the regions: tried again (for a second at most).
		 * Once off, the worker's write returns within the kernel's
		 * 100 ms, and until then nr_kdamonds is refused: tried again
		 * as well. What is left is the next start's. */
		int rc = -EBUSY;
		if (!holds_other(c->r, c->sig_pid, c->sig_pidval))
			for (int i = 0; rc == -EBUSY && i < STOP_TRIES; i++)
				if ((rc = c->ops.write(c->ops.ctx, c->sig_state, "off")) == -EBUSY)
					damon_ctl_busy_pause();
		for (int i = 0; rc == 0 && c->index == 0 && i < STOP_TRIES; i++) {
			if (!holds(c->r, DAMON_KDAMONDS "/nr_kdamonds", "1"))
				break;
			int w = c->ops.write(c->ops.ctx, DAMON_KDAMONDS "/nr_kdamonds", "0");
			if (w == 0)
				unlink_ours(c);
			if (w != -EBUSY)
				break;
			damon_ctl_busy_pause();
		}
		c->index = -1;
		errno = saved;
		return;
	}
	/* Still the thread we started: ours, running; nobody can have
	 * changed nr_kdamonds while it ran (the kernel says EBUSY). */
	if (holds(c->r, c->sig_pid, c->sig_pidval) &&
	    c->ops.write(c->ops.ctx, c->sig_state, "off") == 0) {
		if (c->index == 0 && holds(c->r, DAMON_KDAMONDS "/nr_kdamonds", "1") &&
		    c->ops.write(c->ops.ctx, DAMON_KDAMONDS "/nr_kdamonds", "0") == 0)
			unlink_ours(c);
	}
	c->index = -1;
	errno = saved;
}
