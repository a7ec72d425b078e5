/* sample_loop.h - the one sampling loop of the non-interactive modes
 * (batch, record, serve): sample, sort, hand the sample over, then wait
 * for the next, spending the wait on the warm-up while the sampler has
 * never-read processes (the sample after a warm-up that completed the
 * picture comes at once). The monitor keeps its own loop: it waits for
 * keys, not a clock, and warms up between them the same way. */
#ifndef NUMATOP_SAMPLE_LOOP_H
#define NUMATOP_SAMPLE_LOOP_H

#include <signal.h>
#include <stddef.h>

#include "columns.h"
#include "sampler.h"
#include "snapshot.h"

struct sample_loop {
	struct sampler *smp;
	const struct sort_key *key;     /* each sample sorted by it */
	double delay;                   /* seconds from one sample's start to the next */
	long iterations;                /* 0: until *stop */
	volatile sig_atomic_t *stop;    /* set (by a signal handler) to end the loop */
	/* Each sample, sorted, with what it cost (seconds of wall clock and
	 * of this thread's CPU): 0 goes on, 1 ends the loop cleanly, -errno
	 * ends it with that error (the message in msg). */
	int (*emit)(void *ctx, const struct snapshot *s, double wall_s, double cpu_s,
		    char *msg, size_t msgsz);
	/* Called at least every idle_s seconds while waiting (NULL: none). */
	void (*idle)(void *ctx);
	double idle_s;
	void *ctx;
};

/* Run until stop, the iterations, emit's end, or a failed sample (-errno,
 * "sampling failed: ..." in msg). 0 on a clean end. */
int sample_loop_run(const struct sample_loop *l, struct snapshot *snap, char *msg, size_t msgsz);

/* CPU time of the calling thread, seconds. */
double sample_loop_cpu(void);

#endif
