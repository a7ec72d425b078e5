/* cgroups.c - what reading every cgroup (memory.numa_stat, cgroup.procs,
 * the cpuset) costs per sample, on the machine and with N more cgroups. */
#include "cgroups.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "fsroot.h"
#include "topology.h"

#define MAX_EXTRA 1000

/* Paths made ahead, so that cleanup needs only rmdir(2). */
static char made[MAX_EXTRA + 1][128];
static volatile size_t nmade;

void cgroup_bench_cleanup(void)
{
	for (size_t i = nmade; i-- > 0;)
		rmdir(made[i]);
	nmade = 0;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_read(const struct fsroot *r, const struct topology *t,
			  struct cgroup_set *set, int reps)
{
	double *v = calloc((size_t)reps, sizeof(*v));
	if (!v)
		return -1;
	for (int i = 0; i < reps; i++) {
		double t0 = now_ms();
		cgroup_read_all(r, t, set);
		v[i] = now_ms() - t0;
	}
	qsort(v, (size_t)reps, sizeof(*v), cmp_d);
	double m = v[reps / 2];
	free(v);
	return m;
}

int cgroup_bench(size_t extra, int reps, struct cgroup_cost *out)
{
	memset(out, 0, sizeof(*out));
	struct fsroot *r;
	int rc = fsroot_open("/", &r);
	if (rc)
		return rc;
	struct topology t;
	if ((rc = topology_read(r, &t)) != 0) {
		fsroot_close(r);
		return rc;
	}
	struct cgroup_set set = { 0 };
	out->machine_ms = median_read(r, &t, &set, reps);
	out->machine = set.n;
	out->layout = cgroup_layout_names[set.layout];
	const char *base = cgroup_mem_base(set.layout);
	if (extra > MAX_EXTRA)
		extra = MAX_EXTRA;
	if (base && geteuid() == 0 && extra > 0) {
		snprintf(made[0], sizeof(made[0]), "%s/numatop-bench-%d", base, (int)getpid());
		for (size_t i = 1; i <= extra; i++)
			if (snprintf(made[i], sizeof(made[i]), "%.100s/c%zu", made[0], i) >=
			    (int)sizeof(made[i]))
				extra = i - 1;
		size_t n = 0;
		while (n <= extra && mkdir(made[n], 0755) == 0)
			nmade = ++n;
		if (n > 1) {
			out->with_extra_ms = median_read(r, &t, &set, reps);
			out->with_extra = set.n;
			if (set.n > out->machine)
				out->us_per_cgroup = (out->with_extra_ms - out->machine_ms) * 1000.0 /
						     (double)(set.n - out->machine);
		}
		cgroup_bench_cleanup();
	}
	cgroup_set_free(&set);
	topology_free(&t);
	fsroot_close(r);
	return 0;
}
