/* cgroups.h - the benchmark's measure of reading every cgroup. */
#ifndef NUMATOP_BENCH_CGROUPS_H
#define NUMATOP_BENCH_CGROUPS_H

#include <stddef.h>

struct cgroup_cost {
	const char *layout;
	size_t machine;             /* cgroups of the machine alone */
	double machine_ms;          /* reading them all, median */
	size_t with_extra;          /* with the benchmark's empty cgroups */
	double with_extra_ms;
	double us_per_cgroup;
};

/* Read the live machine's cgroups (median of reps), then again with
 * extra empty cgroups made under a parent of the memory hierarchy (when
 * the program runs as root and one can be made; removed again). 0 or
 * -errno. */
int cgroup_bench(size_t extra, int reps, struct cgroup_cost *out);
/* For a signal handler: remove what cgroup_bench made (rmdir only). */
void cgroup_bench_cleanup(void);

#endif
