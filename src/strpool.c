/* strpool.c - interned strings in an open-addressing hash set. */
#include "strpool.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct strpool {
	char **slot;            /* [cap], NULL empty */
	size_t cap, n;
};

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;   /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

int strpool_new(struct strpool **out)
{
	struct strpool *p = calloc(1, sizeof(*p));
	if (!p || !(p->slot = calloc(64, sizeof(*p->slot)))) {
		free(p);
		return -ENOMEM;
	}
	p->cap = 64;
	*out = p;
	return 0;
}

void strpool_free(struct strpool *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->cap; i++)
		free(p->slot[i]);
	free(p->slot);
	free(p);
}

size_t strpool_count(const struct strpool *p)
{
	return p->n;
}

static int rehash(struct strpool *p)
{
	size_t cap = p->cap * 2;
	char **v = calloc(cap, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < p->cap; i++) {
		if (!p->slot[i])
			continue;
		size_t k = hash(p->slot[i]) & (cap - 1);
		while (v[k])
			k = (k + 1) & (cap - 1);
		v[k] = p->slot[i];
	}
	free(p->slot);
	p->slot = v;
	p->cap = cap;
	return 0;
}

const char *strpool_get(struct strpool *p, const char *s)
{
	if (!s)
		s = "";
	if ((p->n + 1) * 2 > p->cap && rehash(p) != 0 && p->n + 1 >= p->cap)
		return NULL;    /* no room, and no memory for more */
	size_t k = hash(s) & (p->cap - 1);
	for (; p->slot[k]; k = (k + 1) & (p->cap - 1))
		if (strcmp(p->slot[k], s) == 0)
			return p->slot[k];
	if (p->n >= STRPOOL_MAX)
		return NULL;
	char *copy = strdup(s);
	if (!copy)
		return NULL;
	p->slot[k] = copy;
	p->n++;
	return copy;
}
