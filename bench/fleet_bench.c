/* fleet_bench.c - the fleet at scale: OpenMetrics of hosts x processes
 * over an hour (fleet_gen.c) into TSDB blocks by `promtool tsdb
 * create-blocks-from openmetrics`, Debian's prometheus serving them on
 * 127.0.0.1 (a config with no targets: nothing scraped), then:
 *   the program  `numatop-tui --fleet URL --json`, run to its exit a few
 *                times: wall time to the table (the first and the median),
 *                peak RSS (wait4), the queries its JSON says it asked,
 *                and whether every host came complete;
 *   the library  fleet_open + fleet_refresh in this process: a new
 *                client's first refresh (it asks the recording rules'
 *                series and the raw rates both: what a server without
 *                the rules costs) and the next ones (the recorded series
 *                alone), medians, nqueries, complete or not;
 *   each query   timed alone against the server (its PromQL from
 *                fleet_query_build), to say where the time goes.
 * The last sample is a few seconds before the OpenMetrics is written;
 * instant queries look back 5 minutes, so the data's age at the first
 * query is printed. Everything started is stopped by PID; the temporary
 * directory is removed. Timing is printed, never asserted. */
#include "fleet_bench.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <json.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "buf.h"
#include "fleet.h"
#include "fleet_gen.h"

#define FB_READY_S 120.0        /* Prometheus's start, bounded */
#define FB_PROMTOOL_S 3600.0    /* the backfill, bounded */
#define FB_RUN_S 120.0          /* one program run, bounded */
#define FB_MAX_RUNS 32
#define FB_LOOKBACK_S 300.0     /* Prometheus's default */

/* An executable named name in PATH into out; 0 or -ENOENT. */
static int fb_which(const char *name, char *out, size_t n)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		if (len && (size_t)snprintf(out, n, "%.*s/%s", (int)len, path, name) < n &&
		    access(out, X_OK) == 0)
			return 0;
		path += len + (path[len] == ':');
	}
	return -ENOENT;
}

static size_t fb_body(char *p, size_t size, size_t n, void *ud)
{
	return buf_append(ud, p, size * n) == 0 ? size * n : 0;
}

/* GET base + path (promql: the query API's, escaped) into out: 0 and
 * the HTTP status, or -EIO; *secs the round trip. */
static int fb_get(const char *base, const char *path, const char *promql, struct buf *out,
		  long *status, double *secs)
{
	CURL *c = curl_easy_init();
	if (!c)
		return -ENOMEM;
	char *q = promql ? curl_easy_escape(c, promql, 0) : NULL;
	size_t len = strlen(base) + strlen(path) + (q ? strlen(q) : 0) + 16;
	char *url = malloc(len);
	int rc = -ENOMEM;
	if (url && (!promql || q)) {
		snprintf(url, len, "%s%s%s", base, path, q ? q : "");
		buf_clear(out);
		curl_easy_setopt(c, CURLOPT_URL, url);
		curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, fb_body);
		curl_easy_setopt(c, CURLOPT_WRITEDATA, out);
		curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 60000L);
		curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
		curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
		double t0 = mono_s();
		rc = curl_easy_perform(c) == CURLE_OK ? 0 : -EIO;
		if (secs)
			*secs = mono_s() - t0;
		*status = 0;
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	}
	free(url);
	curl_free(q);
	curl_easy_cleanup(c);
	return rc;
}

/* The one number an instant query answers (count(up)), or -1. */
static double fb_scalar(const char *base, const char *promql, struct buf *b)
{
	long st;
	struct fleet_answer a;
	double v = -1;
	if (fb_get(base, "/api/v1/query?query=", promql, b, &st, NULL) || st != 200)
		return -1;
	if (fleet_answer_parse(b->data ? b->data : "", b->len, &a) == 0 && a.type == FR_VECTOR &&
	    a.nseries == 1 && a.series[0].npoints == 1)
		v = a.series[0].points[0].v;
	fleet_answer_free(&a);
	return v;
}

/* VmHWM of a live process in KiB, -1. */
static long fb_hwm_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* The peak RSS is the program's own: read (VmHWM) when it stops on its
 * way out (ptrace's exit stop), its memory still there. wait4's
 * ru_maxrss would count the benchmark's RSS at the fork too (the kernel
 * keeps the largest RSS across exec). Without the exit stop (ptrace not
 * allowed), ru_maxrss, said as such. */
int fleet_bench_time_argv(char *const argv[], const char *out_path, const char *err_path,
			  char *const env[], double cap_s, volatile sig_atomic_t *child,
			  struct fleet_run *r)
{
	memset(r, 0, sizeof(*r));
	r->maxrss_kb = -1;
	double t0 = mono_s();
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int o = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(err_path ? err_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(126);
		for (size_t i = 0; env && env[i]; i++)
			putenv(env[i]);
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);    /* stops at the exec */
		execvp(argv[0], argv);
		_exit(127);
	}
	*child = pid;
	struct rusage ru;
	int status = 0;
	pid_t w;
	bool traced = false;
	for (;;) {
		while ((w = wait4(pid, &status, WNOHANG, &ru)) == 0 && mono_s() - t0 < cap_s)
			usleep(1000);
		if (w == 0) {       /* at the cap */
			kill(pid, SIGKILL);
			while ((w = wait4(pid, &status, 0, &ru)) >= 0 && !WIFEXITED(status) &&
			       !WIFSIGNALED(status))
				;
			r->status = -1;
			break;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 || !WIFSTOPPED(status))
			break;
		int sig = WSTOPSIG(status), deliver = 0;
		if (!traced && sig == SIGTRAP) {          /* after the exec */
			traced = true;
			ptrace(PTRACE_SETOPTIONS, pid, NULL,
			       (void *)(long)(PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL));
		} else if (sig == SIGTRAP && status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXIT << 8))) {
			r->maxrss_kb = fb_hwm_kb(pid);
			r->rss_exact = r->maxrss_kb > 0;
		} else {
			deliver = sig;                  /* its own signal, passed on */
		}
		ptrace(PTRACE_CONT, pid, NULL, (void *)(long)deliver);
	}
	r->wall_s = mono_s() - t0;
	*child = 0;
	if (w < 0)
		return -errno;
	if (!r->rss_exact)
		r->maxrss_kb = ru.ru_maxrss;
	if (r->status != -1)
		r->status = status;
	return 0;
}

/* What a table must have for every host to count as complete: its up,
 * version, every node, the top processes, its worst process the one the
 * load made worst (by hot remote bytes where the heat is known, else
 * remote), and its rates where it has a slower tier. */
struct fb_check {
	size_t hosts, complete;
	char first_bad[160];
};

static void fb_host_check(const struct fleet_gen *g, struct fb_check *k, const char *inst,
			  int up, const char *version, size_t nnodes, size_t ntop, long pid0,
			  double rank0, double promote)
{
	long h = inst ? fleet_gen_host_of(g, inst) : -1;
	const char *bad = NULL;
	k->hosts++;
	if (h < 0)
		bad = "not a host of the load";
	else if (up != 1 || !version || !*version)
		bad = "no up or version";
	else if (nnodes != fleet_gen_nodes((size_t)h))
		bad = "nodes missing";
	else if (ntop < (g->procs < FLEET_TOP ? g->procs : FLEET_TOP))
		bad = "top processes missing";
	else if (rank0 != fleet_gen_rank_max(g, (size_t)h) ||
		 fleet_gen_rank_bytes(g, (size_t)h, pid0) != rank0)
		bad = "not its worst process first";
	else if (fleet_gen_tiered((size_t)h) != (promote >= 0))
		bad = "promotion rate wrong";
	if (!bad)
		k->complete++;
	else if (!k->first_bad[0])
		snprintf(k->first_bad, sizeof(k->first_bad), "%s: %s", inst ? inst : "?", bad);
}

static void fb_check_model(const struct fleet_gen *g, const struct fleet *f, struct fb_check *k)
{
	memset(k, 0, sizeof(*k));
	for (size_t i = 0; i < f->nhosts; i++) {
		const struct fleet_host *h = &f->hosts[i];
		const struct fleet_proc *t = h->ntop ? &h->top[0] : NULL;
		double rank = !t ? -1 : t->hot_remote_bytes >= 0 ? t->hot_remote_bytes : t->remote_bytes;
		fb_host_check(g, k, h->instance, h->up, h->version, h->nnodes, h->ntop, t ? t->pid : -1,
			      rank, h->promote_pps);
	}
}

static json_object *fb_get_key(json_object *o, const char *key)
{
	json_object *v = NULL;
	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static double fb_num(json_object *o, const char *key)
{
	json_object *v = fb_get_key(o, key);
	return v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double))
	       ? json_object_get_double(v) : -1;
}

/* The program's JSON (docs/fleet.schema.json): the hosts checked as the
 * model is, its "queries" and "recording_rules". 0 or -EINVAL. */
static int fb_check_json(const struct fleet_gen *g, const char *path, struct fb_check *k,
			 long *queries, bool *recorded)
{
	memset(k, 0, sizeof(*k));
	json_object *o = json_object_from_file(path), *hosts = o ? fb_get_key(o, "hosts") : NULL;
	if (!hosts || !json_object_is_type(hosts, json_type_array)) {
		json_object_put(o);
		return -EINVAL;
	}
	*queries = (long)fb_num(o, "queries");
	*recorded = json_object_get_boolean(fb_get_key(o, "recording_rules"));
	for (size_t i = 0; i < json_object_array_length(hosts); i++) {
		json_object *h = json_object_array_get_idx(hosts, i), *top = fb_get_key(h, "top");
		json_object *t = top && json_object_array_length(top) ? json_object_array_get_idx(top, 0)
								       : NULL;
		double hot = t ? fb_num(t, "hot_remote_bytes") : -1;
		fb_host_check(g, k, json_object_get_string(fb_get_key(h, "instance")),
			      (int)fb_num(h, "up"), json_object_get_string(fb_get_key(h, "version")),
			      (size_t)fb_num(h, "nodes"), top ? json_object_array_length(top) : 0,
			      t ? (long)fb_num(t, "pid") : -1,
			      hot >= 0 ? hot : t ? fb_num(t, "remote_bytes") : -1,
			      fb_num(h, "promote_pages_per_second"));
	}
	json_object_put(o);
	return 0;
}

static int fb_rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

void fleet_bench_on_signal(pid_t child, pid_t server, const char *dir)
{
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	if (server > 0) {
		kill(server, SIGKILL);
		waitpid(server, NULL, 0);
	}
	if (!dir[0] || strncmp(dir, "/", 1) != 0)
		return;
	/* rm -rf of the directory (fork and execve are async-signal-safe). */
	char *const argv[] = { "rm", "-rf", "--", (char *)dir, NULL };
	char *const envp[] = { NULL };
	pid_t p = fork();
	if (p == 0) {
		execve("/bin/rm", argv, envp);
		_exit(127);
	}
	if (p > 0)
		waitpid(p, NULL, 0);
}

/* Prometheus on dir/data at 127.0.0.1:port, answering count(up) =
 * hosts; its pid in *c->server. 0, or -errno said. */
static int fb_start_server(const struct fleet_bench_config *c, const char *bin, const char *dir,
			   const char *base, int port, double *ready_s, struct buf *b)
{
	char cfg[FLEET_BENCH_DIR_LEN + 32], data[FLEET_BENCH_DIR_LEN + 32], log[FLEET_BENCH_DIR_LEN + 32];
	char a_cfg[FLEET_BENCH_DIR_LEN + 64], a_data[FLEET_BENCH_DIR_LEN + 64], a_listen[64];
	snprintf(cfg, sizeof(cfg), "%s/prometheus.yml", dir);
	snprintf(data, sizeof(data), "%s/data", dir);
	snprintf(log, sizeof(log), "%s/prometheus.log", dir);
	FILE *f = fopen(cfg, "w");
	if (!f)
		return -errno;
	/* The rules of contrib/prometheus, as a fleet's server has them:
	 * the screen reads each host's top processes from their series. */
	char rules[4096];
	bool have_rules = realpath("contrib/prometheus/numatop-rules.yml", rules) != NULL;
	fputs("# The fleet benchmark's: no targets, the backfilled blocks only.\n"
	      "global:\n  scrape_interval: 15s\n  evaluation_interval: 30s\n", f);
	if (have_rules)
		fprintf(f, "rule_files: [ '%s' ]\n", rules);
	if (fclose(f))
		return -EIO;
	snprintf(a_cfg, sizeof(a_cfg), "--config.file=%s", cfg);
	snprintf(a_data, sizeof(a_data), "--storage.tsdb.path=%s", data);
	snprintf(a_listen, sizeof(a_listen), "--web.listen-address=127.0.0.1:%d", port);
	double t0 = mono_s();
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		/* Retention from the newest block: ten years keeps the hour. */
		execl(bin, bin, a_cfg, a_data, a_listen, "--storage.tsdb.retention.time=3650d",
		      (char *)NULL);
		_exit(127);
	}
	*c->server = pid;
	long st = 0;
	while (mono_s() - t0 < FB_READY_S && waitpid(pid, NULL, WNOHANG) == 0) {
		if (fb_get(base, "/-/ready", NULL, b, &st, NULL) == 0 && st == 200)
			break;
		usleep(100000);
	}
	*ready_s = mono_s() - t0;
	if (st != 200) {
		fprintf(stderr, "bench: fleet: prometheus did not become ready in %.0f s (%s)\n",
			FB_READY_S, log);
		return -ETIMEDOUT;
	}
	return 0;
}

static void fb_stop_server(const struct fleet_bench_config *c)
{
	pid_t pid = (pid_t)*c->server;
	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	double end = mono_s() + 30;
	while (waitpid(pid, NULL, WNOHANG) == 0) {
		if (mono_s() > end) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			break;
		}
		usleep(20000);
	}
	*c->server = 0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double fb_median(const double *v, int n)
{
	double s[FB_MAX_RUNS];
	memcpy(s, v, (size_t)n * sizeof(*v));
	qsort(s, (size_t)n, sizeof(*s), cmp_d);
	return n ? s[n / 2] : -1;
}

/* The program, c->runs times: its lines; the first run's time, worst
 * RSS and queries into the targets' numbers. */
struct fb_prog {
	double first_s, median_s, rss_mib;
	long queries;
	bool complete;
};

static void fb_measure_prog(const struct fleet_bench_config *c, const struct fleet_gen *g,
			    const char *dir, const char *base, struct fb_prog *out)
{
	char path[FLEET_BENCH_DIR_LEN + 32], err[FLEET_BENCH_DIR_LEN + 32], cfg[FLEET_BENCH_DIR_LEN + 48];
	snprintf(path, sizeof(path), "%s/fleet.json", dir);
	snprintf(err, sizeof(err), "%s/fleet.err", dir);
	/* No settings file: none there. */
	snprintf(cfg, sizeof(cfg), "XDG_CONFIG_HOME=%s/cfg", dir);
	char *const env[] = { cfg, NULL };
	char *const argv[] = { (char *)c->prog, "--fleet", (char *)base, "--json", NULL };
	double wall[FB_MAX_RUNS];
	long rss = 0;
	bool exact = true;
	int n = 0;
	memset(out, 0, sizeof(*out));
	out->first_s = -1;
	out->queries = -1;
	for (int i = 0; i < c->runs && i < FB_MAX_RUNS; i++) {
		struct fleet_run r;
		struct fb_check k;
		long q = -1;
		bool rec = false;
		int rc = fleet_bench_time_argv(argv, path, err, env, FB_RUN_S, c->child, &r);
		if (rc || r.status != 0) {
			printf("  %s --fleet URL --json: run %d failed (%s; stderr in %s)\n", c->prog,
			       i + 1, rc ? strerror(-rc) : r.status < 0 ? "killed at the cap" : "exit",
			       err);
			continue;
		}
		if (fb_check_json(g, path, &k, &q, &rec)) {
			printf("  run %d: not the fleet's JSON\n", i + 1);
			continue;
		}
		wall[n++] = r.wall_s;
		rss = r.maxrss_kb > rss ? r.maxrss_kb : rss;
		exact &= r.rss_exact;
		if (i == 0) {
			out->first_s = r.wall_s;
			out->queries = q;
			out->complete = k.hosts == g->hosts && k.complete == g->hosts;
		}
		printf("  %s --fleet URL --json, run %d: %.2f s to the table (exit), peak RSS %.1f MiB, "
		       "%ld queries, %zu hosts, %zu complete%s%s, recording rules %s\n", c->prog, i + 1,
		       r.wall_s, (double)r.maxrss_kb / 1024.0, q, k.hosts, k.complete,
		       k.first_bad[0] ? "; first incomplete: " : "", k.first_bad, rec ? "read" : "not read");
		fflush(stdout);
	}
	out->median_s = n ? fb_median(wall, n) : -1;
	out->rss_mib = (double)rss / 1024.0;
	if (n)
		printf("  the program: first run %.2f s, median %.2f s of %d; peak RSS %.1f MiB%s\n",
		       out->first_s, out->median_s, n, out->rss_mib, exact ? "" :
		       " (wait4's: it includes the benchmark's RSS at the fork)");
	fflush(stdout);
}

/* The Fleet screen: the program on a terminal (tests/helpers/ptyrun, 120
 * x 40) with -n 1, which ends once its first complete table is drawn:
 * the time to that, as the user waits for it. -1: not measured. */
static double fb_measure_screen(const struct fleet_bench_config *c, const char *dir, const char *base)
{
	char script[FLEET_BENCH_DIR_LEN + 32], out[FLEET_BENCH_DIR_LEN + 32], cfg[FLEET_BENCH_DIR_LEN + 48],
	     txt[FLEET_BENCH_DIR_LEN + 40];
	const char *pty = "build/tests/helpers/ptyrun";
	if (access(pty, X_OK) != 0) {
		printf("  the Fleet screen: not measured (no %s: make test builds it)\n", pty);
		return -1;
	}
	snprintf(script, sizeof(script), "%s/screen.script", dir);
	snprintf(out, sizeof(out), "%s/screen.out", dir);
	snprintf(txt, sizeof(txt), "%s/screen.out.txt", dir);
	snprintf(cfg, sizeof(cfg), "XDG_CONFIG_HOME=%s/cfg", dir);
	FILE *f = fopen(script, "w");
	if (!f)
		return -1;
	fclose(f);
	char term[] = "TERM=xterm";
	char *const env[] = { cfg, term, NULL };
	char *const argv[] = { (char *)pty, "120", "40", script, out, "--", (char *)c->prog, "--fleet",
			       (char *)base, "-n", "1", NULL };
	double wall[FB_MAX_RUNS];
	int n = 0;
	for (int i = 0; i < c->runs && i < FB_MAX_RUNS; i++) {
		struct fleet_run r;
		int rc = fleet_bench_time_argv(argv, NULL, NULL, env, FB_RUN_S, c->child, &r);
		/* Its table drawn: the key bar and a host's row on the screen. */
		bool drawn = false;
		FILE *t = fopen(txt, "r");
		char ln[4096];
		while (t && fgets(ln, sizeof(ln), t))
			drawn |= strstr(ln, "up ") != NULL && strstr(ln, ":") != NULL;
		if (t)
			fclose(t);
		if (rc || r.status != 0 || !drawn) {
			printf("  the Fleet screen, run %d: failed (%s)\n", i + 1,
			       rc ? strerror(-rc) : !drawn ? "no table drawn" : "exit");
			continue;
		}
		wall[n++] = r.wall_s;
		printf("  the Fleet screen (120x40, -n 1), run %d: %.2f s to its first complete table\n",
		       i + 1, r.wall_s);
		fflush(stdout);
	}
	return n ? wall[0] : -1;
}

/* The library in this process: a new client's first refresh (rates
 * worked out and the recorded series asked both), then the next refresh
 * of the same client (the recorded series alone). */
static void fb_measure_lib(const struct fleet_bench_config *c, const struct fleet_gen *g,
			   const char *base)
{
	double first[FB_MAX_RUNS], next[FB_MAX_RUNS];
	size_t q1 = 0, q2 = 0;
	bool rec1 = false, rec2 = false;
	struct fb_check k1 = { 0 }, k2 = { 0 };
	int n = 0;
	for (int i = 0; i < c->runs && i < FB_MAX_RUNS; i++) {
		struct fleet_config fc = { .url = base, .timeout_s = 60 };
		struct fleet_client *cl;
		struct fleet f = { 0 };
		char msg[256];
		if (fleet_open(&fc, &cl, msg, sizeof(msg))) {
			printf("  library: fleet_open: %s\n", msg);
			return;
		}
		double t0 = mono_s();
		int rc1 = fleet_refresh(cl, &f);
		double t1 = mono_s();
		q1 = f.nqueries;
		rec1 = f.recorded;
		fb_check_model(g, &f, &k1);
		int rc2 = fleet_refresh(cl, &f);
		double t2 = mono_s();
		q2 = f.nqueries;
		rec2 = f.recorded;
		fb_check_model(g, &f, &k2);
		fleet_free(&f);
		fleet_close(cl);
		if (rc1 || rc2) {
			printf("  library: refresh failed: %s\n", strerror(-(rc1 ? rc1 : rc2)));
			return;
		}
		first[n] = t1 - t0;
		next[n++] = t2 - t1;
	}
	if (!n)
		return;
	printf("  library, a new client's first refresh (raw rates and recorded series both, as "
	       "without the rules): median %.2f s of %d, %zu queries, %zu of %zu hosts complete%s\n",
	       fb_median(first, n), n, q1, k1.complete, k1.hosts, rec1 ? ", recorded found" : "");
	printf("  library, its next refresh (%s): median %.2f s of %d, %zu queries, %zu of %zu "
	       "hosts complete\n", rec2 ? "the recorded series alone" : "raw rates again",
	       fb_median(next, n), n, q2, k2.complete, k2.hosts);
	fflush(stdout);
}

/* Each query alone, as the first refresh asks it: the server's time. */
static void fb_measure_queries(const char *base, struct buf *b)
{
	char promql[16384];
	printf("  each query alone (round trip, answer size):");
	for (enum fleet_query q = 0; q < FQ_N; q++) {
		long st = 0;
		double s = -1;
		if (fleet_query_build(q, NULL, false, promql, sizeof(promql)) == 0 &&
		    fb_get(base, "/api/v1/query?query=", promql, b, &st, &s) == 0 && st == 200)
			printf("%s %s %.2f s %.0f kB", q ? "," : "", fleet_query_name(q), s,
			       (double)b->len / 1000.0);
		else
			printf("%s %s failed (HTTP %ld)", q ? "," : "", fleet_query_name(q), st);
	}
	printf("\n");
}

/* Make the load, the blocks and the server; measure; the targets. */
static int fb_phase(const struct fleet_bench_config *c, const char *promtool, const char *prom,
		    const char *dir, struct buf *b)
{
	char om[FLEET_BENCH_DIR_LEN + 32], data[FLEET_BENCH_DIR_LEN + 32], log[FLEET_BENCH_DIR_LEN + 32];
	snprintf(om, sizeof(om), "%s/fleet.om", dir);
	snprintf(data, sizeof(data), "%s/data", dir);
	snprintf(log, sizeof(log), "%s/promtool.log", dir);
	struct fleet_gen g = { .hosts = c->hosts, .procs = c->procs, .step_s = c->step_s,
			       .span_s = c->span_s, .t_end = (long)time(NULL) - 5, .recorded = true };
	size_t series, samples;
	double t0 = mono_s();
	FILE *f = fopen(om, "w");
	static char fbuf[1 << 20];
	if (!f)
		return -errno;
	setvbuf(f, fbuf, _IOFBF, sizeof(fbuf));
	int rc = fleet_gen_write(&g, f, &series, &samples);
	if (fclose(f) && !rc)
		rc = -EIO;
	struct stat sb;
	double om_mib = stat(om, &sb) == 0 ? (double)sb.st_size / (1 << 20) : -1;
	if (rc)
		return rc;
	double gen_s = mono_s() - t0;
	char *const pargv[] = { (char *)promtool, "tsdb", "create-blocks-from", "openmetrics", "-q",
				om, data, NULL };
	/* Its temporary head in the directory too, removed with it if it
	 * is killed midway. */
	char tmpenv[FLEET_BENCH_DIR_LEN + 16];
	snprintf(tmpenv, sizeof(tmpenv), "TMPDIR=%s", dir);
	char *const penv[] = { tmpenv, NULL };
	struct fleet_run pr;
	rc = fleet_bench_time_argv(pargv, log, log, penv, FB_PROMTOOL_S, c->child, &pr);
	unlink(om);
	if (rc || pr.status != 0) {
		fprintf(stderr, "bench: fleet: promtool tsdb create-blocks-from openmetrics failed "
			"(see %s)\n", log);
		return rc ? rc : -EIO;
	}
	fflush(stdout);
	printf("  load: %zu series, %.1f M samples; OpenMetrics %.0f MiB written in %.1f s; promtool "
	       "tsdb create-blocks-from openmetrics %.1f s (peak RSS %.0f MiB)\n", series,
	       (double)samples / 1e6, om_mib, gen_s, pr.wall_s, (double)pr.maxrss_kb / 1024.0);
	int port = bench_free_port();
	char base[64];
	double ready_s = 0;
	snprintf(base, sizeof(base), "http://127.0.0.1:%d", port);
	if (port < 0 || (rc = fb_start_server(c, prom, dir, base, port, &ready_s, b)) != 0)
		return rc ? rc : -EADDRNOTAVAIL;
	double up = fb_scalar(base, "count(up)", b), age = (double)time(NULL) - (double)g.t_end;
	printf("  prometheus ready in %.1f s; count(up) %.0f; the last sample %.0f s old (instant "
	       "queries look back %.0f s)%s\n", ready_s, up, age, FB_LOOKBACK_S,
	       age > FB_LOOKBACK_S - 60 ? ": too old, the hosts may be missing" : "");
	fflush(stdout);
	if (up != (double)c->hosts) {
		fprintf(stderr, "bench: fleet: count(up) is %.0f, not %zu\n", up, c->hosts);
		return -EIO;
	}
	/* The rules' first evaluation: each host's top processes recorded
	 * (90 s at most; without them the program works them out itself). */
	/* The group's rules are evaluated in order, together: once the hot
	 * remote one (after the remote one) has series, both are whole. */
	char rule[160], hot[160], q[256], qh[256];
	fleet_rule_name(2, rule, sizeof(rule));
	fleet_rule_name(3, hot, sizeof(hot));
	snprintf(q, sizeof(q), "count(count by (instance) (%s))", rule);
	snprintf(qh, sizeof(qh), "count(%s)", hot);
	double tr = mono_s(), got = 0;
	while (mono_s() - tr < 90 && ((got = fb_scalar(base, q, b)) < (double)c->hosts ||
				      fb_scalar(base, qh, b) <= 0))
		usleep(500000);
	printf("  the recording rules' top processes: %.0f of %zu hosts after %.0f s%s\n", got > 0 ? got : 0,
	       c->hosts, mono_s() - tr, got >= (double)c->hosts ? "" : " (the program works them out)");
	fflush(stdout);
	struct fb_prog p;
	fb_measure_prog(c, &g, dir, base, &p);
	double screen_s = fb_measure_screen(c, dir, base);
	fb_measure_lib(c, &g, base);
	fb_measure_queries(base, b);
	printf("\nfleet targets (%zu hosts x %zu processes, an hour):\n", c->hosts, c->procs);
	char where[96];
	snprintf(where, sizeof(where), "median %.2f s; %s", p.median_s,
		 p.complete ? "every host complete" : "NOT every host complete");
	if (p.first_s >= 0) {
		print_target("first complete table (--fleet --json)", p.complete ? p.first_s : 1e9, 2,
			     true, "s", where);
		if (screen_s >= 0)
			print_target("first complete Fleet screen", screen_s, 2, true, "s", "120x40, -n 1");
		print_target("queries per refresh", (double)p.queries, 10, true, "", "");
		print_target("peak RSS (--fleet --json)", p.rss_mib, 30, true, "MiB", "");
	} else {
		printf("  %-38s %10s  not measured: the program failed\n", "first complete table", "-");
	}
	return 0;
}

int fleet_bench_run(const struct fleet_bench_config *c)
{
	char promtool[4096], prom[4096];
	double load = -1;
	FILE *la = fopen("/proc/loadavg", "r");
	if (la) {
		if (fscanf(la, "%lf", &load) != 1)
			load = -1;
		fclose(la);
	}
	printf("\nfleet: %zu hosts x %zu processes, %.0f s of history at %.0f s, read back through "
	       "Prometheus (--fleet); load average %.1f on %ld CPUs\n", c->hosts, c->procs, c->span_s,
	       c->step_s, load, sysconf(_SC_NPROCESSORS_ONLN));
	if (fb_which("promtool", promtool, sizeof(promtool)) ||
	    fb_which("prometheus", prom, sizeof(prom))) {
		printf("  not measured here: prometheus or promtool not found (apt-get install "
		       "prometheus)\n");
		return 0;
	}
	char lerr[256];
	if (fleet_http_load(lerr, sizeof(lerr))) {
		printf("  not measured here: %s\n", lerr);
		return 0;
	}
	const char *tmp = getenv("TMPDIR");
	char dir[FLEET_BENCH_DIR_LEN];
	if ((size_t)snprintf(dir, sizeof(dir), "%s/numatop-bench-fleet.XXXXXX",
			     tmp && *tmp == '/' && strlen(tmp) < 64 ? tmp : "/tmp") >= sizeof(dir) ||
	    !mkdtemp(dir)) {
		perror("bench: fleet: temporary directory");
		return 1;
	}
	memcpy(c->dir, dir, sizeof(dir));
	fflush(stdout);
	struct buf b = { 0 };
	int rc = fb_phase(c, promtool, prom, dir, &b);
	buf_free(&b);
	fb_stop_server(c);
	nftw(dir, fb_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	c->dir[0] = '\0';
	if (rc)
		fprintf(stderr, "bench: fleet: %s\n", strerror(-rc));
	fflush(stdout);
	return rc ? 1 : 0;
}
