/* action.c - the confirmed target of an action and errno texts. */
#include "action.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "parse.h"
#include "proc.h"
#include "monotime.h"

/* /proc/PID/stat (or a thread's, path) parsed, and its fields 26-28
 * (startcode, endcode, startstack) into img[3] when img is not NULL: all
 * 0 when absent. 0, -ESRCH (gone), other -errno. */
static int read_stat(const struct fsroot *r, const char *path, int pid, struct pid_stat *st,
		     uint64_t *img)
{
	char text[1024];
	int n = fsroot_read_small(r, path, text, sizeof(text));
	if (n < 0)
		return n == -ENOENT ? -ESRCH : n;
	if (parse_pid_stat(text, (size_t)n, st) != 0 || st->pid != pid)
		return -ESRCH;
	if (!img)
		return 0;
	img[0] = img[1] = img[2] = 0;
	const char *p = strrchr(text, ')');
	p = p ? p + 1 : NULL;
	/* Field 3 (the state) is the first after the name. */
	for (int field = 2; p && *p && field < 28;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		field++;
		char *e;
		unsigned long long v = strtoull(p, &e, 10);
		if (field >= 26)
			img[field - 26] = e > p && (*e == ' ' || !*e) ? (uint64_t)v : 0;
		p = strchr(p, ' ');
	}
	return 0;
}

int action_target_read(const struct fsroot *r, int pid, struct action_target *t)
{
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->pidfd = -1;
	if (pid <= 0)
		return -ESRCH;
	struct pid_stat st;
	char path[64];
	uint64_t img[3];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	int rc = read_stat(r, path, pid, &st, img);
	if (rc == -ENOENT || rc == -ESRCH) {
		/* Not in /proc, yet the kernel knows the PID: /proc hides
		 * other users' processes (hidepid). */
		bool exists = fsroot_is_live(r) && (kill(pid, 0) == 0 || errno == EPERM);
		return exists ? -ACTION_EHIDDEN : -ESRCH;
	}
	if (rc)
		return rc;
	/* A zombie has exited: no memory, no threads to act on. */
	if (st.state == 'Z' || st.state == 'X')
		return -ESRCH;
	t->starttime = st.starttime;
	t->kthread = (st.flags & PID_STAT_PF_KTHREAD) != 0;
	snprintf(t->comm, sizeof(t->comm), "%s", st.comm);
	/* The image: 0 without an mm (exiting, a kernel thread), 1 where
	 * the reader may not see it (not ptrace-able): unknown. */
	if (img[2] > 1 && !(st.flags & PID_STAT_PF_EXITING)) {
		t->image_known = true;
		t->start_code = img[0];
		t->end_code = img[1];
		t->start_stack = img[2];
	}
	/* The executable (live only: a recorded tree has no programs). */
	struct stat es;
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	if (fsroot_is_live(r) && stat(path, &es) == 0) {
		t->exe_known = true;
		t->exe_dev = (uint64_t)es.st_dev;
		t->exe_ino = (uint64_t)es.st_ino;
	}
	return 0;
}

/* now (read while t's pidfd is held) against what t recorded. */
static int same_program(struct action_target *t, const struct action_target *now)
{
	if (now->starttime != t->starttime)
		return -ESRCH;
	if (t->comm[0] && strcmp(now->comm, t->comm) != 0)
		return -ACTION_EEXEC;
	if (t->exe_known && now->exe_known &&
	    (now->exe_dev != t->exe_dev || now->exe_ino != t->exe_ino))
		return -ACTION_EEXEC;
	if (t->image_known && now->image_known &&
	    (now->start_code != t->start_code || now->end_code != t->end_code ||
	     now->start_stack != t->start_stack))
		return -ACTION_EEXEC;
	if (!t->exe_known && now->exe_known) {
		t->exe_known = true;
		t->exe_dev = now->exe_dev;
		t->exe_ino = now->exe_ino;
	}
	if (!t->image_known && now->image_known) {
		t->image_known = true;
		t->start_code = now->start_code;
		t->end_code = now->end_code;
		t->start_stack = now->start_stack;
	}
	if (!t->comm[0])
		snprintf(t->comm, sizeof(t->comm), "%s", now->comm);
	t->kthread = now->kthread;
	return 0;
}

int action_target_lock(const struct fsroot *r, struct action_target *t)
{
	action_target_unlock(t);
	int fd = (int)syscall(SYS_pidfd_open, t->pid, 0);
	if (fd < 0)
		return errno == ESRCH ? -ESRCH : -errno;
	/* The pidfd names whoever held the PID when it was opened. If that
	 * PID still shows our start time now, it was our process all along
	 * (a PID is not reused while its process exists). */
	struct action_target now;
	int rc = action_target_read(r, t->pid, &now);
	if (rc == 0)
		rc = same_program(t, &now);
	if (rc) {
		close(fd);
		return rc;
	}
	t->pidfd = fd;
	return 0;
}

int action_target_check(const struct fsroot *r, struct action_target *t)
{
	int rc = action_target_alive(t);
	if (rc)
		return rc;
	struct action_target now;
	rc = action_target_read(r, t->pid, &now);
	if (rc == 0)
		rc = same_program(t, &now);
	/* Read while the pidfd was held: if it is still alive now, what was
	 * read was this process's. */
	return rc ? rc : action_target_alive(t);
}

int action_target_alive(const struct action_target *t)
{
	if (t->pidfd < 0)
		return -ESRCH;
	/* A pidfd turns readable when its process exits, zombie or reaped
	 * (a signal 0 would still reach a zombie). */
	struct pollfd p = { t->pidfd, POLLIN, 0 };
	int n = poll(&p, 1, 0);
	if (n < 0)
		return -errno;
	return n > 0 ? -ESRCH : 0;
}

/* Whether every thread of pid is exiting or has exited (a thread that
 * is not would keep the process alive without its main thread). */
static bool all_threads_exiting(const struct fsroot *r, int pid)
{
	char dir[64], path[96];
	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	int *tids = NULL;
	size_t n = 0;
	if (fsroot_list_ids(r, dir, "", FSROOT_DIRS, &tids, &n) != 0) {
		free(tids);
		return true;   /* its task directory gone with it */
	}
	bool all = true;
	for (size_t i = 0; i < n && all; i++) {
		struct pid_stat st;
		snprintf(path, sizeof(path), "%s/%d/stat", dir, tids[i]);
		if (read_stat(r, path, tids[i], &st, NULL) == 0)
			all = st.state == 'Z' || st.state == 'X' || (st.flags & PID_STAT_PF_EXITING);
	}
	free(tids);
	return all;
}

int action_target_recheck(const struct fsroot *r, struct action_target *t)
{
	double until = monotime_now() + ACTION_EXIT_WAIT_S;
	for (;;) {
		int rc = action_target_alive(t);
		if (rc)
			return rc;
		struct pid_stat st;
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/stat", t->pid);
		rc = read_stat(r, path, t->pid, &st, NULL);
		if (rc == -ESRCH || (rc == 0 && st.starttime != t->starttime))
			return -ESRCH;
		if (rc)
			return 0;   /* cannot tell: the call's error stands */
		bool exiting = st.state == 'Z' || st.state == 'X' || (st.flags & PID_STAT_PF_EXITING);
		if (!exiting) {
			/* Alive and well: the same program still? */
			rc = action_target_check(r, t);
			return rc == -ACTION_EEXEC || rc == -ESRCH ? rc : 0;
		}
		if (all_threads_exiting(r, t->pid))
			return -ESRCH;
		/* Its main thread exited, another has not yet (a group exit
		 * reaches each thread in turn) or will not (it lives on
		 * without its main thread): the pidfd says which. */
		double left = until - monotime_now();
		if (left <= 0)
			return 0;
		struct pollfd p = { t->pidfd, POLLIN, 0 };
		poll(&p, 1, left < 0.02 ? 1 : 20);
	}
}

void action_target_unlock(struct action_target *t)
{
	if (t->pidfd >= 0)
		close(t->pidfd);
	t->pidfd = -1;
}

const char *action_refusal(bool readonly, const struct fsroot *r)
{
	if (readonly)
		return "disabled by --readonly";
	if (!fsroot_is_live(r))
		return "disabled on a recorded tree (--root)";
	return NULL;
}

const char *action_strerror(int err, char *buf, size_t n)
{
	if (err < 0)
		err = -err;
	const char *name = strerrorname_np(err);
	switch (err) {
	case EPERM:
	case EACCES:
		snprintf(buf, n, "%s (%s): needs root or CAP_SYS_NICE for another "
			 "user's process", err == EPERM ? "operation not permitted" :
			 "permission denied", name);
		break;
	case ESRCH:
		snprintf(buf, n, "process exited (ESRCH)");
		break;
	case ENOMEM:
		snprintf(buf, n, "no free memory on the target node (ENOMEM)");
		break;
	case EBUSY:
		snprintf(buf, n, "pages busy (EBUSY): pinned or under I/O; try again");
		break;
	case EAGAIN:
		snprintf(buf, n, "threads kept appearing faster than they could be "
			 "rebound (EAGAIN); try again");
		break;
	case EINVAL:
		/* Most often one thread that may not move while the others
		 * did: said first, without blaming the cpuset. */
		snprintf(buf, n, "invalid argument (EINVAL): a thread that may not move "
			 "(a per-CPU kernel thread or io_uring worker, PF_NO_SETAFFINITY), "
			 "or CPUs or a node the process's cpuset does not allow");
		break;
	case ACTION_EHIDDEN:
		snprintf(buf, n, "the process is not visible to you (/proc is mounted with "
			 "hidepid): run as root or as its user");
		break;
	case ACTION_EEXEC:
		snprintf(buf, n, "the process ran another program (exec) since it was "
			 "chosen: not touched; choose it again");
		break;
	case ACTION_EKTHREAD:
		snprintf(buf, n, "a kernel thread: its memory and CPUs are the kernel's "
			 "(not moved, not rebound)");
		break;
	default:
		snprintf(buf, n, "%s (%s)", strerror(err), name ? name : "?");
		break;
	}
	return buf;
}

int action_numa_balancing(const struct fsroot *r)
{
	char v[16];
	if (fsroot_read_small(r, "/proc/sys/kernel/numa_balancing", v, sizeof(v)) <= 0 ||
	    v[0] < '0' || v[0] > '9')
		return -1;
	return atoi(v);
}

int action_target_signal(const struct fsroot *r, struct action_target *t, int sig)
{
	bool held = t->pidfd >= 0;
	int e = held ? action_target_check(r, t) : action_target_lock(r, t);
	if (e == 0 && syscall(SYS_pidfd_send_signal, t->pidfd, sig, NULL, 0) != 0)
		e = -errno;
	if (!held)
		action_target_unlock(t);
	return e;
}
