/* serve.c - --serve [ADDR:]PORT: a Prometheus / OpenMetrics endpoint.
 * The main thread samples every -d and renders both expositions; the
 * HTTP server (libmicrohttpd, one internal thread that never waits on a
 * client, bounded connections, memory and time per connection: see
 * serve_conn.h) answers GET /metrics from the latest rendering
 * (serve_http.c): a scrape never walks page tables. */
#include "serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "columns.h"
#include "mhd_load.h"
#include "output.h"
#include "sample_loop.h"
#include "sampler.h"
#include "serve_conn.h"
#include "serve_http.h"
#include "session.h"
#include "sigstop.h"

static volatile sig_atomic_t serve_stop;

static void on_signal(int sig)
{
	(void)sig;
	serve_stop = 1;
}

/* The listening socket, made here so that a bind failure has its errno. */
static int listen_on(const char *addr, int port, char *err, size_t errsz)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	memset(&ss, 0, sizeof(ss));
	struct sockaddr_in *v4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&ss;
	if (inet_pton(AF_INET, addr, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)port);
		sl = sizeof(*v4);
	} else if (inet_pton(AF_INET6, addr, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)port);
		sl = sizeof(*v6);
	} else {
		snprintf(err, errsz, "--serve: '%s' is not an IPv4 or IPv6 address", addr);
		return -1;
	}
	int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int one = 1;
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(fd, (struct sockaddr *)&ss, sl) != 0 || listen(fd, SERVE_CONN_MAX) != 0) {
		int e = errno;
		snprintf(err, errsz, "cannot listen on %s port %d: %s%s", addr, port, strerror(e),
			 e == EACCES ? " (ports below 1024 need root or CAP_NET_BIND_SERVICE)" :
			 e == EADDRINUSE ? " (another program listens there)" : "");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Render one exposition into a fresh buffer. */
static int render(int (*write)(FILE *, const struct snapshot *, const struct output_opts *),
		  const struct snapshot *s, const struct output_opts *oo, char **text, size_t *len)
{
	*text = NULL;
	*len = 0;
	FILE *m = open_memstream(text, len);
	if (!m)
		return -ENOMEM;
	int rc = write(m, s, oo);
	if (fclose(m) != 0 && rc == 0)
		rc = -ENOMEM;
	if (rc) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

/* The "serving" line must arrive, as every mode's output must (a closed
 * or full stdout is exit 1 and a message). A closed one is found before
 * anything is opened: its descriptor would be the next file's. */
static int out_failed(FILE *out, FILE *err, bool closed_only)
{
	int fd = fileno(out), e = 0;
	if (closed_only) {
		int fl = fd >= 0 ? fcntl(fd, F_GETFL) : O_WRONLY;
		if (fl < 0)
			e = errno;
		else if ((fl & O_ACCMODE) == O_RDONLY)
			e = EBADF;
	} else {
		errno = 0;
		if (fflush(out) != 0 || ferror(out))
			e = errno ? errno : EIO;
	}
	if (e)
		fprintf(err, "numatop-tui: writing to standard output failed: %s\n", strerror(e));
	return e != 0;
}

/* Each sample: both expositions rendered, then published for the
 * handler at once. */
struct serve_emit {
	struct serve_latest *l;
	struct output_opts *oo;
	struct output_stats *stats;
};

static int emit(void *ctx, const struct snapshot *snap, double wall_s, double cpu_s, char *msg,
		size_t msgsz)
{
	(void)msg;
	(void)msgsz;
	struct serve_emit *e = ctx;
	output_stats_add(e->stats, snap, wall_s, cpu_s);
	char *text[2];
	size_t len[2];
	if (render(output_prom_write, snap, e->oo, &text[0], &len[0]) == 0 &&
	    render(output_openmetrics_write, snap, e->oo, &text[1], &len[1]) == 0) {
		pthread_mutex_lock(&e->l->mu);
		for (int k = 0; k < 2; k++) {
			free(e->l->text[k]);
			e->l->text[k] = text[k];
			e->l->len[k] = len[k];
		}
		pthread_mutex_unlock(&e->l->mu);
	} else {
		free(text[0]);
	}
	return 0;
}

/* Between samples: late connections cut every half second. */
static void idle(void *ctx)
{
	struct serve_emit *e = ctx;
	serve_conn_reap(e->l->conns);
}

int serve_run(const struct options *o, FILE *out, FILE *err)
{
	struct session_config sc;
	struct session se;
	char msg[512];
	if (out_failed(out, err, true))
		return 1;
	if (mhd_load(msg, sizeof(msg)) != 0) {
		fprintf(err, "numatop-tui: %s\n", msg);
		return 1;
	}
	options_session(o, true, &sc);
	sc.measurement = true;
	int orc = session_open(&se, &sc, msg, sizeof(msg));
	if (orc != 0) {
		fprintf(err, "numatop-tui: %s\n", msg);
		return orc == SESSION_EUSAGE ? 2 : 1;
	}
	int fd = listen_on(o->listen_addr, o->listen_port, msg, sizeof(msg));
	if (fd < 0) {
		fprintf(err, "numatop-tui: %s\n", msg);
		session_close(&se);
		return 1;
	}
	struct serve_conns cs = SERVE_CONNS_INIT;
	struct serve_latest l = { .mu = PTHREAD_MUTEX_INITIALIZER, .conns = &cs };
	/* Bounded: one internal thread, at most SERVE_CONN_MAX connections
	 * of 32 KiB each, none holding its slot more than a few seconds
	 * without a request, nor when newer ones need it (serve_conn.h). No
	 * per-address limit of libmicrohttpd's: every client on 127.0.0.1
	 * (a reverse proxy with them) would share it. */
	/* The stop signals go to this thread, never to the server's: its
	 * sleep between samples ends at once (EINTR), and the server's
	 * thread is never interrupted inside libmicrohttpd. The thread
	 * takes the mask it is started with. */
	sigset_t stops, before;
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	sigaddset(&stops, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &stops, &before);
	struct MHD_Daemon *d = MHD_start_daemon(
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL,
		0, NULL, NULL, serve_http_request, &l,
		MHD_OPTION_LISTEN_SOCKET, fd,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_CONN_MAX,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_REQUEST_SECONDS,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(32 * 1024),
		MHD_OPTION_URI_LOG_CALLBACK, serve_http_target, NULL,
		MHD_OPTION_NOTIFY_CONNECTION, serve_conn_notify, &cs,
		MHD_OPTION_NOTIFY_COMPLETED, serve_conn_completed, &cs,
		MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &before, NULL);
	if (!d) {
		fprintf(err, "numatop-tui: cannot start the HTTP server on %s port %d\n",
			o->listen_addr, o->listen_port);
		close(fd);
		session_close(&se);
		return 1;
	}
	sigstop_install(on_signal);
	signal(SIGPIPE, SIG_IGN);
	fprintf(out, "numatop-tui: serving http://%s%s%s:%d/metrics every %.1f s\n",
		strchr(o->listen_addr, ':') ? "[" : "", o->listen_addr,
		strchr(o->listen_addr, ':') ? "]" : "", o->listen_port, o->delay);
	if (out_failed(out, err, false)) {
		MHD_stop_daemon(d);     /* closes fd */
		session_close(&se);
		return 1;
	}
	struct sort_key key = { COL_REMOTE, -1, true, NULL, false };
	struct output_stats stats = { 0 };
	struct output_opts oo = { .root_label = o->root, .meas = se.have_meas ? &se.meas : NULL,
				  .metrics = &o->metrics, .stats = &stats };
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	int status = 0;
	struct serve_emit e = { &l, &oo, &stats };
	struct sample_loop loop = { .smp = se.smp, .key = &key, .delay = o->delay,
				    .stop = &serve_stop, .emit = emit, .idle = idle, .idle_s = 0.5,
				    .ctx = &e };
	if (sample_loop_run(&loop, &snap, msg, sizeof(msg)) != 0) {
		fprintf(err, "numatop-tui: %s\n", msg);
		status = 1;
	}
	MHD_stop_daemon(d);         /* closes fd */
	for (int k = 0; k < 2; k++)
		free(l.text[k]);
	snapshot_free(&snap);
	session_close(&se);
	return status;
}
