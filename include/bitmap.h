/* bitmap.h - dynamically sized bit sets for CPU and node sets.
 *
 * No fixed 64- or 1024-bit limit: the set grows to the highest bit set. */
#ifndef NUMATOP_BITMAP_H
#define NUMATOP_BITMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Highest bit number accepted from input (guards against hostile files). */
#define BITMAP_MAX_BIT (1u << 20)

struct bitmap {
	uint64_t *w;
	size_t nwords;
};

void bitmap_init(struct bitmap *b);
void bitmap_free(struct bitmap *b);
void bitmap_clear(struct bitmap *b);
int bitmap_set(struct bitmap *b, unsigned bit);     /* 0, -ERANGE, -ENOMEM */
bool bitmap_test(const struct bitmap *b, unsigned bit);
unsigned bitmap_count(const struct bitmap *b);
bool bitmap_empty(const struct bitmap *b);
/* Next set bit >= from, or -1. */
int bitmap_next(const struct bitmap *b, int from);
int bitmap_copy(struct bitmap *dst, const struct bitmap *src);
int bitmap_or(struct bitmap *dst, const struct bitmap *src);
bool bitmap_equal(const struct bitmap *a, const struct bitmap *b);

/* "0-3,8,10-11" (whitespace, "\n\0" tails and an empty list allowed).
 * Replaces b's contents. 0 or -EINVAL / -ERANGE / -ENOMEM. */
int bitmap_parse_list(struct bitmap *b, const char *s, size_t len);
/* Kernel hex mask: 32-bit comma-separated groups, most significant first,
 * e.g. "00000000,000000ff". Replaces b's contents. */
int bitmap_parse_mask(struct bitmap *b, const char *s, size_t len);
/* Format as a list "0-3,8"; always NUL-terminates; returns the length the
 * full text needs (like snprintf). */
size_t bitmap_format_list(const struct bitmap *b, char *out, size_t outsz);

#endif
