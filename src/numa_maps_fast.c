/* numa_maps_fast.c - a summary's parse of the line shape the kernel
 * prints (fs/proc/task_mmu.c show_numa_map): address, policy, then
 * file=/heap/stack, huge, the counters, N<node>=<pages> and
 * kernelpagesize_kB, one blank apart. It fills only what a summary uses
 * and accepts a line only when every token is one it knows and is well
 * formed; anything else (an unknown token, a number too long, a line with
 * trailing blanks) goes to numa_maps_parse_line, the one definition of
 * the grammar. The fuzz target numa_maps_fast checks the two agree. */
#include "numa_maps_int.h"

#include <string.h>

/* Does the token at t (e: line end) start with the literal lit? */
#define HAS(t, e, lit) ((size_t)((e) - (t)) >= sizeof(lit) - 1 && \
			memcmp((t), (lit), sizeof(lit) - 1) == 0)

/* At most maxd decimal digits at *pp (at least one), ending the token
 * (line end or a blank): false when not so. */
static inline bool number(const char **pp, const char *e, int maxd, uint64_t *out)
{
	const char *q = *pp, *lim = e - q > maxd ? q + maxd : e;
	uint64_t v = 0;
	while (q < lim && (unsigned)(*q - '0') <= 9)
		v = v * 10 + (unsigned)(*q++ - '0');
	if (q == *pp || (q < e && *q != ' '))
		return false;   /* no digit, too many, or not the token's end */
	*pp = q;
	*out = v;
	return true;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* 0x80 in each byte of x (8 characters) that is not a hex digit, in
 * registers: no byte's sum carries into the next. */
static inline uint64_t not_hex(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, high = ones * 0x80;
	uint64_t lo = x & ~high, folded = lo | ones * 0x20;   /* 'A'-'F' as 'a'-'f' */
	uint64_t digit = (lo + ones * (0x80 - '0')) & ~(lo + ones * (0x80 - '9' - 1));
	uint64_t letter = (folded + ones * (0x80 - 'a')) & ~(folded + ones * (0x80 - 'f' - 1));
	return (~(digit | letter) | x) & high;
}
#endif

const char *nm_fast_addr(const char *s, const char *e)
{
	static const unsigned char hex[256] = {
		['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1,
		['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, ['a'] = 1, ['b'] = 1,
		['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['A'] = 1, ['B'] = 1,
		['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1,
	};
	const char *p = s;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (e - s > 16) {
		/* 16 characters at a time: the first one not a hex digit. */
		uint64_t m = not_hex(nm_load64(s));
		if (m)
			p = s + (__builtin_ctzll(m) >> 3);
		else if ((m = not_hex(nm_load64(s + 8))) != 0)
			p = s + 8 + (__builtin_ctzll(m) >> 3);
		else
			p = s + 16;
	} else
#endif
	{
		const char *lim = e - s > 16 ? s + 16 : e;
		while (p < lim && hex[(unsigned char)*p])
			p++;
	}
	if (p == s || p >= e || *p != ' ')
		return NULL;
	return p + 1;
}

int nm_fast_rest(const char *p, const char *e, struct nm_mapping *m,
		 struct nm_line *out)
{
	m->nnodes = 0;
	/* The general parser trims trailing blanks and '\r': left to it.
	 * Then a blank is never last, so after one there is a token. */
	if (p >= e || e[-1] == ' ' || e[-1] == '\r')
		return 0;
	const char *pol = p;
	if ((p = nm_policy_end(p, e, &out->mode)) == pol)
		return 0;
	out->pol = pol;
	out->plen = (size_t)(p - pol) < sizeof(m->policy) ? (size_t)(p - pol) :
		    sizeof(m->policy) - 1;
	out->file = out->huge = false;
	out->pagesize_kb = -1;
	/* Then the tokens in the kernel's order, each optional. p is at the
	 * blank before the next token, or at the end. A token out of that
	 * order, twice, or unknown ends the walk short of the end: the
	 * general parser takes the line. */
#define NEXT() do { if (p == e) return 1; p++; } while (0)
#define COUNTER(lit) \
	if (HAS(p, e, lit)) { \
		p += sizeof(lit) - 1; \
		if (!number(&p, e, 18, &v)) \
			return 0; \
		NEXT(); \
	}
	const char *te;
	uint64_t v;
	int rc;
	NEXT();
	if (p[0] == 'f') {
		if (!HAS(p, e, "file=") || p + 5 == e || p[5] == ' ')
			return 0;
		out->file = true;
		te = memchr(p + 5, ' ', (size_t)(e - p - 5));
		p = te ? te : e;
		NEXT();
	} else if (p[0] == 'h' && HAS(p, e, "heap") && (p + 4 == e || p[4] == ' ')) {
		p += 4;
		NEXT();
	} else if (p[0] == 's' && HAS(p, e, "stack")) {
		if (p + 5 < e && p[5] == ':') {
			te = memchr(p + 5, ' ', (size_t)(e - p - 5));
			te = te ? te : e;
			if (te - p == 6)
				return 0;
			p = te;
		} else if (p + 5 == e || p[5] == ' ') {
			p += 5;
		} else {
			return 0;
		}
		NEXT();
	}
	if (p[0] == 'h' && HAS(p, e, "huge") && (p + 4 == e || p[4] == ' ')) {
		out->huge = true;
		p += 4;
		NEXT();
	}
	COUNTER("anon=")
	COUNTER("dirty=")
	COUNTER("mapped=")
	COUNTER("mapmax=")
	COUNTER("swapcache=")
	COUNTER("active=")
	COUNTER("writeback=")
	while (p[0] == 'N') {
		/* Node ids up to 0xfffff (7 digits), pages up to NM_MAX_PAGES
		 * (11 digits). */
		const char *t = p++;
		uint64_t node = 0, pages;
		while (p < e && (unsigned)(*p - '0') <= 9 && p - t <= 7)
			node = node * 10 + (unsigned)(*p++ - '0');
		if (p == t + 1 || p >= e || *p != '=' || node > 0xfffff)
			return 0;
		p++;
		if (!number(&p, e, 11, &pages) || pages > NM_MAX_PAGES)
			return 0;
		if ((rc = nm_add_node(m, (int)node, pages)) != 0)
			return rc;
		NEXT();
	}
	if (HAS(p, e, "kernelpagesize_kB=")) {
		p += 18;
		if (!number(&p, e, 18, &v) || v == 0 || v > (uint64_t)NM_MAX_PAGE_KB)
			return 0;
		out->pagesize_kb = (int64_t)v;
		if (p == e)
			return 1;
	}
#undef COUNTER
#undef NEXT
	return 0;
}
