/* bitmap.c - dynamic bit sets and the kernel's list and mask formats. */
#include "bitmap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bitmap_init(struct bitmap *b)
{
	b->w = NULL;
	b->nwords = 0;
}

void bitmap_free(struct bitmap *b)
{
	free(b->w);
	bitmap_init(b);
}

void bitmap_clear(struct bitmap *b)
{
	if (b->w)
		memset(b->w, 0, b->nwords * sizeof(uint64_t));
}

static int grow(struct bitmap *b, size_t nwords)
{
	if (nwords <= b->nwords)
		return 0;
	uint64_t *p = realloc(b->w, nwords * sizeof(uint64_t));
	if (!p)
		return -ENOMEM;
	memset(p + b->nwords, 0, (nwords - b->nwords) * sizeof(uint64_t));
	b->w = p;
	b->nwords = nwords;
	return 0;
}

int bitmap_set(struct bitmap *b, unsigned bit)
{
	if (bit > BITMAP_MAX_BIT)
		return -ERANGE;
	int rc = grow(b, bit / 64 + 1);
	if (rc)
		return rc;
	b->w[bit / 64] |= UINT64_C(1) << (bit % 64);
	return 0;
}

bool bitmap_test(const struct bitmap *b, unsigned bit)
{
	if (bit / 64 >= b->nwords)
		return false;
	return (b->w[bit / 64] >> (bit % 64)) & 1;
}

unsigned bitmap_count(const struct bitmap *b)
{
	unsigned n = 0;
	for (size_t i = 0; i < b->nwords; i++)
		n += (unsigned)__builtin_popcountll(b->w[i]);
	return n;
}

bool bitmap_empty(const struct bitmap *b)
{
	for (size_t i = 0; i < b->nwords; i++)
		if (b->w[i])
			return false;
	return true;
}

int bitmap_next(const struct bitmap *b, int from)
{
	if (from < 0)
		from = 0;
	size_t i = (size_t)from / 64;
	if (i >= b->nwords)
		return -1;
	uint64_t w = b->w[i] & (~UINT64_C(0) << (from % 64));
	for (;;) {
		if (w)
			return (int)(i * 64 + (size_t)__builtin_ctzll(w));
		if (++i >= b->nwords)
			return -1;
		w = b->w[i];
	}
}

int bitmap_copy(struct bitmap *dst, const struct bitmap *src)
{
	bitmap_clear(dst);
	return bitmap_or(dst, src);
}

int bitmap_or(struct bitmap *dst, const struct bitmap *src)
{
	int rc = grow(dst, src->nwords);
	if (rc)
		return rc;
	for (size_t i = 0; i < src->nwords; i++)
		dst->w[i] |= src->w[i];
	return 0;
}

bool bitmap_equal(const struct bitmap *a, const struct bitmap *b)
{
	size_t n = a->nwords > b->nwords ? a->nwords : b->nwords;
	for (size_t i = 0; i < n; i++) {
		uint64_t x = i < a->nwords ? a->w[i] : 0;
		uint64_t y = i < b->nwords ? b->w[i] : 0;
		if (x != y)
			return false;
	}
	return true;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0';
}

/* Trim blanks and NULs from both ends. */
static void trim(const char **s, size_t *len)
{
	while (*len && is_blank(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && is_blank((*s)[*len - 1]))
		(*len)--;
}

static int parse_uint(const char **p, const char *end, unsigned *out)
{
	const char *s = *p;
	unsigned long v = 0;
	if (s >= end || *s < '0' || *s > '9')
		return -EINVAL;
	while (s < end && *s >= '0' && *s <= '9') {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > BITMAP_MAX_BIT)
			return -ERANGE;
		s++;
	}
	*p = s;
	*out = (unsigned)v;
	return 0;
}

int bitmap_parse_list(struct bitmap *b, const char *s, size_t len)
{
	bitmap_clear(b);
	trim(&s, &len);
	const char *p = s, *end = s + len;
	while (p < end) {
		unsigned lo, hi;
		int rc = parse_uint(&p, end, &lo);
		if (rc)
			return rc;
		hi = lo;
		if (p < end && *p == '-') {
			p++;
			if ((rc = parse_uint(&p, end, &hi)) != 0)
				return rc;
			if (hi < lo)
				return -EINVAL;
		}
		/* Optional ":stride" (used by some kernel lists) is rejected. */
		for (unsigned i = lo;; i++) {
			if ((rc = bitmap_set(b, i)) != 0)
				return rc;
			if (i == hi)
				break;
		}
		if (p == end)
			break;
		if (*p != ',')
			return -EINVAL;
		p++;
		if (p == end)
			return -EINVAL;
	}
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int bitmap_parse_mask(struct bitmap *b, const char *s, size_t len)
{
	bitmap_clear(b);
	trim(&s, &len);
	if (len == 0)
		return 0;
	/* Walk from the least significant (rightmost) digit. */
	unsigned bit = 0;
	size_t digits_in_group = 0;
	for (size_t i = len; i-- > 0;) {
		char c = s[i];
		if (c == ',') {
			if (digits_in_group == 0 || digits_in_group > 8)
				return -EINVAL;
			/* A short group still stands for 32 bits. */
			bit += (unsigned)(8 - digits_in_group) * 4;
			digits_in_group = 0;
			continue;
		}
		int v = hexval(c);
		if (v < 0)
			return -EINVAL;
		if (++digits_in_group > 8)
			return -EINVAL;
		for (int k = 0; k < 4; k++) {
			if ((v >> k) & 1) {
				int rc = bitmap_set(b, bit + (unsigned)k);
				if (rc)
					return rc;
			}
		}
		bit += 4;
		if (bit > BITMAP_MAX_BIT + 4)
			return -ERANGE;
	}
	if (digits_in_group == 0)
		return -EINVAL;
	return 0;
}

size_t bitmap_format_list(const struct bitmap *b, char *out, size_t outsz)
{
	size_t need = 0;
	char tmp[48];
	if (outsz)
		out[0] = '\0';
	int i = bitmap_next(b, 0);
	while (i >= 0) {
		int j = i;
		while (bitmap_test(b, (unsigned)j + 1))
			j++;
		int n = (i == j) ? snprintf(tmp, sizeof(tmp), "%s%d",
					    need ? "," : "", i)
				 : snprintf(tmp, sizeof(tmp), "%s%d-%d",
					    need ? "," : "", i, j);
		if (outsz && need + (size_t)n < outsz)
			memcpy(out + need, tmp, (size_t)n + 1);
		else if (outsz && need < outsz)
			out[need] = '\0';
		need += (size_t)n;
		i = bitmap_next(b, j + 1);
	}
	return need;
}
