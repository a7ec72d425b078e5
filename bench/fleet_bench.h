/* fleet_bench.h - the benchmark's fleet phase (issue 42's scale): a
 * thousand exporters of fifty processes each, an hour of history made
 * with promtool from OpenMetrics the benchmark writes (fleet_gen.h),
 * served by Debian's prometheus on loopback; the time to the first
 * complete table of `numatop-tui --fleet URL --json`, its peak RSS and
 * queries, and the client library's refreshes. Printed, never asserted. */
#ifndef NUMATOP_BENCH_FLEET_BENCH_H
#define NUMATOP_BENCH_FLEET_BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#define FLEET_BENCH_DIR_LEN 128

struct fleet_bench_config {
	const char *prog;               /* numatop-tui */
	size_t hosts, procs;            /* 1000, 50 */
	double step_s, span_s;          /* 30, 3600 */
	int runs;                       /* of the program and of each refresh kind (5) */
	/* For the caller's signal handler (fleet_bench_on_signal): the
	 * running child (a program run, promtool) and Prometheus, 0 none;
	 * FLEET_BENCH_DIR_LEN bytes, the temporary directory ("": none). */
	volatile sig_atomic_t *child, *server;
	char *dir;
};

/* One run of a command to its exit. */
struct fleet_run {
	double wall_s;                  /* fork to reaped */
	long maxrss_kb;                 /* its peak RSS (VmHWM at its exit) */
	bool rss_exact;                 /* false: wait4's ru_maxrss instead */
	int status;                     /* wait status; -1: killed at the cap */
};

/* Run argv (argv[0] looked up in PATH) with stdout into out_path and
 * stderr into err_path (NULL: /dev/null), with env's NAME=VALUE strings
 * (NULL-terminated; NULL: none) added; killed after cap_s. *child holds its pid meanwhile. 0 or
 * -errno. It runs traced (ptrace) to read its peak RSS at its exit. The Fleet screen's time to its first screen is one more such
 * measure. */
int fleet_bench_time_argv(char *const argv[], const char *out_path, const char *err_path,
			  char *const env[], double cap_s, volatile sig_atomic_t *child,
			  struct fleet_run *r);

/* The phase: prints its lines and its targets. 0, or 1 when it could not
 * be measured (said why); skipped with a line (0) without prometheus. */
int fleet_bench_run(const struct fleet_bench_config *c);

/* For a signal handler (async-signal-safe): kill the child and the
 * server, remove the directory. */
void fleet_bench_on_signal(pid_t child, pid_t server, const char *dir);

#endif
