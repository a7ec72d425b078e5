/* fleet_int.h - what the fleet client's files share: the HTTP layer
 * (fleet_http.c) under the refresh (fleet.c). */
#ifndef NUMATOP_FLEET_INT_H
#define NUMATOP_FLEET_INT_H

#include <stdatomic.h>
#include <stddef.h>

#include "buf.h"
#include "fleet.h"

/* A secret (a token, user:password) read from a file: its first line. */
#define FLEET_SECRET_MAX 4096
/* An answer longer than this is refused (a fleet's answer is a few MB). */
#define FLEET_HTTP_MAX (256u << 20)

struct fleet_http {
	char *url;                  /* the server's base URL */
	char token[FLEET_SECRET_MAX];    /* "" none */
	char userpwd[FLEET_SECRET_MAX];  /* "" none */
	double timeout_s;
	const atomic_bool *cancel;  /* set: a transfer under way is ended */
	unsigned long requests;     /* HTTP requests made, retries too */
};

/* The client (fleet.c), which the host's view (fleet_view.c) asks too:
 * a query's text and answer per query of a refresh, asked side by side. */
#define FLEET_PROMQL_MAX 16384
struct fleet_client {
	struct fleet_http http;
	char *match;
	bool recorded;              /* the last refresh read the recorded series */
	int top_rules;              /* the rules' top processes: 1 read last
				     * time, 0 not there, -1 not known yet */
	double at;                  /* the time asked about (Unix s), 0: now */
	struct buf body[FQ_N];
	char promql[FQ_N][FLEET_PROMQL_MAX];
};

/* One request of fleet_http_query_all: asked, and what came. */
struct fleet_req {
	const char *api, *promql, *params;
	struct buf *out;            /* the body */
	long status;                /* HTTP */
	int rc;                     /* as fleet_http_query's */
	char err[256];
};

/* libcurl loaded (fleet_curl.c) and set up: 0, or -ENOENT with err. */
int fleet_http_init(char *err, size_t n);
int fleet_curl_load(char *err, size_t n);
/* The first line of the file at path into out. 0, -errno, -EINVAL (empty). */
int fleet_http_secret(const char *path, char *out, size_t n);
/* GET /api/v1/<api>?query=promql<params> of the server (api "query" or
 * "query_range"; params "" or "&time=..." and the like): the body in
 * out, the HTTP status in *status. 0 when an answer came (whatever its
 * status); -EHOSTUNREACH, -ETIMEDOUT, -EIO (err says it), -ECANCELED
 * (h->cancel), -ENOMEM. Asked again once when it could not be reached or
 * answered 5xx. */
int fleet_http_query(struct fleet_http *h, const char *api, const char *promql, const char *params,
		     struct buf *out, long *status, char *err, size_t n);
/* The n requests side by side (each again once as above): each one's
 * result in r[i].rc. 0, or -ENOMEM when they could not be made. */
int fleet_http_query_all(struct fleet_http *h, struct fleet_req *r, size_t n);

/* Ask promql (api and params as fleet_http_query) and parse the answer
 * into a (fleet_answer_free after, whatever the result). 0; else -errno
 * with what went wrong in msg (unreachable, refused, not Prometheus). */
int fleet_ask(struct fleet_client *cl, const char *api, const char *promql, const char *params,
	      struct fleet_answer *a, char *msg, size_t n);
/* "&time=<at>" for the client's time, "" for now, into out. */
void fleet_time_param(const struct fleet_client *cl, char *out, size_t n);
/* The matcher's inside ("job=\"numa\"" of "{job=\"numa\"}") into m
 * (fleet_query.c). 0 or -EINVAL. */
int fleet_matcher(const char *match, char *m, size_t n);

#endif
