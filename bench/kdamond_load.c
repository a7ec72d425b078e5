/* kdamond_load.c - the access heat phase's load (forks of the benchmark
 * that hold memory and keep a part of it hot) and what it reads of the
 * machine: /proc of the kdamond, the monitor and the load, meminfo, THP,
 * DAMON's state (read only: damon.h). */
#include "kdamond_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "damon.h"

#define KD_PAGE 4096UL

ssize_t kdamond_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/* utime + stime of pid in seconds, -1 when gone. */
double kdamond_stat_s(pid_t pid)
{
	char path[64], buf[1024];
	unsigned long long ut, st;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (kdamond_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	const char *p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* The time pid ran (schedstat's first field) in seconds, -1 unknown. */
double kdamond_sched_s(pid_t pid)
{
	char path[64], buf[128];
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	if (kdamond_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return (double)strtoull(buf, NULL, 10) / 1e9;
}

long kdamond_meminfo_kb(const char *key)
{
	char buf[8192];
	if (kdamond_read_file("/proc/meminfo", buf, sizeof(buf)) <= 0)
		return -1;
	const char *p = strstr(buf, key);
	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/* The bracketed word of the THP setting ("?" unknown). */
void kdamond_thp(char *out, size_t len)
{
	char buf[256];
	snprintf(out, len, "?");
	if (kdamond_read_file("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf)) <= 0)
		return;
	char *a = strchr(buf, '['), *b = a ? strchr(a, ']') : NULL;
	if (a && b)
		snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
}

/* Why DAMON is not free, as a sentence; 0 when it is free. */
int kdamond_damon_busy(const struct fsroot *root, char *why, size_t len)
{
	struct damon_status st;
	if (damon_read(root, &st) != 0) {
		snprintf(why, len, "DAMON's state could not be read (out of memory)");
		return 1;
	}
	struct damon_record rec;
	bool have = damon_record_load(DAMON_RECORD_PATH, &rec) == 0;
	damon_classify(root, &st, have ? &rec : NULL, NULL);
	int busy = st.avail != DAMON_FREE;
	if (st.avail == DAMON_IN_USE || st.avail == DAMON_STALE) {
		size_t o = (size_t)snprintf(why, len, "DAMON in use by");
		for (size_t i = 0; i < st.nkd && o < len; i++) {
			const struct damon_kdamond *kd = &st.kd[i];
			char path[64], comm[64] = "";
			snprintf(path, sizeof(path), "/proc/%lld/comm", (long long)kd->pid);
			if (kd->pid <= 0 || kdamond_read_file(path, comm, sizeof(comm)) <= 0)
				snprintf(comm, sizeof(comm), "kdamonds/%d (%s)", kd->index,
					 kd->state == DAMON_KD_ON ? "on" : "off");
			comm[strcspn(comm, "\n")] = '\0';
			o += (size_t)snprintf(why + o, len - o, "%s %s", i ? "," : "", comm);
			if (kd->pid > 0 && o < len)
				o += (size_t)snprintf(why + o, len - o, " (pid %lld)", (long long)kd->pid);
			if (o < len)
				o += (size_t)snprintf(why + o, len - o, "%s",
						      kd->owner == DAMON_OWNER_STALE ?
						      ", left by an earlier run of numatop-tui (its next start removes it)" :
						      ", not ours");
		}
		if (st.nkd < (size_t)st.nr_kdamonds && o < len)
			snprintf(why + o, len - o, " (%lld kdamonds in all)", (long long)st.nr_kdamonds);
	} else if (busy) {
		snprintf(why, len, "%s", damon_avail_text(st.avail));
	}
	damon_status_free(&st);
	return busy;
}

/* Our kdamond's regions now (all targets), -1 unknown. */
long kdamond_regions(const struct fsroot *root, long long kpid)
{
	struct damon_status st;
	long n = -1;
	if (damon_read(root, &st) != 0)
		return -1;
	for (size_t i = 0; i < st.nkd && n < 0; i++) {
		if (st.kd[i].pid != kpid)
			continue;
		struct damon_scheme sch = { 0 };
		if (damon_read_regions(root, st.kd[i].index, 0, 0, &sch) == 0)
			n = (long)sch.nregions;
		free(sch.regions);
	}
	damon_status_free(&st);
	return n;
}

/* A child of the load: its memory, "ready" on fd, then the hot part. */
static void kd_child(const struct kdamond_config *c, size_t mib, int fd, pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	size_t len = mib << 20, hot = c->hot_mib << 20;
	if (hot > len)
		hot = len;
	volatile unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
					 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(1);
	for (size_t off = 0; off < len; off += KD_PAGE)
		p[off] = 1;
	char one = 1;
	if (write(fd, &one, 1) != 1)
		_exit(1);
	close(fd);
	struct timespec ts = { c->touch_ms / 1000, (long)(c->touch_ms % 1000) * 1000000L };
	for (unsigned char round = 2;; round++) {
		nanosleep(&ts, NULL);
		for (size_t off = 0; off < hot; off += KD_PAGE)
			p[off] = round;
	}
}

/* The load, spawned into l; 0 or -errno. */
int kdamond_spawn(const struct kdamond_config *c, size_t mib, struct load *l, pid_t *pids)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -errno;
	pid_t parent = getpid();
	int rc = 0;
	size_t n = 0;
	for (; n < c->nproc; n++) {
		pid_t pid = fork();
		if (pid < 0) {
			rc = -errno;
			break;
		}
		if (pid == 0) {
			close(fds[0]);
			kd_child(c, mib, fds[1], parent);
		}
		pids[n] = pid;
		if ((rc = load_adopt(l, pid)) != 0)
			break;
	}
	close(fds[1]);
	size_t ready = 0;
	while (rc == 0 && ready < n) {
		struct pollfd pf = { .fd = fds[0], .events = POLLIN };
		char b[64];
		if (poll(&pf, 1, 1000) > 0) {
			ssize_t got = read(fds[0], b, sizeof(b));
			if (got <= 0)
				rc = -ECHILD;      /* every writer gone */
			else
				ready += (size_t)got;
			continue;
		}
		for (size_t i = 0; i < n && rc == 0; i++)
			if (waitpid(pids[i], NULL, WNOHANG) != 0)
				rc = -ECHILD;     /* killed: out of memory? */
	}
	close(fds[0]);
	return rc;
}

/* The load's memory in huge pages, kB (AnonHugePages of smaps_rollup). */
long kdamond_huge_kb(const pid_t *pids, size_t n)
{
	long sum = 0;
	for (size_t i = 0; i < n; i++) {
		char path[64], buf[4096];
		snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pids[i]);
		const char *p = kdamond_read_file(path, buf, sizeof(buf)) > 0 ? strstr(buf, "AnonHugePages:") : NULL;
		if (!p)
			return -1;
		sum += strtol(p + 14, NULL, 10);
	}
	return sum;
}
