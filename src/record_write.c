/* record_write.c - the recorder's file: frames of flushed samples, a
 * killed recorder's last frame closed when it restarts, daily files, one
 * recorder at a time (a lock on the file, and on a directory of daily
 * files, held for the whole run). */
#include "record.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "buf.h"
#include "record_int.h"
#include "safefile.h"

struct rec_writer {
	char *dir;                  /* daily files here, or NULL */
	int dirfd;                  /* dir, open (and locked), or -1 */
	char path[4096];            /* the file being written */
	int keep_days;
	char *header;
	rec_clock_fn clock;
	void *clock_ctx;
	long day;                   /* YYYYMMDD of the daily file, -1 */
	int fd;
	off_t good;                 /* file size after the last whole sample */
	ZSTD_CCtx *cc;
	bool in_frame;
	unsigned frame_samples;
	size_t frame_bytes;
	unsigned char *obuf;
	size_t ocap;
	uint64_t bytes, samples;
};

static time_t real_clock(void *ctx)
{
	(void)ctx;
	return time(NULL);
}

static long day_of(time_t t)
{
	struct tm tm;
	localtime_r(&t, &tm);
	return (long)(tm.tm_year + 1900) * 10000 + (tm.tm_mon + 1) * 100 + tm.tm_mday;
}

void rec_daily_name(const char *dir, time_t when, char *out, size_t n)
{
	size_t l = strlen(dir);
	snprintf(out, n, "%s%s" REC_DAILY_PREFIX "%08ld" REC_DAILY_SUFFIX, dir,
		 l && dir[l - 1] == '/' ? "" : "/", day_of(when));
}

int rec_prune(const char *dir, time_t now, int keep_days)
{
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	/* The oldest date kept: keep_days days back from today. */
	long oldest = day_of(now - (time_t)keep_days * 86400);
	int removed = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		const char *nm = e->d_name;
		size_t pl = strlen(REC_DAILY_PREFIX), sl = strlen(REC_DAILY_SUFFIX);
		if (strlen(nm) != pl + 8 + sl || strncmp(nm, REC_DAILY_PREFIX, pl) != 0 ||
		    strcmp(nm + pl + 8, REC_DAILY_SUFFIX) != 0)
			continue;
		long date = 0;
		bool digits = true;
		for (size_t i = 0; i < 8; i++) {
			char c = nm[pl + i];
			digits &= c >= '0' && c <= '9';
			date = date * 10 + (c - '0');
		}
		if (!digits || date >= oldest)
			continue;
		/* Only this user's recordings: never what merely has the name
		 * (another file, a link, a FIFO, someone else's). */
		if (rec_prunable(dirfd(d), nm) && unlinkat(dirfd(d), nm, 0) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}

/* Feed data (may be empty) with directive and write what comes out. */
static int compress(struct rec_writer *w, const void *data, size_t len, ZSTD_EndDirective dir)
{
	ZSTD_inBuffer in = { data, len, 0 };
	for (;;) {
		ZSTD_outBuffer out = { w->obuf, w->ocap, 0 };
		size_t rem = ZSTD_compressStream2(w->cc, &out, &in, dir);
		if (ZSTD_isError(rem))
			return -EIO;
		if (out.pos) {
			int rc = safefile_write_all(w->fd, w->obuf, out.pos);
			if (rc)
				return rc;
			w->bytes += out.pos;
		}
		if (dir == ZSTD_e_continue ? in.pos == in.size : rem == 0)
			return 0;
	}
}

/* One line into the open frame, flushed to the file. */
static int put_line(struct rec_writer *w, const char *line, size_t len)
{
	int rc = compress(w, line, len, ZSTD_e_continue);
	if (!rc)
		rc = compress(w, "\n", 1, ZSTD_e_flush);
	if (!rc) {
		w->in_frame = true;
		w->frame_samples++;
		w->frame_bytes += len + 1;
	}
	return rc;
}

static int end_frame(struct rec_writer *w)
{
	if (!w->in_frame)
		return 0;
	int rc = compress(w, NULL, 0, ZSTD_e_end);
	w->in_frame = false;
	w->frame_samples = 0;
	w->frame_bytes = 0;
	return rc;
}

/* An existing file: check it is a recording, close a frame a killed
 * recorder left open (its whole lines kept, compressed again), and cut
 * what is no frame at its end. */
static int continue_file(struct rec_writer *w, off_t size, char *err, size_t errsz)
{
	struct rec_frame *fr = NULL;
	size_t n = 0;
	int rc = rec_walk(w->fd, size, &fr, &n);
	if (rc) {
		snprintf(err, errsz, "%s: reading it: %s", w->path, strerror(-rc));
		return rc;
	}
	struct buf text = { 0 };
	size_t first = 0;
	while (first < n && fr[first].skippable)
		first++;
	rc = first < n ? rec_decode_head(w->fd, &fr[first], &text, 1, 1 << 24) : -EINVAL;
	char *nl = text.data ? memchr(text.data, '\n', text.len) : NULL;
	int ver = nl ? rec_header_version(text.data, (size_t)(nl - text.data)) : -1;
	if (ver < 0) {
		snprintf(err, errsz, "%s: not a numatop-tui recording: not writing to it", w->path);
		rc = -EINVAL;
		goto out;
	}
	if (ver > REC_FORMAT_VERSION) {
		snprintf(err, errsz, "%s: recording format version %d is newer than this program's %d: "
			 "not writing to it", w->path, ver, REC_FORMAT_VERSION);
		rc = -EINVAL;
		goto out;
	}
	rc = 0;
	const struct rec_frame *last = &fr[n - 1];
	if (!last->complete || last->bad) {
		int d = last->bad ? -EBADMSG : rec_decode(w->fd, last, &text, 1u << 30);
		size_t keep = 0;
		for (size_t i = 0; d != -EBADMSG && i < text.len; i++)
			if (text.data[i] == '\n')
				keep = i + 1;
		if (ftruncate(w->fd, last->off) != 0 || lseek(w->fd, 0, SEEK_END) < 0) {
			rc = -errno;
			snprintf(err, errsz, "%s: closing its last frame: %s", w->path, strerror(-rc));
			goto out;
		}
		if (keep) {
			rc = compress(w, text.data, keep, ZSTD_e_end);
			if (rc) {
				snprintf(err, errsz, "%s: closing its last frame: %s", w->path, strerror(-rc));
				goto out;
			}
		}
	}
out:
	buf_free(&text);
	free(fr);
	return rc;
}

/* Open (create or continue) w->path and start a frame with the header. */
static int open_file(struct rec_writer *w, char *err, size_t errsz)
{
	w->fd = open(w->path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0640);
	if (w->fd < 0) {
		int e = errno;
		snprintf(err, errsz, "%s: %s", w->path, e == ELOOP ? "is a symbolic link" : strerror(e));
		return -e;
	}
	struct stat st;
	if (fstat(w->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errsz, "%s: not a regular file", w->path);
		close(w->fd);
		w->fd = -1;
		return -EINVAL;
	}
	/* Before anything is read or cut: another recorder's open frame is
	 * no killed recorder's. */
	int rc = rec_lock(w->fd, w->path, false, err, errsz);
	if (rc) {
		close(w->fd);
		w->fd = -1;
		return rc;
	}
	if (st.st_size > 0)
		rc = continue_file(w, st.st_size, err, errsz);
	if (!rc && lseek(w->fd, 0, SEEK_END) < 0)
		rc = -errno;
	ZSTD_CCtx_reset(w->cc, ZSTD_reset_session_only);
	w->in_frame = false;
	if (!rc)
		rc = put_line(w, w->header, strlen(w->header));
	if (!rc && fdatasync(w->fd) != 0 && errno != EINVAL)
		rc = -errno;
	if (rc) {
		if (!err[0])
			snprintf(err, errsz, "%s: %s", w->path, strerror(-rc));
		close(w->fd);
		w->fd = -1;
		return rc;
	}
	w->frame_samples = 0;         /* the header is no sample */
	w->good = lseek(w->fd, 0, SEEK_CUR);
	return 0;
}

static void writer_free(struct rec_writer *w)
{
	if (w->dirfd >= 0)
		close(w->dirfd);
	free(w->header);
	free(w->dir);
	free(w->obuf);
	ZSTD_freeCCtx(w->cc);
	free(w);
}

int rec_writer_open(struct rec_writer **out, const char *spec, int keep_days,
		    const char *header, rec_clock_fn clock, void *clock_ctx,
		    char *err, size_t errsz)
{
	err[0] = '\0';
	struct rec_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = -1;
	w->dirfd = -1;
	w->day = -1;
	w->keep_days = keep_days;
	w->clock = clock ? clock : real_clock;
	w->clock_ctx = clock_ctx;
	w->header = strdup(header);
	w->cc = ZSTD_createCCtx();
	w->ocap = ZSTD_CStreamOutSize();
	w->obuf = malloc(w->ocap);
	int rc = 0;
	if (!w->header || !w->cc || !w->obuf) {
		rc = -ENOMEM;
		goto fail;
	}
	ZSTD_CCtx_setParameter(w->cc, ZSTD_c_compressionLevel, REC_LEVEL);
	/* A window that holds the previous samples: near-identical samples
	 * compress to a few bytes per process. */
	ZSTD_CCtx_setParameter(w->cc, ZSTD_c_windowLog, 25);
	ZSTD_CCtx_setParameter(w->cc, ZSTD_c_checksumFlag, 1);
	struct stat st;
	size_t sl = strlen(spec);
	bool daily = (sl && spec[sl - 1] == '/') || (stat(spec, &st) == 0 && S_ISDIR(st.st_mode));
	if (daily) {
		if (stat(spec, &st) != 0 || !S_ISDIR(st.st_mode)) {
			rc = -ENOTDIR;
			snprintf(err, errsz, "%s: not a directory (daily files go into an existing directory)", spec);
			goto fail;
		}
		w->dir = strdup(spec);
		if (!w->dir) {
			rc = -ENOMEM;
			goto fail;
		}
		/* The directory's lock, held until the writer closes: a second
		 * recorder into it is refused, whatever day each would write. */
		w->dirfd = open(spec, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (w->dirfd < 0) {
			rc = -errno;
			goto fail;
		}
		rc = rec_lock(w->dirfd, spec, true, err, errsz);
		if (rc)
			goto fail;
		time_t now = w->clock(w->clock_ctx);
		w->day = day_of(now);
		rec_daily_name(w->dir, now, w->path, sizeof(w->path));
		rec_prune(w->dir, now, w->keep_days);
	} else if (snprintf(w->path, sizeof(w->path), "%s", spec) >= (int)sizeof(w->path)) {
		rc = -ENAMETOOLONG;
		snprintf(err, errsz, "%s: name too long", spec);
		goto fail;
	}
	rc = open_file(w, err, errsz);
	if (rc)
		goto fail;
	*out = w;
	return 0;
fail:
	if (!err[0])
		snprintf(err, errsz, "%s: %s", spec, strerror(-rc));
	writer_free(w);
	return rc;
}

int rec_writer_add(struct rec_writer *w, const char *line, size_t len, char *err, size_t errsz)
{
	err[0] = '\0';
	int rc = 0;
	if (w->dir) {
		time_t now = w->clock(w->clock_ctx);
		long d = day_of(now);
		if (d != w->day) {
			rc = end_frame(w);
			if (!rc && fdatasync(w->fd) != 0 && errno != EINVAL)
				rc = -errno;
			if (rc) {
				snprintf(err, errsz, "%s: %s", w->path, strerror(-rc));
				return rc;
			}
			close(w->fd);
			w->fd = -1;
			w->day = d;
			rec_daily_name(w->dir, now, w->path, sizeof(w->path));
			rec_prune(w->dir, now, w->keep_days);
			rc = open_file(w, err, errsz);
			if (rc)
				return rc;
		}
	}
	if (w->in_frame && (w->frame_samples >= REC_FRAME_SAMPLES || w->frame_bytes >= REC_FRAME_BYTES))
		rc = end_frame(w);
	if (!rc)
		rc = put_line(w, line, len);
	if (!rc && fdatasync(w->fd) != 0 && errno != EINVAL)
		rc = -errno;
	if (rc) {
		snprintf(err, errsz, "%s: writing a sample: %s", w->path, strerror(-rc));
		/* Cut back to the last whole sample: the file stays readable
		 * (a frame that ends there without its end mark). */
		if (ftruncate(w->fd, w->good) == 0)
			lseek(w->fd, 0, SEEK_END);
		w->in_frame = false;
		ZSTD_CCtx_reset(w->cc, ZSTD_reset_session_only);
		return rc;
	}
	w->samples++;
	w->good = lseek(w->fd, 0, SEEK_CUR);
	return 0;
}

int rec_writer_close(struct rec_writer *w, char *err, size_t errsz)
{
	if (!w)
		return 0;
	err[0] = '\0';
	int rc = w->fd >= 0 ? end_frame(w) : 0;
	if (w->fd >= 0) {
		if (!rc && fsync(w->fd) != 0 && errno != EINVAL)
			rc = -errno;
		if (close(w->fd) != 0 && !rc)
			rc = -errno;
	}
	if (rc)
		snprintf(err, errsz, "%s: %s", w->path, strerror(-rc));
	writer_free(w);
	return rc;
}

const char *rec_writer_path(const struct rec_writer *w)
{
	return w->path;
}

void rec_writer_stats(const struct rec_writer *w, uint64_t *bytes, uint64_t *samples)
{
	*bytes = w->bytes;
	*samples = w->samples;
}
