/* scale.h - the benchmark's scale phase: the interactive monitor side by
 * side with htop on 1000 to 10 000 processes (CPU per refresh, peak RSS),
 * and how long a --json stream takes to a complete picture. */
#ifndef NUMATOP_BENCH_SCALE_H
#define NUMATOP_BENCH_SCALE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "load.h"

struct scale_config {
	const char *prog;               /* numatop-tui */
	const char *htop;               /* htop's path; missing: the monitor alone */
	const char *tiny;               /* bench/tiny/tinyproc for the load, or NULL:
					 * forks of the benchmark */
	double window_s;                /* measured seconds per run (10) */
	int warmup;                     /* refreshes before the window (3) */
	double settle_s;                /* and for the monitor, its warm-up (6) */
	int rounds;                     /* monitor, htop, monitor, htop ... (2) */
	double json_cap_s;              /* longest wait for a complete picture (60) */
	int complete_runs;              /* the complete picture: the median of these (3) */
	/* The running child's pid (0: none), for the caller's signal handler
	 * to kill it on the way out. */
	volatile sig_atomic_t *child;
	/* SCALE_HOME_LEN bytes: the running child's fresh HOME ("": none),
	 * for the handler's scale_remove_home. */
	char *home;
};

#define SCALE_HOME_LEN 64

struct scale_result {
	size_t n;                       /* load processes */
	bool skipped;                   /* the machine could not hold them */
	double mon_ms, htop_ms;         /* CPU per refresh, median of the rounds; -1: none */
	double mon_rss_mib, htop_rss_mib; /* peak RSS (VmHWM), median of the rounds */
	double floor_ms;                /* the kernel's floor: one pread of every
					 * process's kept-open /proc/PID/stat, CPU */
	double complete_s;              /* to every placement read once, the median of
					 * the runs; -1: the median run not within */
	double complete_min_s, complete_max_s; /* the runs' fastest and slowest (-1: one
					 * not within) */
	int complete_runs;              /* runs made */
	double waited_s;                /* how long the stream was read */
	size_t known, total;            /* the median run's last line: placements read,
					 * processes */
	size_t samples;                 /* lines the median run saw */
};

/* For a signal handler (async-signal-safe, after the child is killed):
 * remove the empty directories a killed child leaves in its HOME. */
void scale_remove_home(const char *home);

/* For each N in ns: grow (or shrink) the load to N processes of 10
 * mappings of ~100 KiB (spawned into l after what it holds; killed again
 * before returning), measure, print a row. A count the machine cannot
 * hold (pid_max, memory) or spawn is printed as skipped, with the
 * reason. out has nn entries. */
void scale_run_phase(const struct scale_config *c, struct load *l, const size_t *ns, size_t nn,
		     struct scale_result *out);

#endif
