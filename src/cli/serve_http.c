/* serve_http.c - --serve's requests (see serve_http.h). */
#include "serve_http.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#define CT_PROM "text/plain; version=0.0.4; charset=utf-8"
#define CT_OM "application/openmetrics-text; version=1.0.0; charset=utf-8"

/* What serve_http_target leaves as the request's state: the end of the
 * target's string, or one of these. */
static const char bad_target;   /* a control byte or a space: 400 */
static const char nul_escape;   /* %00 in the path: no such path, 404 */

/* libmicrohttpd (0.9.7x) hands the handler the target as a C string, after
 * decoding %XX in place: /metrics%00.txt and /metrics<NUL>x both arrive as
 * "/metrics". So the target is judged here, before it is decoded: %00 in
 * the path is marked, and the end of the string is kept for the handler,
 * which checks that it is the end of the request-target, just before the
 * version in the request line (a NUL byte in the target ends the string
 * before). libmicrohttpd keeps the request line in place and ends the
 * target with one NUL there (0.9.7x, and 1.0, which refuses a NUL in the
 * line itself); were it not so, every request would get 400, never a
 * wrong page. */
void *serve_http_target(void *cls, const char *uri, struct MHD_Connection *c)
{
	(void)cls;
	(void)c;
	if (!uri)
		return (void *)&bad_target;
	bool path = true, nul = false;
	size_t n = 0;
	for (; uri[n]; n++) {
		unsigned char ch = (unsigned char)uri[n];
		if (ch <= ' ' || ch == 0x7f)
			return (void *)&bad_target;
		if (ch == '?')
			path = false;
		else if (path && ch == '%' && uri[n + 1] == '0' && uri[n + 2] == '0')
			nul = true;
	}
	return nul ? (void *)&nul_escape : (void *)(uintptr_t)(uri + n);
}

/* --- the Accept header ------------------------------------------------- */

/* The best q (thousandths) given to OpenMetrics by name (-1: never named),
 * and to the text format by its most specific range (spec 3 text/plain,
 * 2 text/any, 1 any/any; 0 none). */
struct negotiation {
	int om_q, text_q, text_spec;
	int hosts;              /* Host headers seen */
};

/* A qvalue (RFC 9110 12.4.2) in thousandths, or -1. */
static int qvalue(const char *p, size_t n)
{
	if (n == 0 || (p[0] != '0' && p[0] != '1'))
		return -1;
	int q = (p[0] - '0') * 1000;
	if (n == 1)
		return q;
	if (p[1] != '.' || n > 5)
		return -1;
	for (size_t i = 2, scale = 100; i < n; i++, scale /= 10) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		q += (p[i] - '0') * (int)scale;
	}
	return q > 1000 ? -1 : q;
}

static bool is_ows(char ch)
{
	return ch == ' ' || ch == '\t';
}

static const char *skip_ows(const char *p)
{
	while (is_ows(*p))
		p++;
	return p;
}

/* The end of a token (up to OWS, ',', ';', '=' or the end). */
static const char *token_end(const char *p)
{
	while (*p && !is_ows(*p) && *p != ',' && *p != ';' && *p != '=')
		p++;
	return p;
}

static void range_apply(struct negotiation *ng, const char *t, size_t n, int q)
{
#define IS(s) (n == sizeof(s) - 1 && strncasecmp(t, s, n) == 0)
	if (IS("application/openmetrics-text")) {
		if (q > ng->om_q)
			ng->om_q = q;
		return;
	}
	int spec = IS("text/plain") ? 3 : IS("text/*") ? 2 : IS("*/*") ? 1 : 0;
#undef IS
	if (spec > ng->text_spec || (spec && spec == ng->text_spec && q > ng->text_q)) {
		ng->text_spec = spec;
		ng->text_q = q;
	}
}

/* One Accept value: media ranges with parameters, q among them; a range
 * that does not parse is left out. */
static void accept_value(struct negotiation *ng, const char *p)
{
	while (*p) {
		p = skip_ows(p);
		const char *type = p;
		p = token_end(p);
		size_t tlen = (size_t)(p - type);
		int q = 1000;
		bool ok = tlen > 0;
		for (;;) {
			p = skip_ows(p);
			if (*p != ';')
				break;
			const char *name = skip_ows(p + 1);
			p = token_end(name);
			size_t nlen = (size_t)(p - name);
			if (*p != '=') {
				ok = false;
				continue;
			}
			const char *val = ++p;
			if (*p == '"') {
				for (p++; *p && *p != '"'; p++)
					if (*p == '\\' && p[1])
						p++;
				if (*p == '"')
					p++;
				else
					ok = false;
			} else {
				p = token_end(p);
			}
			if (nlen == 1 && (*name == 'q' || *name == 'Q') &&
			    (q = qvalue(val, (size_t)(p - val))) < 0)
				ok = false;
		}
		if (*p && *p != ',') {
			ok = false;
			while (*p && *p != ',')
				p++;
		}
		if (*p == ',')
			p++;
		if (ok)
			range_apply(ng, type, tlen, q);
	}
}

static enum MHD_Result header_seen(void *cls, enum MHD_ValueKind kind, const char *key,
				   const char *value)
{
	(void)kind;
	struct negotiation *ng = cls;
	if (!key || !value)
		return MHD_YES;
	if (strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0)
		ng->hosts++;
	else if (strcasecmp(key, MHD_HTTP_HEADER_ACCEPT) == 0)
		accept_value(ng, value);
	return MHD_YES;
}

/* --- answers ------------------------------------------------------------- */

/* The whole body, for HEAD too: libmicrohttpd sends its Content-Length
 * and leaves the body out. */
static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type,
			     const char *body, size_t len)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)body,
								 MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	enum MHD_Result ok = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ok;
}

#define REPLY(c, status, text) reply(c, status, "text/plain", text, sizeof(text) - 1)

/* Called once the headers are in: answered at once, so a body (a POST's,
 * chunked or not) is never read; libmicrohttpd closes the connection
 * after the answer. */
enum MHD_Result serve_http_request(void *cls, struct MHD_Connection *c, const char *url,
				   const char *method, const char *version, const char *upload,
				   size_t *upload_size, void **state)
{
	(void)upload;
	struct serve_latest *l = cls;
	if (*upload_size) {     /* not asked for: never comes after an answer */
		*upload_size = 0;
		return MHD_YES;
	}
	serve_conn_busy(l->conns, c);
	struct negotiation ng = { .om_q = -1 };
	MHD_get_connection_values(c, MHD_HEADER_KIND, header_seen, &ng);
	/* HTTP/1.1 requires one Host header (RFC 9112 3.2). */
	if (strncmp(version, "HTTP/1.", 7) == 0 && strcmp(version, "HTTP/1.0") != 0 &&
	    ng.hosts != 1)
		return REPLY(c, MHD_HTTP_BAD_REQUEST, "bad request: HTTP/1.1 needs one Host header\n");
	const void *t = *state;
	if (t == &bad_target || (t != &nul_escape && (uintptr_t)t + 1 != (uintptr_t)version))
		return REPLY(c, MHD_HTTP_BAD_REQUEST, "bad request: invalid request-target\n");
	if (strcmp(method, MHD_HTTP_METHOD_HEAD) != 0 && strcmp(method, MHD_HTTP_METHOD_GET) != 0)
		return REPLY(c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed: GET /metrics\n");
	if (t != &nul_escape && strcmp(url, "/") == 0)
		return REPLY(c, MHD_HTTP_OK, "numatop-tui exporter: GET /metrics\n");
	if (t == &nul_escape || strcmp(url, "/metrics") != 0)
		return REPLY(c, MHD_HTTP_NOT_FOUND, "not found: GET /metrics\n");
	/* OpenMetrics when the client names it with a q above 0 and at
	 * least the text format's. */
	int om = ng.om_q > 0 && ng.om_q >= ng.text_q;
	pthread_mutex_lock(&l->mu);
	enum MHD_Result ok;
	if (!l->text[om])
		ok = REPLY(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the first sample is not taken yet\n");
	else
		ok = reply(c, MHD_HTTP_OK, om ? CT_OM : CT_PROM, l->text[om], l->len[om]);
	pthread_mutex_unlock(&l->mu);
	return ok;
}
