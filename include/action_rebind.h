/* action_rebind.h - set the CPU affinity of every thread of a process. */
#ifndef NUMATOP_ACTION_REBIND_H
#define NUMATOP_ACTION_REBIND_H

#include <stddef.h>

#include "action.h"
#include "bitmap.h"
#include "fsroot.h"

struct rebind_result {
	size_t nthreads;        /* threads seen (over all passes) */
	size_t changed;         /* affinity set and read back equal */
	size_t failed;          /* sched_setaffinity failed or read back differs */
	int first_error;        /* positive errno of the first failure, 0 none */
	int first_error_tid;
};

/* Walk /proc/PID/task and set every thread's affinity to cpus, repeating
 * the walk until a pass finds no thread it had not set (threads created
 * meanwhile). The target must be locked (action_target_lock). 0 when every
 * thread was set; -ESRCH when the process exited; -EAGAIN when threads
 * still kept appearing after REBIND_MAX_PASSES passes; else the first
 * errno (-EPERM, -EINVAL outside its cpuset). A thread that exits during
 * the walk is not counted (see set_one in action_rebind.c). */
#define REBIND_MAX_PASSES 256
int rebind_threads(const struct fsroot *r, const struct action_target *t,
		   const struct bitmap *cpus, struct rebind_result *res);

#endif
