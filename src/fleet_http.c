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

static int once(struct fleet_http *h, const char *url, struct buf *out, long *status, char *err,
		size_t n)
{
	CURL *c = curl_easy_init();
	if (!c)
		return -ENOMEM;
	char ebuf[CURL_ERROR_SIZE] = "";
	struct curl_slist *hdr = NULL;
	char auth[FLEET_SECRET_MAX + 32];
	if (h->token[0]) {
		snprintf(auth, sizeof(auth), "Authorization: Bearer %s", h->token);
		hdr = curl_slist_append(hdr, auth);
	}
	hdr = curl_slist_append(hdr, "Accept: application/json");
	long ms = (long)(h->timeout_s * 1000);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdr);
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
	CURLcode rc = curl_easy_perform(c);
	*status = 0;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	curl_slist_free_all(hdr);
	curl_easy_cleanup(c);
	if (rc == CURLE_OK)
		return 0;
	snprintf(err, n, "%s", ebuf[0] ? ebuf : curl_easy_strerror(rc));
	return rc == CURLE_ABORTED_BY_CALLBACK ? -ECANCELED : rc == CURLE_OPERATION_TIMEDOUT ? -ETIMEDOUT :
	       rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST ? -EHOSTUNREACH :
	       rc == CURLE_OUT_OF_MEMORY ? -ENOMEM : -EIO;
}

int fleet_http_query(struct fleet_http *h, const char *api, const char *promql, const char *params,
		     struct buf *out, long *status, char *err, size_t n)
{
	CURL *c = curl_easy_init();
	if (!c)
		return -ENOMEM;
	char *q = curl_easy_escape(c, promql, 0);
	curl_easy_cleanup(c);
	if (!q)
		return -ENOMEM;
	size_t ul = strlen(h->url);
	while (ul && h->url[ul - 1] == '/')
		ul--;
	size_t len = ul + strlen(api) + strlen(q) + strlen(params) + 32;
	char *url = malloc(len);
	if (!url) {
		curl_free(q);
		return -ENOMEM;
	}
	snprintf(url, len, "%.*s/api/v1/%s?query=%s%s", (int)ul, h->url, api, q, params);
	curl_free(q);
	int rc = 0;
	for (int attempt = 0; attempt < 2; attempt++) {
		err[0] = '\0';
		rc = once(h, url, out, status, err, n);
		h->requests++;
		bool again = (rc == -EHOSTUNREACH || rc == -ETIMEDOUT || rc == -EIO ||
			      (rc == 0 && *status >= 500)) && rc != -ENOMEM;
		if (!again)
			break;
	}
	free(url);
	return rc;
}

int fleet_http_init(void)
{
	return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -ENOMEM;
}
