/* cpuref.h - a fixed reference workload, timed the same way on two
 * machines to compare their CPUs on the work a kdamond does: make
 * bench-damon runs it in an emulated (TCG) guest and on its host, and
 * divides the guest's kdamond CPU by the ratio (bench/kdamond_vm.sh). */
#ifndef NUMATOP_BENCH_CPUREF_H
#define NUMATOP_BENCH_CPUREF_H

#include <stddef.h>
#include <stdint.h>

/* CPU seconds (this thread's) of each part, the least (the run least
 * disturbed by other work on the machine) and the median of CPUREF_RUNS:
 *   walk   the kernel: `rounds` writes of "1" to /proc/self/clear_refs,
 *          each a walk of every page table entry of a mapping of `mib`
 *          MiB of 4 KiB pages clearing its accessed bit (what a kdamond
 *          does to one page per region per sample: find the entry, test
 *          and clear the bit), then a TLB flush;
 *   touch  user space: before each walk, one write to every page of the
 *          mapping again (the accessed bits set; each page's first access
 *          after the flush walks the page table, in hardware or in the
 *          emulator);
 *   arith  user space: `iters` steps of an xorshift generator (no memory
 *          traffic). */
struct cpuref {
	double walk_s, touch_s, arith_s;        /* the least */
	double walk_med_s, touch_med_s, arith_med_s;
	size_t mib;
	int rounds;
	uint64_t iters;
};

#define CPUREF_RUNS 5
#define CPUREF_MIB 64
#define CPUREF_ROUNDS 200
#define CPUREF_ITERS UINT64_C(200000000)

/* 0 or -errno (no /proc/self/clear_refs: -ENOENT). */
int cpuref_run(size_t mib, int rounds, uint64_t iters, struct cpuref *out);
/* One line: "cpuref: walk_s=... walk_med_s=... touch_s=... touch_med_s=...
 * arith_s=... arith_med_s=... mib=... rounds=... iters=... (what they are)" */
void cpuref_print(const struct cpuref *r);

#endif
