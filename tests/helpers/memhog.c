/*
 * memhog: a test process with a known amount of resident anonymous memory.
 *
 *   memhog MIB [THREADS]
 *
 * Maps MIB MiB of private anonymous memory, writes to every page so that
 * every page is resident (placed by the memory policy it was started with,
 * e.g. under `numactl --membind=0`), starts THREADS extra threads that only
 * sleep, prints "ready" on stdout and then waits for SIGTERM or SIGINT,
 * on which it exits 0. Used by the VM tests (tests/vm/) to have a process
 * whose pages, home node and per-thread CPU affinity are known.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
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

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: memhog MIB [THREADS]\n");
		return 2;
	}
	long mib = number(argv[1], 1L << 20, "size");
	long nthreads = argc > 2 ? number(argv[2], 1024, "thread count") : 0;

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

	size_t len = (size_t)mib << 20;
	if (len) {
		unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			fprintf(stderr, "memhog: mmap %ld MiB: %s\n", mib, strerror(errno));
			return 1;
		}
		long pg = sysconf(_SC_PAGESIZE);
		if (pg <= 0)
			pg = 4096;
		/* A non-zero write per page: a read would map the shared zero page. */
		for (size_t off = 0; off < len; off += (size_t)pg)
			p[off] = (unsigned char)(off / (size_t)pg) | 1;
	}

	for (long i = 0; i < nthreads; i++) {
		pthread_t t;
		int rc = pthread_create(&t, NULL, sleeper, NULL);
		if (rc != 0) {
			fprintf(stderr, "memhog: pthread_create: %s\n", strerror(rc));
			return 1;
		}
		pthread_detach(t);
	}

	printf("ready\n");
	fflush(stdout);

	int sig = 0;
	while (sigwait(&set, &sig) != 0)
		;
	return 0;
}
