/* fsroot.c - rooted reads: open the root once, then openat() below it.
 *
 * For a recorded tree the kernel's openat2(RESOLVE_IN_ROOT) keeps absolute
 * symlinks and ".." inside the tree; where openat2 is missing, openat() is
 * used (the recorded trees only have relative links). */
#include "fsroot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

struct fsroot {
	int fd;
	bool live;
	char *path;
};

int fsroot_open(const char *dir, struct fsroot **out)
{
	*out = NULL;
	if (!dir || !*dir)
		return -EINVAL;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct fsroot *r = calloc(1, sizeof(*r));
	if (!r) {
		close(fd);
		return -ENOMEM;
	}
	r->fd = fd;
	r->path = strdup(dir);
	if (!r->path) {
		close(fd);
		free(r);
		return -ENOMEM;
	}
	struct stat a, b;
	r->live = fstat(fd, &a) == 0 && stat("/", &b) == 0 &&
		  a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	*out = r;
	return 0;
}

void fsroot_close(struct fsroot *r)
{
	if (!r)
		return;
	close(r->fd);
	free(r->path);
	free(r);
}

bool fsroot_is_live(const struct fsroot *r) { return r->live; }
const char *fsroot_path(const struct fsroot *r) { return r->path; }

static const char *rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

static int root_openat(const struct fsroot *r, const char *path, int flags)
{
	const char *p = rel(path);
	if (!r->live) {
#ifdef SYS_openat2
		struct open_how how = { .flags = (unsigned)flags | O_CLOEXEC,
					.resolve = RESOLVE_IN_ROOT |
						   RESOLVE_NO_MAGICLINKS };
		long fd = syscall(SYS_openat2, r->fd, p, &how, sizeof(how));
		if (fd >= 0)
			return (int)fd;
		if (errno != ENOSYS && errno != EPERM)
			return -errno;
#endif
	}
	int fd = openat(r->fd, p, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Open a file to read: never blocks (a FIFO or a device in a recorded
 * tree would wait for a writer forever or never end), and only regular
 * files are read -- /proc and /sys files are regular too. */
static int open_regular(const struct fsroot *r, const char *path, int flags)
{
	int fd = root_openat(r, path, O_RDONLY | O_NOCTTY | O_NONBLOCK | flags);
	if (fd < 0)
		return fd == -ENXIO ? -FSROOT_ENOTREG : fd;   /* a socket */
	struct stat st = { 0 };
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -FSROOT_ENOTREG;
	}
	return fd;
}

int fsroot_open_fd(const struct fsroot *r, const char *path, int flags)
{
	if (flags & O_DIRECTORY)
		return root_openat(r, path, O_RDONLY | O_NOCTTY | flags);
	return open_regular(r, path, flags);
}

const char *fsroot_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err == FSROOT_ENOTREG)
		return "not a regular file";
	if (err == EFBIG)
		return "file too large";
	return strerror(err);
}

/* The one read loop: read fd into b; after each read, fn (when given)
 * takes the bytes it can use and the rest stays. More than max_keep bytes
 * kept is -EFBIG. */
static int read_loop(int fd, struct buf *b, size_t max_keep,
		     int (*fn)(void *ctx, const char *data, size_t len, size_t *used),
		     void *ctx, size_t *total)
{
	int rc = 0;
	for (;;) {
		if (b->cap - b->len < 4096 + 1 && (rc = buf_reserve(b, b->cap ? b->cap : 65536)) != 0)
			break;
		ssize_t n = read(fd, b->data + b->len, b->cap - b->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		if (n == 0)
			break;
		*total += (size_t)n;
		b->len += (size_t)n;
		if (*total > FSROOT_MAX_FILE) {
			rc = -EFBIG;
			break;
		}
		if (fn) {
			size_t used = 0;
			if ((rc = fn(ctx, b->data, b->len, &used)) != 0)
				break;
			if (used > b->len)
				used = b->len;
			memmove(b->data, b->data + used, b->len - used);
			b->len -= used;
		}
		if (b->len > max_keep) {
			rc = -EFBIG;
			break;
		}
	}
	close(fd);
	return rc;
}

int fsroot_read_file(const struct fsroot *r, const char *path, struct buf *b,
		     size_t max_bytes)
{
	buf_clear(b);
	int fd = open_regular(r, path, 0);
	if (fd < 0)
		return fd;
	size_t total = 0;
	int rc = read_loop(fd, b, max_bytes ? max_bytes : 64u << 20, NULL, NULL, &total);
	if (b->data)
		b->data[b->len] = '\0';
	if (rc)
		buf_clear(b);
	return rc;
}

int fsroot_read_fd_chunks(int fd, struct buf *b,
			  int (*fn)(void *ctx, const char *data, size_t len, size_t *used),
			  void *ctx, size_t *total)
{
	*total = 0;
	buf_clear(b);
	/* No kernel line is FSROOT_MAX_LINE long: a broken file, not a
	 * reason to grow without end. */
	return read_loop(fd, b, FSROOT_MAX_LINE, fn, ctx, total);
}

int fsroot_read_chunks(const struct fsroot *r, const char *path, struct buf *b,
		       int (*fn)(void *ctx, const char *data, size_t len, size_t *used),
		       void *ctx, size_t *total)
{
	*total = 0;
	buf_clear(b);
	int fd = open_regular(r, path, 0);
	if (fd < 0)
		return fd;
	return fsroot_read_fd_chunks(fd, b, fn, ctx, total);
}

int fsroot_read_small(const struct fsroot *r, const char *path, char *out,
		      size_t outsz)
{
	if (outsz == 0)
		return -EINVAL;
	out[0] = '\0';
	int fd = open_regular(r, path, 0);
	if (fd < 0)
		return fd;
	size_t len = 0;
	int rc = 0;
	while (len < outsz - 1) {
		ssize_t n = read(fd, out + len, outsz - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (rc) {
		out[0] = '\0';
		return rc;
	}
	out[len] = '\0';
	/* Binary sysfs attributes end in "\n\0": strip NULs and blanks. */
	while (len > 0 && (out[len - 1] == '\0' || out[len - 1] == '\n' ||
			   out[len - 1] == ' ' || out[len - 1] == '\t' ||
			   out[len - 1] == '\r'))
		out[--len] = '\0';
	return (int)strlen(out);
}

int fsroot_exists(const struct fsroot *r, const char *path)
{
	int fd = root_openat(r, path, O_PATH | O_NOFOLLOW);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* Open a directory for listing and call fn for each real entry. */
static int walk_dir(const struct fsroot *r, const char *dir,
		    enum fsroot_kind kind,
		    int (*fn)(const char *name, void *ctx), void *ctx)
{
	int fd = root_openat(r, dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd;
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = -errno;
		close(fd);
		return e;
	}
	int rc = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		unsigned char t = de->d_type;
		if (t == DT_UNKNOWN) {
			struct stat st;
			if (fstatat(dirfd(d), de->d_name, &st,
				    AT_SYMLINK_NOFOLLOW) != 0)
				continue;
			t = S_ISDIR(st.st_mode) ? DT_DIR :
			    S_ISREG(st.st_mode) ? DT_REG :
			    S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
		}
		if ((kind == FSROOT_DIRS && t != DT_DIR) ||
		    (kind == FSROOT_FILES && t != DT_REG) ||
		    (kind == FSROOT_LINKS && t != DT_LNK))
			continue;
		if ((rc = fn(de->d_name, ctx)) != 0)
			break;
	}
	closedir(d);
	return rc;
}

struct ids_ctx {
	const char *prefix;
	size_t plen;
	int *ids;
	size_t n, cap;
};

static int collect_id(const char *name, void *vctx)
{
	struct ids_ctx *c = vctx;
	if (strncmp(name, c->prefix, c->plen) != 0)
		return 0;
	const char *s = name + c->plen;
	if (*s < '0' || *s > '9')
		return 0;
	long v = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return 0;
		v = v * 10 + (*s - '0');
		if (v > 0x7fffffffL)
			return 0;
	}
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		int *p = realloc(c->ids, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		c->ids = p;
		c->cap = cap;
	}
	c->ids[c->n++] = (int)v;
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int fsroot_list_ids(const struct fsroot *r, const char *dir,
		    const char *prefix, enum fsroot_kind kind,
		    int **ids, size_t *n)
{
	struct ids_ctx c = { .prefix = prefix, .plen = strlen(prefix) };
	*ids = NULL;
	*n = 0;
	int rc = walk_dir(r, dir, kind, collect_id, &c);
	if (rc) {
		free(c.ids);
		return rc;
	}
	if (c.n)
		qsort(c.ids, c.n, sizeof(int), cmp_int);
	*ids = c.ids;
	*n = c.n;
	return 0;
}

struct names_ctx {
	const char *prefix;
	size_t plen;
	char **names;
	size_t n, cap;
};

static int collect_name(const char *name, void *vctx)
{
	struct names_ctx *c = vctx;
	if (strncmp(name, c->prefix, c->plen) != 0)
		return 0;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		char **p = realloc(c->names, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		c->names = p;
		c->cap = cap;
	}
	if (!(c->names[c->n] = strdup(name)))
		return -ENOMEM;
	c->n++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int fsroot_list_names(const struct fsroot *r, const char *dir,
		      const char *prefix, enum fsroot_kind kind,
		      char ***names, size_t *n)
{
	struct names_ctx c = { .prefix = prefix, .plen = strlen(prefix) };
	*names = NULL;
	*n = 0;
	int rc = walk_dir(r, dir, kind, collect_name, &c);
	if (rc) {
		fsroot_free_names(c.names, c.n);
		return rc;
	}
	if (c.n)
		qsort(c.names, c.n, sizeof(char *), cmp_str);
	*names = c.names;
	*n = c.n;
	return 0;
}

void fsroot_free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
