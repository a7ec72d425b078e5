/* fleet_int.h - what the fleet client's files share: the HTTP layer
 * (fleet_http.c) under the refresh (fleet.c). */
#ifndef NUMATOP_FLEET_INT_H
#define NUMATOP_FLEET_INT_H

#include <stddef.h>

#include "fleet.h"

struct buf;

/* A secret (a token, user:password) read from a file: its first line. */
#define FLEET_SECRET_MAX 4096
/* An answer longer than this is refused (a fleet's answer is a few MB). */
#define FLEET_HTTP_MAX (256u << 20)

struct fleet_http {
	char *url;                  /* the server's base URL */
	char token[FLEET_SECRET_MAX];    /* "" none */
	char userpwd[FLEET_SECRET_MAX];  /* "" none */
	double timeout_s;
	unsigned long requests;     /* HTTP requests made, retries too */
};

int fleet_http_init(void);
/* The first line of the file at path into out. 0, -errno, -EINVAL (empty). */
int fleet_http_secret(const char *path, char *out, size_t n);
/* GET /api/v1/query?query=promql of the server: the body in out, the
 * HTTP status in *status. 0 when an answer came (whatever its status);
 * -EHOSTUNREACH, -ETIMEDOUT, -EIO (err says it), -ENOMEM. Asked again
 * once when it could not be reached or answered 5xx. */
int fleet_http_query(struct fleet_http *h, const char *promql, struct buf *out, long *status,
		     char *err, size_t n);

#endif
