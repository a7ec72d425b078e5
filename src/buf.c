/* buf.c - growable byte buffer. */
#include "buf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int buf_reserve(struct buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	if (need < b->len)
		return -ENOMEM;
	if (need <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < need) {
		if (cap > ((size_t)-1) / 2)
			return -ENOMEM;
		cap *= 2;
	}
	char *p = realloc(b->data, cap);
	if (!p)
		return -ENOMEM;
	b->data = p;
	b->cap = cap;
	b->data[b->len] = '\0';
	return 0;
}

int buf_append(struct buf *b, const char *s, size_t n)
{
	int rc = buf_reserve(b, n);
	if (rc)
		return rc;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

void buf_clear(struct buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

void buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void *buf_grow_array(void *arr, size_t *cap, size_t want, size_t elem)
{
	if (want == 0)
		want = 1;   /* an array, never NULL, on success */
	if (want <= *cap)
		return arr;
	size_t n = *cap > want / 2 ? *cap * 2 : want;
	if (n < want || (elem && n > ((size_t)-1) / elem))
		return NULL;
	void *p = realloc(arr, n * elem);
	if (p)
		*cap = n;
	return p;
}
