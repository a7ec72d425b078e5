/*
 * memhog: a test process with a known amount of resident anonymous memory.
 *
 *   memhog MIB [THREADS] [--wake MS] [--spread-nodes A,B,...] [--file PATH]
 *          [--retouch MS] [--touch-rate N] [--no-thp] [--own-nodes A,B,...]
 *          [--own-wake MS]
 *
 * Maps MIB MiB of private anonymous memory, writes to every page so that
 * every page is resident (placed by the memory policy it was started with,
 * e.g. under `numactl --membind=0`), starts THREADS extra threads that only
 * sleep, prints "ready" on stdout and then waits for SIGTERM or SIGINT,
 * on which it exits 0. Used by the VM tests (tests/vm/) to have a process
 * whose pages, home node and per-thread CPU affinity are known.
 *
 * Options (for the remote-cause tests, tests/vm/payload.sh section 13):
 *   --wake MS          every thread (the main one too) wakes every MS ms,
 *                      touching nothing, so that its last CPU follows its
 *                      affinity (a sleeping thread keeps its old one)
 *   --spread-nodes L   after the memory is written, thread i (0: the main
 *                      thread, then the extra ones) is pinned to the CPUs
 *                      of node L[i % n] (/sys/devices/system/node/nodeN/
 *                      cpulist); implies --wake 100
 *   --file PATH        also map PATH shared and read-only and read every
 *                      page of it (its page cache, wherever it is, becomes
 *                      part of this process's numa_maps); MIB may be 0
 *   --hot MIB          with --retouch: only the first MIB MiB are written
 *                      again (a hot set; the rest stays cold)
 *   --retouch MS       the main thread writes every page of its MIB again
 *                      every MS ms (0: continuously), so that the kernel's
 *                      NUMA balancing sees the accesses (hint faults)
 *   --touch-rate N     instead: the main thread writes its pages one after
 *                      the other, N pages a second, and spins (runs) in
 *                      between: the kernel's NUMA balancing (whose scanner
 *                      counts the thread's CPU time) cannot move more than
 *                      N of its pages a second, as it moves them on access
 *   --no-thp           small pages only (MADV_NOHUGEPAGE): NUMA balancing
 *                      moves them one by one (it does not move a huge page
 *                      that its scanner's partial step split into small
 *                      mappings)
 *   --own-nodes L      instead of the main thread's MIB: one extra thread
 *                      per node of L, pinned to that node's CPUs, maps and
 *                      writes MIB MiB of its own (first touch: on its node)
 *                      and keeps working (it writes its pages for 20 ms of
 *                      every 100); the main thread is pinned to the last
 *                      node of L and stays idle; THREADS is ignored
 *   --own-wake MS      with --own-nodes: each worker instead sleeps MS ms,
 *                      writes every page of its MIB once (briefly: far
 *                      less than a clock tick of CPU time per wake) and
 *                      sleeps again
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_SPREAD 64

static long wake_ms = -1;        /* -1: threads only sleep */
static long own_wake_ms = -1;    /* --own-wake; -1: work 20 ms of every 100 */

/* --own-nodes: each worker's CPUs and size, and how many have written
 * their memory. */
struct worker {
	cpu_set_t cpus;
	size_t len, pg;
};
static pthread_mutex_t own_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t own_cond = PTHREAD_COND_INITIALIZER;
static long own_ready, own_failed;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;) {
		if (wake_ms >= 0)
			sleep_ms(wake_ms);
		else
			pause();
	}
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void own_done(int failed)
{
	pthread_mutex_lock(&own_lock);
	own_ready++;
	own_failed += failed;
	pthread_cond_broadcast(&own_cond);
	pthread_mutex_unlock(&own_lock);
}

/* A worker of --own-nodes: on its node first, then its memory, then work. */
static void *worker(void *arg)
{
	struct worker *w = arg;
	if (pthread_setaffinity_np(pthread_self(), sizeof(w->cpus), &w->cpus) != 0) {
		fprintf(stderr, "memhog: worker: pthread_setaffinity_np failed\n");
		own_done(1);
		return NULL;
	}
	sched_yield();    /* now running on one of its CPUs */
	unsigned char *p = mmap(NULL, w->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "memhog: worker: mmap: %s\n", strerror(errno));
		own_done(1);
		return NULL;
	}
	for (size_t off = 0; off < w->len; off += w->pg)
		p[off] = 1;
	own_done(0);
	for (unsigned round = 2; own_wake_ms >= 0; round++) {
		sleep_ms(own_wake_ms);
		for (size_t off = 0; off < w->len; off += w->pg)
			p[off] = (unsigned char)(round | 1);
	}
	for (unsigned round = 2;; round++) {
		double end = now_s() + 0.02;
		while (now_s() < end)
			for (size_t off = 0; off < w->len && now_s() < end; off += w->pg * 64)
				p[off] = (unsigned char)(round | 1);
		sleep_ms(80);
	}
	return NULL;
}

static long number(const char *s, long max, const char *what)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > max) {
		fprintf(stderr, "memhog: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

/* The CPUs of node id in *set (from sysfs); 0 when it has any. */
static int node_cpus(long id, cpu_set_t *set)
{
	char path[96], buf[4096];
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%ld/cpulist", id);
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "memhog: %s: %s\n", path, strerror(errno));
		return -1;
	}
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	CPU_ZERO(set);
	int count = 0;
	for (char *p = buf; *p && *p != '\n';) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p)
			break;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			p = end;
		}
		for (long c = a; c <= b && c < CPU_SETSIZE; c++, count++)
			CPU_SET((int)c, set);
		if (*p == ',')
			p++;
	}
	if (!count) {
		fprintf(stderr, "memhog: node %ld has no CPUs\n", id);
		return -1;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: memhog MIB [THREADS] [--wake MS] [--spread-nodes A,B,...] "
		"[--file PATH] [--retouch MS] [--hot MIB] [--touch-rate N] [--no-thp] [--own-nodes A,B,...] "
		"[--own-wake MS]\n");
	exit(2);
}

/* Write to every page of p (len bytes): a non-zero byte per page (a read
 * would map the shared zero page). */
static void touch(unsigned char *p, size_t len, size_t pg, unsigned round)
{
	for (size_t off = 0; off < len; off += pg)
		p[off] = (unsigned char)((off / pg + round) | 1);
}

/* --own-nodes: the workers, each on its node with its memory; "ready"
 * once all have written it; the main thread idle on the last node. */
static int own_nodes(const long *own, long nown, size_t len, size_t pg, const sigset_t *set)
{
	static struct worker w[MAX_SPREAD];
	for (long k = 0; k < nown; k++) {
		if (node_cpus(own[k], &w[k].cpus) != 0)
			return 1;
		w[k].len = len;
		w[k].pg = pg;
		pthread_t t;
		int rc = pthread_create(&t, NULL, worker, &w[k]);
		if (rc != 0) {
			fprintf(stderr, "memhog: pthread_create: %s\n", strerror(rc));
			return 1;
		}
		pthread_detach(t);
	}
	pthread_mutex_lock(&own_lock);
	while (own_ready < nown)
		pthread_cond_wait(&own_cond, &own_lock);
	long failed = own_failed;
	pthread_mutex_unlock(&own_lock);
	if (failed)
		return 1;
	if (sched_setaffinity(0, sizeof(cpu_set_t), &w[nown - 1].cpus) != 0) {
		fprintf(stderr, "memhog: sched_setaffinity: %s\n", strerror(errno));
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		int sig;
		if (sigwait(set, &sig) == 0)
			return 0;
	}
}

int main(int argc, char **argv)
{
	long pos[2] = { -1, 0 };
	int npos = 0;
	long spread[MAX_SPREAD], nspread = 0, retouch_ms = -1, hot_mib = -1;
	long own[MAX_SPREAD], nown = 0;
	int nothp = 0;
	long touch_rate = 0;
	const char *file = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--wake") == 0 && i + 1 < argc) {
			wake_ms = number(argv[++i], 1000000, "--wake");
		} else if (strcmp(a, "--own-wake") == 0 && i + 1 < argc) {
			own_wake_ms = number(argv[++i], 1000000, "--own-wake");
		} else if (strcmp(a, "--retouch") == 0 && i + 1 < argc) {
			retouch_ms = number(argv[++i], 1000000, "--retouch");
		} else if (strcmp(a, "--hot") == 0 && i + 1 < argc) {
			hot_mib = number(argv[++i], 1L << 20, "--hot");
		} else if (strcmp(a, "--touch-rate") == 0 && i + 1 < argc) {
			touch_rate = number(argv[++i], 1000000, "--touch-rate");
		} else if (strcmp(a, "--no-thp") == 0) {
			nothp = 1;
		} else if (strcmp(a, "--file") == 0 && i + 1 < argc) {
			file = argv[++i];
		} else if (strcmp(a, "--spread-nodes") == 0 && i + 1 < argc) {
			char *list = argv[++i], *save = NULL;
			for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
				if (nspread == MAX_SPREAD)
					usage();
				spread[nspread++] = number(t, 4095, "node");
			}
			if (!nspread)
				usage();
		} else if (strcmp(a, "--own-nodes") == 0 && i + 1 < argc) {
			char *list = argv[++i], *save = NULL;
			for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
				if (nown == MAX_SPREAD)
					usage();
				own[nown++] = number(t, 4095, "node");
			}
			if (!nown)
				usage();
		} else if (a[0] == '-' || npos == 2) {
			usage();
		} else {
			pos[npos] = number(a, npos ? 1024 : 1L << 20, npos ? "thread count" : "size");
			npos++;
		}
	}
	if (npos < 1)
		usage();
	long mib = pos[0], nthreads = pos[1];
	if (nspread && wake_ms < 0)
		wake_ms = 100;
	cpu_set_t sets[MAX_SPREAD];
	for (long k = 0; k < nspread; k++)
		if (node_cpus(spread[k], &sets[k]) != 0)
			return 1;

	/* Block the signals before any thread exists: all threads inherit the
	 * mask and only the main thread takes them, in sigwait(). */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) {
		fprintf(stderr, "memhog: pthread_sigmask failed\n");
		return 1;
	}

	long pgl = sysconf(_SC_PAGESIZE);
	size_t pg = pgl > 0 ? (size_t)pgl : 4096;
	size_t len = (size_t)mib << 20;
	if (nown)
		return own_nodes(own, nown, len, pg, &set);
	unsigned char *p = NULL;
	if (len) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			fprintf(stderr, "memhog: mmap %ld MiB: %s\n", mib, strerror(errno));
			return 1;
		}
		if (nothp && madvise(p, len, MADV_NOHUGEPAGE) != 0) {
			fprintf(stderr, "memhog: madvise MADV_NOHUGEPAGE: %s\n", strerror(errno));
			return 1;
		}
		touch(p, len, pg, 0);
	}

	if (file) {
		int fd = open(file, O_RDONLY);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) {
			fprintf(stderr, "memhog: %s: %s\n", file, fd < 0 ? strerror(errno) : "empty");
			return 1;
		}
		size_t flen = (size_t)st.st_size;
		volatile const unsigned char *f = mmap(NULL, flen, PROT_READ, MAP_SHARED, fd, 0);
		if (f == MAP_FAILED) {
			fprintf(stderr, "memhog: mmap %s: %s\n", file, strerror(errno));
			return 1;
		}
		close(fd);
		unsigned sum = 0;
		for (size_t off = 0; off < flen; off += pg)
			sum += f[off];
		(void)sum;
	}

	pthread_t *tids = calloc((size_t)nthreads + 1, sizeof(*tids));
	if (!tids) {
		fprintf(stderr, "memhog: out of memory\n");
		return 1;
	}
	for (long i = 0; i < nthreads; i++) {
		int rc = pthread_create(&tids[i], NULL, sleeper, NULL);
		if (rc != 0) {
			fprintf(stderr, "memhog: pthread_create: %s\n", strerror(rc));
			return 1;
		}
		pthread_detach(tids[i]);
	}
	/* Thread i + 1 (the extra ones) to node spread[(i + 1) % n], then the
	 * main thread (0) to spread[0]. */
	for (long i = 0; nspread && i < nthreads; i++) {
		int rc = pthread_setaffinity_np(tids[i], sizeof(cpu_set_t), &sets[(i + 1) % nspread]);
		if (rc != 0) {
			fprintf(stderr, "memhog: pthread_setaffinity_np: %s\n", strerror(rc));
			return 1;
		}
	}
	if (nspread && sched_setaffinity(0, sizeof(cpu_set_t), &sets[0]) != 0) {
		fprintf(stderr, "memhog: sched_setaffinity: %s\n", strerror(errno));
		return 1;
	}

	printf("ready\n");
	fflush(stdout);

	if (touch_rate > 0 && p) {
		/* Page n is written at n / touch_rate seconds; spin until then. */
		struct timespec t0, now, zero = { 0, 0 };
		clock_gettime(CLOCK_MONOTONIC, &t0);
		size_t npages = len / pg;
		for (unsigned long long n = 0;; n++) {
			p[(size_t)(n % npages) * pg] = (unsigned char)(n | 1);
			if ((n & 63) == 63) {
				int sig = sigtimedwait(&set, NULL, &zero);
				if (sig == SIGTERM || sig == SIGINT)
					return 0;
			}
			double due = (double)(n + 1) / (double)touch_rate;
			do
				clock_gettime(CLOCK_MONOTONIC, &now);
			while ((double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9 < due);
		}
	}

	/* Wake every --wake or --retouch MS (the shorter), else only on a
	 * signal. */
	long tick = wake_ms;
	if (retouch_ms >= 0 && p && (tick < 0 || retouch_ms < tick))
		tick = retouch_ms;
	unsigned round = 0;
	for (;;) {
		int sig;
		if (tick < 0) {
			if (sigwait(&set, &sig) == 0)
				return 0;
			continue;
		}
		struct timespec ts = { tick / 1000, (tick % 1000) * 1000000L };
		sig = sigtimedwait(&set, NULL, &ts);
		if (sig == SIGTERM || sig == SIGINT)
			return 0;
		if (retouch_ms >= 0 && p)
			touch(p, hot_mib >= 0 && (size_t)hot_mib << 20 < len ? (size_t)hot_mib << 20 : len,
			      pg, ++round);
	}
}
