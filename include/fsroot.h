/* fsroot.h - the one rooted I/O layer.
 *
 * Every read of a kernel path (/sys/..., /proc/...) goes through here. The
 * root directory is opened once; paths keep their absolute kernel spelling and
 * the leading '/' is stripped before an openat()-style call relative to the
 * root. Nothing else in the program knows where the root is.
 */
#ifndef NUMATOP_FSROOT_H
#define NUMATOP_FSROOT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

struct fsroot;

/* Open DIR as the root ("/" for the live machine). 0 or -errno
 * (-ENOENT, -ENOTDIR, -EACCES ...). */
int fsroot_open(const char *dir, struct fsroot **out);
void fsroot_close(struct fsroot *r);

/* True when the root is the real "/" (live mode: actions and libproc2 allowed). */
bool fsroot_is_live(const struct fsroot *r);
const char *fsroot_path(const struct fsroot *r);

/* Only regular files are read (opened non-blocking): a FIFO, device or
 * socket is -FSROOT_ENOTREG. fsroot_strerror() says it in words
 * ("not a regular file"); other values as strerror(). */
#define FSROOT_ENOTREG EMEDIUMTYPE
const char *fsroot_strerror(int err);

/* Read a whole file into b (replacing its contents, NUL-terminated).
 * 0 or -errno: -ENOENT, -EACCES, -ESRCH (process gone), -EISDIR, -EFBIG
 * when the file exceeds max_bytes (0 = 64 MiB default). */
int fsroot_read_file(const struct fsroot *r, const char *path, struct buf *b,
		     size_t max_bytes);

/* Read a file in chunks (memory flat in its size): after each read(),
 * fn(ctx, data, len, &used) gets all bytes not yet used and says how many
 * it took (whole lines, say); the rest stays for the next call. On return
 * b holds what was never used (a cut last line) and *total the bytes read.
 * 0, -errno of open/read, -EFBIG for a line over FSROOT_MAX_LINE, or fn's
 * non-zero return. */
#define FSROOT_MAX_LINE (1u << 20)   /* fsroot_read_chunks: -EFBIG past it */
/* No file is read past this many bytes (-EFBIG): numa_maps of a process
 * with 65530 mappings (vm.max_map_count) is about 10 MB. */
#define FSROOT_MAX_FILE ((size_t)64 << 20)
/* The same on a descriptor the caller opened (a file of the live /proc:
 * regular by construction); fd is closed. */
int fsroot_read_fd_chunks(int fd, struct buf *b,
			  int (*fn)(void *ctx, const char *data, size_t len, size_t *used),
			  void *ctx, size_t *total);
int fsroot_read_chunks(const struct fsroot *r, const char *path, struct buf *b,
		       int (*fn)(void *ctx, const char *data, size_t len, size_t *used),
		       void *ctx, size_t *total);

/* Read a small file into a caller's array (NUL-terminated, trailing
 * whitespace and NUL bytes stripped). Returns the length or -errno. */
int fsroot_read_small(const struct fsroot *r, const char *path, char *out,
		      size_t outsz);

/* Open a kernel file (O_RDONLY|O_CLOEXEC plus flags) for repeated
 * positioned reads, e.g. /proc/PID/pagemap. An fd or -errno. */
int fsroot_open_fd(const struct fsroot *r, const char *path, int flags);
/* 0 if the path exists (without following a final symlink), else -errno. */
int fsroot_exists(const struct fsroot *r, const char *path);

/* Entries of a directory that are real directories, regular files, or
 * (only by name: never followed) symbolic links. */
enum fsroot_kind { FSROOT_DIRS, FSROOT_FILES, FSROOT_LINKS };

/* List the numeric suffixes of entries named PREFIX<decimal> in a directory,
 * sorted ascending, of the given kind. prefix may be "" (for /proc PIDs).
 * *ids is malloc'ed (free it); *n its length. 0 or -errno. */
int fsroot_list_ids(const struct fsroot *r, const char *dir,
		    const char *prefix, enum fsroot_kind kind,
		    int **ids, size_t *n);

/* List entry names that start with prefix, of the given kind, sorted.
 * *names is a malloc'ed array of malloc'ed strings; free with
 * fsroot_free_names. 0 or -errno. */
int fsroot_list_names(const struct fsroot *r, const char *dir,
		      const char *prefix, enum fsroot_kind kind,
		      char ***names, size_t *n);
void fsroot_free_names(char **names, size_t n);

#endif
