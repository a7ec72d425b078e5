/* fleet_http.c - asking the Prometheus server, on libcurl: a GET of
 * /api/v1/query with a time limit, asked once more when the server could
 * not be reached or answered 5xx; the credentials read from files only
 * (a bearer token, or user:password for basic auth), never from the
 * command line; TLS and proxies (https_proxy, no_proxy) as libcurl does
 * them. */
#include "fleet_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>

#include "buf.h"

/* The first line of a small file (a secret: at most 4 kB), without its
 * newline. 0, -errno, -EINVAL (empty). */
int fleet_http_secret(const char *path, char *out, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t r = read(fd, out, n - 1);
	int e = errno;
	close(fd);
	if (r < 0)
		return -e;
	out[r] = '\0';
	out[strcspn(out, "\r\n")] = '\0';
	return out[0] ? 0 : -EINVAL;
}

static size_t body(char *p, size_t size, size_t nmemb, void *ud)
{
	struct buf *b = ud;
	size_t n = size * nmemb;
	if (b->len + n > FLEET_HTTP_MAX)
		return 0;             /* too long: the transfer fails */
	return buf_append(b, p, n) ? 0 : n;
}

/* libcurl's progress callback: non-zero ends the transfer. */
static int progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
	(void)dt, (void)dn, (void)ut, (void)un;
	const struct fleet_http *h = ud;
	return h->cancel && atomic_load(h->cancel);
}

/* A transfer of url into out, its options as every request has them. */
static CURL *easy(struct fleet_http *h, const char *url, struct buf *out, char *ebuf,
		  struct curl_slist **hdr)
{
	CURL *c = curl_easy_init();
	if (!c)
		return NULL;
	char auth[FLEET_SECRET_MAX + 32];
	*hdr = NULL;
	if (h->token[0]) {
		snprintf(auth, sizeof(auth), "Authorization: Bearer %s", h->token);
		*hdr = curl_slist_append(*hdr, auth);
	}
	*hdr = curl_slist_append(*hdr, "Accept: application/json");
	long ms = (long)(h->timeout_s * 1000);
	ebuf[0] = '\0';
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, *hdr);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, out);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, ebuf);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, ms);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, ms);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(c, CURLOPT_USERAGENT, "numatop-tui/" NUMATOP_VERSION);
	if (h->cancel) {
		curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, progress);
		curl_easy_setopt(c, CURLOPT_XFERINFODATA, h);
		curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	}
	if (h->userpwd[0]) {
		curl_easy_setopt(c, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
		curl_easy_setopt(c, CURLOPT_USERPWD, h->userpwd);
	}
	buf_clear(out);
	return c;
}

/* libcurl's result as -errno, its words in err. */
static int result(CURLcode rc, const char *ebuf, char *err, size_t n)
{
	if (rc == CURLE_OK)
		return 0;
	snprintf(err, n, "%s", ebuf[0] ? ebuf : curl_easy_strerror(rc));
	return rc == CURLE_ABORTED_BY_CALLBACK ? -ECANCELED : rc == CURLE_OPERATION_TIMEDOUT ? -ETIMEDOUT :
	       rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST ? -EHOSTUNREACH :
	       rc == CURLE_OUT_OF_MEMORY ? -ENOMEM : -EIO;
}

/* Asked again: the server could not be reached, or answered 5xx. */
static bool again(const struct fleet_req *r)
{
	return r->rc == -EHOSTUNREACH || r->rc == -ETIMEDOUT || r->rc == -EIO ||
	       (r->rc == 0 && r->status >= 500);
}

/* /api/v1/<api>?query=<promql><params> of the server, into url (made here). */
static int make_url(const struct fleet_http *h, const struct fleet_req *r, char **url)
{
	CURL *c = curl_easy_init();
	if (!c)
		return -ENOMEM;
	char *q = curl_easy_escape(c, r->promql, 0);
	curl_easy_cleanup(c);
	if (!q)
		return -ENOMEM;
	size_t ul = strlen(h->url);
	while (ul && h->url[ul - 1] == '/')
		ul--;
	size_t len = ul + strlen(r->api) + strlen(q) + strlen(r->params) + 32;
	*url = malloc(len);
	if (*url)
		snprintf(*url, len, "%.*s/api/v1/%s?query=%s%s", (int)ul, h->url, r->api, q, r->params);
	curl_free(q);
	return *url ? 0 : -ENOMEM;
}

/* One round: the requests whose want[i] is set, side by side. */
static int round_of(struct fleet_http *h, struct fleet_req *r, char **urls, const bool *want, size_t n)
{
	CURLM *m = curl_multi_init();
	if (!m)
		return -ENOMEM;
	CURL **e = calloc(n, sizeof(*e));
	struct curl_slist **hdr = calloc(n, sizeof(*hdr));
	char (*ebuf)[CURL_ERROR_SIZE] = calloc(n, sizeof(*ebuf));
	int rc = e && hdr && ebuf ? 0 : -ENOMEM;
	for (size_t i = 0; i < n && !rc; i++) {
		if (!want[i])
			continue;
		r[i].status = 0;
		r[i].err[0] = '\0';
		if (!(e[i] = easy(h, urls[i], r[i].out, ebuf[i], &hdr[i])))
			rc = -ENOMEM;
		else
			curl_multi_add_handle(m, e[i]);
		h->requests++;
	}
	int running = 1;
	while (!rc && running) {
		if (curl_multi_perform(m, &running) != CURLM_OK)
			break;
		if (running)
			curl_multi_poll(m, NULL, 0, 100, NULL);
	}
	CURLMsg *msg;
	int left;
	while (!rc && (msg = curl_multi_info_read(m, &left)))
		for (size_t i = 0; i < n; i++)
			if (msg->msg == CURLMSG_DONE && e[i] == msg->easy_handle) {
				r[i].rc = result(msg->data.result, ebuf[i], r[i].err, sizeof(r[i].err));
				curl_easy_getinfo(e[i], CURLINFO_RESPONSE_CODE, &r[i].status);
			}
	for (size_t i = 0; e && i < n; i++)
		if (e[i]) {
			curl_multi_remove_handle(m, e[i]);
			curl_easy_cleanup(e[i]);
			curl_slist_free_all(hdr[i]);
		}
	curl_multi_cleanup(m);
	free(e);
	free(hdr);
	free(ebuf);
	return rc;
}

int fleet_http_query_all(struct fleet_http *h, struct fleet_req *r, size_t n)
{
	char **urls = calloc(n ? n : 1, sizeof(*urls));
	bool *want = calloc(n ? n : 1, sizeof(*want));
	int rc = urls && want ? 0 : -ENOMEM;
	for (size_t i = 0; i < n && !rc; i++) {
		rc = make_url(h, &r[i], &urls[i]);
		r[i].rc = -EIO;
		want[i] = true;
	}
	for (int attempt = 0; attempt < 2 && !rc; attempt++) {
		rc = round_of(h, r, urls, want, n);
		bool more = false;
		for (size_t i = 0; i < n; i++) {
			want[i] = want[i] && again(&r[i]);
			more |= want[i];
		}
		if (!more)
			break;
	}
	for (size_t i = 0; urls && i < n; i++)
		free(urls[i]);
	free(urls);
	free(want);
	return rc;
}

int fleet_http_query(struct fleet_http *h, const char *api, const char *promql, const char *params,
		     struct buf *out, long *status, char *err, size_t n)
{
	struct fleet_req r = { .api = api, .promql = promql, .params = params, .out = out };
	int rc = fleet_http_query_all(h, &r, 1);
	*status = r.status;
	snprintf(err, n, "%s", r.err);
	return rc ? rc : r.rc;
}

int fleet_http_load(char *err, size_t n)
{
	return fleet_http_init(err, n);
}

int fleet_http_init(char *err, size_t n)
{
	int rc = fleet_curl_load(err, n);
	if (rc)
		return rc;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		snprintf(err, n, "libcurl could not be set up");
		return -ENOMEM;
	}
	return 0;
}
