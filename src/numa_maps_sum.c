/* numa_maps_sum.c - a process's numa_maps summed per node, kind and
 * policy, from whole buffers or chunks; lines in the kernel's shape go
 * through numa_maps_fast.c, the rest through numa_maps_parse_line. */
#include "numa_maps.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "numa_maps_int.h"

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

/* The line's policy among the summary's: the same as the first one seen
 * (the common case) costs a compare. */
static void note_line_policy(struct nm_summary *s, const struct nm_line *v)
{
	if (s->npolicies && s->firstlen == v->plen && nm_same_bytes(s->first, v->pol, v->plen))
		return;
	char pol[sizeof(((struct nm_mapping *)0)->policy)];
	memcpy(pol, v->pol, v->plen);
	pol[v->plen] = '\0';
	note_policy(s, pol, v->plen, s->first, sizeof(s->first), &s->firstlen);
}

/* Is text (NUL-terminated, a pols[] entry) pol cut to text's size? */
static bool pol_is(const char *text, size_t textsz, const char *pol, size_t plen)
{
	size_t n = plen < textsz - 1 ? plen : textsz - 1;
	return strlen(text) == n && memcmp(text, pol, n) == 0;
}

/* Add one parsed line's pages (nodes[0..nnodes)) to the summary. */
static int add_mapping(const struct nm_params *p, const struct nm_line *v,
		       const struct nm_node_pages *nodes, size_t nnodes,
		       struct nm_summary *s)
{
	int64_t pkb = nm_page_kb(v->pagesize_kb, v->huge, p->base_page_kb, p->default_huge_kb);
	bool pol = v->mode != NM_MODE_DEFAULT && v->mode != NM_MODE_LOCAL &&
		   v->mode != NM_MODE_UNKNOWN;
	int64_t mkb = 0;
	for (size_t i = 0; i < nnodes; i++) {
		const struct nm_node_pages *np = &nodes[i];
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
		if (v->huge)
			s->huge_kb[idx] += kb;
		else if (v->file)
			s->file_kb[idx] += kb;
		else
			s->anon_kb[idx] += kb;
	}
	if (pol && mkb > 0) {
		/* Weigh it among the distinct policies seen (the first NM_POLS). */
		size_t k = 0, tsz = sizeof(s->pols[0].text);
		while (k < s->npols && !pol_is(s->pols[k].text, tsz, v->pol, v->plen))
			k++;
		if (k == s->npols && k < NM_POLS) {
			size_t n = v->plen < tsz - 1 ? v->plen : tsz - 1;
			memcpy(s->pols[k].text, v->pol, n);
			s->pols[k].text[n] = '\0';
			s->pols[k].mode = v->mode;
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

/* One line: 1 parsed into *v and m->nodes, -EINVAL (or another -errno
 * the parser gives) bad, -ENOMEM. rest: what follows the address, NULL
 * when the fast path cannot take the line (or the reference is asked). */
static int parse_line(const char *q, const char *nl, const char *rest,
		      struct nm_mapping *m, struct nm_line *v)
{
	int rc = rest ? nm_fast_rest(rest, nl, m, v) : 0;
	if (rc != 0)
		return rc;
	if ((rc = numa_maps_parse_line(q, (size_t)(nl - q), m)) != 0)
		return rc;
	v->mode = m->mode;
	v->pol = m->policy;
	v->plen = m->policy_len;
	v->file = m->kind == NM_KIND_FILE;
	v->huge = m->huge;
	v->pagesize_kb = m->pagesize_kb;
	return 1;
}

int numa_maps_feed(const char *buf, size_t len, const struct nm_params *p,
		   struct nm_mapping *m, struct nm_summary *s, size_t *used)
{
	const char *q = buf, *end = buf + len;
	bool skip = m->skip_path;
	m->skip_path = true;      /* a summary needs no paths */
	int rc = 0;
	/* The last line parsed whole, from after its address: a line the same
	 * from there on gives the same (its address is checked): runs of
	 * alike mappings (guard pages, thread stacks, arenas) are common.
	 * Such a line needs no search for its end either. */
	const char *same = NULL;
	size_t samelen = 0;
	bool first_pol = false;   /* its policy is the summary's first */
	struct nm_line v;
	while (q < end) {
		/* An address never runs past the line's '\n'. */
		const char *rest = p->reference ? NULL : nm_fast_addr(q, end), *nl;
		int lrc = 1;
		if (rest && same && (size_t)(end - rest) > samelen && rest[samelen] == '\n' &&
		    nm_same_bytes(rest, same, samelen)) {
			nl = rest + samelen;
		} else {
			if ((nl = memchr(q, '\n', (size_t)(end - q))) == NULL)
				break;    /* an incomplete line: the caller's */
			if (nl == q) {
				q++;
				continue;
			}
			same = NULL;
			lrc = parse_line(q, nl, rest, m, &v);
			if (lrc == 1 && rest) {
				same = rest;
				samelen = (size_t)(nl - rest);
			}
			first_pol = false;
		}
		if (lrc == -ENOMEM) {
			rc = lrc;
			break;
		}
		if (lrc < 0) {
			s->nbad++;
		} else {
			s->nmappings++;
			if (!first_pol) {
				note_line_policy(s, &v);
				first_pol = s->firstlen == v.plen &&
					    nm_same_bytes(s->first, v.pol, v.plen);
			}
			if ((rc = add_mapping(p, &v, m->nodes, m->nnodes, s)) != 0)
				break;
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
