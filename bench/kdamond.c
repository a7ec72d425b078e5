/* kdamond.c - the access heat phase of make bench (kdamond.h).
 *
 * DAMON's state is only read here (damon.h): nr_kdamonds 0 is the only
 * "free", any kdamond is someone's and the phase says whose and stops.
 * When free: nproc children (forks of the benchmark) map mib MiB each,
 * write every page, and keep writing one byte a page of their first
 * hot_mib MiB every touch_ms ms (accessed in every aggregation interval
 * of DAMON's, 100 ms; the rest is written once: cold). Then the monitor,
 * `--json -d 1 -p` their PIDs, starts its kdamond on them; once a sample
 * says it watches all of them, after a warm-up, the window: the kdamond
 * thread's utime + stime (/proc/PID/stat; schedstat's run time beside
 * it) and the monitor's, over the window's wall time, against the JSON's
 * own access.kdamond_cpu_pct and tool_cpu_pct of the samples in it. Then
 * half a window with the monitor stopped (SIGSTOP): the kdamond's CPU
 * without the monitor's requests for the regions, DAMON's sampling alone.
 * The monitor is stopped with SIGTERM (it removes its kdamond: checked). */
#include "kdamond.h"
#include "kdamond_int.h"

#include <errno.h>
#include <fcntl.h>
#include <json.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "damon.h"
#include "fsroot.h"

#define KD_RESERVE_MIB 768      /* left to the rest of the machine */
#define KD_MIN_MIB 128          /* smaller than this per process: not measured */
#define KD_REGION_EVERY_S 5.0   /* how often the regions are counted */

static volatile sig_atomic_t kd_monitor;

void kdamond_config_default(struct kdamond_config *c, const char *prog)
{
	*c = (struct kdamond_config){ .prog = prog, .nproc = 16, .mib = 1024, .hot_mib = 64,
				      .touch_ms = 50, .warmup_s = 10, .window_s = 60 };
}

void kdamond_bench_on_signal(void)
{
	pid_t pid = (pid_t)kd_monitor;
	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	kill(pid, SIGCONT);             /* stopped for the quiet window */
	struct timespec ts = { 0, 50000000 };
	for (int i = 0; i < 100; i++) {
		if (waitpid(pid, NULL, WNOHANG) != 0)
			return;
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* The monitor's --json lines, one at a time. */
struct kd_reader {
	int fd;
	char *buf;
	size_t len, cap;
	bool eof;
};

/* The next line parsed, or NULL at the deadline or the end. */
static json_object *kd_next(struct kd_reader *r, double until)
{
	for (;;) {
		char *nl = r->len ? memchr(r->buf, '\n', r->len) : NULL;
		if (nl) {
			*nl = '\0';
			json_object *o = json_tokener_parse(r->buf);
			r->len -= (size_t)(nl + 1 - r->buf);
			memmove(r->buf, nl + 1, r->len);
			if (o)
				return o;
			continue;
		}
		double left = until - mono_s();
		if (r->eof || left <= 0)
			return NULL;
		if (r->cap - r->len < 4096) {
			size_t nc = r->cap ? r->cap * 2 : 1 << 16;
			char *nb = realloc(r->buf, nc);
			if (!nb)
				return NULL;
			r->buf = nb;
			r->cap = nc;
		}
		struct pollfd pf = { .fd = r->fd, .events = POLLIN };
		if (poll(&pf, 1, (int)(left * 1000.0) + 1) <= 0)
			continue;
		ssize_t got = read(r->fd, r->buf + r->len, r->cap - r->len - 1);
		if (got > 0)
			r->len += (size_t)got;
		else if (got == 0 || errno != EINTR)
			r->eof = true;
	}
}

/* o.access.key as a number; NAN-free: -1 when absent or null. */
static double kd_num(json_object *o, const char *obj, const char *key)
{
	json_object *a = o, *v;
	if (obj && !json_object_object_get_ex(o, obj, &a))
		return -1;
	if (!json_object_object_get_ex(a, key, &v) || !v)
		return -1;
	return json_object_get_double(v);
}

static const char *kd_str(json_object *o, const char *key)
{
	json_object *a, *v;
	if (!json_object_object_get_ex(o, "access", &a) || !json_object_object_get_ex(a, key, &v))
		return "";
	return json_object_get_string(v);
}

static pid_t kd_start_monitor(const struct kdamond_config *c, const pid_t *pids, int *fd)
{
	char list[DAMON_MAX_TARGETS * 24 + 1] = "";
	size_t o = 0;
	for (size_t i = 0; i < c->nproc && i < DAMON_MAX_TARGETS; i++)
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%d", i ? "," : "", (int)pids[i]);
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	pid_t parent = getpid(), pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);   /* it removes its kdamond */
		if (getppid() != parent)
			_exit(0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		int null = open("/dev/null", O_RDWR);
		dup2(p[1], 1);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		execl(c->prog, c->prog, "--json", "-d", "1", "-p", list, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	kd_monitor = pid;
	*fd = p[0];
	return pid;
}

struct kd_window {
	double wall_s, kd_s, kd_sched_s, mon_s;
	double json_kd_sum, json_kd_max, json_self_sum, req[4096];
	size_t samples, json_kd_n, json_self_n, short_of;
	long reg_min, reg_max;
	char comm[32];
	double quiet_wall_s, quiet_kd_s;  /* the monitor stopped: sampling alone */
};

/* Half a window more with the monitor stopped (SIGSTOP): the kdamond
 * samples on, asked for nothing; what is left of its CPU is DAMON's own
 * sampling, the rest was the monitor's requests for the regions. */
static void kd_quiet(const struct kdamond_config *c, pid_t mon, pid_t kpid, struct kd_window *w)
{
	w->quiet_wall_s = -1;
	if (kill(mon, SIGSTOP) != 0)
		return;
	struct timespec settle = { 2, 0 };      /* a request under way ends */
	nanosleep(&settle, NULL);
	double t0 = mono_s(), k0 = kdamond_stat_s(kpid), half = c->window_s / 2;
	struct timespec ts = { (time_t)half, (long)((half - (double)(time_t)half) * 1e9) };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
	double t1 = mono_s(), k1 = kdamond_stat_s(kpid);
	kill(mon, SIGCONT);
	if (k0 >= 0 && k1 >= 0) {
		w->quiet_wall_s = t1 - t0;
		w->quiet_kd_s = k1 - k0;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Warm-up and window on the running monitor; 0, or 1 with why set. */
static int kd_measure(const struct kdamond_config *c, const struct fsroot *root, struct kd_reader *r,
		      pid_t mon, long long *kpid, struct kd_window *w, char *why, size_t wlen)
{
	/* Until a sample says all are watched (TCG guests: slow). */
	double until = mono_s() + 300;
	json_object *o;
	while ((o = kd_next(r, until)) != NULL) {
		double m = kd_num(o, "access", "monitored"), k = kd_num(o, "access", "kdamond_pid");
		const char *reason = kd_str(o, "reason");
		if (m == (double)c->nproc && k > 0) {
			*kpid = (long long)k;
			json_object_put(o);
			break;
		}
		if (strcmp(reason, "on") != 0 && strcmp(reason, "not_yet") != 0) {
			snprintf(why, wlen, "the monitor's access heat: %s (%s)", reason, kd_str(o, "text"));
			json_object_put(o);
			return 1;
		}
		json_object_put(o);
	}
	if (!o) {
		snprintf(why, wlen, "the monitor did not watch the %zu processes within 300 s%s", c->nproc,
			 r->eof ? " (it exited)" : "");
		return 1;
	}
	until = mono_s() + c->warmup_s;
	while ((o = kd_next(r, until)) != NULL)
		json_object_put(o);
	memset(w, 0, sizeof(*w));
	w->reg_min = w->reg_max = -1;
	double t0 = mono_s(), k0 = kdamond_stat_s((pid_t)*kpid), ks0 = kdamond_sched_s((pid_t)*kpid);
	double m0 = kdamond_stat_s(mon), next_reg = t0;
	until = t0 + c->window_s;
	while (mono_s() < until) {
		if (mono_s() >= next_reg) {
			long n = kdamond_regions(root, *kpid);
			/* 0: the directories being made again (a request). */
			if (n > 0 && (w->reg_min < 0 || n < w->reg_min))
				w->reg_min = n;
			if (n > w->reg_max)
				w->reg_max = n;
			next_reg += KD_REGION_EVERY_S;
		}
		if ((o = kd_next(r, until < next_reg ? until : next_reg)) == NULL)
			continue;
		w->samples++;
		double kp = kd_num(o, "access", "kdamond_cpu_pct"), tool = kd_num(o, NULL, "tool_cpu_pct");
		double req = kd_num(o, "access", "request_ms");
		if (kd_num(o, "access", "monitored") != (double)c->nproc)
			w->short_of++;
		if (kp >= 0) {
			w->json_kd_sum += kp;
			w->json_kd_n++;
			if (kp > w->json_kd_max)
				w->json_kd_max = kp;
			if (tool >= 0) {
				w->json_self_sum += tool > kp ? tool - kp : 0;
				w->json_self_n++;
			}
		}
		if (req >= 0 && w->samples <= sizeof(w->req) / sizeof(w->req[0]))
			w->req[w->samples - 1] = req;
		json_object_put(o);
	}
	double t1 = mono_s(), k1 = kdamond_stat_s((pid_t)*kpid), ks1 = kdamond_sched_s((pid_t)*kpid);
	double m1 = kdamond_stat_s(mon);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%lld/comm", *kpid);
	if (kdamond_read_file(path, w->comm, sizeof(w->comm)) <= 0)
		snprintf(w->comm, sizeof(w->comm), "kdamond");
	w->comm[strcspn(w->comm, "\n")] = '\0';
	if (k0 < 0 || k1 < 0 || m0 < 0 || m1 < 0) {
		snprintf(why, wlen, "the %s ended during the window", k1 < 0 ? "kdamond" : "monitor");
		return 1;
	}
	w->wall_s = t1 - t0;
	w->kd_s = k1 - k0;
	w->kd_sched_s = ks0 >= 0 && ks1 >= 0 ? ks1 - ks0 : -1;
	w->mon_s = m1 - m0;
	kd_quiet(c, mon, (pid_t)*kpid, w);
	return 0;
}

static void kd_print(const struct kdamond_config *c, size_t mib, long long kpid,
		     const struct kd_window *w, long huge_kb, const char *thp)
{
	double pct = 100.0 * w->kd_s / w->wall_s, mon = 100.0 * w->mon_s / w->wall_s;
	double sched = w->kd_sched_s >= 0 ? 100.0 * w->kd_sched_s / w->wall_s : -1;
	double jk = w->json_kd_n ? w->json_kd_sum / (double)w->json_kd_n : -1;
	double js = w->json_self_n ? w->json_self_sum / (double)w->json_self_n : -1;
	size_t nreq = w->samples < sizeof(w->req) / sizeof(w->req[0]) ? w->samples :
		      sizeof(w->req) / sizeof(w->req[0]);
	double req[sizeof(w->req) / sizeof(w->req[0])];
	memcpy(req, w->req, nreq * sizeof(*req));
	qsort(req, nreq, sizeof(*req), cmp_double);
	printf("  our kdamond (%s, pid %lld): %.2f %% of one CPU (utime+stime over %.1f s", w->comm,
	       kpid, pct, w->wall_s);
	if (sched >= 0)
		printf("; schedstat run time %.2f %%", sched);
	printf("); the JSON's access.kdamond_cpu_pct: mean %.2f %%, max %.2f %% (%zu samples)\n",
	       jk, w->json_kd_max, w->json_kd_n);
	double quiet = w->quiet_wall_s > 0 ? 100.0 * w->quiet_kd_s / w->quiet_wall_s : -1;
	if (quiet >= 0)
		printf("  with the monitor stopped (%.1f s more: no request for the regions, DAMON's "
		       "sampling alone): %.2f %% of one CPU\n", w->quiet_wall_s, quiet);
	printf("  watched: %zu of %zu processes in %s samples; regions over all of them %ld..%ld "
	       "(DAMON's %d..%d)\n", c->nproc, c->nproc, w->short_of ? "not all" : "all",
	       w->reg_min, w->reg_max, DAMON_MIN_REGIONS, DAMON_MAX_REGIONS);
	printf("  the monitor's own CPU: %.2f %% of one CPU (utime+stime); the JSON's tool_cpu_pct - "
	       "kdamond_cpu_pct: mean %.2f %%; the request for the regions %.1f ms median\n",
	       mon, js, nreq ? req[nreq / 2] : -1.0);
	if (c->raw)
		printf("  target: kdamond CPU <= %.0f %% of one CPU: not judged here (an emulated guest: "
		       "make bench-damon divides by the guest's slowdown)\n", KDAMOND_TARGET_PCT);
	else
		printf("  target: kdamond CPU <= %.0f %% of one CPU with %zu x %zu MiB: %.2f %%  %s\n",
		       KDAMOND_TARGET_PCT, c->nproc, mib, pct, pct <= KDAMOND_TARGET_PCT ? "met" : "MISS");
	printf("kdamond-result: procs=%zu mib=%zu hot_mib=%zu touch_ms=%d window_s=%.1f kdamond_pct=%.3f "
	       "kdamond_sched_pct=%.3f kdamond_json_pct=%.3f monitor_pct=%.3f monitor_json_pct=%.3f "
	       "kdamond_quiet_pct=%.3f regions_min=%ld regions_max=%ld samples=%zu huge_kb=%ld thp=%s\n",
	       c->nproc, mib, c->hot_mib, c->touch_ms, w->wall_s, pct, sched, jk, mon, js, quiet,
	       w->reg_min, w->reg_max, w->samples, huge_kb, thp);
	fflush(stdout);
}

int kdamond_bench_run(const struct kdamond_config *c, struct load *l)
{
	char why[512], thp[32];
	kdamond_thp(thp, sizeof(thp));
	printf("\nkdamond: the CPU of the kdamond the monitor starts for access heat (DAMON: sample %d ms, "
	       "aggregate %d ms, update %d ms, %d..%d regions), with %zu processes of %zu MiB; the "
	       "first %zu MiB of each written every %d ms, the rest once; THP %s\n",
	       DAMON_SAMPLE_US / 1000, DAMON_AGGR_US / 1000, DAMON_UPDATE_US / 1000, DAMON_MIN_REGIONS,
	       DAMON_MAX_REGIONS, c->nproc, c->mib, c->hot_mib, c->touch_ms, thp);
	if (c->nproc == 0 || c->nproc > DAMON_MAX_TARGETS) {
		printf("  not measured: %zu processes (the monitor's kdamond watches 1 to %d)\n", c->nproc,
		       DAMON_MAX_TARGETS);
		return 1;
	}
	struct fsroot *root;
	if (fsroot_open("/", &root) != 0) {
		printf("  not measured here: / cannot be opened\n");
		return 1;
	}
	int rc = 0;
	if (kdamond_damon_busy(root, why, sizeof(why))) {
		printf("  not measured here: %s; measured in a QEMU guest instead: make bench-damon "
		       "(HACKING.md, Performance)\n", why);
		fsroot_close(root);
		return 0;
	}
	/* The largest load that fits (in steps of 64 MiB). */
	size_t mib = c->mib;
	long avail = kdamond_meminfo_kb("MemAvailable:");
	if (avail > 0 && (size_t)avail / 1024 < c->nproc * mib + KD_RESERVE_MIB) {
		size_t fit = ((size_t)avail / 1024 > KD_RESERVE_MIB ?
			      ((size_t)avail / 1024 - KD_RESERVE_MIB) / c->nproc : 0) / 64 * 64;
		if (fit < KD_MIN_MIB) {
			printf("  not measured here: %ld MiB available, %zu processes of %d MiB or more "
			       "need %zu\n", avail / 1024, c->nproc, KD_MIN_MIB,
			       c->nproc * KD_MIN_MIB + KD_RESERVE_MIB);
			fsroot_close(root);
			return 0;
		}
		printf("  the machine has %ld MiB available: %zu MiB per process instead of %zu\n",
		       avail / 1024, fit, mib);
		mib = fit;
	}
	size_t first = l->n;
	pid_t pids[DAMON_MAX_TARGETS];
	double t_load = mono_s();
	if ((rc = kdamond_spawn(c, mib, l, pids)) != 0) {
		printf("  not measured: the load did not start: %s\n", strerror(-rc));
		load_kill_from(l, first);
		fsroot_close(root);
		return 1;
	}
	long huge = kdamond_huge_kb(pids, c->nproc);
	printf("  load: %zu x %zu MiB written in %.1f s (%ld MiB of it in huge pages); the monitor: "
	       "%s --json -d 1 -p <their PIDs>, %.0f s of warm-up once it watches them all, then "
	       "%.0f s measured\n", c->nproc, mib, mono_s() - t_load, huge >= 0 ? huge / 1024 : -1,
	       c->prog, c->warmup_s, c->window_s);
	fflush(stdout);
	struct kd_reader r = { .fd = -1 };
	pid_t mon = kd_start_monitor(c, pids, &r.fd);
	struct kd_window *w = calloc(1, sizeof(*w));
	long long kpid = -1;
	if (mon < 0 || !w) {
		printf("  not measured: the monitor did not start\n");
		rc = 1;
	} else if (kd_measure(c, root, &r, mon, &kpid, w, why, sizeof(why)) != 0) {
		printf("  not measured: %s\n", why);
		rc = 1;
	} else {
		kd_print(c, mib, kpid, w, huge, thp);
	}
	if (mon > 0) {
		kdamond_bench_on_signal();
		kd_monitor = 0;
	}
	if (r.fd >= 0)
		close(r.fd);
	free(r.buf);
	free(w);
	load_kill_from(l, first);
	/* The monitor removes its kdamond on SIGTERM. */
	if (kpid > 0 && kdamond_damon_busy(root, why, sizeof(why))) {
		printf("  after the monitor's end: %s (it should have removed its kdamond)\n", why);
		rc = 1;
	}
	fsroot_close(root);
	return rc;
}
