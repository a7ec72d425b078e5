/* capture_int.h - what capture.c (the destination, the /sys and cgroup
 * files), capture_damon.c (DAMON's kdamonds) and capture_proc.c
 * (processes and users) share; their reads and writes are capture_io.c's,
 * below all three. */
#ifndef NUMATOP_CAPTURE_INT_H
#define NUMATOP_CAPTURE_INT_H

#include <stdint.h>

#include "buf.h"
#include "capture.h"

struct staged { char path[80]; size_t off, len; };

struct cap {
	const struct fsroot *r;
	const struct capture_opts *o;
	int root;                /* the destination */
	int dfd;                 /* the last directory written to, or -1 */
	char dpath[4096];
	struct buf b, stage;
	struct staged *sv;       /* one process's files, in stage */
	size_t sn, scap;
	int64_t *uids;
	size_t nuids, uidcap;
	struct capture_stats *st;
};

#define CAPTURE_MAX_SMALL ((size_t)16 << 20)   /* every file but numa_maps */

/* The directory dir (kernel spelling, "/proc/1") below the destination,
 * made as needed: its descriptor (kept in c), or -errno. */
int capture_dir_fd(struct cap *c, const char *dir);
/* The directory of path below the destination, made as needed, and its
 * last part in *name: a descriptor, or -errno. */
int capture_parent_fd(struct cap *c, const char *path, const char **name);
/* Read path into c->b: 1 read, 0 not there, -errno unreadable (noted). */
int capture_get(struct cap *c, const char *path, size_t max);
/* Write len bytes as path (kernel spelling) below the destination, mode
 * 0600, its directories made 0700: 0 or -errno. */
int capture_put(struct cap *c, const char *path, const char *data, size_t len);
/* Copy one file when it is there: 0, or -errno of the write. */
int capture_copy(struct cap *c, const char *path);

/* DAMON's kdamonds, as damon.c reads them (capture_damon.c): 0 or -errno
 * of a write. */
int capture_copy_damon(struct cap *c);

/* The processes (capture_opts), then etc/passwd for their uids. */
int capture_copy_procs(struct cap *c);
int capture_copy_users(struct cap *c);

#endif
