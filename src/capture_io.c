/* capture_io.c - a capture's reads and writes (capture_int.h): a file
 * read through the rooted layer, written below the destination with its
 * directories, each part opened without following a link. Below the
 * parts that copy /sys, the processes and DAMON (capture.c,
 * capture_proc.c, capture_damon.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture_int.h"
#include "fsroot.h"
#include "safefile.h"

/* The directory dir (kernel spelling, "/proc/1") below the destination,
 * made as needed, each part opened without following a link. */
int capture_dir_fd(struct cap *c, const char *dir)
{
	while (*dir == '/')
		dir++;
	if (!*dir)
		return c->root;
	if (c->dfd >= 0 && strcmp(dir, c->dpath) == 0)
		return c->dfd;
	if (c->dfd >= 0)
		close(c->dfd);
	c->dfd = -1;
	char tmp[sizeof(c->dpath)], *save = NULL;
	if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	int fd = dup(c->root);
	for (char *part = strtok_r(tmp, "/", &save); part && fd >= 0; part = strtok_r(NULL, "/", &save)) {
		int nfd = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0 && errno == ENOENT && mkdirat(fd, part, 0700) == 0)
			nfd = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = errno;
		close(fd);
		if ((fd = nfd) < 0)
			return -e;
	}
	if (fd < 0)
		return -errno;
	snprintf(c->dpath, sizeof(c->dpath), "%s", dir);
	return c->dfd = fd;
}

/* The directory fd of an absolute path, and its last part in *name. */
int capture_parent_fd(struct cap *c, const char *path, const char **name)
{
	char dir[sizeof(c->dpath)];
	*name = strrchr(path, '/') + 1;
	snprintf(dir, sizeof(dir), "%.*s", (int)(*name - path - 1), path);
	return capture_dir_fd(c, dir);
}

int capture_put(struct cap *c, const char *path, const char *data, size_t len)
{
	const char *name;
	int dfd = capture_parent_fd(c, path, &name);
	if (dfd < 0)
		return dfd;
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	int rc = safefile_write_all(fd, data, len);
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0) {
		c->st->files++;
		c->st->bytes += len;
	}
	return rc;
}

int capture_get(struct cap *c, const char *path, size_t max)
{
	int rc = fsroot_read_file(c->r, path, &c->b, max);
	if (rc == -ENOENT || rc == -ESRCH || rc == -ENOTDIR)
		return 0;
	if (rc && c->st->unreadable++ == 0) {
		snprintf(c->st->first_unreadable, sizeof(c->st->first_unreadable), "%s", path);
		c->st->unreadable_errno = -rc;
	}
	return rc ? rc : 1;
}

int capture_copy(struct cap *c, const char *path)
{
	return capture_get(c, path, CAPTURE_MAX_SMALL) == 1 ?
		capture_put(c, path, c->b.data ? c->b.data : "", c->b.len) : 0;
}

/* Copy dir/name for each name; dir is made even when none is there. */
