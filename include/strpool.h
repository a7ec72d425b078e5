/* strpool.h - interned strings: each distinct string kept once, for the
 * life of the pool (memory policies, seen by thousands of processes). */
#ifndef NUMATOP_STRPOOL_H
#define NUMATOP_STRPOOL_H

#include <stddef.h>

struct strpool;

int strpool_new(struct strpool **out);
void strpool_free(struct strpool *p);
/* The pool's copy of s ("" for NULL), or NULL when out of memory or the
 * pool already holds STRPOOL_MAX strings. */
#define STRPOOL_MAX 65536
const char *strpool_get(struct strpool *p, const char *s);
size_t strpool_count(const struct strpool *p);

#endif
