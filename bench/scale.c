/* scale.c - the monitor against htop at scale. Each program runs in a
 * 200x50 pseudo-terminal whose output is drained and discarded; after a
 * warm-up its utime + stime over a window, divided by the refreshes in it,
 * is its CPU per refresh, and VmHWM at the end its peak RSS. Runs
 * alternate (monitor, htop, monitor, htop) on the same load. Then
 * `--json` (its default delay, 2 s): the time to the first line in which every process's
 * placement has been read. Printed, never asserted. */
#include "scale.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <json.h>
#include <poll.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

#define SCALE_ROWS 50
#define SCALE_COLS 200
#define SCALE_MAPS 10                   /* mappings per load process */
#define SCALE_KB_EACH 102               /* ~1 MiB per process in all */

/* path into buf (NUL-terminated); bytes read or -1. */
static ssize_t scale_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* The number after key in a small file (key "": the first), -1. */
static long scale_file_long(const char *path, const char *key)
{
	char buf[8192];
	if (scale_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	const char *p = *key ? strstr(buf, key) : buf;
	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/* utime + stime in ms, -1 when gone. */
static double scale_read_cpu_ms(pid_t pid)
{
	char path[64], buf[1024];
	unsigned long long ut, st;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (scale_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	const char *p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) * 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

/* Read and discard fd until the deadline; at hang-up (or fd -1: poll
 * ignores it) just wait it out. */
static void scale_drain(int fd, double until)
{
	static char sink[1 << 16];      /* discarded: shared is fine */
	double left;
	while ((left = until - mono_s()) > 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, (int)(left * 1000.0) + 1);
		if (r <= 0)
			continue;
		ssize_t n = read(fd, sink, sizeof(sink));
		if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
			usleep((useconds_t)(left * 1e6));
			return;
		}
	}
}

/* SIGTERM, SIGKILL after 2 s, reaped; fd drained meanwhile so the
 * program never blocks on output while it exits. */
static void scale_stop_child(const struct scale_config *c, pid_t pid, int fd)
{
	kill(pid, SIGTERM);
	double end = mono_s() + 2.0;
	while (waitpid(pid, NULL, WNOHANG) == 0) {
		if (mono_s() >= end) {
			kill(pid, SIGKILL);
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
			break;
		}
		scale_drain(fd, mono_s() + 0.02);
	}
	*c->child = 0;
}

/* In a child: die with the benchmark. */
static void scale_child_setup(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
}

static int scale_rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

void scale_remove_home(const char *home)
{
	static const char *const sub[] = { "/.config/htop", "/.config/numatop-tui", "/.config",
					   "/.cache/numatop-tui", "/.cache", "" };
	char path[SCALE_HOME_LEN + 32];
	size_t n = strlen(home);
	if (!n || n >= SCALE_HOME_LEN)
		return;
	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		memcpy(path, home, n);
		memcpy(path + n, sub[i], strlen(sub[i]) + 1);
		rmdir(path);
	}
}

/* One run of argv in a pty with a fresh HOME (no htoprc, no settings). */
static int scale_run_pty(const struct scale_config *c, char *const argv[], double delay,
			 double settle_s, double *cpu_ms, double *rss_mib)
{
	char home[] = "/tmp/numatop-bench-scale.XXXXXX";
	if (!mkdtemp(home))
		return -errno;
	memcpy(c->home, home, sizeof(home));
	struct winsize ws = { .ws_row = SCALE_ROWS, .ws_col = SCALE_COLS };
	pid_t parent = getpid();
	int fd;
	pid_t pid = forkpty(&fd, NULL, NULL, &ws);
	if (pid < 0) {
		int e = -errno;
		rmdir(home);
		c->home[0] = '\0';
		return e;
	}
	if (pid == 0) {
		scale_child_setup(parent);
		static const char *const unset[] = { "XDG_CONFIG_HOME", "XDG_CACHE_HOME",
						     "XDG_DATA_HOME", "COLUMNS", "LINES", "NO_COLOR" };
		for (size_t i = 0; i < sizeof(unset) / sizeof(unset[0]); i++)
			unsetenv(unset[i]);     /* ~/.config, ~/.cache of the fresh HOME */
		setenv("HOME", home, 1);
		setenv("TERM", "xterm-256color", 1);
		setenv("LANG", "C.UTF-8", 1);
		setenv("LC_ALL", "C.UTF-8", 1);
		execv(argv[0], argv);
		_exit(127);
	}
	*c->child = pid;
	scale_drain(fd, mono_s() + c->warmup * delay + settle_s);
	double t0 = mono_s(), cpu0 = scale_read_cpu_ms(pid);
	scale_drain(fd, t0 + c->window_s);
	double t1 = mono_s(), cpu1 = scale_read_cpu_ms(pid);
	char status[64];
	snprintf(status, sizeof(status), "/proc/%d/status", (int)pid);
	long hwm = scale_file_long(status, "\nVmHWM:");    /* a zombie has none */
	int rc = cpu0 >= 0 && cpu1 >= 0 && hwm > 0 ? 0 : -ECHILD;
	if (waitpid(pid, NULL, WNOHANG) == 0)
		scale_stop_child(c, pid, fd);
	else {                          /* it exited early: reaped */
		*c->child = 0;
		rc = -ECHILD;
	}
	close(fd);
	nftw(home, scale_rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	c->home[0] = '\0';
	*cpu_ms = (cpu1 - cpu0) / ((t1 - t0) / delay);
	*rss_mib = (double)hwm / 1024.0;
	return rc;
}

/* One sample: placements read (numa_maps not "not_read") and processes,
 * from numa_maps_budget's known/processes when it has them. */
static void scale_count(json_object *o, size_t *known, size_t *total)
{
	json_object *b, *k, *n, *procs;
	if (json_object_object_get_ex(o, "numa_maps_budget", &b) &&
	    json_object_object_get_ex(b, "known", &k) && json_object_is_type(k, json_type_int) &&
	    json_object_object_get_ex(b, "processes", &n) && json_object_is_type(n, json_type_int)) {
		*known = (size_t)json_object_get_int64(k);
		*total = (size_t)json_object_get_int64(n);
	} else if (json_object_object_get_ex(o, "processes", &procs) &&
		   json_object_is_type(procs, json_type_array)) {
		*total = json_object_array_length(procs);
		*known = 0;
		for (size_t i = 0; i < *total; i++) {
			json_object *v, *p = json_object_array_get_idx(procs, i);
			const char *s = json_object_object_get_ex(p, "numa_maps", &v) ?
					json_object_get_string(v) : NULL;
			*known += s && strcmp(s, "not_read") != 0;
		}
	}
}

/* The number after `"key":` in [p, end), -1 when absent or not a number. */
static long scale_field(const char *p, const char *end, const char *key)
{
	char pat[64];
	int n = snprintf(pat, sizeof(pat), "\"%s\":", key);
	const char *f = memmem(p, (size_t)(end - p), pat, (size_t)n);
	for (f = f ? f + n : NULL; f && f < end && *f == ' '; f++)
		;
	return f && f < end && *f >= '0' && *f <= '9' ? strtol(f, NULL, 10) : -1;
}

/* The same count by string search, cheap enough for every line (json-c
 * takes 0.1-0.5 s of CPU on a 7 MB line: the program, on the same CPUs,
 * would wait for it). An escaped quote inside a string never matches. */
static void scale_scan(const char *line, size_t len, size_t *known, size_t *total)
{
	const char *end = line + len, *p = line, *b = memmem(line, len, "\"numa_maps_budget\":", 19);
	const char *be = b ? memchr(b, '}', (size_t)(end - b)) : NULL;
	long k = be ? scale_field(b, be, "known") : -1, n = be ? scale_field(b, be, "processes") : -1;
	if (k >= 0 && n >= 0) {
		*known = (size_t)k;
		*total = (size_t)n;
		return;
	}
	*known = *total = 0;
	while ((p = memmem(p, (size_t)(end - p), "\"numa_maps\":", 12)) != NULL) {
		p += 12;
		while (p < end && *p == ' ')
			p++;
		(*total)++;
		*known += (size_t)(end - p) < 10 || memcmp(p, "\"not_read\"", 10) != 0;
	}
}

/* `prog --json` (default delay) until a line has every placement read or the cap:
 * each line counted by string search as it arrives (lines of any length:
 * several MB at 10 000 processes), the first complete one confirmed with
 * json-c. */
static int scale_complete(const struct scale_config *c, struct scale_result *r)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return -errno;
	pid_t parent = getpid();
	double t0 = mono_s();
	pid_t pid = fork();
	if (pid < 0) {
		int e = -errno;
		close(p[0]);
		close(p[1]);
		return e;
	}
	if (pid == 0) {
		scale_child_setup(parent);
		int null = open("/dev/null", O_RDWR);
		dup2(p[1], 1);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		execl(c->prog, c->prog, "--json", (char *)NULL);
		_exit(127);
	}
	*c->child = pid;
	close(p[1]);
	size_t len = 0, cap = 1 << 20, scanned = 0;
	char *buf = malloc(cap);
	int rc = buf ? 0 : -ENOMEM;
	double end = t0 + c->json_cap_s, now;
	while (rc == 0 && r->complete_s < 0 && (now = mono_s()) < end) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		if (poll(&pf, 1, (int)((end - now) * 1000.0) + 1) <= 0)
			continue;
		if (cap - len < (1 << 16)) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				rc = -ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		ssize_t got = read(p[0], buf + len, cap - len - 1);
		if (got <= 0) {
			rc = got < 0 && errno == EINTR ? 0 : -EPIPE;    /* EOF: it exited */
			continue;
		}
		len += (size_t)got;
		double t = mono_s() - t0;
		char *nl;
		while (r->complete_s < 0 && (nl = memchr(buf + scanned, '\n', len - scanned)) != NULL) {
			*nl = '\0';
			r->samples++;
			scale_scan(buf, (size_t)(nl - buf), &r->known, &r->total);
			json_object *o = r->total && r->known >= r->total ? json_tokener_parse(buf) : NULL;
			if (o) {
				scale_count(o, &r->known, &r->total);
				json_object_put(o);
				if (r->known >= r->total)
					r->complete_s = t;
			}
			len -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, len);
			scanned = 0;
		}
		scanned = len;
	}
	r->waited_s = mono_s() - t0;
	close(p[0]);                    /* a blocked write fails: it exits */
	free(buf);
	scale_stop_child(c, pid, -1);
	return rc;
}

static int scale_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of n values (the mean of the middle two when n is even);
 * -1 when there are none. */
static double scale_median(double *v, int n)
{
	if (n <= 0)
		return -1;
	qsort(v, (size_t)n, sizeof(*v), scale_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A run's time to its complete picture, for the order: one not within
 * after every one that was. */
static double scale_done_key(const struct scale_result *r)
{
	return r->complete_s >= 0 ? r->complete_s : 1e300;
}

static int scale_cmp_done(const void *a, const void *b)
{
	double x = scale_done_key(a), y = scale_done_key(b);
	return (x > y) - (x < y);
}

/* The complete picture c->complete_runs times (one run is at the mercy of
 * whatever else the machine does in those seconds): the median run's
 * figures into r, and the fastest and slowest. */
static void scale_complete_runs(const struct scale_config *c, struct scale_result *r)
{
	struct scale_result runs[8];
	int n = c->complete_runs < 1 ? 1 : c->complete_runs > 8 ? 8 : c->complete_runs;
	for (int i = 0; i < n; i++) {
		memset(&runs[i], 0, sizeof(runs[i]));
		runs[i].complete_s = -1;
		scale_complete(c, &runs[i]);
	}
	qsort(runs, (size_t)n, sizeof(runs[0]), scale_cmp_done);
	const struct scale_result *m = &runs[n / 2];
	r->complete_s = m->complete_s;
	r->waited_s = m->waited_s;
	r->known = m->known;
	r->total = m->total;
	r->samples = m->samples;
	r->complete_min_s = runs[0].complete_s;
	r->complete_max_s = runs[n - 1].complete_s;
	r->complete_runs = n;
}

/* The floor under any process list: every process's /proc/PID/stat read
 * once more (pread on descriptors opened beforehand, nothing parsed), the
 * CPU of the best of three passes. -1 when nothing could be opened. */
static double scale_stat_floor(void)
{
	DIR *d = opendir("/proc");
	if (!d)
		return -1;
	int *fds = NULL;
	size_t n = 0, cap = 0;
	struct rlimit rl;
	size_t lim = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur > 64 ? rl.rlim_cur - 64 : 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < lim) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		char path[300];
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (n == cap) {
			int *g = realloc(fds, (cap = cap ? cap * 2 : 1024) * sizeof(*g));
			if (!g) {
				close(fd);
				break;
			}
			fds = g;
		}
		fds[n++] = fd;
	}
	closedir(d);
	double best = -1;
	char buf[1024];
	for (int pass = 0; pass < 3 && n; pass++) {
		struct timespec a, b;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
		for (size_t i = 0; i < n; i++)
			if (pread(fds[i], buf, sizeof(buf), 0) < 0)
				continue;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
		double ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
		if (best < 0 || ms < best)
			best = ms;
	}
	for (size_t i = 0; i < n; i++)
		close(fds[i]);
	free(fds);
	return best;
}

static void scale_measure(const struct scale_config *c, bool htop, struct scale_result *r)
{
	char *mon[] = { (char *)c->prog, "-d", "1", NULL };
	char *ht[] = { (char *)c->htop, "-d", "10", NULL };
	double mc[8], mr[8], hc[8], hr[8];
	int nm = 0, nh = 0, rounds = c->rounds < 8 ? c->rounds : 8;
	for (int i = 0; i < rounds; i++) {
		/* The monitor's warm-up (every placement read once, at
		 * most 5 s of reads) is over before its window: the
		 * steady state is compared. */
		nm += scale_run_pty(c, mon, 1.0, c->settle_s, &mc[nm], &mr[nm]) == 0;
		nh += htop && scale_run_pty(c, ht, 1.0, 0, &hc[nh], &hr[nh]) == 0;
	}
	r->floor_ms = scale_stat_floor();
	r->mon_ms = scale_median(mc, nm);
	r->mon_rss_mib = scale_median(mr, nm);
	r->htop_ms = scale_median(hc, nh);
	r->htop_rss_mib = scale_median(hr, nh);
	scale_complete_runs(c, r);
}

/* Whether `more` processes fit: pid_max and threads-max against the
 * tasks running now, MemAvailable against ~1.25 MiB a process. */
static int scale_check_room(size_t more, char *why, size_t len)
{
	long pid_max = scale_file_long("/proc/sys/kernel/pid_max", "");
	long threads_max = scale_file_long("/proc/sys/kernel/threads-max", "");
	long tasks = scale_file_long("/proc/loadavg", "/");  /* running/total */
	long avail_kb = scale_file_long("/proc/meminfo", "MemAvailable:");
	long limit = threads_max > 0 && threads_max < pid_max ? threads_max : pid_max;
	if (limit > 0 && tasks + (long)more + 512 > limit) {
		snprintf(why, len, "%s %ld: %ld tasks now, %zu more would leave fewer than 512 free",
			 limit == pid_max ? "pid_max" : "threads-max", limit, tasks, more);
		return -EAGAIN;
	}
	double need_kb = (double)more * 1280.0 + 512.0 * 1024.0;
	if (avail_kb >= 0 && (double)avail_kb < need_kb) {
		snprintf(why, len, "%.1f GiB available, %zu more processes of 1 MiB need about %.1f GiB",
			 (double)avail_kb / (1 << 20), more, need_kb / (1 << 20));
		return -ENOMEM;
	}
	return 0;
}

/* v with prec decimals, "-" when not measured. */
static const char *scale_fmt(char *b, size_t len, int prec, double v)
{
	if (v < 0)
		snprintf(b, len, "-");
	else
		snprintf(b, len, "%.*f", prec, v);
	return b;
}

static void scale_print_row(const struct scale_result *r)
{
	char mon[16], cpu[16], ratio[16], mrss[16], hrss[16], rss[40], rratio[16], done[160];
	char runs[64] = "";
	bool both = r->mon_ms >= 0 && r->htop_ms > 0;
	scale_fmt(mon, sizeof(mon), 1, r->mon_ms);
	scale_fmt(cpu, sizeof(cpu), 1, r->htop_ms);
	scale_fmt(ratio, sizeof(ratio), 2, both ? r->mon_ms / r->htop_ms : -1);
	snprintf(rss, sizeof(rss), "%s / %s", scale_fmt(mrss, sizeof(mrss), 1, r->mon_rss_mib),
		 scale_fmt(hrss, sizeof(hrss), 1, r->htop_rss_mib));
	both = r->mon_rss_mib >= 0 && r->htop_rss_mib > 0;
	scale_fmt(rratio, sizeof(rratio), 2, both ? r->mon_rss_mib / r->htop_rss_mib : -1);
	if (r->complete_runs > 1 && r->complete_max_s >= 0)
		snprintf(runs, sizeof(runs), "median of %d: %.1f-%.1f s; ", r->complete_runs,
			 r->complete_min_s, r->complete_max_s);
	else if (r->complete_runs > 1)
		snprintf(runs, sizeof(runs), "median of %d: %.1f s to none; ", r->complete_runs,
			 r->complete_min_s);
	if (r->complete_s >= 0)
		snprintf(done, sizeof(done), "%.1f s (%s%zu processes, sample %zu)", r->complete_s,
			 runs, r->total, r->samples);
	else
		snprintf(done, sizeof(done), "not complete after %.0f s (%zu of %zu read, %zu samples%s%.*s)",
			 r->waited_s, r->known, r->total, r->samples, runs[0] ? "; " : "",
			 runs[0] ? (int)strlen(runs) - 2 : 0, runs);
	char fl[16], fr[16];
	scale_fmt(fl, sizeof(fl), 1, r->floor_ms);
	scale_fmt(fr, sizeof(fr), 2, r->floor_ms > 0 && r->mon_ms >= 0 ? r->mon_ms / r->floor_ms : -1);
	printf("%9zu | %22s | %15s | %5s | %10s | %5s | %31s | %5s | %s\n", r->n, mon, cpu, ratio,
	       fl, fr, rss, rratio, done);
	fflush(stdout);
}

void scale_run_phase(const struct scale_config *c, struct load *l, const size_t *ns, size_t nn,
		     struct scale_result *out)
{
	bool htop = c->htop && access(c->htop, X_OK) == 0;
	printf("\nscale: the monitor (-d 1)%s in a %dx%d terminal, %s%d round%s of %.0f s after "
	       "%d s of warm-up (the monitor's own warm-up, %.0f s more, not counted);\nload: N "
	       "processes of %d mappings, %d KiB each; CPU per refresh: utime+stime / refreshes; "
	       "peak RSS: VmHWM\n",
	       htop ? " and htop (-d 10) side by side" : "", SCALE_COLS, SCALE_ROWS,
	       htop ? "alternating, " : "", c->rounds, c->rounds == 1 ? "" : "s", c->window_s,
	       c->warmup, c->settle_s, SCALE_MAPS, SCALE_KB_EACH);
	printf("  load processes: %s\n", c->tiny ? "exec'd bench/tiny/tinyproc (a small process: "
	       "its mappings plus the C runtime's)" : "forks of the benchmark, not exec'd (--scale-load "
	       "fork, or tinyproc not built: each also maps the benchmark's libraries and heap)");
	if (!htop)
		printf("  %s not installed: the monitor alone, no ratio\n", c->htop ? c->htop : "htop");
	printf("%9s | %22s | %15s | %5s | %10s | %5s | %31s | %5s | %s\n", "processes",
	       "numatop-tui ms/refresh", "htop ms/refresh", "ratio", "stat floor", "ratio",
	       "peak RSS numatop-tui / htop MiB", "ratio", "complete picture (--json)");
	fflush(stdout);
	size_t base = l->n, have = 0;
	int rc = 0;
	for (size_t i = 0; i < nn; i++) {
		struct scale_result *r = &out[i];
		memset(r, 0, sizeof(*r));
		r->n = ns[i];
		r->mon_ms = r->htop_ms = r->mon_rss_mib = r->htop_rss_mib = r->complete_s = -1;
		if (r->n < have) {
			load_kill_from(l, base + r->n);
			have = r->n;
		}
		char why[160];
		if (r->n > have && scale_check_room(r->n - have, why, sizeof(why)) != 0) {
			printf("%9zu | skipped: %s\n", r->n, why);
			r->skipped = true;
			continue;
		}
		if (r->n > have && (rc = c->tiny ?
				    load_spawn_exec(l, r->n - have, c->tiny, SCALE_MAPS, SCALE_KB_EACH) :
				    load_spawn_procs(l, r->n - have, SCALE_MAPS, SCALE_KB_EACH))) {
			printf("%9zu | skipped: cannot spawn %zu processes: %s\n", r->n, r->n - have,
			       strerror(-rc));
			load_kill_from(l, base + have);
			r->skipped = true;
			continue;
		}
		have = r->n;
		scale_measure(c, htop, r);
		scale_print_row(r);
	}
	load_kill_from(l, base);
}
