/* parse.h - pure parsers for sysfs node files and /proc text.
 *
 * Each parser works on a buffer (not necessarily NUL-terminated), returns 0
 * or -errno and never exits. Values that are absent stay NT_UNKNOWN (-1),
 * never 0. */
#ifndef NUMATOP_PARSE_H
#define NUMATOP_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NT_UNKNOWN (-1)

/* nodeN/meminfo ("Node 0 MemTotal:  8386704 kB") and /proc/meminfo. */
struct mem_info {
	int64_t mem_total_kb, mem_free_kb, mem_used_kb;
	int64_t file_pages_kb, anon_pages_kb, shmem_kb;
	int64_t huge_total, huge_free, huge_surp; /* pages of the default size */
	int64_t hugepagesize_kb;                   /* /proc/meminfo only */
};
void mem_info_init(struct mem_info *m);
int parse_meminfo(const char *buf, size_t len, struct mem_info *out);

/* nodeN/numastat */
enum numastat_key {
	NUMASTAT_HIT, NUMASTAT_MISS, NUMASTAT_FOREIGN, NUMASTAT_INTERLEAVE_HIT,
	NUMASTAT_LOCAL_NODE, NUMASTAT_OTHER_NODE, NUMASTAT_NKEYS
};
extern const char *const numastat_names[NUMASTAT_NKEYS];
struct numastat { int64_t v[NUMASTAT_NKEYS]; };
void numastat_init(struct numastat *n);
int parse_numastat(const char *buf, size_t len, struct numastat *out);

/* nodeN/distance: whitespace-separated integers. Writes up to max values,
 * sets *n to the count found. A file holding just "0" yields one 0 (the
 * caller decides it is unusable). -EINVAL on garbage, -E2BIG past max. */
int parse_distance(const char *buf, size_t len, int *vals, size_t max,
		   size_t *n);

/* /proc/stat per-CPU ticks. */
enum cpu_tick_field {
	TICK_USER, TICK_NICE, TICK_SYSTEM, TICK_IDLE, TICK_IOWAIT, TICK_IRQ,
	TICK_SOFTIRQ, TICK_STEAL, TICK_GUEST, TICK_GUEST_NICE, TICK_NFIELDS
};
struct cpu_ticks {
	uint64_t t[TICK_NFIELDS];
	int nfields;           /* columns present, 4..10; 0 = line missing */
};
/* Calls fn(cpu, ticks, ctx) for every "cpuN" line (cpu = -1 for the "cpu"
 * total line). A line with fewer than 4 numbers is skipped. fn returning
 * non-zero stops the walk and is returned. */
int parse_proc_stat(const char *buf, size_t len,
		    int (*fn)(int cpu, const struct cpu_ticks *t, void *ctx),
		    void *ctx);

/* /proc/PID/stat and /proc/PID/task/TID/stat */
struct pid_stat {
	int pid;
	char comm[64];         /* raw bytes between the first '(' and last ')' */
	char state;
	int ppid;
	uint64_t minflt, majflt, utime, stime;
	int64_t nthreads;
	uint64_t starttime;    /* clock ticks since boot */
	int64_t rss_pages;
	int processor;         /* last CPU, NT_UNKNOWN if the field is absent */
	uint64_t flags;        /* PF_* (field 9); PF_KTHREAD marks a kernel thread */
};
#define PID_STAT_PF_KTHREAD 0x00200000u
#define PID_STAT_PF_EXITING 0x00000004u   /* the thread is exiting */
/* Sanity caps: RSS beyond 2^40 pages (or kB) is unknown; CPU times are
 * saturated at 2^50 ticks (centuries), so utime + stime cannot wrap. */
#define PID_STAT_MAX_PAGES (INT64_C(1) << 40)
#define PID_STAT_MAX_TICKS (UINT64_C(1) << 50)
int parse_pid_stat(const char *buf, size_t len, struct pid_stat *out);
/* Clock ticks of /proc (utime, stime, /proc/stat: USER_HZ, which
 * sysconf(_SC_CLK_TCK) says; 100 when it cannot) as seconds. The one
 * place ticks become seconds. */
double parse_ticks_s(uint64_t ticks);
/* And back: seconds (>= 0) as ticks, rounded (a recorded CPU time). */
uint64_t parse_s_ticks(double s);

/* /proc/PID/status: the fields this tool uses. */
struct pid_status {
	char name[64];
	int64_t uid;           /* effective uid */
	int64_t threads;
	int64_t vm_rss_kb;
	char cpus_allowed_list[256];   /* truncated text, for display */
	char mems_allowed_list[256];
};
int parse_pid_status(const char *buf, size_t len, struct pid_status *out);

/* /proc/vmstat: the counters that tell whether pages were migrated. */
struct vmstat_migrate { int64_t pgmigrate_success, numa_pages_migrated; };
int parse_vmstat_migrate(const char *buf, size_t len,
			 struct vmstat_migrate *out);

/* /proc/zoneinfo: each node's low watermark (the "low" line of its
 * zones, summed), in pages, by node id for ids below n; nodes without
 * one stay NT_UNKNOWN. 0, or -EINVAL when no "Node N, zone" line. */
int parse_zoneinfo_low(const char *buf, size_t len, int64_t *low_pages, size_t n);

/* The kernel's NUMA balancing and tiering counters of /proc/vmstat (and
 * nodeN/vmstat, which has some of them). Absent keys stay NT_UNKNOWN;
 * -ENODATA when none is there. */
enum nvm_key {
	NVM_HINT_FAULTS, NVM_HINT_FAULTS_LOCAL, NVM_PAGES_MIGRATED, NVM_PGMIGRATE_SUCCESS,
	NVM_PGMIGRATE_FAIL, NVM_PGPROMOTE_SUCCESS, NVM_PGDEMOTE_KSWAPD, NVM_PGDEMOTE_DIRECT,
	NVM_NKEYS
};
extern const char *const nvm_names[NVM_NKEYS];   /* the vmstat names */
struct numa_vmstat { int64_t v[NVM_NKEYS]; };
int parse_numa_vmstat(const char *buf, size_t len, struct numa_vmstat *out);

/* /proc/PID/sched (or task/TID/sched) with NUMA balancing built in:
 * numa_pages_migrated, numa_preferred_nid, total_numa_faults,
 * current_node, and per "numa_faults node=N" line task_private +
 * task_shared into faults[N] for N < n (others NT_UNKNOWN). -ENODATA
 * when the kernel prints none of them, -EINVAL for a broken faults line. */
struct pid_sched {
	int64_t pages_migrated, preferred_nid, total_faults, current_node;
	size_t nfault_lines;
};
int parse_pid_sched(const char *buf, size_t len, struct pid_sched *out, int64_t *faults,
		    size_t n);

/* Helpers shared by parsers. Parse a decimal (optionally negative) integer
 * at *p; advance *p. 0 or -EINVAL/-ERANGE. */
int parse_i64(const char **p, const char *end, int64_t *out);
int parse_u64(const char **p, const char *end, uint64_t *out);

/* Parse one /proc/PID/maps line's address range. 0 or -EINVAL. */
int maps_parse_range(const char *s, size_t len, uint64_t *start, uint64_t *end);

#endif
