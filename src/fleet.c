/* fleet.c - the fleet client: opened on a server (its URL, the label
 * matcher, the credentials' files), and a refresh: every query of
 * fleet_query.c asked once, its answer parsed (fleet_parse.c) and folded
 * into the hosts table (fleet_model.c); what failed said per query, the
 * rest kept. The recording rules' series are asked alone once a refresh
 * has found them (the server then computes nothing per refresh). */
#include "fleet_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "settings.h"

void fleet_config_from(struct fleet_config *c, const char *url, const char *match,
		       const struct settings *st)
{
	memset(c, 0, sizeof(*c));
	c->url = url && *url ? url : st && st->fleet[0] ? st->fleet : NULL;
	c->match = match ? match : st && st->fleet_match[0] ? st->fleet_match : NULL;
	c->token_file = st && st->fleet_token_file[0] ? st->fleet_token_file : NULL;
	c->basic_auth_file = st && st->fleet_basic_auth_file[0] ? st->fleet_basic_auth_file : NULL;
	c->timeout_s = st && st->fleet_timeout > 0 ? st->fleet_timeout : FLEET_TIMEOUT_S;
}

void fleet_close(struct fleet_client *cl)
{
	if (!cl)
		return;
	free(cl->http.url);
	free(cl->match);
	for (size_t q = 0; q < FQ_N; q++)
		buf_free(&cl->body[q]);
	memset(cl->http.token, 0, sizeof(cl->http.token));
	memset(cl->http.userpwd, 0, sizeof(cl->http.userpwd));
	free(cl);
}

static int secret(const char *what, const char *path, char *out, size_t size, char *msg, size_t n)
{
	if (!path || !*path)
		return 0;
	int rc = fleet_http_secret(path, out, size);
	if (rc)
		snprintf(msg, n, "cannot read the %s file %s: %s", what, path,
			 rc == -EINVAL ? "it is empty" : strerror(-rc));
	return rc;
}

int fleet_open(const struct fleet_config *c, struct fleet_client **out, char *msg, size_t n)
{
	*out = NULL;
	msg[0] = '\0';
	if (!c->url || !*c->url) {
		snprintf(msg, n, "no Prometheus URL: --fleet URL, or fleet=URL in the settings file");
		return -EINVAL;
	}
	if (strncmp(c->url, "http://", 7) != 0 && strncmp(c->url, "https://", 8) != 0) {
		snprintf(msg, n, "%s: not an http:// or https:// URL", c->url);
		return -EINVAL;
	}
	char probe[4096];
	if (fleet_query_build(FQ_INFO, c->match, false, probe, sizeof(probe)) == -EINVAL) {
		snprintf(msg, n, "%s: not a PromQL label matcher (as {job=\"numa\",dc=\"x\"})",
			 c->match ? c->match : "");
		return -EINVAL;
	}
	struct fleet_client *cl = calloc(1, sizeof(*cl));
	if (!cl)
		return -ENOMEM;
	cl->http.url = strdup(c->url);
	cl->match = strdup(c->match ? c->match : "");
	cl->http.timeout_s = c->timeout_s > 0 ? c->timeout_s : FLEET_TIMEOUT_S;
	cl->http.cancel = c->cancel;
	cl->top_rules = -1;
	if (!cl->http.url || !cl->match) {
		fleet_close(cl);
		return -ENOMEM;
	}
	int hr = fleet_http_init(msg, n);
	if (hr) {
		fleet_close(cl);
		return hr;
	}
	int rc = secret("bearer token", c->token_file, cl->http.token, sizeof(cl->http.token), msg, n);
	if (!rc)
		rc = secret("basic auth", c->basic_auth_file, cl->http.userpwd, sizeof(cl->http.userpwd),
			    msg, n);
	if (!rc && cl->http.userpwd[0] && !strchr(cl->http.userpwd, ':')) {
		snprintf(msg, n, "the basic auth file %s: not user:password", c->basic_auth_file);
		rc = -EINVAL;
	}
	if (rc) {
		fleet_close(cl);
		return rc;
	}
	*out = cl;
	return 0;
}

__attribute__((format(printf, 4, 5)))
static void say(struct fleet *f, enum fleet_query q, int err, const char *fmt, ...)
{
	struct fleet_error *e = &f->errors[f->nerrors++];
	e->q = q;
	e->err = err;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
}

void fleet_set_time(struct fleet_client *cl, double at)
{
	cl->at = at > 0 ? at : 0;
}

void fleet_time_param(const struct fleet_client *cl, char *out, size_t n)
{
	if (cl->at > 0)
		snprintf(out, n, "&time=%.3f", cl->at);
	else if (n)
		out[0] = '\0';
}

/* What came for request r, parsed into a (msg: what went wrong). */
static int answer(const struct fleet_client *cl, const struct fleet_req *r, struct fleet_answer *a,
		  char *msg, size_t n)
{
	const char *url = cl->http.url;
	memset(a, 0, sizeof(*a));
	if (r->rc == -ECANCELED) {
		snprintf(msg, n, "cancelled");
		return r->rc;
	}
	if (r->rc) {
		snprintf(msg, n, "cannot reach %s: %s", url, r->err);
		return r->rc;
	}
	int rc = fleet_answer_parse(r->out->data ? r->out->data : "", r->out->len, a);
	if (rc == -EPROTO)
		snprintf(msg, n, "%s refused the query (HTTP %ld): %.200s", url, r->status, a->error);
	else if (rc == -EINVAL)
		snprintf(msg, n, "%s is not a Prometheus server (HTTP %ld, not an answer of its query API)",
			 url, r->status);
	else if (rc)
		snprintf(msg, n, "out of memory");
	return rc;
}

int fleet_ask(struct fleet_client *cl, const char *api, const char *promql, const char *params,
	      struct fleet_answer *a, char *msg, size_t n)
{
	struct fleet_req r = { .api = api, .promql = promql, .params = params, .out = &cl->body[0] };
	memset(a, 0, sizeof(*a));
	int rc = fleet_http_query_all(&cl->http, &r, 1);
	if (rc) {
		snprintf(msg, n, "out of memory");
		return rc;
	}
	rc = answer(cl, &r, a, msg, n);
	buf_free(&cl->body[0]);
	return rc;
}

static bool unreachable(int rc)
{
	return rc == -EHOSTUNREACH || rc == -ETIMEDOUT || rc == -EIO || rc == -ECANCELED;
}

/* Query q's answer folded into f; 0, or its error said in f->errors. */
static int take(struct fleet_client *cl, struct fleet *f, enum fleet_query q, const struct fleet_req *r)
{
	char msg[320];
	struct fleet_answer a;
	int rc = answer(cl, r, &a, msg, sizeof(msg));
	if (rc == 0 && a.type != FR_VECTOR) {
		rc = -EINVAL;
		snprintf(msg, sizeof(msg), "%s answered a query with another result than a vector",
			 cl->http.url);
	} else if (rc == 0) {
		rc = fleet_merge(f, q, &a);
		if (rc)
			snprintf(msg, sizeof(msg), "out of memory");
	}
	if (rc)
		say(f, q, rc, "%s", msg);
	fleet_answer_free(&a);
	return rc;
}

/* Queries qs[0 .. nq) side by side, each folded into f. 0, or -ENOMEM;
 * *first: the first error, *ok: how many answered, *reached: the server was. */
static int round_of(struct fleet_client *cl, struct fleet *f, const enum fleet_query *qs, size_t nq,
		    int *first, size_t *ok, bool *reached)
{
	char tp[64];
	fleet_time_param(cl, tp, sizeof(tp));
	struct fleet_req r[FQ_N];
	enum fleet_query of[FQ_N];
	size_t n = 0;
	for (size_t i = 0; i < nq; i++) {
		enum fleet_query q = qs[i];
		if (fleet_query_build(q, cl->match, cl->recorded, cl->promql[q], FLEET_PROMQL_MAX)) {
			say(f, q, -ENOSPC, "the query is too long");
			if (!*first)
				*first = -ENOSPC;
			continue;
		}
		r[n] = (struct fleet_req){ .api = "query", .promql = cl->promql[q], .params = tp,
					   .out = &cl->body[q] };
		of[n++] = q;
	}
	f->nqueries += n;
	if (fleet_http_query_all(&cl->http, r, n))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		*reached |= !unreachable(r[i].rc);
		int rc = take(cl, f, of[i], &r[i]);
		buf_free(r[i].out);
		if (rc && !*first)
			*first = rc;
		*ok += rc == 0;
	}
	return 0;
}

int fleet_refresh(struct fleet_client *cl, struct fleet *f)
{
	fleet_free(f);
	/* Every query at once: a refresh takes as long as its slowest. The
	 * hosts' top processes from the recording rules' series, unless they
	 * were not there last time; none there: worked out after (7 queries). */
	enum fleet_query qs[FQ_ASKED];
	for (enum fleet_query q = 0; q < FQ_ASKED; q++)
		qs[q] = q == FQ_TOP && cl->top_rules == 0 ? FQ_TOP_RAW : q;
	int first = 0;
	size_t ok = 0;
	bool reached = false;
	if (round_of(cl, f, qs, FQ_ASKED, &first, &ok, &reached))
		return -ENOMEM;
	bool top_failed = false;
	for (size_t i = 0; i < f->nerrors; i++)
		top_failed |= f->errors[i].q == FQ_TOP;
	if (qs[FQ_TOP] == FQ_TOP && !top_failed && !f->top_recorded && f->nhosts > 0) {
		enum fleet_query raw = FQ_TOP_RAW;
		if (round_of(cl, f, &raw, 1, &first, &ok, &reached))
			return -ENOMEM;
	}
	cl->top_rules = f->top_recorded ? 1 : top_failed ? cl->top_rules : 0;
	/* A server that could not be reached, or that answers with something
	 * else than the query API does: said once (each query says the
	 * same). A query refused (-EPROTO) is that query's. */
	if (f->nerrors > 1 && (!reached || (ok == 0 && first != -EPROTO)))
		f->nerrors = 1;
	/* The recorded rates alone next time when the rules' series were
	 * there; both forms again once they are not. */
	cl->recorded = f->recorded;
	fleet_sort(f);
	if (ok == 0)
		return first ? first : -EIO;
	if (f->nhosts == 0)
		return -ENOENT;
	return 0;
}
