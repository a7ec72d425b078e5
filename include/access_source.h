/* access_source.h - where access heat comes from. A source watches up
 * to ACCESS_MAX_TARGETS processes and answers, for each, the ranges of
 * its address space with how often each was accessed (struct
 * access_range, access.h). The sampler (sampler_access*.c) chooses whom
 * to watch and when, and joins the answers with the pages' nodes; it
 * speaks to a source only through these ops. DAMON is the one source
 * (access_damon.c); another is an ops table in a file of its own, its
 * value in enum access_source, and sampler_set_access_source.
 *
 * On the live machine a source is asked without waiting: ask() starts a
 * request, a later sample's poll() takes its answer (a sample never waits
 * for the kernel). One request at a time, and a change of targets
 * (retarget) may itself be a request in flight, answered by poll() with
 * targets_only set. On a recorded tree (--root) recorded() reads what the
 * source left there, and nothing is written.
 *
 * Errors are -errno, the same words for every source:
 *   -ENOENT      the kernel has no such source (ACCESS_NO_DAMON)
 *   -EOPNOTSUPP  it has, not for processes (ACCESS_NO_VADDR)
 *   -EACCES, -EPERM  needs root (ACCESS_NOT_ROOT)
 *   -EBUSY       in use by someone else (start), or busy this moment:
 *                nothing done, try at the next sample (retarget, ask, poll)
 *   -ESRCH       what we started is no longer ours (nothing written)
 *   -ESHUTDOWN   ours, stopped by itself: retarget starts it again
 *   -EROFS       a live op on a recorded tree (nothing written)
 *   other        an error, message() says it. */
#ifndef NUMATOP_ACCESS_SOURCE_H
#define NUMATOP_ACCESS_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "access.h"
#include "fsroot.h"

/* An answer: the ranges of each of ntargets targets, target t's in
 * r[first[t] .. first[t+1]), address order; first NULL when the ranges
 * cannot be told apart by target (none is anyone's then). Valid until
 * the next call into the source. */
struct access_answer {
	bool targets_only;          /* poll: the answer to a retarget, no ranges */
	const struct access_range *r;
	const size_t *first;        /* [ntargets + 1] or NULL */
	size_t ntargets;
	const int *pids;            /* recorded(): the targets (live: the ones asked) */
	double window_s, sample_s;  /* the counts' window and sampling interval */
	int64_t thread_pid;         /* recorded(): the source's thread, -1 none */
};

/* What a live source holds now. */
struct access_source_state {
	bool running;               /* a watch of ours (started, not yet stopped) */
	double window_s, sample_s;  /* its window and sampling interval, 0 unknown */
	int64_t thread_pid;         /* the thread doing the work (its CPU is the
				     * source's cost: kdamond_pid), -1 none */
};

struct access_source_ops {
	enum access_source id;      /* ACCESS_SRC_DAMON: its name in the JSON,
				     * help and exposition (access_source_names) */
	const char *title;          /* "DAMON", in the status's sentences */
	const char *thread;         /* "kdamond": what thread_pid is */
	/* Made on r (the live "/" or a recorded tree): 0, or -errno and msg
	 * says why (*st NULL then). close stops what it started, frees. */
	int (*open)(void **st, const struct fsroot *r, char *msg, size_t n);
	void (*close)(void *st);
	/* From a signal handler: stop what it started (async-signal-safe). */
	void (*stop_signal)(void *st);
	/* Live. start: watch pids[0..n) (fine: the one-off watch's shorter
	 * window). retarget: change the running watch's targets; 1 when it
	 * had stopped and was started again on them. stop: no watch. */
	int (*start)(void *st, const int *pids, size_t n, bool fine);
	int (*retarget)(void *st, const int *pids, size_t n);
	int (*stop)(void *st);
	/* Ask for the ranges; a request (or a retarget) in flight: pending.
	 * poll: 0 still waiting; 1 answered, *out filled for ntargets
	 * targets (the ones asked); -errno. *ms, when answered (also when
	 * its ranges could not then be read), the request's round trip. */
	int (*ask)(void *st);
	bool (*pending)(const void *st);
	int (*poll)(void *st, size_t ntargets, double *ms, struct access_answer *out);
	/* (out is always set: targets_only false but for a retarget's answer;
	 * -ECHILD with none in flight) */
	void (*state)(const void *st, struct access_source_state *out);
	/* The last error in words. */
	const char *(*message)(const void *st);
	/* Nothing watched: why, in *why and msg (left as they are when the
	 * source cannot be read now). */
	void (*idle)(void *st, enum access_why *why, char *msg, size_t n);
	/* A recorded tree: ACCESS_ON with *out (pids, ranges, window,
	 * thread) when it holds a watch's results, else why not. */
	enum access_why (*recorded)(void *st, struct access_answer *out);
};

/* DAMON (access_damon.c): our kdamond, made only when DAMON is free. */
extern const struct access_source_ops access_source_damon;

#endif
