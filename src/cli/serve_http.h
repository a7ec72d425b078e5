/* serve_http.h - --serve's requests: GET or HEAD of /metrics (and /),
 * answered from the latest rendering once the request's headers are in
 * (a body is never read). */
#ifndef NUMATOP_SERVE_HTTP_H
#define NUMATOP_SERVE_HTTP_H

#include <pthread.h>
#include <stddef.h>

#include <microhttpd.h>

#include "serve_conn.h"

struct serve_latest {
	pthread_mutex_t mu;
	char *text[2];          /* Prometheus, OpenMetrics; NULL before the first */
	size_t len[2];
	struct serve_conns *conns;
};

/* MHD_OPTION_URI_LOG_CALLBACK (cls unused): the request-target before
 * libmicrohttpd decodes it, judged for the handler. */
void *serve_http_target(void *cls, const char *uri, struct MHD_Connection *c);

/* The MHD_AccessHandlerCallback, cls the serve_latest. */
enum MHD_Result serve_http_request(void *cls, struct MHD_Connection *c, const char *url,
				   const char *method, const char *version, const char *upload,
				   size_t *upload_size, void **state);

#endif
