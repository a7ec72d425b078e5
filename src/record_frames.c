/* record_frames.c - the frames of a zstd file, found from their headers
 * (RFC 8878: frame header, 3-byte block headers, optional checksum), and
 * decoding one frame. */
#include "record_int.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

#define ZMAGIC 0xFD2FB528u
#define SKIP_MAGIC_MASK 0xFFFFFFF0u
#define SKIP_MAGIC 0x184D2A50u

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* pread all of n bytes, or fewer at the end of the file; -errno. */
static ssize_t pread_full(int fd, void *b, size_t n, off_t off)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = pread(fd, (char *)b + got, n - got, off + (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* One frame at off: its end and whether it is whole. -EINVAL: no frame
 * starts here; -EIO/-errno: reading failed. */
static int frame_at(int fd, off_t off, off_t size, struct rec_frame *f)
{
	unsigned char h[18];
	ssize_t n = pread_full(fd, h, sizeof(h), off);
	if (n < 0)
		return (int)n;
	*f = (struct rec_frame){ .off = off, .end = size };
	if (n < 4)
		return n == 0 ? -EINVAL : (f->complete = false, 0);
	uint32_t magic = le32(h);
	if ((magic & SKIP_MAGIC_MASK) == SKIP_MAGIC) {
		f->skippable = true;
		if (n < 8)
			return 0;
		off_t end = off + 8 + (off_t)le32(h + 4);
		f->complete = end <= size;
		f->end = f->complete ? end : size;
		return 0;
	}
	if (magic != ZMAGIC)
		return -EINVAL;
	if (n < 5)
		return 0;                               /* cut in its header */
	unsigned d = h[4];
	if (d & 0x08)                                   /* reserved bit */
		return -EINVAL;
	static const int did_size[4] = { 0, 1, 2, 4 };
	int fcs = d >> 6, single = (d >> 5) & 1, sum = (d >> 2) & 1;
	int fcs_size = fcs == 0 ? single : fcs == 1 ? 2 : fcs == 2 ? 4 : 8;
	off_t pos = off + 5 + (single ? 0 : 1) + did_size[d & 3] + fcs_size;
	for (;;) {
		unsigned char b[3];
		n = pread_full(fd, b, 3, pos);
		if (n < 0)
			return (int)n;
		if (n < 3) {
			f->open = n == 0 && pos == size;   /* ends on a whole block */
			return 0;                       /* else cut */
		}
		uint32_t bh = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16;
		unsigned type = (bh >> 1) & 3;
		if (type == 3 || (bh >> 3) > (128u << 10))
			return 0;                       /* no block: cut here */
		pos += 3 + (type == 1 ? 1 : (off_t)(bh >> 3));
		if (pos > size)
			return 0;
		if (bh & 1)
			break;
	}
	if (sum)
		pos += 4;
	if (pos > size)
		return 0;
	f->end = pos;
	f->complete = true;
	return 0;
}

/* The next offset after from where a zstd frame magic starts, or size. */
static off_t next_magic(int fd, off_t from, off_t size)
{
	unsigned char b[65536 + 3];
	for (off_t off = from; off < size; off += 65536) {
		ssize_t n = pread_full(fd, b, sizeof(b), off);
		if (n < 4)
			break;
		for (ssize_t i = 0; i + 4 <= n; i++)
			if (le32(b + i) == ZMAGIC)
				return off + i;
	}
	return size;
}

int rec_walk(int fd, off_t size, struct rec_frame **frames, size_t *n)
{
	struct rec_frame *v = NULL;
	size_t cnt = 0, cap = 0;
	off_t off = 0;
	int rc = 0;
	while (off < size) {
		struct rec_frame f;
		int r = frame_at(fd, off, size, &f);
		if (r == -EINVAL) {
			/* Not a frame here: skip to the next magic (a frame whose
			 * header was damaged, or garbage). */
			off_t nx = next_magic(fd, off + 1, size);
			f = (struct rec_frame){ .off = off, .end = nx, .bad = true };
		} else if (r < 0) {
			rc = r;
			break;
		} else if (!f.complete && !f.skippable) {
			/* A cut frame: the next frame may still follow when the
			 * cut was followed by an append that could not close it. */
			off_t nx = next_magic(fd, off + 4, size);
			f.end = nx;
		}
		struct rec_frame *g = buf_grow_array(v, &cap, cnt + 1, sizeof(*v));
		if (!g) {
			rc = -ENOMEM;
			break;
		}
		v = g;
		v[cnt++] = f;
		off = f.end > off ? f.end : size;
	}
	if (rc) {
		free(v);
		return rc;
	}
	*frames = v;
	*n = cnt;
	return 0;
}

/* One decompression context, kept: a new one per frame would allocate
 * its window (32 MiB) each time. */
static ZSTD_DCtx *cached_dctx;

void rec_decode_release(void)
{
	ZSTD_freeDCtx(cached_dctx);
	cached_dctx = NULL;
}

static size_t count_nl(const char *p, size_t n)
{
	size_t c = 0;
	const char *e = p + n;
	while (p < e && (p = memchr(p, '\n', (size_t)(e - p))) != NULL) {
		c++;
		p++;
	}
	return c;
}

/* Decompress f into out: stop at limit bytes, or (want >= 0) once want
 * newlines came, or (enough) when enough(out) says so. */
static int decode(int fd, const struct rec_frame *f, struct buf *out, size_t limit, int want,
		  bool (*enough)(const struct buf *))
{
	buf_clear(out);
	if (f->bad || f->skippable)
		return f->bad ? -EBADMSG : 0;
	if (!cached_dctx && !(cached_dctx = ZSTD_createDCtx()))
		return -ENOMEM;
	ZSTD_DCtx *dc = cached_dctx;
	ZSTD_DCtx_reset(dc, ZSTD_reset_session_only);
	ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, 27);
	unsigned char in[65536];
	off_t pos = f->off;
	int rc = 0;
	size_t lines = 0, ret = 1;
	bool done = false;
	while (!done && ret != 0 && pos < f->end) {
		size_t want_in = (size_t)(f->end - pos) < sizeof(in) ? (size_t)(f->end - pos) : sizeof(in);
		ssize_t n = pread_full(fd, in, want_in, pos);
		if (n <= 0) {
			rc = n < 0 ? (int)n : -EPIPE;
			break;
		}
		pos += n;
		ZSTD_inBuffer ib = { in, (size_t)n, 0 };
		for (;;) {
			/* Small steps when only the start is wanted. */
			if (buf_reserve(out, want >= 0 || enough ? 1 << 14 : 1 << 20)) {
				rc = -ENOMEM;
				break;
			}
			size_t before = out->len;
			size_t room = out->cap - out->len - 1;
			if ((want >= 0 || enough) && room > (1 << 14))
				room = 1 << 14;
			ZSTD_outBuffer ob = { out->data + out->len, room, 0 };
			ret = ZSTD_decompressStream(dc, &ob, &ib);
			if (ZSTD_isError(ret)) {
				rc = -EBADMSG;
				break;
			}
			out->len += ob.pos;
			out->data[out->len] = '\0';
			if (want >= 0)
				lines += count_nl(out->data + before, out->len - before);
			if (out->len > limit) {
				rc = -EFBIG;
				break;
			}
			if ((want >= 0 && lines >= (size_t)want) || (enough && enough(out))) {
				done = true;
				break;
			}
			if (ret == 0)
				break;
			if (ib.pos == ib.size && ob.pos < ob.size)
				break;              /* needs more input */
		}
		if (rc)
			break;
	}
	if (rc == 0 && ret != 0 && !done)
		rc = -EPIPE;                /* ran out of bytes inside the frame */
	return rc;
}

int rec_decode(int fd, const struct rec_frame *f, struct buf *out, size_t limit)
{
	return decode(fd, f, out, limit, -1, NULL);
}

int rec_decode_head(int fd, const struct rec_frame *f, struct buf *out, int want, size_t max)
{
	int rc = decode(fd, f, out, max, want, NULL);
	return rc == -EFBIG ? 0 : rc;
}

int rec_decode_until(int fd, const struct rec_frame *f, struct buf *out, size_t max,
		     bool (*enough)(const struct buf *))
{
	int rc = decode(fd, f, out, max, -1, enough);
	return rc == -EFBIG ? 0 : rc;
}
