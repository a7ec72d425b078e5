/* fleet_query.c - the fleet's PromQL, one row per query, every metric
 * named by its row of the exposition's family table (output_prom_fam.h,
 * node_fields.h), never by its text: the queries follow a rename. The
 * recording rules' names (contrib/prometheus/numatop-rules.yml) are made
 * from the same rows: instance:<counter without _total>:rate5m. */
#include "fleet_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fields_proc.h"
#include "node_fields.h"
#include "output_prom_fam.h"

struct sb {
	char *p;
	size_t n, len;
	int err;
};

__attribute__((format(printf, 2, 3)))
static void sb_add(struct sb *b, const char *fmt, ...)
{
	if (b->err)
		return;
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(b->p + b->len, b->n - b->len, fmt, ap);
	va_end(ap);
	if (w < 0 || (size_t)w >= b->n - b->len)
		b->err = -ENOSPC;
	else
		b->len += (size_t)w;
}

static const char *fam(enum fam f)
{
	return output_prom_fam(f)->name;
}

/* The Prometheus name of the node field whose JSON key is key. */
static const char *node_fam(const char *key)
{
	for (size_t i = 0; i < node_nfields; i++)
		if (strcmp(node_fields[i].key, key) == 0)
			return node_fields[i].prom;
	return "numatop_unknown_node_field";
}

/* The matcher's inside, "job=\"numa\"" of "{job=\"numa\"}", into m:
 * one line, braces only around it, quotes paired. 0 or -EINVAL. */
int fleet_matcher(const char *match, char *m, size_t n)
{
	if (!match)
		match = "";
	while (*match == ' ' || *match == '\t')
		match++;
	size_t len = strlen(match);
	while (len && (match[len - 1] == ' ' || match[len - 1] == '\t'))
		len--;
	if (len && match[0] == '{') {
		if (match[len - 1] != '}')
			return -EINVAL;
		match++;
		len -= 2;
	}
	if (len >= n)
		return -EINVAL;
	bool quoted = false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)match[i];
		if (c < 0x20 || c == 0x7f)
			return -EINVAL;
		if (quoted && c == '\\' && i + 1 < len) {
			i++;
			continue;
		}
		if (c == '"')
			quoted = !quoted;
		else if (!quoted && (c == '{' || c == '}' || c == '[' || c == ']' || c == '(' || c == ')'))
			return -EINVAL;
	}
	if (quoted)
		return -EINVAL;
	memcpy(m, match, len);
	m[len] = '\0';
	return 0;
}

/* NAME{M} */
static void sel(struct sb *b, const char *name, const char *m)
{
	sb_add(b, "%s{%s}", name, m);
}

/* {__name__=~"A|B|...",M} of the families fs[0 .. n). */
static void sel_any(struct sb *b, const char *const *fs, size_t n, const char *m)
{
	sb_add(b, "{__name__=~\"");
	for (size_t i = 0; i < n; i++)
		sb_add(b, "%s%s", i ? "|" : "", fs[i]);
	sb_add(b, "\"%s%s}", *m ? "," : "", m);
}

/* The counters whose rates the fleet reads, and the label that tells
 * them apart in FQ_RATES's answer. */
static const struct { enum fam f; const char *dir; } rated[] = {
	{ F_TIER_PROMOTED, "promote" },
	{ F_TIER_DEMOTED, "demote" },
};
#define NRATED (sizeof(rated) / sizeof(rated[0]))

/* The families of each host's top processes (FQ_TOP), and their
 * recording rules' names: instance:<family>:topk<FLEET_TOP>. */
static void top_fams(const char **fs)
{
	fs[0] = fields_proc_col(COL_REMOTE)->prom;
	fs[1] = fields_proc_col(COL_HOTREM)->prom;
	fs[2] = fam(F_COMM_REMOTE);
	fs[3] = fam(F_COMM_HOT_REMOTE);
}
#define NTOP 4

const char *fleet_rule_name(size_t i, char *out, size_t n)
{
	if (i >= NRATED + NTOP)
		return NULL;
	if (i >= NRATED) {
		const char *fs[NTOP];
		top_fams(fs);
		snprintf(out, n, "instance:%s:topk%d", fs[i - NRATED], FLEET_TOP);
		return out;
	}
	const char *name = fam(rated[i].f);
	size_t len = strlen(name);
	if (len > 6 && strcmp(name + len - 6, "_total") == 0)
		len -= 6;
	snprintf(out, n, "instance:%.*s:rate5m", (int)len, name);
	return out;
}

static const char *const names[FQ_N] = {
	[FQ_UP] = "up", [FQ_INFO] = "info", [FQ_NODES] = "nodes", [FQ_HOST] = "host",
	[FQ_TOP] = "top", [FQ_RATES] = "rates", [FQ_TOP_RAW] = "top (without the rules)",
};

const char *fleet_query_name(enum fleet_query q)
{
	return q < FQ_N ? names[q] : "?";
}

static void rates(struct sb *b, const char *m, bool recorded)
{
	char rule[128];
	for (size_t i = 0; i < NRATED; i++) {
		sb_add(b, "%slabel_replace(", i ? " or " : "");
		sel(b, fleet_rule_name(i, rule, sizeof(rule)), m);
		sb_add(b, ", \"numatop_fleet\", \"%s\", \"\", \"\")", rated[i].dir);
	}
	for (size_t i = 0; i < NRATED && !recorded; i++) {
		sb_add(b, " or label_replace(sum without (tier) (rate(");
		sel(b, fam(rated[i].f), m);
		sb_add(b, "[5m])), \"numatop_fleet\", \"%s\", \"\", \"\")", rated[i].dir);
	}
}

int fleet_query_build(enum fleet_query q, const char *match, bool recorded, char *out, size_t n)
{
	char m[1024];
	if (n == 0)
		return -ENOSPC;
	if (fleet_matcher(match, m, sizeof(m)))
		return -EINVAL;
	struct sb b = { out, n, 0, 0 };
	out[0] = '\0';
	switch (q) {
	case FQ_UP:
		sb_add(&b, "up and on (instance, job) last_over_time(");
		sel(&b, fam(F_BUILD), m);
		sb_add(&b, "[1h])");
		break;
	case FQ_INFO:
		/* Its last sample's age: now, or (stopped) within the hour at
		 * 30 s steps (a stopped series is stale at once). */
		sb_add(&b, "time() - timestamp(");
		sel(&b, fam(F_BUILD), m);
		sb_add(&b, ") or time() - max_over_time(timestamp(");
		sel(&b, fam(F_BUILD), m);
		sb_add(&b, ")[1h:30s])");
		break;
	case FQ_NODES:
		sel(&b, node_fam("mem_total_kb"), m);
		sb_add(&b, " - ");
		sel(&b, node_fam("mem_free_kb"), m);
		break;
	case FQ_HOST: {
		const char *fs[] = { fam(F_HOST_REMOTE), fam(F_HOST_HOT_REMOTE), fam(F_HOST_HOT_SLOW),
				     fam(F_ACC_SOURCE) };
		sel_any(&b, fs, sizeof(fs) / sizeof(fs[0]), m);
		break;
	}
	case FQ_TOP: {
		/* The recording rules' series of each host's top processes. */
		const char *rs[NTOP];
		char rule[NTOP][160];
		for (size_t i = 0; i < NTOP; i++)
			rs[i] = fleet_rule_name(NRATED + i, rule[i], sizeof(rule[i]));
		sel_any(&b, rs, NTOP, m);
		break;
	}
	case FQ_TOP_RAW: {
		/* The series of the processes (or commands) that are in the top
		 * FLEET_TOP of their host by remote or by hot remote bytes (as
		 * the rules record them), and the rules' series when they are
		 * there by now. */
		const char *fs[NTOP], *rs[NTOP];
		char rule[NTOP][160];
		top_fams(fs);
		for (size_t i = 0; i < NTOP; i++)
			rs[i] = fleet_rule_name(NRATED + i, rule[i], sizeof(rule[i]));
		sb_add(&b, "(");
		sel_any(&b, fs, NTOP, m);
		sb_add(&b, " and on (instance, job, pid, comm, user) (");
		for (size_t i = 0; i < NTOP; i++) {
			sb_add(&b, "%stopk by (instance, job) (%d, ", i ? " or " : "", FLEET_TOP);
			sel(&b, fs[i], m);
			sb_add(&b, ")");
		}
		sb_add(&b, ")) or ");
		sel_any(&b, rs, NTOP, m);
		break;
	}
	case FQ_RATES:
		rates(&b, m, recorded);
		break;
	default:
		return -EINVAL;
	}
	return b.err;
}
