/* fleet_parse.c - the answer of a Prometheus server's /api/v1/query (and
 * query_range) as a pure function over a buffer: vector, matrix, scalar
 * and string results, an error answer, and anything else refused. A
 * value that is not a number ("NaN", garbage) is NAN: unknown, never 0.
 * The JSON is read as it goes, never built as a tree: a thousand hosts'
 * answer (some MB) costs its series and their labels, one block each. */
#include "fleet.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* Nesting deeper than this is refused (a hostile answer never runs the
 * stack out). */
#define JP_DEPTH 32

void fleet_answer_free(struct fleet_answer *a)
{
	for (size_t i = 0; i < a->nseries; i++) {
		struct fleet_series *s = &a->series[i];
		free(s->names);     /* one block: names, values, their text */
		free(s->points);
	}
	free(a->series);
	a->series = NULL;
	a->nseries = 0;
}

const char *fleet_series_label(const struct fleet_series *s, const char *name)
{
	for (size_t k = 0; k < s->nlabels; k++)
		if (strcmp(s->names[k], name) == 0)
			return s->values[k];
	return NULL;
}

struct jp {
	const char *p, *end;
	int depth;
	struct buf str;             /* the last string read, NUL-ended */
	struct buf lab;             /* a series' labels: name NUL value NUL ... */
	size_t nlab;
	struct buf pts;             /* a series' points */
};

static void ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static bool eat(struct jp *j, char c)
{
	ws(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return true;
	}
	return false;
}

static int hex4(const char *p, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (unsigned)(c - 'A' + 10);
		else
			return -EINVAL;
	}
	return 0;
}

static int put_utf8(struct buf *b, unsigned c)
{
	char u[4];
	size_t n;
	if (c < 0x80) {
		u[0] = (char)c, n = 1;
	} else if (c < 0x800) {
		u[0] = (char)(0xc0 | (c >> 6)), u[1] = (char)(0x80 | (c & 0x3f)), n = 2;
	} else if (c < 0x10000) {
		u[0] = (char)(0xe0 | (c >> 12)), u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[2] = (char)(0x80 | (c & 0x3f)), n = 3;
	} else {
		u[0] = (char)(0xf0 | (c >> 18)), u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((c >> 6) & 0x3f)), u[3] = (char)(0x80 | (c & 0x3f)), n = 4;
	}
	return buf_append(b, u, n);
}

/* A JSON string into j->str (NUL-ended; a \u0000 is refused: labels are
 * C strings). 0, -EINVAL, -ENOMEM. */
static int str(struct jp *j)
{
	buf_clear(&j->str);
	if (!eat(j, '"'))
		return -EINVAL;
	for (;;) {
		const char *q = j->p;
		while (q < j->end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20)
			q++;
		if (q > j->p && buf_append(&j->str, j->p, (size_t)(q - j->p)))
			return -ENOMEM;
		j->p = q;
		if (q >= j->end || (unsigned char)*q < 0x20)
			return -EINVAL;
		if (*q == '"') {
			j->p++;
			break;
		}
		if (j->end - q < 2)
			return -EINVAL;
		char e = q[1], c = 0;
		j->p = q + 2;
		switch (e) {
		case '"': case '\\': case '/': c = e; break;
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case 'u': {
			unsigned u, lo;
			if (j->end - j->p < 4 || hex4(j->p, &u))
				return -EINVAL;
			j->p += 4;
			if (u >= 0xd800 && u < 0xdc00) {
				if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u' ||
				    hex4(j->p + 2, &lo) || lo < 0xdc00 || lo > 0xdfff)
					return -EINVAL;
				j->p += 6;
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			} else if (u >= 0xdc00 && u < 0xe000) {
				return -EINVAL;
			}
			if (u == 0)
				return -EINVAL;
			if (put_utf8(&j->str, u))
				return -ENOMEM;
			continue;
		}
		default:
			return -EINVAL;
		}
		if (buf_append(&j->str, &c, 1))
			return -ENOMEM;
	}
	char z = '\0';
	if (buf_append(&j->str, &z, 1))
		return -ENOMEM;
	return 0;
}

/* A JSON number: *v. 0 or -EINVAL. */
static int number(struct jp *j, double *v)
{
	ws(j);
	const char *q = j->p;
	if (q < j->end && *q == '-')
		q++;
	if (q >= j->end || *q < '0' || *q > '9')
		return -EINVAL;
	while (q < j->end && ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' ||
			      *q == '+' || *q == '-'))
		q++;
	char tmp[64];
	size_t n = (size_t)(q - j->p);
	if (n >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, j->p, n);
	tmp[n] = '\0';
	char *e;
	*v = strtod(tmp, &e);
	if (*e)
		return -EINVAL;
	j->p = q;
	return 0;
}

static bool word(struct jp *j, const char *w)
{
	ws(j);
	size_t n = strlen(w);
	if ((size_t)(j->end - j->p) >= n && memcmp(j->p, w, n) == 0) {
		j->p += n;
		return true;
	}
	return false;
}

/* Any value, passed over. */
static int skip(struct jp *j)
{
	ws(j);
	if (j->p >= j->end)
		return -EINVAL;
	char c = *j->p;
	if (c == '"')
		return str(j);
	if (c == '{' || c == '[') {
		if (++j->depth > JP_DEPTH)
			return -EINVAL;
		j->p++;
		char close = c == '{' ? '}' : ']';
		if (!eat(j, close)) {
			do {
				int rc;
				if (c == '{' && ((rc = str(j)) || !eat(j, ':') ? (rc ? rc : -EINVAL) : 0))
					return rc ? rc : -EINVAL;
				if ((rc = skip(j)))
					return rc;
			} while (eat(j, ','));
			if (!eat(j, close))
				return -EINVAL;
		}
		j->depth--;
		return 0;
	}
	if (word(j, "true") || word(j, "false") || word(j, "null"))
		return 0;
	double d;
	return number(j, &d);
}

/* The members of an object: for each, fn with its key in j->str and the
 * reader at its value (fn reads or skips it). */
static int members(struct jp *j, int (*fn)(struct jp *j, void *ctx), void *ctx)
{
	if (!eat(j, '{'))
		return -EINVAL;
	if (++j->depth > JP_DEPTH)
		return -EINVAL;
	if (!eat(j, '}')) {
		do {
			int rc = str(j);
			if (rc)
				return rc;
			if (!eat(j, ':'))
				return -EINVAL;
			if ((rc = fn(j, ctx)))
				return rc;
		} while (eat(j, ','));
		if (!eat(j, '}'))
			return -EINVAL;
	}
	j->depth--;
	return 0;
}

/* [t, "v"]: 0, or -EINVAL. */
static int point(struct jp *j, struct fleet_point *p)
{
	if (!eat(j, '['))
		return -EINVAL;
	int rc = number(j, &p->t);
	if (rc || !eat(j, ','))
		return rc ? rc : -EINVAL;
	if ((rc = str(j)))
		return rc;
	const char *s = j->str.data;
	char *end;
	double d = strtod(s, &end);
	p->v = end != s && *end == '\0' ? d : NAN;
	return eat(j, ']') ? 0 : -EINVAL;
}

/* The metric's labels, each "name\0value\0" into j->lab. */
static int label(struct jp *j, void *ctx)
{
	(void)ctx;
	size_t nlen = j->str.len;       /* the name, with its NUL */
	if (buf_append(&j->lab, j->str.data, nlen))
		return -ENOMEM;
	int rc = str(j);
	if (rc)
		return rc;
	if (buf_append(&j->lab, j->str.data, j->str.len))
		return -ENOMEM;
	j->nlab++;
	return 0;
}

struct series_ctx {
	bool matrix, metric, values;
};

static int series_member(struct jp *j, void *ctx)
{
	struct series_ctx *c = ctx;
	const char *k = j->str.data;
	if (strcmp(k, "metric") == 0 && !c->metric) {
		c->metric = true;
		return members(j, label, NULL);
	}
	if (strcmp(k, c->matrix ? "values" : "value") == 0 && !c->values) {
		c->values = true;
		struct fleet_point p;
		if (!c->matrix) {
			int rc = point(j, &p);
			return rc ? rc : buf_append(&j->pts, (const char *)&p, sizeof(p));
		}
		if (!eat(j, '['))
			return -EINVAL;
		if (eat(j, ']'))
			return 0;
		do {
			int rc = point(j, &p);
			if (rc)
				return rc;
			if (buf_append(&j->pts, (const char *)&p, sizeof(p)))
				return -ENOMEM;
		} while (eat(j, ','));
		return eat(j, ']') ? 0 : -EINVAL;
	}
	return skip(j);
}

/* One series: its labels in one block (names, values, text), its points. */
static int series(struct jp *j, bool matrix, struct fleet_series *s)
{
	buf_clear(&j->lab);
	buf_clear(&j->pts);
	j->nlab = 0;
	struct series_ctx c = { matrix, false, false };
	int rc = members(j, series_member, &c);
	if (rc)
		return rc;
	if (!c.metric || !c.values)
		return -EINVAL;
	size_t n = j->nlab, ptrs = 2 * (n ? n : 1) * sizeof(char *);
	char *block = malloc(ptrs + j->lab.len + 1);
	if (!block)
		return -ENOMEM;
	s->names = (char **)(void *)block;
	s->values = s->names + (n ? n : 1);
	char *t = block + ptrs;
	if (j->lab.len)
		memcpy(t, j->lab.data, j->lab.len);
	for (size_t k = 0; k < n; k++) {
		s->names[k] = t;
		t += strlen(t) + 1;
		s->values[k] = t;
		t += strlen(t) + 1;
	}
	s->nlabels = n;
	size_t np = j->pts.len / sizeof(struct fleet_point);
	s->points = malloc((np ? np : 1) * sizeof(*s->points));
	if (!s->points)
		return -ENOMEM;
	if (np)
		memcpy(s->points, j->pts.data, np * sizeof(*s->points));
	s->npoints = np;
	return 0;
}

/* "result" of a vector or matrix: its series. */
static int result_series(struct jp *j, struct fleet_answer *a)
{
	if (!eat(j, '['))
		return -EINVAL;
	if (eat(j, ']'))
		return 0;
	size_t cap = 0;
	do {
		struct fleet_series *v = buf_grow_array(a->series, &cap, a->nseries + 1, sizeof(*v));
		if (!v)
			return -ENOMEM;
		a->series = v;
		memset(&v[a->nseries], 0, sizeof(*v));
		int rc = series(j, a->type == FR_MATRIX, &v[a->nseries]);
		a->nseries++;
		if (rc)
			return rc;
	} while (eat(j, ','));
	return eat(j, ']') ? 0 : -EINVAL;
}

struct data_ctx {
	struct fleet_answer *a;
	int type;                   /* -1: not said yet */
	const char *result;         /* where "result" is */
	bool parsed;                /* read (its type was known then) */
};

static int result(struct jp *j, struct fleet_answer *a, int type)
{
	a->type = (enum fleet_result)type;
	if (type == FR_VECTOR || type == FR_MATRIX)
		return result_series(j, a);
	if (type == FR_SCALAR)
		return point(j, &a->scalar);
	struct fleet_point p;       /* a string: [t, "text"] */
	return point(j, &p);
}

static int data_member(struct jp *j, void *ctx)
{
	struct data_ctx *d = ctx;
	const char *k = j->str.data;
	if (strcmp(k, "resultType") == 0) {
		int rc = str(j);
		if (rc)
			return rc;
		const char *t = j->str.data;
		d->type = !strcmp(t, "vector") ? FR_VECTOR : !strcmp(t, "matrix") ? FR_MATRIX :
			  !strcmp(t, "scalar") ? FR_SCALAR : !strcmp(t, "string") ? FR_STRING : -2;
		return d->type == -2 ? -EINVAL : 0;
	}
	if (strcmp(k, "result") == 0 && !d->result) {
		ws(j);
		d->result = j->p;
		if (d->type >= 0) {
			d->parsed = true;
			return result(j, d->a, d->type);
		}
		return skip(j);     /* read once the type is known */
	}
	return skip(j);
}

struct top_ctx {
	struct fleet_answer *a;
	int status;                 /* 0 none, 1 success, 2 error */
	int data_rc;                /* 1: no data */
	char etype[256];
};

static int top_member(struct jp *j, void *ctx)
{
	struct top_ctx *t = ctx;
	const char *k = j->str.data;
	int rc;
	if (strcmp(k, "status") == 0) {
		if ((rc = str(j)))
			return rc;
		t->status = !strcmp(j->str.data, "success") ? 1 : !strcmp(j->str.data, "error") ? 2 : 3;
		return 0;
	}
	if (strcmp(k, "errorType") == 0 || strcmp(k, "error") == 0) {
		bool type = k[5] == 'T';
		ws(j);
		if (j->p < j->end && *j->p != '"')
			return skip(j);
		if ((rc = str(j)))
			return rc;
		if (type)
			snprintf(t->etype, sizeof(t->etype), "%s", j->str.data);
		else
			snprintf(t->a->error, sizeof(t->a->error), "%.255s", j->str.data);
		return 0;
	}
	if (strcmp(k, "warnings") == 0) {
		ws(j);
		if (!eat(j, '['))
			return skip(j);
		if (eat(j, ']'))
			return 0;
		do {
			if ((rc = skip(j)))
				return rc;
			t->a->nwarnings++;
		} while (eat(j, ','));
		return eat(j, ']') ? 0 : -EINVAL;
	}
	if (strcmp(k, "data") == 0 && t->data_rc == 1) {
		ws(j);
		if (j->p >= j->end || *j->p != '{')
			return skip(j);
		struct data_ctx d = { t->a, -1, NULL, false };
		rc = members(j, data_member, &d);
		if (!rc && d.result && d.type >= 0 && !d.parsed) {
			/* "result" came first: read it now the type is known. */
			struct jp again = *j;
			again.p = d.result;
			again.depth = 0;
			rc = result(&again, t->a, d.type);
		}
		t->data_rc = rc ? rc : d.result && d.type >= 0 ? 0 : -EINVAL;
		return rc;
	}
	return skip(j);
}

int fleet_answer_parse(const char *buf, size_t len, struct fleet_answer *a)
{
	memset(a, 0, sizeof(*a));
	a->scalar.v = NAN;
	struct jp j = { buf, buf + len, 0, { 0 }, { 0 }, 0, { 0 } };
	struct top_ctx t = { a, 0, 1, "" };
	int rc = members(&j, top_member, &t);
	ws(&j);
	if (!rc && j.p != j.end)
		rc = -EINVAL;               /* something after the answer */
	buf_free(&j.str);
	buf_free(&j.lab);
	buf_free(&j.pts);
	if (rc)
		return rc;
	if (t.status == 2) {
		/* "errorType: error", as much as fits. */
		char e[sizeof(a->error)];
		memcpy(e, a->error, sizeof(e));
		const char *parts[3] = { t.etype, t.etype[0] && e[0] ? ": " : "",
					 e[0] ? e : t.etype[0] ? "" : "an error without a message" };
		size_t o = 0;
		for (int k = 0; k < 3; k++)
			for (const char *c = parts[k]; *c && o + 1 < sizeof(a->error); c++)
				a->error[o++] = *c;
		a->error[o] = '\0';
		return -EPROTO;
	}
	if (t.status != 1)
		return -EINVAL;
	return t.data_rc == 1 ? -EINVAL : t.data_rc;
}
