/* serve_conn.h - --serve's connections: which hold a slot, and which give
 * theirs up so that slow clients never take them all.
 *
 * A connection is waiting while it has no complete request (from its
 * accept, or from the end of its last answer) and busy while a request is
 * answered. Either is cut SERVE_REQUEST_SECONDS after it began (a client
 * trickling its request, or reading its answer, a byte at a time). And
 * when a new connection would make more than SERVE_WAIT_PER_ADDR waiting
 * ones from its address (an IPv6 /64), or more than SERVE_WAIT_MAX in
 * all, the oldest waiting one (of that address, or of all) is cut. So a
 * new connection always gets its slot, and a scraper whose request comes
 * in one packet is answered however many slow clients there are, on its
 * own address (a reverse proxy on 127.0.0.1) or on others. */
#ifndef NUMATOP_SERVE_CONN_H
#define NUMATOP_SERVE_CONN_H

#include <pthread.h>

#include <microhttpd.h>

#define SERVE_REQUEST_SECONDS 5
#define SERVE_CONN_MAX 128      /* libmicrohttpd's own limit */
#define SERVE_WAIT_MAX 64
#define SERVE_WAIT_PER_ADDR 16

struct serve_conn;

struct serve_conns {
	pthread_mutex_t mu;
	struct serve_conn *head;
};

#define SERVE_CONNS_INIT { .mu = PTHREAD_MUTEX_INITIALIZER }

/* MHD_OPTION_NOTIFY_CONNECTION and MHD_OPTION_NOTIFY_COMPLETED, cls the
 * serve_conns. */
void serve_conn_notify(void *cls, struct MHD_Connection *c, void **ctx,
		       enum MHD_ConnectionNotificationCode toe);
void serve_conn_completed(void *cls, struct MHD_Connection *c, void **req,
			  enum MHD_RequestTerminationCode toe);

/* The request of c is complete (its handler is called): busy until
 * answered, which has SERVE_REQUEST_SECONDS from now. */
void serve_conn_busy(struct serve_conns *cs, struct MHD_Connection *c);

/* Cut the connections that have waited too long (the main thread, every
 * half second). */
void serve_conn_reap(struct serve_conns *cs);

#endif
