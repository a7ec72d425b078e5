/* damon_ctl_rec.c - our record file (damon.h: what names our kdamond),
 * held for as long as we may hold a kdamond.
 *
 * The record is made exclusively and locked before it can be seen: it is
 * written under a temporary name, locked (flock LOCK_EX) and only then
 * linked to its final name, which fails when a record is there already.
 * That one's lock then decides: held, another run is starting or running
 * and DAMON is left to it (nothing written, nothing deleted); free, its
 * owner is gone, and the record is taken over under its lock and written
 * in place. A run never deletes a record it did not write: it unlinks
 * the path only while it still names the file we hold. A record deleted
 * while we run is made again from what we hold in memory. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "damon_ctl_int.h"
#include "safefile.h"

/* The record's directory (made when missing) and its file name. */
static int rec_dir(struct damon_ctl *c, const char **name, char *why, size_t whysz)
{
	char dir[512];
	int rc = safefile_split(c->record_path, dir, sizeof(dir), name);
	return rc ? rc : safefile_open_dir(dir, 1, why, whysz);
}

/* All of len bytes at offset 0 of fd, then cut there. 0 or -errno. */
static int write_in_place(int fd, const char *data, size_t len)
{
	size_t off = 0;
	while (off < len) {
		ssize_t n = pwrite(fd, data + off, len - off, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		off += (size_t)n;
	}
	return ftruncate(fd, (off_t)len) == 0 ? 0 : -errno;
}

/* A new record file, locked and complete before it is linked as name:
 * its fd, -EEXIST when a record is there, or -errno. */
static int publish_new(int dfd, const char *name, const char *data, size_t len)
{
	char tmp[300];
	snprintf(tmp, sizeof(tmp), ".%s.%d.new", name, (int)getpid());
	unlinkat(dfd, tmp, 0);       /* ours, left by a failure of this PID */
	int fd = openat(dfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	int rc = fchmod(fd, 0600) == 0 ? 0 : -errno;
	if (rc == 0 && flock(fd, LOCK_EX | LOCK_NB) != 0)
		rc = -errno;
	if (rc == 0)
		rc = write_in_place(fd, data, len);
	if (rc == 0 && linkat(dfd, tmp, dfd, name, 0) != 0)
		rc = -errno;
	unlinkat(dfd, tmp, 0);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

/* Hold fd (locked, linked as the record) as ours. */
static void adopt(struct damon_ctl *c, int fd)
{
	struct stat sb;
	if (fstat(fd, &sb) == 0) {
		c->rec_dev = sb.st_dev;
		c->rec_ino = sb.st_ino;
	}
	if (c->rec_fd >= 0)
		close(c->rec_fd);
	c->rec_fd = fd;
	c->rec_foreign = false;
}

/* Does name in dfd name the file we hold? */
static bool names_ours(const struct damon_ctl *c, int dfd, const char *name)
{
	struct stat sb;
	return c->rec_fd >= 0 && fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
	       sb.st_dev == c->rec_dev && sb.st_ino == c->rec_ino;
}

/* The record already there: locked by us when its owner is gone (fd),
 * -EBUSY when another run holds it, -EAGAIN when it went meanwhile. */
static int take_existing(struct damon_ctl *c, int dfd, const char *name,
			 struct damon_record *old, bool *had_old)
{
	int fd = openat(dfd, name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -EAGAIN : -errno;
	struct stat sb;
	int rc = fstat(fd, &sb) == 0 ? 0 : -errno;
	if (rc == 0 && (!S_ISREG(sb.st_mode) || sb.st_uid != geteuid() || (sb.st_mode & 077)))
		rc = damon_ctl_say(c, -EBUSY, "DAMON: %s is not a record of ours (not a file of "
				   "this user's, or readable by others): left alone, DAMON not used",
				   c->record_path);
	else if (rc == 0 && flock(fd, LOCK_EX | LOCK_NB) != 0)
		rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
	if (rc) {
		close(fd);
		return rc;
	}
	struct stat now;
	if (fstatat(dfd, name, &now, AT_SYMLINK_NOFOLLOW) != 0 || now.st_dev != sb.st_dev ||
	    now.st_ino != sb.st_ino) {
		close(fd);            /* replaced between the open and the lock */
		return -EAGAIN;
	}
	char buf[DAMON_RECORD_MAX];
	ssize_t n = pread(fd, buf, sizeof(buf), 0);
	*had_old = n > 0 && damon_record_parse(buf, (size_t)n, old) == 0;
	adopt(c, fd);
	c->rec_foreign = true;
	return 0;
}

int damon_ctl_rec_claim(struct damon_ctl *c, struct damon_record *old, bool *had_old)
{
	*had_old = false;
	c->msg[0] = '\0';
	if (c->rec_fd >= 0)
		return 0;
	struct buf b = { 0 };
	int rc = damon_record_format(&c->rec, &b);
	const char *name = NULL;
	char why[256] = "";
	int dfd = rc ? rc : rec_dir(c, &name, why, sizeof(why));
	if (dfd < 0) {
		buf_free(&b);
		return damon_ctl_say(c, dfd, "DAMON: cannot write %s: %s", c->record_path,
				     why[0] ? why : strerror(-dfd));
	}
	rc = -EAGAIN;
	for (int tries = 0; rc == -EAGAIN && tries < 5; tries++) {
		int fd = publish_new(dfd, name, b.data, b.len);
		if (fd >= 0) {
			adopt(c, fd);
			rc = 0;
		} else if (fd == -EEXIST) {
			rc = take_existing(c, dfd, name, old, had_old);
		} else {
			rc = damon_ctl_say(c, fd, "DAMON: cannot write %s: %s", c->record_path,
					   strerror(-fd));
		}
	}
	close(dfd);
	buf_free(&b);
	if (rc == -EBUSY && c->msg[0])
		return rc;
	if (rc == -EBUSY)
		return damon_ctl_say(c, rc, "DAMON is in use by another run of numatop-tui "
				     "(it holds %s): not used", c->record_path);
	if (rc == -EAGAIN)
		return damon_ctl_say(c, -EBUSY, "DAMON: %s keeps changing: not used", c->record_path);
	return rc;
}

int damon_ctl_rec_check(struct damon_ctl *c)
{
	if (c->rec_fd < 0)
		return 0;
	const char *name;
	int dfd = rec_dir(c, &name, NULL, 0);
	if (dfd < 0)
		return dfd;
	int rc = 0;
	struct stat sb;
	if (names_ours(c, dfd, name)) {
		rc = 0;
	} else if (fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0) {
		rc = -EEXIST;         /* someone else's file there: left alone */
	} else {
		/* Deleted while we run: made again from what we hold. */
		struct buf b = { 0 };
		rc = damon_record_format(&c->rec, &b);
		int fd = rc ? rc : publish_new(dfd, name, b.data, b.len);
		buf_free(&b);
		if (fd >= 0) {
			adopt(c, fd);
			rc = 1;
		} else {
			rc = fd;
		}
	}
	close(dfd);
	return rc;
}

int damon_ctl_rec_save(struct damon_ctl *c)
{
	if (c->rec_fd < 0)
		return damon_ctl_say(c, -EBADF, "DAMON: our record %s is not held", c->record_path);
	struct buf b = { 0 };
	int rc = damon_record_format(&c->rec, &b);
	if (rc == 0)
		rc = write_in_place(c->rec_fd, b.data, b.len);
	buf_free(&b);
	if (rc == 0)
		c->rec_foreign = false;
	if (rc)
		return damon_ctl_say(c, rc, "DAMON: cannot write %s: %s", c->record_path,
				     strerror(-rc));
	damon_ctl_rec_check(c);
	return 0;
}

void damon_ctl_rec_drop(struct damon_ctl *c)
{
	if (c->rec_fd < 0)
		return;
	const char *name;
	int dfd = rec_dir(c, &name, NULL, 0);
	if (dfd >= 0) {
		if (names_ours(c, dfd, name))
			unlinkat(dfd, name, 0);
		close(dfd);
	}
	close(c->rec_fd);
	c->rec_fd = -1;
}

void damon_ctl_rec_release(struct damon_ctl *c)
{
	if (c->rec_fd >= 0 && c->rec_foreign) {
		close(c->rec_fd);
		c->rec_fd = -1;
		c->rec_foreign = false;
		return;
	}
	damon_ctl_rec_drop(c);
}

void damon_ctl_commit_done(struct damon_ctl *c, int rc)
{
	if (rc || !c->rec.have_next)
		return;        /* the record keeps naming both sets */
	memcpy(c->rec.set.pids, c->rec.next_pids, c->rec.nnext * sizeof(*c->rec.next_pids));
	c->rec.set.npids = c->rec.nnext;
	c->rec.have_next = false;
	c->rec.nnext = 0;
	damon_ctl_rec_save(c);
}
