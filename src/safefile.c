/* safefile.c - the measurement cache's directory walk, writes and reads
 * (see safefile.h for the rules). */
#include "safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int trusted_owner(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/* fstat of fd, refused (-EPERM, the reason in why) unless root or this
 * user owns it. */
static int stat_owned(int fd, const char *path, struct stat *st, char *why, size_t whysz)
{
	if (fstat(fd, st) != 0)
		return -errno;
	if (!trusted_owner(st->st_uid)) {
		snprintf(why, whysz, "%s is owned by uid %u, not by root or uid %u",
			 path, (unsigned)st->st_uid, (unsigned)geteuid());
		return -EPERM;
	}
	return 0;
}

/* fd is a directory reached as path: 0, or -EPERM with the reason. */
static int check_dir(int fd, const char *path, char *why, size_t whysz)
{
	struct stat st;
	int rc = stat_owned(fd, path, &st, why, whysz);
	if (rc)
		return rc;
	if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
		snprintf(why, whysz, "%s is writable by every user", path);
		return -EPERM;
	}
	return 0;
}

int safefile_check_private(int fd, const char *path, char *why, size_t whysz)
{
	struct stat st;
	int rc = stat_owned(fd, path, &st, why, whysz);
	if (rc)
		return rc;
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, whysz, "%s is writable by %s (mode %04o)", path,
			 st.st_mode & S_IWOTH ? "every user" : "its group", (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/* Open component name below dirfd (itself trusted). */
static int open_step(int dirfd, const char *name, int create)
{
	/* O_PATH: a directory the user may only pass through (0711) works. */
	int flags = O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	int fd = openat(dirfd, name, flags);
	if (fd >= 0)
		return fd;
	int e = errno;
	if (e == ENOENT && create) {
		if (mkdirat(dirfd, name, 0700) != 0 && errno != EEXIST)
			return -errno;
		fd = openat(dirfd, name, flags);
		return fd >= 0 ? fd : -errno;
	}
	if (e != ELOOP && e != ENOTDIR)
		return -e;
	/* A symbolic link: followed only when root or we made it. */
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -errno;
	if (!S_ISLNK(st.st_mode))
		return -e;
	if (!trusted_owner(st.st_uid))
		return -ELOOP;
	fd = openat(dirfd, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fd >= 0 ? fd : -errno;
}

int safefile_open_dir(const char *dir, int create, char *why, size_t whysz)
{
	if (why && whysz)
		why[0] = '\0';
	char scratch[256];
	if (!why || !whysz) {
		why = scratch;
		whysz = sizeof(scratch);
	}
	if (!dir || dir[0] != '/')
		return -EINVAL;
	size_t len = strlen(dir);
	char *path = malloc(len + 1);
	if (!path)
		return -ENOMEM;
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int rc = fd < 0 ? -errno : check_dir(fd, "/", why, whysz);
	size_t at = 0;
	while (rc == 0) {
		while (dir[at] == '/')
			at++;
		if (!dir[at])
			break;
		size_t end = at;
		while (dir[end] && dir[end] != '/')
			end++;
		char name[256];
		if (end - at >= sizeof(name)) {
			rc = -ENAMETOOLONG;
			break;
		}
		memcpy(name, dir + at, end - at);
		name[end - at] = '\0';
		memcpy(path, dir, end);
		path[end] = '\0';
		int next = strcmp(name, "..") == 0 ? -EINVAL : open_step(fd, name, create);
		if (next == -ELOOP)
			snprintf(why, whysz, "%s is a symbolic link owned by another user", path);
		close(fd);
		fd = next;
		if (fd < 0) {
			rc = fd;
			break;
		}
		rc = check_dir(fd, path, why, whysz);
		at = end;
	}
	free(path);
	if (rc) {
		if (fd >= 0)
			close(fd);
		return rc;
	}
	return fd;
}

int safefile_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, p + off, len - off);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0)
			off += (size_t)n;
	}
	return 0;
}

int safefile_write(int dirfd, const char *name, const char *data, size_t len)
{
	return safefile_write_mode(dirfd, name, data, len, 0644);
}

int safefile_write_mode(int dirfd, const char *name, const char *data, size_t len,
			unsigned mode)
{
	char tmp[300];
	int fd = -1;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	unsigned seed = (unsigned)ts.tv_nsec ^ ((unsigned)getpid() << 16);
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		seed = seed * 1103515245u + 12345u;
		snprintf(tmp, sizeof(tmp), ".%.200s.%08x", name, seed);
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    (mode_t)mode);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	if (fd < 0)
		return -EEXIST;
	int rc = safefile_write_all(fd, data, len);
	if (rc == 0 && fsync(fd) != 0)
		rc = -errno;
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	/* rename replaces whatever NAME is (a planted symlink too) without
	 * following it. */
	if (rc == 0 && renameat(dirfd, tmp, dirfd, name) != 0)
		rc = -errno;
	if (rc)
		unlinkat(dirfd, tmp, 0);
	return rc;
}

int safefile_read(int dirfd, const char *name, struct buf *b, size_t max)
{
	buf_clear(b);
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return errno == ENXIO ? -EMEDIUMTYPE : -errno;
	struct stat st;
	int rc = 0;
	if (fstat(fd, &st) != 0)
		rc = -errno;
	else if (!S_ISREG(st.st_mode))
		rc = -EMEDIUMTYPE;
	else if ((size_t)st.st_size > max)
		rc = -EFBIG;
	while (rc == 0) {
		if ((rc = buf_reserve(b, 4096)) != 0)
			break;
		ssize_t n = read(fd, b->data + b->len, b->cap - b->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			rc = -errno;
		else if (n == 0)
			break;
		else if ((b->len += (size_t)n) > max)
			rc = -EFBIG;
	}
	close(fd);
	if (rc)
		buf_clear(b);
	else if (b->data)
		b->data[b->len] = '\0';
	return rc;
}

int safefile_split(const char *path, char *dir, size_t dirsz, const char **name)
{
	const char *slash = strrchr(path, '/');
	if (!slash || !slash[1])
		return -EINVAL;
	size_t n = (size_t)(slash - path);
	if (n + 1 > dirsz)
		return -ENAMETOOLONG;
	memcpy(dir, path, n);
	dir[n] = '\0';
	if (n == 0)
		strcpy(dir, "/");
	*name = slash + 1;
	return 0;
}

static int at_path(const char *path, int create, char *why, size_t whysz, const char **name)
{
	char dir[1024];
	int rc = safefile_split(path, dir, sizeof(dir), name);
	return rc ? rc : safefile_open_dir(dir, create, why, whysz);
}

int safefile_save_path(const char *path, const char *data, size_t len, char *why, size_t whysz)
{
	const char *name;
	int dfd = at_path(path, 1, why, whysz, &name);
	if (dfd < 0)
		return dfd;
	int rc = safefile_write(dfd, name, data, len);
	close(dfd);
	return rc;
}

/* What safefile_read refused, in words. */
static void say_refused(int dfd, const char *name, int rc, size_t max, char *why, size_t whysz)
{
	struct stat st;
	const char *kind = fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ? NULL :
			   S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" :
			   S_ISSOCK(st.st_mode) ? "a socket" :
			   S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : NULL;
	if (rc == -ELOOP)
		snprintf(why, whysz, "is a symbolic link: not followed");
	else if (rc == -EMEDIUMTYPE || rc == -EISDIR)
		snprintf(why, whysz, "is not a regular file%s%s%s", kind ? " (" : "", kind ? kind : "",
			 kind ? ")" : "");
	else if (rc == -EFBIG)
		snprintf(why, whysz, "is larger than %zu bytes", max);
}

int safefile_load_path(const char *path, struct buf *b, size_t max, char *why, size_t whysz)
{
	const char *name;
	int dfd = at_path(path, 0, why, whysz, &name);
	if (dfd < 0)
		return dfd;
	int rc = safefile_read(dfd, name, b, max);
	if (rc && why && whysz)
		say_refused(dfd, name, rc, max, why, whysz);
	close(dfd);
	return rc;
}
