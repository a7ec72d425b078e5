/* cpuref.c - the reference workload of cpuref.h. */
#include "cpuref.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL

static double thread_cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The least and the median of the runs (sorts v). */
static void least_median(double *v, double *least, double *median)
{
	qsort(v, CPUREF_RUNS, sizeof(*v), cmp_double);
	*least = v[0];
	*median = v[CPUREF_RUNS / 2];
}

/* One run of walk + touch over p (len bytes). */
static int run_walk(volatile unsigned char *p, size_t len, int rounds, double *walk, double *touch)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*walk = *touch = 0;
	for (int r = 0; r < rounds; r++) {
		double t0 = thread_cpu_s();
		for (size_t off = 0; off < len; off += PAGE)
			p[off] = (unsigned char)(r + 1);
		double t1 = thread_cpu_s();
		/* "1": clear the accessed bits of every present page. */
		if (pwrite(fd, "1", 1, 0) != 1) {
			int e = -errno;
			close(fd);
			return e;
		}
		double t2 = thread_cpu_s();
		*touch += t1 - t0;
		*walk += t2 - t1;
	}
	close(fd);
	return 0;
}

static double run_arith(uint64_t iters)
{
	double t0 = thread_cpu_s();
	uint64_t x = 88172645463325252ULL;
	for (uint64_t i = 0; i < iters; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	volatile uint64_t sink = x;
	(void)sink;
	return thread_cpu_s() - t0;
}

int cpuref_run(size_t mib, int rounds, uint64_t iters, struct cpuref *out)
{
	memset(out, 0, sizeof(*out));
	out->mib = mib;
	out->rounds = rounds;
	out->iters = iters;
	size_t len = mib << 20;
	unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	/* 4 KiB pages on both machines, whatever their THP setting. */
	madvise(p, len, MADV_NOHUGEPAGE);
	for (size_t off = 0; off < len; off += PAGE)
		p[off] = 1;
	double walk[CPUREF_RUNS], touch[CPUREF_RUNS], arith[CPUREF_RUNS];
	int rc = 0;
	for (int i = 0; i < CPUREF_RUNS && rc == 0; i++) {
		rc = run_walk(p, len, rounds, &walk[i], &touch[i]);
		arith[i] = run_arith(iters);
	}
	munmap(p, len);
	if (rc)
		return rc;
	least_median(walk, &out->walk_s, &out->walk_med_s);
	least_median(touch, &out->touch_s, &out->touch_med_s);
	least_median(arith, &out->arith_s, &out->arith_med_s);
	return 0;
}

void cpuref_print(const struct cpuref *r)
{
	printf("cpuref: walk_s=%.4f walk_med_s=%.4f touch_s=%.4f touch_med_s=%.4f arith_s=%.4f "
	       "arith_med_s=%.4f mib=%zu rounds=%d iters=%llu (CPU seconds, the least and the median "
	       "of %d runs: clear_refs walks of %zu MiB of 4 KiB pages x %d; the pages written again "
	       "before each; %llu xorshift steps)\n",
	       r->walk_s, r->walk_med_s, r->touch_s, r->touch_med_s, r->arith_s, r->arith_med_s,
	       r->mib, r->rounds, (unsigned long long)r->iters, CPUREF_RUNS, r->mib, r->rounds,
	       (unsigned long long)r->iters);
	fflush(stdout);
}
