/* action.h - what every action on a process shares: the confirmed target
 * (PID + start time, pinned by a pidfd), whether actions are allowed at all,
 * and errno texts that say how to fix the failure. */
#ifndef NUMATOP_ACTION_H
#define NUMATOP_ACTION_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fsroot.h"

struct options;

/* The process the user confirmed. Identity is pid + starttime; once
 * locked, pidfd refers to that process and nothing else. */
struct action_target {
	int pid;
	uint64_t starttime;     /* clock ticks since boot */
	char comm[64];          /* raw: sanitize before printing */
	int pidfd;              /* -1 until action_target_lock() */
	/* The program, recorded by the first lock: an exec since then (same
	 * PID, same start time, another program) is caught by the checks. */
	bool exe_known;
	uint64_t exe_dev, exe_ino;
	/* The memory image, recorded by the read: /proc/PID/stat's
	 * startcode, endcode and startstack (fields 26-28), which every exec
	 * sets anew (randomized) while PID, start time, comm and even the
	 * executable may stay: the same program run again. Unknown (not
	 * readable, no mm) is not compared. */
	bool image_known;
	uint64_t start_code, end_code, start_stack;
	bool kthread;           /* PF_KTHREAD: no user memory, kernel's CPUs */
};

/* Errors of the identity checks, for action_strerror: the process ran
 * another program since it was chosen; a kernel thread was chosen for
 * a migrate or rebind. */
#define ACTION_EEXEC ENOEXEC
#define ACTION_EKTHREAD EOPNOTSUPP
/* The PID exists but /proc does not show it (hidepid). */
#define ACTION_EHIDDEN ENOENT

/* Read pid's identity from /proc/PID/stat. 0, -ESRCH (no such process),
 * -ACTION_EHIDDEN (it exists, /proc hides it), other -errno. */
int action_target_read(const struct fsroot *r, int pid, struct action_target *t);
/* Right before acting: open a pidfd and check (after opening it) that the
 * PID still belongs to the process that started at t->starttime and runs
 * the same program (comm when t->comm is set, and the executable once
 * recorded). 0, -ESRCH when it exited or the PID was reused, or
 * -ACTION_EEXEC. */
int action_target_lock(const struct fsroot *r, struct action_target *t);
/* While locked, right before acting again (a confirm after a preview):
 * still alive and still the same program. 0, -ESRCH, -ACTION_EEXEC. */
int action_target_check(const struct fsroot *r, struct action_target *t);
/* While locked: 0 as long as the process has not exited, else -ESRCH (a
 * zombie has exited). */
int action_target_alive(const struct action_target *t);
/* While locked, after a call on the target failed or came back empty:
 * whether the target is the cause. -ESRCH when it has exited, or is
 * exiting (every thread past PF_EXITING or a zombie: its memory is gone
 * before its pidfd says so, and move_pages then says EINVAL), waiting a
 * little (ACTION_EXIT_WAIT_S) for a main thread that exited alone;
 * -ACTION_EEXEC when it runs another program; else 0 (the failure is
 * the call's own). */
#define ACTION_EXIT_WAIT_S 2.0
int action_target_recheck(const struct fsroot *r, struct action_target *t);
void action_target_unlock(struct action_target *t);

/* Send sig to the process t names, through a pidfd opened after its
 * start time was checked (or held since: then checked again): that
 * process or none. 0 or -errno. */
int action_target_signal(const struct fsroot *r, struct action_target *t, int sig);

/* NULL when actions are allowed; else why not (--readonly, a recorded
 * tree). */
const char *action_refusal(bool readonly, const struct fsroot *r);

/* "process exited (ESRCH)", "operation not permitted (EPERM): needs root
 * or CAP_SYS_NICE for another user's process", ... EINVAL names a thread
 * that may not move (per-CPU, io_uring, PF_NO_SETAFFINITY) first, then a
 * cpuset that does not allow the CPUs or node. err is a positive or
 * negative errno. Returns buf. */
const char *action_strerror(int err, char *buf, size_t n);

/* kernel.numa_balancing: 0, 1, 2 ..., or -1 unknown. */
int action_numa_balancing(const struct fsroot *r);

#endif
