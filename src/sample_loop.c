/* sample_loop.c - the non-interactive modes' sampling loop (sample_loop.h). */
#include "sample_loop.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "monotime.h"

double sample_loop_cpu(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double slice(const struct sample_loop *l, double left)
{
	return l->idle && l->idle_s > 0 && left > l->idle_s ? l->idle_s : left;
}

/* Until `end`: the warm-up first (never-read processes' placement, which
 * the next sample shows; when it completes the picture, the next sample
 * comes at once), then sleep; idle between pieces. */
static void wait_until(const struct sample_loop *l, struct snapshot *snap, double end)
{
	while (!*l->stop && sampler_warming(l->smp)) {
		double left = end - monotime_now();
		if (left <= 0.01)
			break;
		int r = sampler_warmup(l->smp, snap, slice(l, left));
		if (l->idle)
			l->idle(l->ctx);
		if (r == 0 && !sampler_warming(l->smp))
			return;
		if (r < 0)
			break;
	}
	for (;;) {
		if (l->idle)
			l->idle(l->ctx);
		double left = end - monotime_now();
		if (*l->stop || left <= 0)
			return;
		left = slice(l, left);
		struct timespec ts = { (time_t)left, (long)((left - (double)(time_t)left) * 1e9) };
		while (!*l->stop && nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
	}
}

int sample_loop_run(const struct sample_loop *l, struct snapshot *snap, char *msg, size_t msgsz)
{
	double next = monotime_now();
	for (long i = 0; !*l->stop && (l->iterations == 0 || i < l->iterations); i++) {
		if (i > 0)
			wait_until(l, snap, next);
		if (*l->stop)
			break;
		double t0 = monotime_now(), c0 = sample_loop_cpu();
		next = t0 + l->delay;
		int rc = sampler_tick(l->smp, snap);
		if (rc) {
			snprintf(msg, msgsz, "sampling failed: %s", strerror(-rc));
			return rc;
		}
		snapshot_sort(snap, l->key);
		rc = l->emit(l->ctx, snap, monotime_now() - t0, sample_loop_cpu() - c0, msg, msgsz);
		if (rc)
			return rc > 0 ? 0 : rc;
	}
	return 0;
}
