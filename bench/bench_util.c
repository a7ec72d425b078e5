/* bench_util.c - measuring helpers of make bench. */
#include "bench_util.h"

#include <dirent.h>
#include <errno.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fsroot.h"
#include "numa_maps.h"
#include "scale.h"
#include "topology.h"

#define CAPTURE_MAX (64u << 20)

double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int bench_free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t l = sizeof(a);
	int port = -1;
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &l) == 0)
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cost_begin(struct cost_mark *m)
{
	m->wall = mono_s();
	m->cpu = cpu_s();
}

void cost_end(const struct cost_mark *m, struct cost *out)
{
	out->wall_ms = (mono_s() - m->wall) * 1000.0;
	out->cpu_ms = (cpu_s() - m->cpu) * 1000.0;
}

static int cmp_cost(const void *a, const void *b)
{
	double x = ((const struct cost *)a)->cpu_ms, y = ((const struct cost *)b)->cpu_ms;
	return x < y ? -1 : x > y;
}

/* The run with the median CPU time (n <= 16). */
struct cost cost_median(const struct cost *c, size_t n)
{
	struct cost v[16];
	if (n > 16)
		n = 16;
	memcpy(v, c, n * sizeof(*c));
	qsort(v, n, sizeof(*v), cmp_cost);
	return v[n / 2];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double percentile(double *v, size_t n, double p)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	size_t rank = (size_t)((p / 100.0) * (double)n + 0.999999);
	if (rank < 1)
		rank = 1;
	return v[rank > n ? n - 1 : rank - 1];
}

void floor_read_all(struct cost *out, struct buf *capture, double *mb)
{
	static char chunk[1 << 16];     /* the one buffer */
	struct cost_mark m;
	size_t total = 0;
	if (capture)
		buf_clear(capture);
	cost_begin(&m);
	DIR *d = opendir("/proc");
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		char path[300];
		snprintf(path, sizeof(path), "/proc/%.20s/numa_maps", e->d_name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t r;
		while ((r = read(fd, chunk, sizeof(chunk))) > 0) {
			total += (size_t)r;
			if (capture && capture->len + (size_t)r <= CAPTURE_MAX)
				buf_append(capture, chunk, (size_t)r);
		}
		close(fd);
	}
	if (d)
		closedir(d);
	cost_end(&m, out);
	*mb = (double)total / 1e6;
}

void run_numastat(const struct load *l, struct cost *out)
{
	out->wall_ms = out->cpu_ms = -1;
	if (access("/usr/bin/numastat", X_OK) != 0) {
		/* Said once: a "-1 / -1" column alone reads like a failed run. */
		static int said;
		if (!said++)
			fprintf(stderr, "bench: /usr/bin/numastat missing (apt-get install numactl): "
				"the numastat -p column is -1\n");
		return;
	}
	char **argv = calloc(l->n + 3, sizeof(char *));
	char *nums = malloc(l->n * 12 + 1);
	if (!argv || !nums) {
		free(argv);
		free(nums);
		return;
	}
	argv[0] = "numastat";
	argv[1] = "-p";
	for (size_t i = 0; i < l->n; i++) {
		snprintf(nums + i * 12, 12, "%d", (int)l->pids[i]);
		argv[i + 2] = nums + i * 12;
	}
	double t0 = mono_s();
	pid_t p = fork();
	if (p == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv("/usr/bin/numastat", argv);
		_exit(127);
	}
	struct rusage ru;
	int st;
	if (p > 0 && wait4(p, &st, 0, &ru) == p && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		out->wall_ms = (mono_s() - t0) * 1000.0;
		out->cpu_ms = ((double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec) * 1000.0 +
			      ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1000.0;
	}
	free(argv);
	free(nums);
}

/* A child's ru_maxrss includes what it inherited at fork: the program
 * is started by a small process forked at the beginning, never by the
 * benchmark once it holds its capture buffer. */
static long spawn_and_measure(const char *prog, int json)
{
	pid_t p = fork();
	if (p == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 1);
		if (json)
			execl(prog, prog, "--json", "-n", "2", "-d", "0.1", "--full", (char *)NULL);
		else
			execl(prog, prog, "-b", "-n", "2", "-d", "0.1", "--full", (char *)NULL);
		_exit(127);
	}
	struct rusage ru;
	int st;
	if (p > 0 && wait4(p, &st, 0, &ru) == p && WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return ru.ru_maxrss;
	return -1;
}

int spawner_start(struct spawner *sp, const char *prog, struct load *l)
{
	int req[2], ans[2];
	if (pipe(req) != 0)
		return -errno;
	if (pipe(ans) != 0) {
		close(req[0]);
		close(req[1]);
		return -errno;
	}
	pid_t p = fork();
	if (p < 0)
		return -errno;
	if (p == 0) {
		close(req[1]);
		close(ans[0]);
		char c;
		while (read(req[0], &c, 1) == 1) {
			long m = spawn_and_measure(prog, c == 'j');
			if (write(ans[1], &m, sizeof(m)) != sizeof(m))
				break;
		}
		_exit(0);
	}
	close(req[0]);
	close(ans[1]);
	sp->to = req[1];
	sp->from = ans[0];
	return load_adopt(l, p);
}

long run_peak_rss(struct spawner *sp, bool json)
{
	char c = json ? 'j' : 't';
	long m = -1;
	if (write(sp->to, &c, 1) != 1 || read(sp->from, &m, sizeof(m)) != sizeof(m))
		return -1;
	return m;
}

/* MB/s summarizing text for at least 0.1 s, fed as the program feeds a
 * file: in the pieces read() gives (the kernel's seq_file page, 4 KiB,
 * whole lines). */
static double summarize_rate(const char *text, size_t len, const struct nm_params *np,
			     struct nm_mapping *m, struct nm_summary *s)
{
	double t0 = mono_s(), el;
	size_t reps = 0;
	do {
		numa_maps_begin(s);
		for (size_t off = 0, used; off < len; off += used) {
			size_t n = len - off > 4096 ? 4096 : len - off;
			while (n > 1 && text[off + n - 1] != '\n')
				n--;
			if (numa_maps_feed(text + off, n, np, m, s, &used) != 0 || used == 0)
				break;    /* no whole line in 4 KiB: not kernel text */
		}
		reps++;
		el = mono_s() - t0;
	} while (el < 0.1);
	return (double)len / 1e6 * (double)reps / el;
}

/* Lines in the kernel's shape, every one unlike the one before (no runs
 * for the fast path to take whole): numbers that change line by line,
 * one line in four a file mapping. */
static size_t distinct_lines(char *out, size_t cap)
{
	size_t o = 0;
	for (unsigned i = 0; o + 160 < cap; i++) {
		unsigned a = 1 + i % 251, d = i % 7;
		int n;
		if (i % 4 == 0)
			n = snprintf(out + o, cap - o, "%012lx default file=/usr/lib/x86_64-linux-gnu/"
				     "lib%u.so.6 mapped=%u mapmax=%u N0=%u kernelpagesize_kB=4\n",
				     0x7f0000000ul + (unsigned long)i * 16, i % 97, a, 2 + d, a);
		else
			n = snprintf(out + o, cap - o, "%012lx default anon=%u dirty=%u active=%u "
				     "N0=%u kernelpagesize_kB=4\n", 0x7f0000000ul + (unsigned long)i * 16, a, a, d, a);
		o += (size_t)n;
	}
	return o;
}

void parser_throughput(const struct buf *text, struct parser_rate *out)
{
	memset(out, 0, sizeof(*out));
	if (!text->len)
		return;
	struct fsroot *r;
	struct topology t;
	if (fsroot_open("/", &r) != 0)
		return;
	if (topology_read(r, &t) != 0) {
		fsroot_close(r);
		return;
	}
	struct nm_params np;
	topology_nm_params(&t, &np);
	struct nm_mapping m;
	nm_mapping_init(&m);
	struct nm_summary s;
	size_t dcap = 8u << 20;
	char *d = malloc(dcap);
	if (d && nm_summary_init(&s, t.nnodes) == 0) {
		out->mb = (double)text->len / 1e6;
		size_t dlen = distinct_lines(d, dcap);
		struct nm_params ref = np;
		ref.reference = true;
		/* The best of seven rounds, the three kinds interleaved: a busy
		 * neighbour on a small machine only ever makes a run slower,
		 * and weighs on all three alike. */
		for (int run = 0; run < 7; run++) {
			double a = summarize_rate(text->data, text->len, &np, &m, &s);
			double b = summarize_rate(d, dlen, &np, &m, &s);
			double c = summarize_rate(text->data, text->len, &ref, &m, &s);
			out->mb_per_s = a > out->mb_per_s ? a : out->mb_per_s;
			out->distinct_mb_per_s = b > out->distinct_mb_per_s ? b : out->distinct_mb_per_s;
			out->reference_mb_per_s = c > out->reference_mb_per_s ? c : out->reference_mb_per_s;
		}
		nm_summary_free(&s);
	}
	free(d);
	nm_mapping_free(&m);
	topology_free(&t);
	fsroot_close(r);
}

static const struct row *find_row(const struct row *rows, size_t n, size_t want_n, size_t want_k)
{
	const struct row *best = NULL;
	for (size_t i = 0; i < n; i++)
		if (rows[i].n == want_n && (want_k == 0 || rows[i].k == want_k))
			if (!best || rows[i].k > best->k)
				best = &rows[i];
	return best;
}

void print_target(const char *what, double got, double limit, bool le, const char *unit,
		  const char *where)
{
	bool met = le ? got <= limit : got >= limit;
	printf("  %-38s %10.2f %-5s (%s %g)  %-4s %s\n", what, got, unit, le ? "<=" : ">=",
	       limit, met ? "met" : "MISS", where);
}

/* At the largest N the scale phase measured: CPU per refresh and peak
 * RSS against htop's, and the time to a complete picture. */
static void print_scale_targets(const struct scale_result *sc, size_t nsc)
{
	const struct scale_result *r = NULL;
	for (size_t i = 0; i < nsc; i++)
		if (!sc[i].skipped && sc[i].mon_ms >= 0 && (!r || sc[i].n > r->n))
			r = &sc[i];
	if (!r)
		return;
	char what[64], where[64];
	if (r->htop_ms > 0) {
		snprintf(what, sizeof(what), "CPU per refresh at N=%zu vs htop", r->n);
		snprintf(where, sizeof(where), "%.1f / %.1f ms", r->mon_ms, r->htop_ms);
		print_target(what, r->mon_ms / r->htop_ms, 0.15, true, "x", where);
	}
	if (r->mon_rss_mib >= 0 && r->htop_rss_mib > 0) {
		snprintf(what, sizeof(what), "peak RSS at N=%zu vs htop", r->n);
		snprintf(where, sizeof(where), "%.1f / %.1f MiB", r->mon_rss_mib, r->htop_rss_mib);
		print_target(what, r->mon_rss_mib / r->htop_rss_mib, 0.8, true, "x", where);
	}
	if (r->htop_ms <= 0)
		printf("  %-38s %10s %-5s (<= 0.15)  -    htop not measured\n",
		       "CPU per refresh vs htop", "-", "x");
	snprintf(what, sizeof(what), "complete picture at N=%zu (--json)", r->n);
	snprintf(where, sizeof(where), "%zu of %zu processes read%s", r->known, r->total,
		 r->complete_runs > 1 ? ", the median run" : "");
	if (r->complete_s >= 0)
		print_target(what, r->complete_s, 2, true, "s", where);
	else
		printf("  %-38s %10s %-5s (<= 2)  MISS %s after %.0f s\n", what, "none", "s", where,
		       r->waited_s);
}

void print_summary(const struct row *rows, size_t n, const struct parser_rate *pr,
		   size_t big_mib, const struct scale_result *sc, size_t nsc)
{
	if (n == 0) {   /* --scale-only */
		printf("\ntargets (ratios and limits measured in this run):\n");
		print_scale_targets(sc, nsc);
		return;
	}
	printf("\nparser: %.0f MB/s on %.1f MB of captured numa_maps text; %.0f MB/s on lines "
	       "that each differ from the one before (no runs of alike mappings); %.0f MB/s "
	       "on the capture by the general parser alone (no fast path)\n", pr->mb_per_s, pr->mb,
	       pr->distinct_mb_per_s, pr->reference_mb_per_s);
	printf("\ntargets (ratios and limits measured in this run):\n");
	char where[64];
	double worst = 0;
	const struct row *wr = NULL;
	for (size_t i = 0; i < n; i++) {
		double ratio = rows[i].floor.cpu_ms > 0 ? rows[i].full.cpu_ms / rows[i].floor.cpu_ms : 0;
		if (rows[i].k >= 1000 && ratio > worst) {
			worst = ratio;
			wr = &rows[i];
		}
	}
	if (wr) {
		snprintf(where, sizeof(where), "worst at N=%zu K=%zu", wr->n, wr->k);
		print_target("full scan CPU / floor CPU (K=1000)", worst, 1.05, true, "x", where);
	}
	for (size_t i = 0; i < n; i++)
		if (rows[i].k < 1000) {
			double ratio = rows[i].floor.cpu_ms > 0 ?
				       rows[i].full.cpu_ms / rows[i].floor.cpu_ms : 0;
			snprintf(where, sizeof(where), "N=%zu K=%zu", rows[i].n, rows[i].k);
			print_target("full scan CPU / floor CPU (K=10)", ratio, 1.05, true, "x", where);
		}
	/* numastat -p reads the same files (and does less with them). */
	for (size_t i = 0; i < n; i++)
		if (rows[i].numastat.cpu_ms > 0 && (rows[i].n == 3000 || i + 1 == n)) {
			snprintf(where, sizeof(where), "N=%zu K=%zu: %.0f / %.0f ms", rows[i].n,
				 rows[i].k, rows[i].full.cpu_ms, rows[i].numastat.cpu_ms);
			print_target("full scan CPU / numastat -p CPU", rows[i].full.cpu_ms /
			       rows[i].numastat.cpu_ms, 1.0, true, "x", where);
		}
	const struct row *r1000 = find_row(rows, n, 1000, 0);
	for (size_t i = 0; i < n; i++)
		if (rows[i].n == 1000) {
			snprintf(where, sizeof(where), "p95 %.2f ms, K=%zu", rows[i].tick_p95, rows[i].k);
			print_target("steady tick CPU median at N=1000", rows[i].tick_med, 25, true, "ms", where);
		}
	(void)r1000;
	const struct row *r3000 = find_row(rows, n, 3000, 0);
	if (r3000) {
		long worst_rss = 0;
		for (size_t i = 0; i < n; i++)
			if (rows[i].n == 3000 && rows[i].peak_rss_kb > worst_rss)
				worst_rss = rows[i].peak_rss_kb;
		long worst_json = 0;
		for (size_t i = 0; i < n; i++)
			if (rows[i].n == 3000 && rows[i].peak_rss_json_kb > worst_json)
				worst_json = rows[i].peak_rss_json_kb;
		print_target("peak RSS at N=3000 (-b)", (double)worst_rss / 1024.0, 8, true, "MiB", "");
		print_target("peak RSS at N=3000 (--json)", (double)worst_json / 1024.0, 8, true, "MiB", "");
	}
	print_target("parser throughput", pr->mb_per_s / 1000.0, 1.5, false, "GB/s", "");
	if (big_mib >= 1024) {
		/* Never more than once per 10 s: the shortest gap between two
		 * reads of the big process in any budgeted phase. */
		double gap = -1;
		int reads = 0;
		for (size_t i = 0; i < n; i++) {
			reads += rows[i].big_reads;
			if (rows[i].big_min_gap_s >= 0 && (gap < 0 || rows[i].big_min_gap_s < gap))
				gap = rows[i].big_min_gap_s;
		}
		snprintf(where, sizeof(where), "%d reads in all phases", reads);
		if (gap < 0)
			printf("  %-38s %10s %-5s (>= 10)  met  %s\n",
			       "4 GiB process: shortest gap of reads", "none", "s", where);
		else
			print_target("4 GiB process: shortest gap of reads", gap, 9.9, false, "s", where);
	}
	print_scale_targets(sc, nsc);
}
