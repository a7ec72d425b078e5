/* numa_maps_int.h - private to numa_maps*.c: what one line gives a
 * summary, and the fast parse of the shape the kernel prints. */
#ifndef NUMATOP_NUMA_MAPS_INT_H
#define NUMATOP_NUMA_MAPS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "numa_maps.h"

/* The parts of a parsed line a summary uses; its node counts are in the
 * scratch mapping's nodes[] (nnodes). pol is not NUL-terminated. */
struct nm_line {
	enum nm_mode mode;
	const char *pol;           /* policy text, plen < sizeof(policy) */
	size_t plen;
	bool file, huge;
	int64_t pagesize_kb;       /* kernelpagesize_kB, -1 when absent */
};

/* 8 bytes at p, any alignment. */
static inline uint64_t nm_load64(const char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* Are the n bytes at a and b the same? From the end: lines alike but for
 * a counter differ there, and a miss costs a word or two. */
static inline bool nm_same_bytes(const char *a, const char *b, size_t n)
{
	if (n < 8) {
		while (n--)
			if (a[n] != b[n])
				return false;
		return true;
	}
	/* Whole words from the end, then the first word (overlapping). */
	for (size_t i = n; i >= 8; i -= 8)
		if (nm_load64(a + i - 8) != nm_load64(b + i - 8))
			return false;
	return nm_load64(a) == nm_load64(b);
}

/* The page size in kB a line's counts are in (nm_mapping_page_kb). */
static inline int64_t nm_page_kb(int64_t pagesize_kb, bool huge, int64_t base_kb,
				 int64_t huge_kb)
{
	if (pagesize_kb > 0)
		return pagesize_kb;
	if (huge)
		return huge_kb > 0 ? huge_kb : -1;
	return base_kb;
}

/* The mode a policy text starts with: its length (0 when none, then
 * *mode is NM_MODE_UNKNOWN). "default" is tried first. */
size_t nm_match_mode(const char *p, const char *end, enum nm_mode *mode);

/* The policy token at p: its mode and where it ends (p when empty). A
 * known mode prefix (two contain a blank), then optional "=flags" and
 * ":nodes", up to the next blank. */
static inline const char *nm_policy_end(const char *p, const char *end, enum nm_mode *mode)
{
	if (end - p >= 8 && memcmp(p, "default ", 8) == 0) {
		*mode = NM_MODE_DEFAULT;     /* the common case, inlined */
		return p + 7;
	}
	p += nm_match_mode(p, end, mode);
	while (p < end && *p != ' ')
		p++;
	return p;
}

/* Double m->nodes: 0 or -ENOMEM. */
int nm_grow_nodes(struct nm_mapping *m);

/* Append a node's count to m->nodes (grown as needed): 0 or -ENOMEM. */
static inline int nm_add_node(struct nm_mapping *m, int node, uint64_t pages)
{
	int rc;
	if (m->nnodes == m->cap && (rc = nm_grow_nodes(m)) != 0)
		return rc;
	m->nodes[m->nnodes].node = node;
	m->nodes[m->nnodes].pages = pages;
	m->nnodes++;
	return 0;
}

/* The line [s, e) (without its '\n') starts with an address as
 * numa_maps_parse_line takes it (1 to 16 hex digits, a blank): what
 * follows the blank, else NULL. What a line gives depends only on what
 * follows its address. */
const char *nm_fast_addr(const char *s, const char *e);

/* Parse what follows the address, [p, e), when it has the shape the
 * kernel prints: the policy, then the tokens in the kernel's order, each
 * well formed. 1: parsed into *out and m->nodes, exactly as
 * numa_maps_parse_line would; 0: not that shape (parse the line with
 * numa_maps_parse_line, which says what is wrong, if anything);
 * -ENOMEM. */
int nm_fast_rest(const char *p, const char *e, struct nm_mapping *m,
		 struct nm_line *out);

#endif
