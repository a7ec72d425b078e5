/* kdamond_int.h - the access heat phase's readers of the machine and its
 * load (kdamond_load.c), for kdamond.c. */
#ifndef NUMATOP_BENCH_KDAMOND_INT_H
#define NUMATOP_BENCH_KDAMOND_INT_H

#include <stddef.h>
#include <sys/types.h>

#include "fsroot.h"
#include "kdamond.h"
#include "load.h"

/* path into buf (NUL-terminated, "" on failure); bytes read or -1. */
ssize_t kdamond_read_file(const char *path, char *buf, size_t len);
/* utime + stime of pid in seconds (/proc/PID/stat), -1 when gone. */
double kdamond_stat_s(pid_t pid);
/* The time pid ran (schedstat's first field) in seconds, -1 unknown. */
double kdamond_sched_s(pid_t pid);
/* The number after key ("MemAvailable:") in /proc/meminfo, -1. */
long kdamond_meminfo_kb(const char *key);
/* The THP setting's chosen word ("?" unknown). */
void kdamond_thp(char *out, size_t len);
/* Why DAMON is not free, as a sentence naming each kdamond ("DAMON in use
 * by kdamond.0 (pid 107), not ours"); 0 when it is free (nr_kdamonds 0).
 * Reads only. */
int kdamond_damon_busy(const struct fsroot *root, char *why, size_t len);
/* The regions of the kdamond whose thread is kpid, now (all targets); -1. */
long kdamond_regions(const struct fsroot *root, long long kpid);
/* c->nproc children (forks, adopted into l) of mib MiB each, every page
 * written, then the hot part again and again; waits until all have
 * written theirs. pids gets theirs. 0 or -errno (-ECHILD: one died). */
int kdamond_spawn(const struct kdamond_config *c, size_t mib, struct load *l, pid_t *pids);
/* AnonHugePages of their smaps_rollup summed, kB; -1. */
long kdamond_huge_kb(const pid_t *pids, size_t n);

#endif
