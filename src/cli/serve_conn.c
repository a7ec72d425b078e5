/* serve_conn.c - --serve's connection slots (see serve_conn.h). */
#include "serve_conn.h"

#include <netinet/in.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "monotime.h"

struct serve_conn {
	struct serve_conn *prev, *next;
	int fd;                 /* -1 once cut */
	bool busy;              /* a request is being answered */
	double since;           /* accept, or the end of the last answer */
	unsigned char addr[16]; /* the client's address as IPv6; of IPv6, the /64 */
};

/* The client's address as a key: IPv4 as its IPv4-mapped IPv6 form (so an
 * IPv4 client of an IPv6 socket is the same), IPv6 as its /64 (what one
 * host has to itself). */
static void conn_addr(struct MHD_Connection *c, unsigned char key[16])
{
	static const unsigned char mapped[12] = { [10] = 0xff, [11] = 0xff };
	memset(key, 0, 16);
	const union MHD_ConnectionInfo *i =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = i ? i->client_addr : NULL;
	if (sa && sa->sa_family == AF_INET) {
		memcpy(key, mapped, 12);
		memcpy(key + 12, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	} else if (sa && sa->sa_family == AF_INET6) {
		memcpy(key, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
		if (memcmp(key, mapped, 12) != 0)
			memset(key + 8, 0, 8);
	}
}

static bool waiting(const struct serve_conn *k)
{
	return k->fd >= 0 && !k->busy;
}

/* The server sees the end of the stream and closes the connection. */
static void conn_cut(struct serve_conn *k)
{
	shutdown(k->fd, SHUT_RDWR);
	k->fd = -1;
}

/* Cut the oldest waiting connection other than self (of self's address
 * when same_addr) once more than max of them wait. */
static void conn_limit(struct serve_conns *cs, const struct serve_conn *self, bool same_addr,
		       unsigned max)
{
	for (;;) {
		unsigned n = 0;
		struct serve_conn *oldest = NULL;
		for (struct serve_conn *k = cs->head; k; k = k->next) {
			if (!waiting(k) || (same_addr && memcmp(k->addr, self->addr, 16) != 0))
				continue;
			n++;
			if (k != self && (!oldest || k->since < oldest->since))
				oldest = k;
		}
		if (n <= max || !oldest)
			return;
		conn_cut(oldest);
	}
}

/* Runs in the server's thread: a connection starts or ends. MHD closes
 * the socket only after CLOSED returned, so an fd on the list (read
 * under the lock) is still this connection's. */
void serve_conn_notify(void *cls, struct MHD_Connection *c, void **ctx,
		       enum MHD_ConnectionNotificationCode toe)
{
	struct serve_conns *cs = cls;
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *i =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		struct serve_conn *k = i ? calloc(1, sizeof(*k)) : NULL;
		if (!k)
			return;  /* untracked: MHD's idle timeout still applies */
		k->fd = i->connect_fd;
		k->since = monotime_now();
		conn_addr(c, k->addr);
		pthread_mutex_lock(&cs->mu);
		k->next = cs->head;
		if (cs->head)
			cs->head->prev = k;
		cs->head = k;
		conn_limit(cs, k, true, SERVE_WAIT_PER_ADDR);
		conn_limit(cs, k, false, SERVE_WAIT_MAX);
		pthread_mutex_unlock(&cs->mu);
		*ctx = k;
	} else if (toe == MHD_CONNECTION_NOTIFY_CLOSED && *ctx) {
		struct serve_conn *k = *ctx;
		pthread_mutex_lock(&cs->mu);
		if (k->prev)
			k->prev->next = k->next;
		else
			cs->head = k->next;
		if (k->next)
			k->next->prev = k->prev;
		pthread_mutex_unlock(&cs->mu);
		free(k);
		*ctx = NULL;
	}
}

static struct serve_conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *i =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return i ? i->socket_context : NULL;
}

void serve_conn_busy(struct serve_conns *cs, struct MHD_Connection *c)
{
	struct serve_conn *k = conn_of(c);
	if (!k)
		return;
	pthread_mutex_lock(&cs->mu);
	k->busy = true;
	k->since = monotime_now();
	pthread_mutex_unlock(&cs->mu);
}

/* A request ended (answered, or cut): the connection waits for its next. */
void serve_conn_completed(void *cls, struct MHD_Connection *c, void **req,
			  enum MHD_RequestTerminationCode toe)
{
	(void)req;
	(void)toe;
	struct serve_conns *cs = cls;
	struct serve_conn *k = conn_of(c);
	if (!k)
		return;
	pthread_mutex_lock(&cs->mu);
	k->busy = false;
	k->since = monotime_now();
	pthread_mutex_unlock(&cs->mu);
}

/* A busy connection past the deadline is cut too: its client reads its
 * answer too slowly. */
void serve_conn_reap(struct serve_conns *cs)
{
	double now = monotime_now();
	pthread_mutex_lock(&cs->mu);
	for (struct serve_conn *k = cs->head; k; k = k->next) {
		if (k->fd >= 0 && now - k->since > SERVE_REQUEST_SECONDS)
			conn_cut(k);
	}
	pthread_mutex_unlock(&cs->mu);
}
