/* safefile.h - files the program itself writes and reads back (the
 * measurement cache) in a directory a user controls ($XDG_CACHE_HOME),
 * possibly while running as root: never through a symbolic link, never
 * in a directory someone else could have prepared.
 *
 * The directory is walked from "/" one component at a time with
 * O_NOFOLLOW. Each directory on the way must be owned by root or the
 * effective user, and not writable by others unless sticky (like ssh's
 * StrictModes). A symbolic link on the way is followed only when it is
 * owned by root or the effective user (a link in a trusted directory).
 * Files are created under a fresh O_EXCL|O_NOFOLLOW name and renamed
 * over the final one; reads take only regular files up to a size. */
#ifndef NUMATOP_SAFEFILE_H
#define NUMATOP_SAFEFILE_H

#include <stddef.h>

#include "buf.h"

/* Open the directory DIR (absolute), creating missing parts (mode 0700)
 * when create is set. An fd or -errno: -EPERM for an untrusted
 * directory (why says which and why), -ENOTDIR, -ELOOP ... */
int safefile_open_dir(const char *dir, int create, char *why, size_t whysz);

/* The directory fd (reached as path) is one only root or the effective
 * user can change: owned by one of them and writable by neither its
 * group nor others (sticky or not), as a directory the program fills
 * with what others must not read (--capture DIR). 0, or -EPERM with why. */
int safefile_check_private(int fd, const char *path, char *why, size_t whysz);

/* Write len bytes as NAME in the directory fd (atomic: a reader sees
 * the old file or the new one). 0 or -errno. */
int safefile_write(int dirfd, const char *name, const char *data, size_t len);
/* The same, created with this mode (0600 for a file only root may read;
 * safefile_write is 0644). */
int safefile_write_mode(int dirfd, const char *name, const char *data, size_t len,
			unsigned mode);
/* All of len bytes to fd (again after EINTR and short writes): 0 or
 * -errno. The one write loop of the recorder, the capture and the above. */
int safefile_write_all(int fd, const void *data, size_t len);

/* Read NAME in the directory fd into b (NUL-terminated): 0, -errno,
 * -ELOOP for a symbolic link, -EMEDIUMTYPE for anything but a regular
 * file (a FIFO never blocks), -EFBIG above max bytes. */
int safefile_read(int dirfd, const char *name, struct buf *b, size_t max);

/* The same by absolute path: the directory walked (made when saving),
 * then the file written or read. 0 or -errno; why says what was refused
 * (a directory of the walk; for a load also "is a symbolic link: not
 * followed", "is not a regular file (a FIFO)", "is larger than N bytes"). */
int safefile_save_path(const char *path, const char *data, size_t len, char *why, size_t whysz);
int safefile_load_path(const char *path, struct buf *b, size_t max, char *why, size_t whysz);

/* Split an absolute PATH into its directory and last part: dir gets
 * everything before the last '/'. 0 or -ENAMETOOLONG / -EINVAL. */
int safefile_split(const char *path, char *dir, size_t dirsz, const char **name);

#endif
