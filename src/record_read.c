/* record_read.c - reading recordings: index the frames of a file (or of a
 * directory's daily files) when it is opened, decode one frame at a time,
 * skip and report damage. */
#include "record.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "record_int.h"

struct rfile {
	char *path;
	int fd;
};

struct rframe {
	size_t file;
	struct rec_frame fr;
	bool has_header;            /* its first line is a header */
	bool unreadable;            /* ... of a version this program does not read */
	long header_frame;          /* the frame whose header applies, -1 */
	time_t first;               /* its first sample's time, -1 unknown */
	bool warned;                /* its damage was said */
};

struct rline {
	size_t off, len;
	time_t when;
};

struct rec_reader {
	struct rfile *files;
	size_t nfiles, filecap;
	struct rframe *frames;
	size_t nframes, framecap;
	char **warn;
	size_t nwarn, warncap;
	/* The frame decoded now and its sample lines. */
	long cur;
	struct buf text;
	struct rline *lines;
	size_t nlines, linecap;
	size_t pos;
	/* The header of the current frame. */
	long header_of;
	char *header;
};

time_t rec_line_time(const char *line, size_t len)
{
	static const char key[] = "{\"timestamp\":\"";
	size_t kl = sizeof(key) - 1;
	if (len < kl + 20 || memcmp(line, key, kl) != 0)
		return -1;
	char t[21];
	memcpy(t, line + kl, 20);
	t[20] = '\0';
	struct tm tm = { 0 };
	char *end = strptime(t, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!end || *end)
		return -1;
	return timegm(&tm);
}

static const char header_key[] = "{\"numatop_tui_recording\":";

/* The line starts as a header does (its version may still be no version). */
static bool header_like(const char *line, size_t len)
{
	size_t kl = sizeof(header_key) - 1;
	return len > kl && memcmp(line, header_key, kl) == 0;
}

int rec_header_version(const char *line, size_t len)
{
	size_t kl = sizeof(header_key) - 1;
	if (!header_like(line, len))
		return -1;
	/* An integer from 1 to 99999, then the next member or the end. */
	int v = 0;
	size_t i = kl;
	while (i < len && line[i] >= '0' && line[i] <= '9' && i - kl < 5)
		v = v * 10 + (line[i++] - '0');
	if (i == kl || v < 1 || i >= len || (line[i] != ',' && line[i] != '}'))
		return -1;
	return v;
}

/* The date strptime read is one of the calendar: mktime and timegm take
 * 2026-02-30 for March 2nd. */
static bool real_date(const struct tm *asked, const struct tm *got)
{
	return asked->tm_year == got->tm_year && asked->tm_mon == got->tm_mon &&
	       asked->tm_mday == got->tm_mday;
}

int rec_parse_time(const char *s, time_t ref, time_t *out)
{
	struct tm tm = { 0 };
	const char *end;
	size_t l = strlen(s);
	if (l && s[l - 1] == 'Z') {
		end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
		if (!end || *end)
			return -EINVAL;
		struct tm asked = tm;
		*out = timegm(&tm);
		return real_date(&asked, &tm) ? 0 : -ERANGE;
	}
	static const char *const full[] = { "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M",
					    "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M" };
	for (size_t i = 0; i < sizeof(full) / sizeof(full[0]); i++) {
		memset(&tm, 0, sizeof(tm));
		end = strptime(s, full[i], &tm);
		if (end && !*end) {
			tm.tm_isdst = -1;
			struct tm asked = tm;
			*out = mktime(&tm);
			return *out == (time_t)-1 ? -EINVAL : real_date(&asked, &tm) ? 0 : -ERANGE;
		}
	}
	static const char *const hm[] = { "%H:%M:%S", "%H:%M" };
	for (size_t i = 0; i < 2; i++) {
		struct tm t2 = { 0 };
		end = strptime(s, hm[i], &t2);
		if (end && !*end) {
			localtime_r(&ref, &tm);
			tm.tm_hour = t2.tm_hour;
			tm.tm_min = t2.tm_min;
			tm.tm_sec = t2.tm_sec;
			tm.tm_isdst = -1;
			*out = mktime(&tm);
			return *out == (time_t)-1 ? -EINVAL : 0;
		}
	}
	return -EINVAL;
}

__attribute__((format(printf, 2, 3)))
static void warnf(struct rec_reader *r, const char *fmt, ...)
{
	char line[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	char **g = buf_grow_array(r->warn, &r->warncap, r->nwarn + 1, sizeof(*g));
	if (!g)
		return;
	r->warn = g;
	r->warn[r->nwarn] = strdup(line);
	if (r->warn[r->nwarn])
		r->nwarn++;
}

size_t rec_reader_nwarnings(const struct rec_reader *r)
{
	return r->nwarn;
}

const char *rec_reader_warning(const struct rec_reader *r, size_t i)
{
	return i < r->nwarn ? r->warn[i] : NULL;
}

size_t rec_reader_nframes(const struct rec_reader *r)
{
	return r->nframes;
}

/* Enough of a frame's start to know its first sample's time: 40 bytes of
 * its first line, or of the line after a header. */
static bool first_time_in(const struct buf *b)
{
	if (b->len < 40)
		return false;
	if (memcmp(b->data, "{\"numatop_tui_recording\":", 25) != 0)
		return true;
	const char *nl = memchr(b->data, '\n', b->len);
	return nl && (size_t)(b->data + b->len - nl) > 40;
}

/* Index one file's frames. err set when it is not a recording at all. */
static int index_file(struct rec_reader *r, size_t fi, char *err, size_t errsz)
{
	struct rfile *f = &r->files[fi];
	struct stat st;
	if (fstat(f->fd, &st) != 0)
		return -errno;
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errsz, "%s: not a regular file", f->path);
		return -EINVAL;
	}
	struct rec_frame *fr = NULL;
	size_t n = 0;
	int rc = rec_walk(f->fd, st.st_size, &fr, &n);
	if (rc) {
		snprintf(err, errsz, "%s: %s", f->path, strerror(-rc));
		return rc;
	}
	struct buf head = { 0 };
	bool first_checked = false;
	for (size_t i = 0; i < n && !rc; i++) {
		struct rframe e = { .file = fi, .fr = fr[i], .header_frame = -1, .first = -1 };
		if (fr[i].skippable)
			continue;
		if (fr[i].bad) {
			if (!first_checked) {
				snprintf(err, errsz, "%s: not a numatop-tui recording (no zstd frame at its start)",
					 f->path);
				rc = -EINVAL;
				break;
			}
			warnf(r, "%s: bytes %lld to %lld are no zstd frame: skipped", f->path,
			      (long long)fr[i].off, (long long)fr[i].end);
			continue;
		}
		rec_decode_until(f->fd, &fr[i], &head, 1 << 24, first_time_in);
		const char *l1 = head.data, *nl = l1 ? memchr(l1, '\n', head.len) : NULL;
		if (nl || (head.len >= 40 && rec_header_version(l1, head.len) < 0)) {
			if (!nl)
				nl = l1 + head.len;
			size_t hl = (size_t)(nl - l1);
			int ver = rec_header_version(l1, hl);
			e.has_header = ver >= 0;
			if (!first_checked && ver > REC_FORMAT_VERSION) {
				snprintf(err, errsz, "%s: recording format version %d is newer than this "
					 "program's %d", f->path, ver, REC_FORMAT_VERSION);
				rc = -EINVAL;
				break;
			}
			if (!first_checked && ver < 0 && header_like(l1, hl)) {
				snprintf(err, errsz, "%s: not a readable recording: its header's format "
					 "version is no whole number from 1 to %d", f->path, REC_FORMAT_VERSION);
				rc = -EINVAL;
				break;
			}
			/* A later recorder session's header that this program
			 * cannot read: its samples are skipped, said once. */
			if (first_checked && (ver > REC_FORMAT_VERSION || (ver < 0 && header_like(l1, hl)))) {
				warnf(r, "%s: the header at byte %lld has a format version this program "
				      "does not read (it reads 1 to %d): the samples after it are skipped",
				      f->path, (long long)fr[i].off, REC_FORMAT_VERSION);
				e.has_header = true;
				e.unreadable = true;
			}
			const char *s = e.has_header ? nl + 1 : l1;
			if (s < head.data + head.len)
				e.first = rec_line_time(s, head.len - (size_t)(s - head.data));
		}
		if (!first_checked && !e.has_header) {
			snprintf(err, errsz, "%s: not a numatop-tui recording (it does not start with "
				 "its header line)", f->path);
			rc = -EINVAL;
			break;
		}
		first_checked = true;
		e.header_frame = e.unreadable ? -1 : e.has_header ? (long)r->nframes :
				 r->nframes ? r->frames[r->nframes - 1].header_frame : -1;
		struct rframe *g = buf_grow_array(r->frames, &r->framecap, r->nframes + 1, sizeof(*g));
		if (!g) {
			rc = -ENOMEM;
			break;
		}
		r->frames = g;
		r->frames[r->nframes++] = e;
	}
	if (!rc && !first_checked) {
		snprintf(err, errsz, "%s: %s", f->path, st.st_size ? "not a numatop-tui recording" :
			 "empty: not a numatop-tui recording");
		rc = -EINVAL;
	}
	buf_free(&head);
	free(fr);
	return rc;
}

static int add_file(struct rec_reader *r, const char *path, char *err, size_t errsz)
{
	struct rfile *g = buf_grow_array(r->files, &r->filecap, r->nfiles + 1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	r->files = g;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errsz, "%s: %s", path, strerror(e));
		return -e;
	}
	r->files[r->nfiles] = (struct rfile){ strdup(path), fd };
	if (!r->files[r->nfiles].path) {
		close(fd);
		return -ENOMEM;
	}
	r->nfiles++;
	return index_file(r, r->nfiles - 1, err, errsz);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The daily files of a directory, in date order. */
static int add_dir(struct rec_reader *r, const char *dir, char *err, size_t errsz)
{
	DIR *d = opendir(dir);
	if (!d) {
		int e = errno;
		snprintf(err, errsz, "%s: %s", dir, strerror(e));
		return -e;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	size_t pl = strlen(REC_DAILY_PREFIX), sl = strlen(REC_DAILY_SUFFIX);
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);
		if (l != pl + 8 + sl || strncmp(e->d_name, REC_DAILY_PREFIX, pl) != 0 ||
		    strcmp(e->d_name + pl + 8, REC_DAILY_SUFFIX) != 0)
			continue;
		char **g = buf_grow_array(names, &cap, n + 1, sizeof(*g));
		if (!g || !(g[n] = strdup(e->d_name))) {
			names = g ? g : names;
			rc = -ENOMEM;
			break;
		}
		names = g;
		n++;
	}
	closedir(d);
	if (!rc && n == 0) {
		snprintf(err, errsz, "%s: no daily recordings (" REC_DAILY_PREFIX "YYYYMMDD"
			 REC_DAILY_SUFFIX ") in it", dir);
		rc = -ENOENT;
	}
	if (!rc)
		qsort(names, n, sizeof(*names), cmp_str);
	size_t dl = strlen(dir);
	for (size_t i = 0; i < n && !rc; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", names[i]);
		char e2[512];
		int frc = add_file(r, path, e2, sizeof(e2));
		if (frc == -ENOMEM)
			rc = frc;
		else if (frc)
			warnf(r, "%s (skipped)", e2);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (!rc && r->nframes == 0) {
		snprintf(err, errsz, "%s: none of its daily files is a readable recording", dir);
		rc = -EINVAL;
	}
	return rc;
}

int rec_reader_open(struct rec_reader **out, const char *path, char *err, size_t errsz)
{
	err[0] = '\0';
	struct rec_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->cur = -1;
	r->header_of = -1;
	struct stat st;
	int rc;
	if (stat(path, &st) != 0) {
		rc = -errno;
		snprintf(err, errsz, "%s: %s", path, strerror(-rc));
	} else if (S_ISDIR(st.st_mode)) {
		rc = add_dir(r, path, err, errsz);
	} else {
		rc = add_file(r, path, err, errsz);
	}
	if (rc) {
		if (!err[0])
			snprintf(err, errsz, "%s: %s", path, strerror(-rc));
		rec_reader_close(r);
		return rc;
	}
	*out = r;
	return 0;
}

void rec_reader_close(struct rec_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nfiles; i++) {
		close(r->files[i].fd);
		free(r->files[i].path);
	}
	for (size_t i = 0; i < r->nwarn; i++)
		free(r->warn[i]);
	free(r->warn);
	free(r->files);
	free(r->frames);
	free(r->lines);
	free(r->header);
	buf_free(&r->text);
	free(r);
	rec_decode_release();
}

/* The header line of frame hf (its first line), kept in r->header. */
static int load_header(struct rec_reader *r, long hf)
{
	if (hf == r->header_of)
		return 0;
	free(r->header);
	r->header = NULL;
	r->header_of = -1;
	if (hf < 0)
		return -ENOENT;
	const struct rframe *e = &r->frames[hf];
	struct buf b = { 0 };
	rec_decode_head(r->files[e->file].fd, &e->fr, &b, 1, 1 << 24);
	char *nl = b.data ? memchr(b.data, '\n', b.len) : NULL;
	if (!nl) {
		buf_free(&b);
		return -EBADMSG;
	}
	*nl = '\0';
	r->header = b.data;           /* the buffer becomes the header */
	r->header_of = hf;
	return 0;
}

/* Decode frame i and list its sample lines. */
static int load_frame(struct rec_reader *r, long i)
{
	if (i == r->cur)
		return 0;
	struct rframe *e = &r->frames[i];
	const char *path = r->files[e->file].path;
	r->cur = -1;
	r->nlines = 0;
	int rc = rec_decode(r->files[e->file].fd, &e->fr, &r->text, 256u << 20);
	if (rc == -ENOMEM || rc == -EIO)
		return rc;
	size_t start = 0, bad = 0;
	for (;;) {
		const char *nl = start < r->text.len ?
				 memchr(r->text.data + start, '\n', r->text.len - start) : NULL;
		if (!nl)
			break;
		size_t k = (size_t)(nl - r->text.data);
		const char *l = r->text.data + start;
		size_t len = k - start;
		time_t t = rec_line_time(l, len);
		if (t >= 0) {
			struct rline *g = buf_grow_array(r->lines, &r->linecap, r->nlines + 1, sizeof(*g));
			if (!g)
				return -ENOMEM;
			r->lines = g;
			r->lines[r->nlines++] = (struct rline){ start, len, t };
		} else if (rec_header_version(l, len) < 0) {
			bad++;
		}
		start = k + 1;
	}
	if (!e->warned) {
		bool last = (size_t)i + 1 == r->nframes || r->frames[i + 1].file != e->file;
		/* A frame still being written (or left open between two
		 * samples) ends on a whole block and a whole line: nothing
		 * of it is lost, it is not cut. */
		bool open = rc == -EPIPE && last && e->fr.open &&
			    (r->text.len == 0 || r->text.data[r->text.len - 1] == '\n');
		if (rc == -EPIPE && last && !open)
			warnf(r, "%s: the last frame (at byte %lld) is cut: its last sample is ignored "
			      "(%lld whole samples read from it)", path, (long long)e->fr.off, (long long)r->nlines);
		else if (!open && (rc == -EPIPE || rc == -EBADMSG || rc == -EFBIG))
			warnf(r, "%s: the frame at byte %lld is damaged: %lld samples before the damage "
			      "kept, the rest of the frame skipped", path, (long long)e->fr.off,
			      (long long)r->nlines);
		if (bad)
			warnf(r, "%s: %lld lines of the frame at byte %lld are no sample: skipped", path,
			      (long long)bad, (long long)e->fr.off);
		e->warned = true;
	}
	r->cur = i;
	return 0;
}

static int fill(struct rec_reader *r, size_t pos, struct rec_sample *s)
{
	const struct rframe *e = &r->frames[r->cur];
	int rc = load_header(r, e->header_frame);
	if (rc)
		return rc;
	r->pos = pos;
	const struct rline *l = &r->lines[pos];
	*s = (struct rec_sample){ r->text.data + l->off, l->len, r->header, l->when,
				  r->files[e->file].path };
	return 0;
}

/* The first sample at or after frame i going forward (dir 1) or the last
 * at or before it going backward (-1). */
static int scan(struct rec_reader *r, long i, int dir, struct rec_sample *s)
{
	for (; i >= 0 && (size_t)i < r->nframes; i += dir) {
		if (r->frames[i].header_frame < 0)
			continue;
		int rc = load_frame(r, i);
		if (rc)
			return rc;
		if (r->nlines)
			return fill(r, dir > 0 ? 0 : r->nlines - 1, s);
	}
	return -ENOENT;
}

int rec_reader_first(struct rec_reader *r, struct rec_sample *s)
{
	return scan(r, 0, 1, s);
}

int rec_reader_last(struct rec_reader *r, struct rec_sample *s)
{
	return scan(r, (long)r->nframes - 1, -1, s);
}

int rec_reader_next(struct rec_reader *r, struct rec_sample *s)
{
	if (r->cur < 0)
		return rec_reader_first(r, s);
	if (r->pos + 1 < r->nlines)
		return fill(r, r->pos + 1, s);
	long at = r->cur;
	size_t pos = r->pos;
	int rc = scan(r, r->cur + 1, 1, s);
	if (rc == -ENOENT && load_frame(r, at) == 0 && pos < r->nlines)
		r->pos = pos;           /* stay where we were */
	return rc;
}

int rec_reader_prev(struct rec_reader *r, struct rec_sample *s)
{
	if (r->cur < 0)
		return rec_reader_last(r, s);
	if (r->pos > 0)
		return fill(r, r->pos - 1, s);
	long at = r->cur;
	int rc = scan(r, r->cur - 1, -1, s);
	if (rc == -ENOENT && load_frame(r, at) == 0)
		r->pos = 0;
	return rc;
}

void rec_reader_tell(const struct rec_reader *r, struct rec_pos *p)
{
	*p = (struct rec_pos){ r->cur, r->pos };
}

int rec_reader_goto(struct rec_reader *r, const struct rec_pos *p, struct rec_sample *s)
{
	if (p->frame < 0 || (size_t)p->frame >= r->nframes || r->frames[p->frame].header_frame < 0)
		return -ENOENT;
	int rc = load_frame(r, p->frame);
	if (rc)
		return rc;
	return p->line < r->nlines ? fill(r, p->line, s) : -ENOENT;
}

int rec_reader_seek(struct rec_reader *r, time_t when, struct rec_sample *s)
{
	/* The last frame that starts at or before when; its samples, then
	 * the following frames', until one is at or after when. */
	long start = 0;
	for (size_t i = 0; i < r->nframes; i++)
		if (r->frames[i].first >= 0 && r->frames[i].first <= when)
			start = (long)i;
	for (long i = start; (size_t)i < r->nframes; i++) {
		if (r->frames[i].header_frame < 0)
			continue;
		int rc = load_frame(r, i);
		if (rc)
			return rc;
		for (size_t k = 0; k < r->nlines; k++)
			if (r->lines[k].when >= when)
				return fill(r, k, s);
	}
	return rec_reader_last(r, s);
}
