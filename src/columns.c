/* columns.c - what reads the process-table columns (their rows are the
 * process facts' catalogue, src/fields_proc.c): names, headers, cells,
 * padding and the sort. */
#include "columns.h"
#include "columns_cells.h"
#include "fields_proc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sanitize.h"
#include "format.h"
#include "tiers.h"
#include "why.h"

/* The columns' rows are the process facts' (src/fields_proc.c). */
#define cols(c) (fields_proc_col(c)->col)

const struct col_def *col_get(enum snap_col c)
{
	return c >= 0 && c < COL_NCOLS ? &cols(c) : NULL;
}

const char *col_help_name(enum snap_col c)
{
	return cols(c).per_node ? "N<id>" : cols(c).per_tier ? "T<id>" : cols(c).name;
}

bool col_same(enum snap_col a, int anode, enum snap_col b, int bnode)
{
	return a == b && ((!cols(a).per_node && !cols(a).per_tier) || anode == bnode);
}

void col_ref_name(const struct topology *t, struct col_ref r, char *out, size_t n)
{
	if (cols(r.col).per_node && r.node >= 0 && t && (size_t)r.node < t->nnodes)
		snprintf(out, n, "N%d", t->nodes[r.node].id);
	else if (cols(r.col).per_tier && r.node >= 0)
		snprintf(out, n, "T%d", r.node);
	else
		snprintf(out, n, "%s", cols(r.col).name);
}

/* ---- names ----------------------------------------------------------- */

int col_parse_name(const struct topology *t, const char *name, struct col_ref *out)
{
	static const struct { const char *alias; enum snap_col col; } aliases[] = {
		{ "cpu", COL_CPU }, { "mem", COL_RSS }, { "rss_kb", COL_RSS },
		{ "remote_pct", COL_REMOTE_PCT }, { "remotepct", COL_REMOTE_PCT },
		{ "racc", COL_RACC }, { "remote_access_pct", COL_RACC },
		{ "comm", COL_COMMAND }, { "threads", COL_THREADS }, { "nlwp", COL_THREADS },
		{ "time+", COL_TIME }, { "nodes", COL_NODE },
		{ "hot_kb", COL_HOT }, { "hotrem_kb", COL_HOTREM }, { "hot_remote", COL_HOTREM },
		{ "hotrem_pct", COL_HOTREM_PCT }, { "hotrempct", COL_HOTREM_PCT },
	};
	for (int c = 0; c < COL_NCOLS; c++) {
		if (strcasecmp(name, cols(c).name) == 0) {
			*out = (struct col_ref){ (enum snap_col)c, -1 };
			return 0;
		}
	}
	for (size_t i = 0; i < sizeof(aliases) / sizeof(*aliases); i++) {
		if (strcasecmp(name, aliases[i].alias) == 0) {
			*out = (struct col_ref){ aliases[i].col, -1 };
			return 0;
		}
	}
	if ((name[0] == 'N' || name[0] == 'n') && name[1] >= '0' && name[1] <= '9') {
		char *end;
		long id = strtol(name + 1, &end, 10);
		if (*end || id < 0 || id >= 0x7fffffff)
			return -EINVAL;
		int idx = t ? topology_node_index(t, (int)id) : 0;
		if (idx < 0)
			return -ENOENT;
		*out = (struct col_ref){ COL_NODE, idx };
		return 0;
	}
	return col_tier_parse(name, out) ? 0 : -EINVAL;
}

int col_parse_sort(const struct topology *t, const char *name, struct sort_key *key)
{
	struct col_ref r;
	int rc = col_parse_name(t, name, &r);
	if (rc)
		return rc;
	if ((cols(r.col).per_node || cols(r.col).per_tier) && r.node < 0)
		return -EINVAL;
	*key = (struct sort_key){ r.col, r.node, cols(r.col).desc_sort, NULL, false };
	return 0;
}

void col_valid_names(char *out, size_t n)
{
	size_t o = 0;
	out[0] = '\0';
	for (int c = 0; c < COL_NCOLS && o < n; c++)
		o += (size_t)snprintf(out + o, n - o, "%s%s", c ? " " : "",
				      col_help_name((enum snap_col)c));
}

int col_list_parse(const struct topology *t, const char *spec, struct col_list *l,
		   char *err, size_t errsz)
{
	char *copy = strdup(spec), *save = NULL;
	if (!copy)
		return -ENOMEM;
	int rc = 0;
	l->n = 0;
	/* An empty name (",,", a comma first or last) is a mistake, as in -p. */
	size_t len = strlen(spec);
	if (len && (spec[0] == ',' || spec[len - 1] == ',' || strstr(spec, ",,"))) {
		rc = -EINVAL;
		if (err)
			snprintf(err, errsz, "an empty name in the column list '%s'", spec);
	}
	for (char *tok = rc ? NULL : strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		struct col_ref r;
		rc = col_parse_name(t, tok, &r);
		if (rc == 0)
			rc = col_list_insert(l, l->n, r);
		else if (err) {
			char names[256];
			col_valid_names(names, sizeof(names));
			snprintf(err, errsz, rc == -ENOENT ? "no node '%s' on this machine (columns: %s)"
							    : "unknown column '%s' (columns: %s)", tok, names);
		}
	}
	if (!rc && l->n == 0) {
		rc = -EINVAL;
		if (err)
			snprintf(err, errsz, "empty column list");
	}
	free(copy);
	return rc;
}

/* ---- cells and headers ----------------------------------------------- */

void col_header(const struct col_ctx *c, enum snap_col col, int node, char *out, size_t n)
{
	if (col == COL_NODE && node >= 0)
		snprintf(out, n, "N%d", c->t->nodes[node].id);
	else if (cols(col).per_tier && node >= 0)
		snprintf(out, n, "T%d", node);
	else
		snprintf(out, n, "%s", c->monitor ? cols(col).ui_hdr : cols(col).text_hdr);
}

int col_width(const struct col_ctx *c, enum snap_col col)
{
	int w = c->monitor ? cols(col).ui_w : cols(col).text_w;
	return w < 0 ? -w : w;
}

void col_cell(const struct col_ctx *c, enum snap_col col, int node,
	      const struct snap_proc *p, char *out, size_t n)
{
	cols(col).cell(c, p, node, out, n);
}

void col_pad(const struct col_ctx *c, enum snap_col col, bool last,
	     const char *s, char *out, size_t n)
{
	int w = c->monitor ? cols(col).ui_w : cols(col).text_w;
	if (w > 0) {
		snprintf(out, n, "%*s", w, s);
	} else if (last) {
		snprintf(out, n, "%s", s);
	} else {
		/* Cut and padded by display columns, never inside a
		 * character (the JSON has it whole). */
		int aw = -w, used;
		size_t fit = utf8_fit(s, aw, &used);
		if (s[fit] && aw >= 1)
			fit = utf8_fit(s, aw - 1, &used);
		snprintf(out, n, "%.*s%s%*s", (int)fit, s, s[fit] ? "+" : "",
			 aw - used - (s[fit] ? 1 : 0), "");
	}
}

/* ---- sorting --------------------------------------------------------- */

/* The comparison with the key's column row d (found once a sort). */
static int compare(const struct snap_proc *a, const struct snap_proc *b, const struct sort_key *k,
		   const struct col_def *d)
{
	int r = 0;
	if (d->str) {
		const char *x = d->str(a), *y = d->str(b);
		if (!x != !y)
			return x ? -1 : 1;      /* unknown last, both ways */
		r = x ? strcmp(x, y) : 0;
	} else {
		double x = 0, y = 0;
		bool kx = d->tier_num ? d->tier_num(k->tiers, a, k->node, &x) : d->num(a, k->node, &x);
		bool ky = d->tier_num ? d->tier_num(k->tiers, b, k->node, &y) : d->num(b, k->node, &y);
		if (kx != ky)
			return kx ? -1 : 1;
		if (kx && x != y)
			r = (x < y) ? -1 : 1;
	}
	if (k->descending)
		r = -r;
	/* Heat ties (unknown, measuring, none hot): the most remote first. */
	if (r == 0 && (k->col == COL_HOT || k->col == COL_HOTREM || k->col == COL_HOTREM_PCT ||
		       k->col == COL_HOTSLOW))
		r = (b->remote_kb > a->remote_kb) - (b->remote_kb < a->remote_kb);
	if (r == 0 && k->col != COL_RSS)        /* ties: the biggest first */
		r = (b->info.rss_kb > a->info.rss_kb) - (b->info.rss_kb < a->info.rss_kb);
	if (r == 0)
		r = (a->info.pid > b->info.pid) - (a->info.pid < b->info.pid);
	return r;
}

int col_compare(const struct snap_proc *a, const struct snap_proc *b,
		const struct sort_key *k)
{
	return compare(a, b, k, &cols(k->col));
}

struct sort_ctx {
	struct sort_key k;
	const struct col_def *d;
	const struct snap_proc *v;
};

static int cmp_row(const void *va, const void *vb, void *ctx)
{
	const struct sort_ctx *c = ctx;
	return compare(&c->v[*(const uint32_t *)va], &c->v[*(const uint32_t *)vb], &c->k, c->d);
}

void snapshot_sort(struct snapshot *s, const struct sort_key *key)
{
	/* glibc's qsort_r (_GNU_SOURCE): the key goes with the call, no
	 * file-static state. */
	s->norder = 0;
	if (s->nprocs > s->ordercap) {
		size_t cap = s->ordercap;
		uint32_t *o = buf_grow_array(s->order, &cap, s->nprocs, sizeof(*o));
		if (!o)
			return;          /* procs' own order */
		s->order = o;
		s->ordercap = cap;
	}
	for (size_t i = 0; i < s->nprocs; i++)
		s->order[i] = (uint32_t)i;
	s->norder = s->nprocs;
	if (s->nprocs < 2)
		return;
	struct sort_ctx c = { col_sort_effective(key, s), NULL, s->procs };
	c.k.tiers = &s->nk.tiers;    /* the T<id> values: this sample's tiers */
	c.d = &cols(c.k.col);
	qsort_r(s->order, s->nprocs, sizeof(*s->order), cmp_row, &c);
}

struct sort_key col_sort_effective(const struct sort_key *key, const struct snapshot *s)
{
	/* Heat there (watched, usable or not yet): the order stays put while
	 * a process's heat is measuring or goes stale for a sample, and those
	 * sort as unknown, among themselves by REMOTE. */
	struct sort_key k = *key;
	if (!k.heat_default || !s->nacc)
		return k;
	k.col = tiers_multi(&s->nk.tiers) ? COL_HOTSLOW : COL_HOTREM;
	k.node = -1;
	k.descending = true;
	return k;
}

int col_setup(const struct topology *t, const char *sort, const char *spec, bool age,
	      struct sort_key *key, struct col_list *l, char *err, size_t errsz)
{
	*key = (struct sort_key){ COL_REMOTE, -1, true, NULL, true };
	if (sort && col_parse_sort(t, sort, key) != 0) {
		snprintf(err, errsz, "-s: no column '%s' on this machine", sort);
		return -EINVAL;
	}
	if (!spec)
		return 0;
	char e[480];
	int rc = col_list_parse(t, spec, l, e, sizeof(e));
	if (rc == 0 && age)
		rc = col_list_set_age(l, true);
	if (rc)
		snprintf(err, errsz, "-o: %s", e);
	return rc;
}
