/* buf.h - a growable byte buffer, reused across reads to keep memory flat. */
#ifndef NUMATOP_BUF_H
#define NUMATOP_BUF_H

#include <stddef.h>

struct buf {
	char *data;   /* always NUL-terminated when len > 0 or after buf_reserve */
	size_t len;
	size_t cap;
};

/* Make room for at least `extra` more bytes plus a NUL. 0 or -ENOMEM. */
int buf_reserve(struct buf *b, size_t extra);
/* Append bytes (NUL-terminated afterwards). 0 or -ENOMEM. */
int buf_append(struct buf *b, const char *s, size_t n);
void buf_clear(struct buf *b);
/* The array arr, of *cap elements of elem bytes, made to hold at least
 * want (and at least one): grown to twice its size or want, whichever is
 * more. Returns the array (perhaps moved; *cap updated), never NULL on
 * success; NULL when out of memory (arr and *cap unchanged). */
void *buf_grow_array(void *arr, size_t *cap, size_t want, size_t elem);
void buf_free(struct buf *b);

#endif
