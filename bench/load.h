/* load.h - the benchmark's own load: processes with a chosen number of
 * mappings, one large process of 4 KiB pages with a stall probe, one with
 * tens of thousands of mappings. Every child dies with the benchmark
 * (PR_SET_PDEATHSIG) and load_kill_all() reaps them on every exit path. */
#ifndef NUMATOP_BENCH_LOAD_H
#define NUMATOP_BENCH_LOAD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct load {
	pid_t *pids;
	size_t n, cap;
};

/* What the big process's probe saw: the worst time, in ns, of one
 * mmap + touch + munmap of a page (the mmap lock taken for writing),
 * since the last reset. Lives in a shared page. */
struct stall_probe {
	volatile uint64_t max_ns;
	volatile uint64_t count;
	volatile int reset;
	volatile int ready;
};

/* n processes, each with k separate anonymous mappings of kb_each kB,
 * every page touched. 0 or -errno. Waits until all are ready. */
int load_spawn_procs(struct load *l, size_t n, size_t k, size_t kb_each);
/* n processes running the program at path (bench/tiny/tinyproc) with k
 * mappings of kb_each kB: the size of a small real process, not of a fork
 * of the benchmark. 0 or -errno. */
int load_spawn_exec(struct load *l, size_t n, const char *path, size_t k, size_t kb_each);
/* One process with mib MiB of touched 4 KiB pages (no THP) and a probe
 * thread writing to *probe (shared memory from load_probe_new). */
int load_spawn_big(struct load *l, size_t mib, struct stall_probe *probe, pid_t *pid);
/* One process with k one-page mappings. */
int load_spawn_many_maps(struct load *l, size_t k, pid_t *pid);
struct stall_probe *load_probe_new(void);
/* Count pid among the children to kill and reap. */
int load_adopt(struct load *l, pid_t pid);
/* Kill and reap the children from index `from` on (all: 0). */
void load_kill_from(struct load *l, size_t from);
void load_kill_all(struct load *l);

#endif
