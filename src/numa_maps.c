/* numa_maps.c - /proc/PID/numa_maps line parser and per-process summary. */
#include "numa_maps.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int add_node(struct nm_mapping *m, int node, uint64_t pages)
{
	if (m->nnodes == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 8;
		struct nm_node_pages *p = realloc(m->nodes, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		m->nodes = p;
		m->cap = cap;
	}
	m->nodes[m->nnodes].node = node;
	m->nodes[m->nnodes].pages = pages;
	m->nnodes++;
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
	digits = (int)(p - hs);	if (digits == 0 || p >= end || *p != ' ')
		return -EINVAL;
	m->start = addr;
	p++;
	/* Policy: a known mode prefix (two contain a space), then optional
	 * "=flags" and ":nodes", up to the next blank. */
	const char *pol = p;
	m->mode = NM_MODE_UNKNOWN;
	if ((size_t)(end - p) >= 8 && memcmp(p, "default ", 8) == 0) {
		m->mode = NM_MODE_DEFAULT;   /* the common case, inlined */
		p += 7;
	} else for (size_t i = 0; i < sizeof(modes) / sizeof(*modes); i++) {
		if (p < end && *p != modes[i].text[0])
			continue;
		size_t n = modes[i].len;
		if ((size_t)(end - p) >= n && memcmp(p, modes[i].text, n) == 0 &&
		    (p + n == end || p[n] == ' ' || p[n] == '=' || p[n] == ':')) {
			m->mode = modes[i].mode;
			p += n;
			break;
		}
	}
	while (p < end && *p != ' ')
		p++;
	if (p == pol)
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
				if ((rc = add_node(m, (int)node, pages)) != 0)
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
	if (m->pagesize_kb > 0)
		return m->pagesize_kb;
	if (m->huge)
		return huge_kb > 0 ? huge_kb : -1;
	return base_kb;
}

int nm_summary_init(struct nm_summary *s, size_t nnodes)
{
	memset(s, 0, sizeof(*s));
	size_t n = nnodes ? nnodes : 1;
	s->node_kb = calloc(n * NM_KB_ARRAYS, sizeof(int64_t));
	if (!s->node_kb)
		return -ENOMEM;
	s->anon_kb = s->node_kb + n;
	s->file_kb = s->node_kb + 2 * n;
	s->huge_kb = s->node_kb + 3 * n;
	s->pol_kb = s->node_kb + 4 * n;
	s->nnodes = nnodes;
	return 0;
}

void nm_summary_free(struct nm_summary *s)
{
	free(s->node_kb);
	memset(s, 0, sizeof(*s));
}

/* Copy with truncation (policy texts are display summaries). */
static void copy_trunc(char *dst, size_t dstsz, const char *src)
{
	size_t n = strlen(src);
	if (n >= dstsz)
		n = dstsz - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Is pol one of the comma-separated entries of list? */
static bool listed(const char *list, const char *pol)
{
	size_t n = strlen(pol);
	for (const char *p = list; *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == n && memcmp(p, pol, n) == 0)
			return true;
		if (!comma)
			break;
		p = comma + 1;
	}
	return false;
}

static void note_policy(struct nm_summary *s, const char *pol, size_t len,
			char *first, size_t firstsz, size_t *firstlen)
{
	if (s->npolicies == 0) {
		copy_trunc(first, firstsz, pol);
		*firstlen = strlen(first);
		copy_trunc(s->policy, sizeof(s->policy), pol);
		s->npolicies = 1;
		return;
	}
	if (*firstlen == len && memcmp(first, pol, len) == 0)
		return;
	/* Keep a short list of the distinct policies: "mixed: a,b". */
	if (s->npolicies == 1) {
		memcpy(s->policy, "mixed: ", 8);
		copy_trunc(s->policy + 7, sizeof(s->policy) - 7, first);
	}
	if (listed(s->policy + 7, pol))
		return;
	size_t used = strlen(s->policy);
	s->npolicies++;
	if (s->policy[used - 1] == '+')
		return;                     /* already marked as cut short */
	if (used + strlen(pol) + 3 < sizeof(s->policy)) {
		s->policy[used] = ',';
		memcpy(s->policy + used + 1, pol, strlen(pol) + 1);
	} else {
		/* More policies than fit: end with ",+" (cutting the tail). */
		if (used > sizeof(s->policy) - 3)
			used = sizeof(s->policy) - 3;
		memcpy(s->policy + used, ",+", 3);
	}
}

/* Add one parsed mapping's pages to the summary. */
static int add_mapping(const struct nm_params *p, const struct nm_mapping *m,
		       struct nm_summary *s)
{
	int64_t pkb = nm_mapping_page_kb(m, p->base_page_kb, p->default_huge_kb);
	bool pol = m->mode != NM_MODE_DEFAULT && m->mode != NM_MODE_LOCAL &&
		   m->mode != NM_MODE_UNKNOWN;
	int64_t mkb = 0;
	for (size_t i = 0; i < m->nnodes; i++) {
		const struct nm_node_pages *np = &m->nodes[i];
		if (pkb < 0) {
			s->unknown_size_pages += (int64_t)np->pages;
			continue;
		}
		/* Counts past any real machine (the parser caps them) cannot
		 * overflow here; the running total is checked so a hostile file
		 * can never wrap it. */
		int64_t kb = (int64_t)np->pages * pkb, sum;
		int idx = (size_t)np->node < p->nids ? p->index_of_id[np->node] : -1;
		bool known = idx >= 0 && (size_t)idx < s->nnodes;
		int64_t *to = known ? &s->total_kb : &s->other_kb;
		if (__builtin_add_overflow(*to, kb, &sum))
			return -ERANGE;
		*to = sum;
		if (!known) {
			/* Not this topology's node: neither local nor remote. */
			if (s->other_id < 0)
				s->other_id = np->node;
			continue;
		}
		s->node_kb[idx] += kb;
		if (pol) {
			s->pol_kb[idx] += kb;
			mkb += kb;
		}
		if (m->huge)
			s->huge_kb[idx] += kb;
		else if (m->kind == NM_KIND_FILE)
			s->file_kb[idx] += kb;
		else
			s->anon_kb[idx] += kb;
	}
	if (pol && mkb > 0) {
		/* Weigh it among the distinct policies seen (the first NM_POLS). */
		size_t k = 0;
		while (k < s->npols && strncmp(s->pols[k].text, m->policy, sizeof(s->pols[k].text) - 1))
			k++;
		if (k == s->npols && k < NM_POLS) {
			copy_trunc(s->pols[k].text, sizeof(s->pols[k].text), m->policy);
			s->pols[k].mode = m->mode;
			s->pols[k].kb = 0;
			s->npols++;
		}
		if (k < s->npols) {
			s->pols[k].kb += mkb;
			if (!s->pol_top[0] || s->pols[k].kb > s->pol_top_kb) {
				memcpy(s->pol_top, s->pols[k].text, sizeof(s->pol_top));
				s->pol_top_mode = s->pols[k].mode;
				s->pol_top_kb = s->pols[k].kb;
			}
		}
	}
	return 0;
}

void numa_maps_begin(struct nm_summary *s)
{
	size_t n = s->nnodes ? s->nnodes : 1;
	memset(s->node_kb, 0, n * NM_KB_ARRAYS * sizeof(int64_t));
	s->pol_top[0] = '\0';
	s->pol_top_mode = NM_MODE_DEFAULT;
	s->pol_top_kb = 0;
	s->npols = 0;
	s->total_kb = s->other_kb = s->unknown_size_pages = 0;
	s->other_id = -1;
	s->nmappings = s->nbad = s->npolicies = 0;
	s->policy[0] = '\0';
	s->first[0] = '\0';
	s->firstlen = 0;
}

int numa_maps_feed(const char *buf, size_t len, const struct nm_params *p,
		   struct nm_mapping *m, struct nm_summary *s, size_t *used)
{
	const char *q = buf, *end = buf + len;
	bool skip = m->skip_path;
	m->skip_path = true;      /* a summary needs no paths */
	int rc = 0;
	while (q < end) {
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		if (!nl)
			break;            /* an incomplete line: the caller's */
		if (nl > q) {
			int lrc = numa_maps_parse_line(q, (size_t)(nl - q), m);
			if (lrc == -ENOMEM) {
				rc = lrc;
				break;
			}
			if (lrc) {
				s->nbad++;
			} else {
				s->nmappings++;
				note_policy(s, m->policy, m->policy_len, s->first, sizeof(s->first),
					    &s->firstlen);
				if ((rc = add_mapping(p, m, s)) != 0)
					break;
			}
		}
		q = nl + 1;
	}
	m->skip_path = skip;
	*used = (size_t)(q - buf);
	return rc;
}

int numa_maps_end(struct nm_summary *s, size_t leftover)
{
	/* The kernel ends every line with '\n': a last line without one was
	 * cut (the read ended early). */
	if (leftover)
		s->nbad++;
	if (s->nmappings == 0 && s->nbad > 0)
		return -EINVAL;
	return 0;
}

int numa_maps_summarize(const char *buf, size_t len,
			const struct nm_params *p, struct nm_mapping *m,
			struct nm_summary *s)
{
	numa_maps_begin(s);
	size_t used;
	int rc = numa_maps_feed(buf, len, p, m, s, &used);
	if (rc)
		return rc;
	return numa_maps_end(s, len - used);
}
