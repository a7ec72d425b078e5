/* record_guard.c - what keeps the recorder from harming files: the lock
 * that lets one recorder at a time write a recording (or a directory of
 * daily files), and the check that a daily file is a recording of this
 * user before --keep-days removes it. */
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "buf.h"
#include "record_int.h"

/* The pid holding a flock() write lock on the file st describes, from
 * /proc/locks ("1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"), or -1.
 * The device must match when it can (some filesystems show another one
 * there than stat does): an inode alone counts only when it is unique. */
static long lock_holder(const struct stat *st)
{
	FILE *f = fopen("/proc/locks", "re");
	if (!f)
		return -1;
	char ln[256];
	long exact = -1, by_ino = -1;
	int n_ino = 0;
	while (fgets(ln, sizeof(ln), f)) {
		char kind[16], mode[16];
		long pid;
		unsigned maj, min;
		unsigned long ino;
		if (sscanf(ln, "%*d: %15s %*s %15s %ld %x:%x:%lu", kind, mode, &pid, &maj, &min,
			   &ino) != 6 || strcmp(kind, "FLOCK") != 0 || strcmp(mode, "WRITE") != 0 ||
		    pid <= 0 || ino != (unsigned long)st->st_ino)
			continue;
		if (maj == major(st->st_dev) && min == minor(st->st_dev))
			exact = pid;
		if (by_ino != pid)
			n_ino++;
		by_ino = pid;
	}
	fclose(f);
	return exact > 0 ? exact : n_ino == 1 ? by_ino : -1;
}

int rec_lock(int fd, const char *what, bool dir, char *err, size_t errsz)
{
	int rc;
	while ((rc = flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR)
		;
	if (rc == 0)
		return 0;
	rc = -errno;
	/* A filesystem without locks: nothing to coordinate with. */
	if (rc == -ENOLCK || rc == -EOPNOTSUPP || rc == -EINVAL)
		return 0;
	if (rc != -EWOULDBLOCK) {
		snprintf(err, errsz, "%s: locking it: %s", what, strerror(-rc));
		return rc;
	}
	struct stat st;
	long pid = fstat(fd, &st) == 0 ? lock_holder(&st) : -1;
	char comm[64] = "", by[128];
	if (pid > 0) {
		char p[64];
		snprintf(p, sizeof(p), "/proc/%ld/comm", pid);
		FILE *f = fopen(p, "re");
		if (f) {
			if (fgets(comm, sizeof(comm), f))
				comm[strcspn(comm, "\n")] = '\0';
			fclose(f);
		}
	}
	if (pid > 0 && strcmp(comm, "numatop-tui") == 0)
		snprintf(by, sizeof(by), "another numatop-tui (pid %ld)", pid);
	else if (pid > 0)
		snprintf(by, sizeof(by), "another process (pid %ld%s%.20s)", pid, comm[0] ? ", " : "",
			 comm);
	else
		snprintf(by, sizeof(by), "another numatop-tui");
	snprintf(err, errsz, "%s is being recorded %sby %s: not writing to it", what,
		 dir ? "into " : "", by);
	return -EBUSY;
}

/* The file on fd starts with a recording's header line: the zstd frame's
 * first bytes decoded (a few hundred, not the file). */
static bool is_recording(int fd, off_t size)
{
	struct rec_frame f = { .off = 0, .end = size };
	struct buf text = { 0 };
	int rc = rec_decode_head(fd, &f, &text, 1, 256);
	bool yes = (rc == 0 || rc == -EPIPE) && text.len &&
		   rec_header_version(text.data, strcspn(text.data, "\n")) >= 0;
	buf_free(&text);
	return yes;
}

bool rec_prunable(int dirfd, const char *name)
{
	struct stat st, fst;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_nlink != 1)
		return false;
	if (st.st_size == 0)
		return true;      /* what a recorder killed at its start leaves */
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool yes = fstat(fd, &fst) == 0 && fst.st_dev == st.st_dev && fst.st_ino == st.st_ino &&
		   S_ISREG(fst.st_mode) && fst.st_nlink == 1 && is_recording(fd, fst.st_size);
	close(fd);
	/* Still the file checked (not one put in its place since). */
	return yes && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       st.st_dev == fst.st_dev && st.st_ino == fst.st_ino;
}
