/* bench.c - make bench: numatop-tui's cost against the kernel's floor,
 * measured in one run on load the benchmark spawns itself.
 *
 * For each N (processes) x K (mappings each) it measures:
 *   floor     a raw read() of every process's numa_maps, no parsing;
 *   full      our full scan (libproc2 + threads + numa_maps + parse);
 *   tick      our steady tick with the default budget, CPU median/p95;
 *   numastat  `numastat -p` on the load's PIDs, one call;
 *   rss       the program's peak RSS (-b -n 2 --full);
 *   stall     the worst mmap+touch+munmap in the big process meanwhile;
 *   exporter  at N=1000: --serve's scrape latency and CPU per sample;
 *   recorder  at N=1000: -w's bytes per process per sample in steady
 *             state, MB per day at 10 s, its CPU per sample.
 * Then the scale phase (scale.c): the monitor and htop side by side on
 * 1000 to 10 000 processes, and the time to a complete picture; and the
 * fleet phase (fleet_bench.c): --fleet over a thousand exporters' hour
 * in a Prometheus server.
 * Timing is printed, never asserted. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exporter.h"
#include "fleet_bench.h"
#include "recorder.h"
#include "history.h"
#include "load.h"
#include "bench_util.h"
#include "numa_maps.h"
#include "cgroups.h"
#include "cpuref.h"
#include "kdamond.h"
#include "sampler.h"
#include "scale.h"
#include "sigstop.h"

static struct load g_load;          /* for the signal handler */
static volatile sig_atomic_t g_scale_child;   /* the scale phase's program */
static char g_scale_home[SCALE_HOME_LEN];      /* and its HOME */
static volatile sig_atomic_t g_fleet_child, g_fleet_server;  /* the fleet phase's */
static char g_fleet_dir[FLEET_BENCH_DIR_LEN];  /* and its directory */

static void on_signal(int sig)
{
	/* kill(2), waitpid(2), rmdir(2) are async-signal-safe; free is not used. */
	kdamond_bench_on_signal();
	cgroup_bench_cleanup();
	pid_t sc = (pid_t)g_scale_child;
	if (sc > 0) {
		kill(sc, SIGKILL);
		waitpid(sc, NULL, 0);
	}
	scale_remove_home(g_scale_home);
	fleet_bench_on_signal((pid_t)g_fleet_child, (pid_t)g_fleet_server, g_fleet_dir);
	for (size_t i = 0; i < g_load.n; i++)
		kill(g_load.pids[i], SIGKILL);
	for (size_t i = 0; i < g_load.n; i++)
		waitpid(g_load.pids[i], NULL, 0);
	_exit(128 + sig);
}

struct config {
	size_t ns[8], nn;               /* process counts, ascending */
	size_t ks[4], nk;               /* mappings per process */
	size_t big_mib, many_maps, ticks;
	double tick_delay;
	const char *prog;
	bool smoke;                     /* --smoke: small and quick */
	size_t scale[8], nscale;        /* the scale phase's counts; 0: none */
	bool scale_set;
	struct kdamond_config kd;       /* the access heat phase (kdamond.h) */
	bool kd_only, kd_none, cpuref, scale_only;
	bool scale_fork;                /* --scale-load fork: forks of this
					 * program, not exec'd tinyproc */
	struct fleet_bench_config fleet; /* the fleet phase; hosts 0: none */
	bool fleet_only, fleet_set;
};


/* Floor and full scan runs, alternating. */
#define FULL_RUNS 9

static int run_sampler_phase(const struct config *c, struct row *r, pid_t big,
			     struct stall_probe *probe, struct buf *capture)
{
	struct fsroot *root;
	struct topology topo;
	struct sampler *s;
	int rc = fsroot_open("/", &root);
	if (rc)
		return rc;
	if ((rc = topology_read(root, &topo)) != 0) {
		fsroot_close(root);
		return rc;
	}
	if ((rc = sampler_new(root, &topo, PROC_BACKEND_AUTO, &s)) != 0) {
		topology_free(&topo);
		fsroot_close(root);
		return rc;
	}
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	struct nmsched_config nc;
	nmsched_config_default(&nc);
	/* The full scan: one warm-up tick, then FULL_RUNS of it alternating
	 * with the floor, so that what drifts meanwhile (khugepaged collapsing
	 * the big process's pages, the caches) weighs on both alike; the
	 * median of each. The stall probe watches the full scans only. */
	nc.full = true;
	sampler_set_budget(s, &nc);
	sampler_tick(s, &snap);
	struct cost fc[FULL_RUNS], fl[FULL_RUNS];
	uint64_t stall = 0;
	for (int i = 0; i < FULL_RUNS; i++) {
		floor_read_all(&fl[i], i == 0 ? capture : NULL, &r->floor_mb);
		probe->reset = 1;
		usleep(20000);
		struct cost_mark m;
		cost_begin(&m);
		if ((rc = sampler_tick(s, &snap)) != 0)
			goto out;
		cost_end(&m, &fc[i]);
		if (probe->max_ns > stall)
			stall = probe->max_ns;
	}
	r->stall_full_ms = (double)stall / 1e6;
	r->floor = cost_median(fl, FULL_RUNS);
	r->full = cost_median(fc, FULL_RUNS);
	r->nprocs = snap.nprocs;
	/* The steady state: everything read once (the last full tick),
	 * then c->ticks ticks on the default budget. */
	nc.full = false;
	sampler_set_budget(s, &nc);
	double *cpu = calloc(c->ticks, sizeof(double));
	double *wall = calloc(c->ticks, sizeof(double));
	if (!cpu || !wall) {
		free(cpu);
		free(wall);
		rc = -ENOMEM;
		goto out;
	}
	probe->reset = 1;
	usleep(20000);
	double first = -1, last = -1, prev = -1, phase0 = mono_s();
	r->big_reads = 0;
	r->big_min_gap_s = -1;
	for (size_t i = 0; i < c->ticks; i++) {
		usleep((useconds_t)(c->tick_delay * 1e6));
		struct cost_mark m;
		struct cost one;
		cost_begin(&m);
		if ((rc = sampler_tick(s, &snap)) != 0)
			break;
		cost_end(&m, &one);
		cpu[i] = one.cpu_ms;
		wall[i] = one.wall_ms;
		for (size_t j = 0; j < snap.nprocs; j++) {
			const struct snap_proc *p = &snap.procs[j];
			if (p->info.pid != big || !p->nm_fresh)
				continue;
			double t = mono_s();
			r->big_reads++;
			r->big_sampled += p->nm_sampled;
			if (first < 0)
				first = t;
			if (prev >= 0 && (r->big_min_gap_s < 0 || t - prev < r->big_min_gap_s))
				r->big_min_gap_s = t - prev;
			prev = last = t;
		}
	}
	r->stall_tick_ms = (double)probe->max_ns / 1e6;
	r->big_span_s = mono_s() - phase0;
	(void)last;
	r->tick_med = percentile(cpu, c->ticks, 50);
	r->tick_p95 = percentile(cpu, c->ticks, 95);
	r->tick_wall_med = percentile(wall, c->ticks, 50);
	free(cpu);
	free(wall);
out:
	snapshot_free(&snap);
	sampler_free(s);
	topology_free(&topo);
	fsroot_close(root);
	return rc;
}

static void measure(const struct config *c, struct row *r, pid_t big,
		    struct stall_probe *probe, struct buf *capture, struct spawner *sp)
{
	int rc = run_sampler_phase(c, r, big, probe, capture);
	if (rc)
		fprintf(stderr, "bench: sampler failed: %s\n", strerror(-rc));
	run_numastat(&g_load, &r->numastat);
	r->peak_rss_kb = run_peak_rss(sp, false);
	r->peak_rss_json_kb = run_peak_rss(sp, true);
	/* The exporter and the cgroups, once per N=1000 row (or the --smoke row). */
	if (r->n == 1000 || c->nn == 1) {
		struct cgroup_cost cc;
		if (cgroup_bench(c->nn == 1 ? 20 : 200, 11, &cc) == 0) {
			printf("  cgroups (%s): the machine's %zu read in %.2f ms", cc.layout, cc.machine,
			       cc.machine_ms);
			if (cc.with_extra)
				printf("; with the bench's empty ones %zu in %.2f ms (%.0f us a cgroup)",
				       cc.with_extra, cc.with_extra_ms, cc.us_per_cgroup);
			printf(" -- the budgeted tick's CPU here: %.2f ms median\n", r->tick_med);
		}
		struct recorder_cost rcst;
		size_t rs = c->smoke ? 8 : 40, rw = c->smoke ? 3 : 10;
		if (recorder_measure(rs, rw, c->tick_delay < 0.5 ? 0.5 : c->tick_delay, &rcst) == 0)
			printf("  recorder at N=%zu K=%zu: %.1f bytes per process-sample (%.0f processes, "
			       "%.0f bytes a sample, samples %zu-%zu), %.1f MB a day at -d 10; CPU per "
			       "sample %.2f ms p50 %.2f ms p95 (JSON + compress + write %.2f ms)\n",
			       r->n, r->k, rcst.bytes_per_proc_sample, rcst.procs, rcst.bytes_per_sample,
			       rcst.warmup + 1, rcst.samples, rcst.mb_per_day_10s, rcst.cpu_ms_p50,
			       rcst.cpu_ms_p95, rcst.compress_ms_p50);
		if (rcst.history_kib > 0)
			printf("  history at N=%zu: %.0f processes displayed for %d samples: %.0f KiB held "
			       "(heap +%.0f KiB)\n", r->n, rcst.procs, HIST_DEFAULT, rcst.history_kib,
			       rcst.history_rss_kib);
		if (recorder_measure_day(c->smoke ? 200 : 8640, &rcst) == 0)
			printf("  replay: %zu samples of N=%zu in one file, %.1f MB (written in %.1f s); "
			       "opened (frames indexed) in %.1f ms; a jump to a time and its sample rebuilt: "
			       "%.1f ms median, %.1f ms worst\n", rcst.day_samples, r->n, rcst.day_mb,
			       rcst.day_write_s, rcst.open_ms, rcst.seek_p50_ms, rcst.seek_max_ms);
		struct exporter_cost e;
		int erc = exporter_measure(c->prog, c->tick_delay < 0.5 ? 0.5 : c->tick_delay, 20, &e);
		if (erc)
			fprintf(stderr, "bench: exporter: %s\n", strerror(-erc));
		else
			printf("  exporter at N=%zu K=%zu: scrape p50 %.2f ms p95 %.2f ms (%ld bytes), "
			       "CPU %.2f ms per sample (%.0f samples, %d scrapes)\n", r->n, r->k,
			       e.scrape_p50_ms, e.scrape_p95_ms, e.bytes, e.cpu_per_sample_ms,
			       e.samples, e.scrapes);
	}
}

static void print_header(void)
{
	printf("%5s %5s %6s | %15s | %15s %6s | %13s %7s | %15s | %13s | %15s | %s\n",
	       "N", "K", "procs", "floor wall/cpu", "full wall/cpu", "ratio",
	       "tick cpu p50", "p95", "numastat -p", "peak RSS", "stall full/tick",
	       "4 GiB reads in the budgeted phase");
	printf("%5s %5s %6s | %15s | %15s %6s | %13s %7s | %15s | %13s | %15s |\n",
	       "", "", "", "ms", "ms", "cpu", "ms", "ms", "wall/cpu ms", "text/json KiB", "ms");
}

static void print_row(const struct row *r)
{
	char fl[32], fu[32], ns[32], st[32], br[64], rs[32];
	snprintf(rs, sizeof(rs), "%ld / %ld", r->peak_rss_kb, r->peak_rss_json_kb);
	snprintf(fl, sizeof(fl), "%.1f / %.1f", r->floor.wall_ms, r->floor.cpu_ms);
	snprintf(fu, sizeof(fu), "%.1f / %.1f", r->full.wall_ms, r->full.cpu_ms);
	snprintf(ns, sizeof(ns), "%.0f / %.0f", r->numastat.wall_ms, r->numastat.cpu_ms);
	snprintf(st, sizeof(st), "%.1f / %.1f", r->stall_full_ms, r->stall_tick_ms);
	snprintf(br, sizeof(br), "%d in %.0f s, %d sampled", r->big_reads, r->big_span_s,
		 r->big_sampled);
	if (r->big_min_gap_s >= 0)
		snprintf(br + strlen(br), sizeof(br) - strlen(br), ", gap %.1f s", r->big_min_gap_s);
	printf("%5zu %5zu %6zu | %15s | %15s %5.2fx | %13.2f %7.2f | %15s | %13s | %15s | %s\n",
	       r->n, r->k, r->nprocs, fl, fu,
	       r->floor.cpu_ms > 0 ? r->full.cpu_ms / r->floor.cpu_ms : 0,
	       r->tick_med, r->tick_p95, ns, rs, st, br);
	fflush(stdout);
}

static int parse_list(const char *s, size_t *out, size_t max, size_t *n)
{
	*n = 0;
	while (*s && *n < max) {
		char *end;
		long v = strtol(s, &end, 10);
		if (end == s || v <= 0)
			return -1;
		out[(*n)++] = (size_t)v;
		s = *end == ',' ? end + 1 : end;
	}
	return *n ? 0 : -1;
}

static void usage(void)
{
	fputs("usage: bench [--smoke] [--n 200,1000,3000] [--k 10,1000] [--big-mib 4096]\n"
	      "             [--many-maps 50000] [--ticks 30] [--prog ./numatop-tui]\n"
	      "             [--scale 1000,5000,10000 | --scale 0 | --no-scale]\n"
	      "             [--kdamond-only | --no-kdamond] [--kdamond-procs 16] [--kdamond-mib 1024]\n"
	      "             [--kdamond-window 60] [--kdamond-raw]\n"
	      "       bench --scale-only [--scale 1000,5000,10000] [--prog ./numatop-tui]\n"
	      "             [--scale-load exec|fork]\n"
	      "             [--fleet 1000x50 | --no-fleet] [--fleet-step 30] [--fleet-runs 5]\n"
	      "       bench --fleet-only [--fleet 1000x50] [--fleet-step 30] [--fleet-runs 5]\n"
	      "       bench --cpuref\n", stderr);
}

/* The scale phase's settings: the monitor and htop on a load of their own
 * (N processes of 1 MiB, nothing else), tinyproc from beside this program. */
static void scale_config_init(const struct config *c, struct scale_config *scc_out,
			      char *tiny, size_t tinylen)
{
	struct scale_config scc = { .prog = c->prog, .htop = "/usr/bin/htop", .window_s = 10,
				    .warmup = 3, .settle_s = 6, .rounds = 2, .json_cap_s = 60,
				    .complete_runs = 3,
				    .child = &g_scale_child, .home = g_scale_home };
	if (c->smoke) {
		scc.window_s = 2;
		scc.warmup = 1;
		scc.settle_s = 1;
		scc.rounds = 1;
		scc.json_cap_s = 10;
		scc.complete_runs = 1;
	}
	/* The scale load runs tinyproc, built next to this program. */
	ssize_t tl = readlink("/proc/self/exe", tiny, tinylen - 16);
	if (tl > 0) {
		tiny[tl] = '\0';
		char *slash = strrchr(tiny, '/');
		snprintf(slash ? slash + 1 : tiny, 16, "tinyproc");
		if (access(tiny, X_OK) == 0 && !c->scale_fork)
			scc.tiny = tiny;
	}
	*scc_out = scc;
}

/* --scale-only: the scale phase alone (the monitor's CPU and peak RSS
 * beside htop's), with its lines of the targets. */
static int scale_only_run(const struct config *c)
{
	struct scale_result sc[8];
	struct scale_config scc;
	char tiny[4096];
	struct parser_rate pr = { 0 };
	if (!c->nscale)
		return 0;
	scale_config_init(c, &scc, tiny, sizeof(tiny));
	scale_run_phase(&scc, &g_load, c->scale, c->nscale, sc);
	load_kill_all(&g_load);
	print_summary(NULL, 0, &pr, c->big_mib, sc, c->nscale);
	return 0;
}

int main(int argc, char **argv)
{
	struct config c = { .ns = { 200, 1000, 3000 }, .nn = 3, .ks = { 10, 1000 }, .nk = 2,
			    .big_mib = 4096, .many_maps = 50000, .ticks = 30, .tick_delay = 0.5,
			    .prog = "./numatop-tui", .scale = { 1000, 5000, 10000 }, .nscale = 3 };
	kdamond_config_default(&c.kd, c.prog);
	c.fleet = (struct fleet_bench_config){ .prog = c.prog, .hosts = 1000, .procs = 50,
					       .step_s = 30, .span_s = 3600, .runs = 5,
					       .child = &g_fleet_child, .server = &g_fleet_server,
					       .dir = g_fleet_dir };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int bad = 0;
		if (!strcmp(a, "--smoke")) {
			c.ns[0] = 20; c.nn = 1; c.ks[0] = 10; c.nk = 1;
			c.big_mib = 64; c.many_maps = 2000; c.ticks = 3; c.tick_delay = 0.05;
			c.smoke = true;
			c.kd.mib = 64;
			c.kd.hot_mib = 16;
			c.kd.warmup_s = 2;
			c.kd.window_s = 5;
			continue;
		}
		if (!strcmp(a, "--kdamond-only") || !strcmp(a, "--no-kdamond") ||
		    !strcmp(a, "--kdamond-raw") || !strcmp(a, "--cpuref") ||
		    !strcmp(a, "--scale-only") || !strcmp(a, "--fleet-only")) {
			c.scale_only |= !strcmp(a, "--scale-only");
			c.fleet_only |= !strcmp(a, "--fleet-only");
			c.kd_only |= !strcmp(a, "--kdamond-only");
			c.kd_none |= !strcmp(a, "--no-kdamond");
			c.kd.raw |= !strcmp(a, "--kdamond-raw");
			c.cpuref |= !strcmp(a, "--cpuref");
			continue;
		}
		if (!strcmp(a, "--no-fleet")) {
			c.fleet.hosts = 0;
			c.fleet_set = true;
			continue;
		}
		if (!strcmp(a, "--no-scale")) {
			c.nscale = 0;
			c.scale_set = true;
			continue;
		}
		if (!v) {
			usage();
			return 2;
		}
		if (!strcmp(a, "--n")) bad = parse_list(v, c.ns, 8, &c.nn);
		else if (!strcmp(a, "--k")) bad = parse_list(v, c.ks, 4, &c.nk);
		else if (!strcmp(a, "--big-mib")) c.big_mib = strtoul(v, NULL, 10);
		else if (!strcmp(a, "--many-maps")) c.many_maps = strtoul(v, NULL, 10);
		else if (!strcmp(a, "--ticks")) c.ticks = strtoul(v, NULL, 10);
		else if (!strcmp(a, "--prog")) c.prog = c.kd.prog = c.fleet.prog = v;
		/* --fleet HOSTSxPROCESSES: the fleet phase's size. */
		else if (!strcmp(a, "--fleet")) {
			int used = 0;
			c.fleet_set = true;
			bad = sscanf(v, "%zux%zu%n", &c.fleet.hosts, &c.fleet.procs, &used) != 2 ||
			      v[used] || !c.fleet.hosts || !c.fleet.procs || c.fleet.procs > 100000;
		}
		else if (!strcmp(a, "--fleet-step")) {
			c.fleet.step_s = strtod(v, NULL);
			bad = !(c.fleet.step_s >= 1 && c.fleet.step_s <= 300);
		}
		else if (!strcmp(a, "--fleet-runs")) {
			c.fleet.runs = (int)strtol(v, NULL, 10);
			bad = c.fleet.runs < 1 || c.fleet.runs > 32;
		}
		else if (!strcmp(a, "--kdamond-procs")) c.kd.nproc = strtoul(v, NULL, 10);
		else if (!strcmp(a, "--kdamond-mib")) c.kd.mib = strtoul(v, NULL, 10);
		else if (!strcmp(a, "--kdamond-window")) c.kd.window_s = strtod(v, NULL);
		/* The load of the scale phase: exec'd tinyproc (small processes),
		 * or forks of this program that do not exec: each also carries
		 * the parent's mappings (its libraries and heap), so its
		 * numa_maps is some 90 lines against tinyproc's 21. */
		else if (!strcmp(a, "--scale-load") && (!strcmp(v, "exec") || !strcmp(v, "fork")))
			c.scale_fork = !strcmp(v, "fork");
		else if (!strcmp(a, "--scale")) {
			c.scale_set = true;
			c.nscale = 0;
			if (strcmp(v, "0") != 0)
				bad = parse_list(v, c.scale, 8, &c.nscale);
		}
		else bad = 1;
		if (bad || c.ticks == 0 || c.kd.window_s <= 0 || (c.kd_only && c.kd_none)) {
			usage();
			return 2;
		}
		i++;
	}
	if (c.smoke && !c.scale_set) {
		c.scale[0] = 50;
		c.nscale = 1;
	}
	if (c.smoke && !c.fleet_set) {
		c.fleet.hosts = 5;
		c.fleet.procs = 3;
		c.fleet.runs = 2;
	}
	sigstop_install(on_signal);
	if (c.cpuref) {
		struct cpuref ref;
		int rrc = cpuref_run(CPUREF_MIB, CPUREF_ROUNDS, CPUREF_ITERS, &ref);
		if (rrc)
			fprintf(stderr, "bench: cpuref: %s\n", strerror(-rrc));
		else
			cpuref_print(&ref);
		return rrc ? 1 : 0;
	}
	if (c.kd_only)
		return kdamond_bench_run(&c.kd, &g_load);
	if (c.scale_only)
		return scale_only_run(&c);
	if (c.fleet_only)
		return c.fleet.hosts ? fleet_bench_run(&c.fleet) : 0;
	struct utsname un;
	uname(&un);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double gib = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE) / (1 << 30);
	printf("numatop-tui bench: kernel %s, %ld CPUs, %.0f GiB; load: N processes x K mappings\n"
	       "(1 MiB or K pages each) + one %zu MiB process of 4 KiB pages (stall probe)\n"
	       "+ one process with %zu mappings; steady ticks: %zu, %.1f s apart, budget 20 ms\n\n",
	       un.release, ncpu, gib, c.big_mib, c.many_maps, c.ticks, c.tick_delay);
	struct spawner sp;
	if (spawner_start(&sp, c.prog, &g_load) != 0) {
		perror("bench: helper");
		return 1;
	}
	struct stall_probe *probe = load_probe_new();
	if (!probe) {
		perror("bench: shared memory");
		return 1;
	}
	pid_t big = 0, many = 0;
	int rc = load_spawn_big(&g_load, c.big_mib, probe, &big);
	if (rc == 0)
		rc = load_spawn_many_maps(&g_load, c.many_maps, &many);
	if (rc) {
		fprintf(stderr, "bench: cannot start the load: %s\n", strerror(-rc));
		load_kill_all(&g_load);
		return 1;
	}
	size_t fixed = g_load.n;
	struct row rows[32];
	size_t nrows = 0;
	struct buf capture = { 0 };
	print_header();
	int status = 0;
	for (size_t ki = 0; ki < c.nk && status == 0; ki++) {
		size_t k = c.ks[ki], have = 0;
		size_t kb = k * 4 > 1024 ? k * 4 : 1024;
		for (size_t ni = 0; ni < c.nn; ni++) {
			size_t n = c.ns[ni];
			if (n > have && (rc = load_spawn_procs(&g_load, n - have, k, kb / k)) != 0) {
				fprintf(stderr, "bench: cannot spawn %zu processes: %s\n", n, strerror(-rc));
				status = 1;
				break;
			}
			have = n;
			struct row *r = &rows[nrows++];
			memset(r, 0, sizeof(*r));
			r->n = n;
			r->k = k;
			measure(&c, r, big, probe, &capture, &sp);
			print_row(r);
		}
		load_kill_from(&g_load, fixed);
	}
	load_kill_all(&g_load);
	struct parser_rate pr;
	parser_throughput(&capture, &pr);
	buf_free(&capture);
	/* On a load of its own: N processes of 1 MiB, nothing else. */
	struct scale_result sc[8];
	struct scale_config scc;
	char tiny[4096];
	scale_config_init(&c, &scc, tiny, sizeof(tiny));
	if (c.nscale)
		scale_run_phase(&scc, &g_load, c.scale, c.nscale, sc);
	load_kill_all(&g_load);
	print_summary(rows, nrows, &pr, c.big_mib, sc, c.nscale);
	if (c.fleet.hosts && fleet_bench_run(&c.fleet) != 0)
		status = 1;
	if (!c.kd_none && kdamond_bench_run(&c.kd, &g_load) != 0)
		status = 1;
	load_kill_all(&g_load);
	return status;
}
