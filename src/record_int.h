/* record_int.h - what the recording writer and reader share: the frames
 * of a zstd file found from their headers, and decoding one frame. */
#ifndef NUMATOP_RECORD_INT_H
#define NUMATOP_RECORD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "buf.h"

struct rec_frame {
	off_t off, end;          /* its bytes: [off, end) */
	bool complete;           /* its last block (and checksum) is there */
	bool open;               /* not complete, but its blocks end whole at
				  * the end of the file: still being written */
	bool bad;                /* not a frame: bytes skipped up to end */
	bool skippable;          /* a skippable frame (ignored) */
};

/* The frames of the file open on fd (size bytes), by their headers only:
 * no decompression. Bytes that are no frame are one `bad` entry up to the
 * next frame magic. *frames is malloc'ed. 0 or -errno (-ENOMEM, -EIO). */
int rec_walk(int fd, off_t size, struct rec_frame **frames, size_t *n);

/* Decode frame f into text (out is cleared first, then grows),
 * at most limit bytes of text. 0 when the frame decoded whole; -EPIPE
 * when it is cut (the text is what came before the cut), -EBADMSG when
 * it is corrupt (the same), -ENOMEM, -EIO, -EFBIG past the limit. Only
 * whole lines count: the caller drops text after the last newline. */
int rec_decode(int fd, const struct rec_frame *f, struct buf *out, size_t limit);

/* Decode only the first lines of a frame, up to want newlines or max
 * bytes: for indexing. Same returns (cut or corrupt early: what came). */
int rec_decode_head(int fd, const struct rec_frame *f, struct buf *out, int want, size_t max);
/* The same, until enough(out) is true (checked after each small step). */
int rec_decode_until(int fd, const struct rec_frame *f, struct buf *out, size_t max,
		     bool (*enough)(const struct buf *));
/* Free the decompression context the decoders keep. */
void rec_decode_release(void);

/* Lock the recording open on fd (a file, or with dir the directory of
 * daily files, named what) for as long as fd stays open: one recorder
 * at a time writes a stream. 0 (also where the filesystem has no locks);
 * -EBUSY when another holds it, err naming it and its pid when known. */
int rec_lock(int fd, const char *what, bool dir, char *err, size_t errsz);

/* A daily file --keep-days may remove: a regular file (no symbolic link,
 * FIFO, device), of the effective user, with one link, that is empty or
 * starts with a recording's header line. */
bool rec_prunable(int dirfd, const char *name);

#endif
