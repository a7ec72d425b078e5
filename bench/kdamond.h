/* kdamond.h - make bench's access heat phase: the CPU of the kdamond the
 * monitor starts (DAMON, for access heat) while it watches nproc processes
 * of mib MiB, beside the monitor's own CPU. Measured only where DAMON is
 * free (no kdamond at all) and we are root; anywhere else one line says
 * why not and where it is measured instead (make bench-damon: a QEMU
 * guest, bench/kdamond_vm.sh). */
#ifndef NUMATOP_BENCH_KDAMOND_H
#define NUMATOP_BENCH_KDAMOND_H

#include <stdbool.h>
#include <stddef.h>

#include "load.h"

struct kdamond_config {
	const char *prog;       /* numatop-tui */
	size_t nproc, mib;      /* the load: nproc processes of mib MiB (16 x 1024) */
	size_t hot_mib;         /* of each, the first hot_mib MiB written again */
	int touch_ms;           /* every touch_ms ms (the rest: written once) */
	double warmup_s;        /* after the kdamond watches them all, before the window */
	double window_s;        /* the measured window (60 s) */
	bool raw;               /* an emulated guest: print the figures, judge no target */
};

/* The target: the kdamond's CPU, % of one CPU, with 16 x 1 GiB. */
#define KDAMOND_TARGET_PCT 1.0

void kdamond_config_default(struct kdamond_config *c, const char *prog);
/* Measure and print. The load is spawned into l (killed again before
 * returning). Returns 0 when measured or when it cannot be here (the
 * line says why), 1 when the measurement failed. */
int kdamond_bench_run(const struct kdamond_config *c, struct load *l);
/* For a signal handler (async-signal-safe): stop the running monitor with
 * SIGTERM, so that it removes its kdamond, waiting up to 5 s (then
 * SIGKILL). */
void kdamond_bench_on_signal(void);

#endif
