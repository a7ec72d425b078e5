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
static const struct {
	const char *text;
	enum nm_mode mode;
} modes[] = {
	{ "weighted interleave", NM_MODE_WEIGHTED_INTERLEAVE },
	{ "prefer (many)", NM_MODE_PREFER_MANY },
	{ "interleave", NM_MODE_INTERLEAVE },
	{ "default", NM_MODE_DEFAULT },
	{ "prefer", NM_MODE_PREFER },
	{ "local", NM_MODE_LOCAL },
	{ "bind", NM_MODE_BIND },
};

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
	m->anon = m->dirty = m->mapped = m->mapmax = -1;
	m->swapcache = m->active = m->writeback = -1;
	m->pagesize_kb = -1;
	m->nnodes = 0;
}

static int hexdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
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

/* "key=value" with an unsigned value: 1 if key matched, 0 if not, -EINVAL. */
static int kv(const char *s, const char *e, const char *key, int64_t *out)
{
	size_t n = strlen(key);
	if ((size_t)(e - s) <= n || memcmp(s, key, n) != 0 || s[n] != '=')
		return 0;
	const char *p = s + n + 1;
	uint64_t v;
	if (parse_u64(&p, e, &v) != 0 || p != e || v > (uint64_t)INT64_MAX)
		return -EINVAL;
	*out = (int64_t)v;
	return 1;
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
	while (p < end && hexdigit(*p) >= 0) {
		if (++digits > 16)
			return -EINVAL;
		addr = (addr << 4) | (uint64_t)hexdigit(*p);
		p++;
	}
	if (digits == 0 || p >= end || *p != ' ')
		return -EINVAL;
	m->start = addr;
	p++;
	/* Policy: a known mode prefix (two contain a space), then optional
	 * "=flags" and ":nodes", up to the next blank. */
	const char *pol = p;
	m->mode = NM_MODE_UNKNOWN;
	for (size_t i = 0; i < sizeof(modes) / sizeof(*modes); i++) {
		size_t n = strlen(modes[i].text);
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

	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		if (p >= end)
			break;
		const char *t = p;
		while (p < end && *p != ' ')
			p++;
		const char *te = p;
		int rc;
		int64_t v;
		if ((size_t)(te - t) > 5 && memcmp(t, "file=", 5) == 0) {
			m->kind = NM_KIND_FILE;
			decode_path(m, t + 5, te);
		} else if (tok_is(t, te, "heap")) {
			m->kind = NM_KIND_HEAP;
		} else if (tok_is(t, te, "stack")) {
			m->kind = NM_KIND_STACK;
		} else if ((size_t)(te - t) > 6 && memcmp(t, "stack:", 6) == 0) {
			m->kind = NM_KIND_STACK;
			const char *q = t + 6;
			if (parse_i64(&q, te, &v) == 0 && q == te && v >= 0 &&
			    v < 0x7fffffff)
				m->stack_tid = (int)v;
		} else if (tok_is(t, te, "huge")) {
			m->huge = true;
		} else if (t[0] == 'N' && te - t > 2 && t[1] >= '0' && t[1] <= '9') {
			const char *q = t + 1;
			uint64_t node, pages;
			if (parse_u64(&q, te, &node) != 0 || q >= te || *q != '=' ||
			    node > 0xfffff)
				return -EINVAL;
			q++;
			if (parse_u64(&q, te, &pages) != 0 || q != te)
				return -EINVAL;
			if (pages > NM_MAX_PAGES)
				return -ERANGE;
			if ((rc = add_node(m, (int)node, pages)) != 0)
				return rc;
		} else if ((rc = kv(t, te, "anon", &m->anon)) ||
			   (rc = kv(t, te, "dirty", &m->dirty)) ||
			   (rc = kv(t, te, "mapped", &m->mapped)) ||
			   (rc = kv(t, te, "mapmax", &m->mapmax)) ||
			   (rc = kv(t, te, "swapcache", &m->swapcache)) ||
			   (rc = kv(t, te, "active", &m->active)) ||
			   (rc = kv(t, te, "writeback", &m->writeback)) ||
			   (rc = kv(t, te, "kernelpagesize_kB", &m->pagesize_kb))) {
			if (rc < 0)
				return rc;
			if (m->pagesize_kb > NM_MAX_PAGE_KB)
				return -ERANGE;
		}
		/* Unknown tokens from newer kernels are skipped. */
	}
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
	s->node_kb = calloc(n * 4, sizeof(int64_t));
	if (!s->node_kb)
		return -ENOMEM;
	s->anon_kb = s->node_kb + n;
	s->file_kb = s->node_kb + 2 * n;
	s->huge_kb = s->node_kb + 3 * n;
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

static void note_policy(struct nm_summary *s, const char *pol,
			char *first, size_t firstsz)
{
	if (s->npolicies == 0) {
		copy_trunc(first, firstsz, pol);
		copy_trunc(s->policy, sizeof(s->policy), pol);
		s->npolicies = 1;
		return;
	}
	if (strcmp(first, pol) == 0)
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

int numa_maps_summarize(const char *buf, size_t len,
			const struct nm_params *p, struct nm_mapping *m,
			struct nm_summary *s)
{
	size_t n = s->nnodes ? s->nnodes : 1;
	memset(s->node_kb, 0, n * 4 * sizeof(int64_t));
	s->total_kb = s->other_kb = s->unknown_size_pages = 0;
	s->nmappings = s->nbad = s->npolicies = 0;
	s->policy[0] = '\0';
	char first[80] = "";
	const char *q = buf, *end = buf + len;
	while (q < end) {
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		const char *le = nl ? nl : end;
		if (le > q && !nl) {
			/* The kernel ends every line with '\n': a last line
			 * without one was cut (the read ended early). */
			s->nbad++;
		} else if (le > q) {
			int rc = numa_maps_parse_line(q, (size_t)(le - q), m);
			if (rc == -ENOMEM)
				return rc;
			if (rc) {
				s->nbad++;
			} else {
				s->nmappings++;
				note_policy(s, m->policy, first, sizeof(first));
				int64_t pkb = nm_mapping_page_kb(m, p->base_page_kb,
								 p->default_huge_kb);
				for (size_t i = 0; i < m->nnodes; i++) {
					const struct nm_node_pages *np = &m->nodes[i];
					if (pkb < 0) {
						s->unknown_size_pages += (int64_t)np->pages;
						continue;
					}
					/* Counts past any real machine (the parser caps
					 * them) cannot overflow here; the running total is
					 * checked so a hostile file can never wrap it. */
					int64_t kb = (int64_t)np->pages * pkb, sum;
					if (__builtin_add_overflow(s->total_kb, kb, &sum))
						return -ERANGE;
					int idx = (size_t)np->node < p->nids ?
						  p->index_of_id[np->node] : -1;
					s->total_kb = sum;
					if (idx < 0 || (size_t)idx >= s->nnodes) {
						s->other_kb += kb;
						continue;
					}
					s->node_kb[idx] += kb;
					if (m->huge)
						s->huge_kb[idx] += kb;
					else if (m->kind == NM_KIND_FILE)
						s->file_kb[idx] += kb;
					else
						s->anon_kb[idx] += kb;
				}
			}
		}
		q = nl ? nl + 1 : end;
	}
	if (s->nmappings == 0 && s->nbad > 0)
		return -EINVAL;
	return 0;
}
