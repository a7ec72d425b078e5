/* numa_maps.c - /proc/PID/numa_maps line parser (the whole grammar);
 * numa_maps_sum.c sums lines into a process's summary. */
#include "numa_maps.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "numa_maps_int.h"
#include "parse.h"

const char *const nm_mode_names[] = {
	"default", "local", "prefer", "bind", "interleave",
	"weighted interleave", "prefer (many)", "unknown",
};

/* Longest prefixes first: "prefer (many)" before "prefer". */
#define MODE(s, m) { s, sizeof(s) - 1, m }
static const struct {
	const char *text;
	size_t len;
	enum nm_mode mode;
} modes[] = {
	MODE("default", NM_MODE_DEFAULT),        /* the common case first */
	MODE("weighted interleave", NM_MODE_WEIGHTED_INTERLEAVE),
	MODE("prefer (many)", NM_MODE_PREFER_MANY),
	MODE("interleave", NM_MODE_INTERLEAVE),
	MODE("prefer", NM_MODE_PREFER),
	MODE("local", NM_MODE_LOCAL),
	MODE("bind", NM_MODE_BIND),
};
#undef MODE

void nm_mapping_init(struct nm_mapping *m)
{
	memset(m, 0, sizeof(*m));
}

void nm_mapping_free(struct nm_mapping *m)
{
	free(m->nodes);
	memset(m, 0, sizeof(*m));
}

static void reset(struct nm_mapping *m)
{
	m->start = 0;
	m->mode = NM_MODE_UNKNOWN;
	m->policy[0] = '\0';
	m->kind = NM_KIND_ANON;
	m->stack_tid = -1;
	m->huge = false;
	m->file[0] = '\0';
	m->file_truncated = false;
	/* skip_path is the caller's setting: kept. */
	m->anon = m->dirty = m->mapped = m->mapmax = -1;
	m->swapcache = m->active = m->writeback = -1;
	m->pagesize_kb = -1;
	m->nnodes = 0;
}

/* Decimal digits without a call per token; the same overflow rule as
 * parse_u64 (-ERANGE past UINT64_MAX). */
static inline int dec_u64(const char **pp, const char *end, uint64_t *out)
{
	const char *s = *pp;
	uint64_t v = 0;
	if (s >= end || (unsigned)(*s - '0') > 9)
		return -EINVAL;
	/* Leading zeros add nothing (and do not count as digits). */
	while (*s == '0' && s + 1 < end && (unsigned)(s[1] - '0') <= 9)
		s++;
	const char *d0 = s;
	/* 19 digits cannot overflow; only a 20th needs the check. */
	do {
		v = v * 10 + (unsigned)(*s - '0');
		s++;
	} while (s < end && (unsigned)(*s - '0') <= 9 && s - d0 < 19);
	if (s < end && (unsigned)(*s - '0') <= 9) {
		unsigned d = (unsigned)(*s - '0');
		if (v > UINT64_MAX / 10 || (v == UINT64_MAX / 10 && d > UINT64_MAX % 10))
			return -ERANGE;
		v = v * 10 + d;
		s++;
		if (s < end && (unsigned)(*s - '0') <= 9)
			return -ERANGE;
	}
	*pp = s;
	*out = v;
	return 0;
}

static void decode_path(struct nm_mapping *m, const char *s, const char *e)
{
	size_t o = 0;
	while (s < e) {
		char c = *s;
		if (c == '\\' && e - s >= 4 && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			c = (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) |
				   (s[3] - '0'));
			s += 4;
		} else {
			s++;
		}
		if (o + 1 >= sizeof(m->file)) {
			m->file_truncated = true;
			break;
		}
		m->file[o++] = c;
	}
	m->file[o] = '\0';
}

int nm_grow_nodes(struct nm_mapping *m)
{
	struct nm_node_pages *p = buf_grow_array(m->nodes, &m->cap,
						 m->cap < 8 ? 8 : m->cap + 1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	m->nodes = p;
	return 0;
}

size_t nm_match_mode(const char *p, const char *end, enum nm_mode *mode)
{
	for (size_t i = 0; i < sizeof(modes) / sizeof(*modes); i++) {
		if (p < end && *p != modes[i].text[0])
			continue;
		size_t n = modes[i].len;
		if ((size_t)(end - p) >= n && memcmp(p, modes[i].text, n) == 0 &&
		    (p + n == end || p[n] == ' ' || p[n] == '=' || p[n] == ':')) {
			*mode = modes[i].mode;
			return n;
		}
	}
	*mode = NM_MODE_UNKNOWN;
	return 0;
}

static bool tok_is(const char *s, const char *e, const char *word)
{
	size_t n = strlen(word);
	return (size_t)(e - s) == n && memcmp(s, word, n) == 0;
}

int numa_maps_parse_line(const char *s, size_t len, struct nm_mapping *m)
{
	reset(m);
	const char *p = s, *end = s + len;
	while (end > p && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	/* Start address in hex. */
	uint64_t addr = 0;
	int digits = 0;
	/* A table, not branches: this runs for every mapping. */
	static const signed char hexval[256] = {
		['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
		['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12,
		['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12,
		['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
	};   /* digit value + 1; 0 = not a hex digit */
	const char *hs = p;
	int h;
	const char *lim = end - p > 17 ? p + 17 : end;
	while (p < lim && (h = hexval[(unsigned char)*p]) != 0) {
		addr = (addr << 4) | (uint64_t)(h - 1);
		p++;
	}
	if (p - hs > 16)
		return -EINVAL;
	digits = (int)(p - hs);
	if (digits == 0 || p >= end || *p != ' ')
		return -EINVAL;
	m->start = addr;
	p++;
	const char *pol = p;
	if ((p = nm_policy_end(p, end, &m->mode)) == pol)
		return -EINVAL;
	size_t plen = (size_t)(p - pol);
	if (plen >= sizeof(m->policy))
		plen = sizeof(m->policy) - 1;
	memcpy(m->policy, pol, plen);
	m->policy[plen] = '\0';
	m->policy_len = plen;

/* Does the token at t start with the literal lit? (n is a constant, so
 * the compare is inlined.) */
#define STARTS(t, lit) ((size_t)(end - (t)) >= sizeof(lit) - 1 && \
			memcmp((t), (lit), sizeof(lit) - 1) == 0)
	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		if (p >= end)
			break;
		const char *t = p;
		int64_t *dst = NULL;
		size_t klen = 0;
		int rc;
		/* Dispatch on the first byte: this loop runs for every token
		 * of every mapping of every process. Counters are parsed in
		 * place; anything else is skipped to the next blank. */
		switch (t[0]) {
		case 'N':
			if (end - t > 2 && t[1] >= '0' && t[1] <= '9') {
				const char *q = t + 1;
				uint64_t node, pages;
				if (dec_u64(&q, end, &node) != 0 || node > 0xfffff)
					return -EINVAL;
				/* "N<digit>" alone is not a node count: skipped, as
				 * any unknown token; longer ones need "=<pages>". */
				if ((q == end || *q == ' ') && q - t == 2) {
					p = q;
					continue;
				}
				if (q >= end || *q != '=')
					return -EINVAL;
				q++;
				if (dec_u64(&q, end, &pages) != 0 || (q < end && *q != ' '))
					return -EINVAL;
				if (pages > NM_MAX_PAGES)
					return -ERANGE;
				if ((rc = nm_add_node(m, (int)node, pages)) != 0)
					return rc;
				p = q;
				continue;
			}
			break;
		case 'a':
			if (STARTS(t, "anon="))
				dst = &m->anon, klen = 5;
			else if (STARTS(t, "active="))
				dst = &m->active, klen = 7;
			break;
		case 'd':
			if (STARTS(t, "dirty="))
				dst = &m->dirty, klen = 6;
			break;
		case 'm':
			if (STARTS(t, "mapped="))
				dst = &m->mapped, klen = 7;
			else if (STARTS(t, "mapmax="))
				dst = &m->mapmax, klen = 7;
			break;
		case 'w':
			if (STARTS(t, "writeback="))
				dst = &m->writeback, klen = 10;
			break;
		case 'k':
			if (STARTS(t, "kernelpagesize_kB="))
				dst = &m->pagesize_kb, klen = 18;
			break;
		case 's':
			if (STARTS(t, "swapcache="))
				dst = &m->swapcache, klen = 10;
			break;
		default:
			break;
		}
		if (dst) {
			const char *q = t + klen;
			uint64_t v;
			if (dec_u64(&q, end, &v) != 0 || (q < end && *q != ' ') ||
			    v > (uint64_t)INT64_MAX)
				return -EINVAL;
			if (dst == &m->pagesize_kb && v > NM_MAX_PAGE_KB)
				return -ERANGE;
			if (dst == &m->pagesize_kb && v == 0)
				return -EINVAL;   /* no page is 0 kB: not 4 kB either */
			*dst = (int64_t)v;
			p = q;
			continue;
		}
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		p = sp ? sp : end;
		const char *te = p;
		int64_t v;
		if (STARTS(t, "file=") && te - t > 5) {
			m->kind = NM_KIND_FILE;
			if (!m->skip_path)
				decode_path(m, t + 5, te);
		} else if (tok_is(t, te, "heap")) {
			m->kind = NM_KIND_HEAP;
		} else if (tok_is(t, te, "huge")) {
			m->huge = true;
		} else if (tok_is(t, te, "stack")) {
			m->kind = NM_KIND_STACK;
		} else if (STARTS(t, "stack:") && te - t > 6) {
			m->kind = NM_KIND_STACK;
			const char *q = t + 6;
			if (parse_i64(&q, te, &v) == 0 && q == te && v >= 0 &&
			    v < 0x7fffffff)
				m->stack_tid = (int)v;
		}
		/* Unknown tokens from newer kernels are skipped. */
	}
#undef STARTS
	return 0;
}

int64_t nm_mapping_page_kb(const struct nm_mapping *m, int64_t base_kb,
			   int64_t huge_kb)
{
	return nm_page_kb(m->pagesize_kb, m->huge, base_kb, huge_kb);
}
