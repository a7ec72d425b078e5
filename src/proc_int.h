/* proc_int.h - internal to the process source: the backends' ops (the
 * dispatcher proc.c picks one at open), and the list helpers they share
 * (proc_list.c). */
#ifndef NUMATOP_PROC_INT_H
#define NUMATOP_PROC_INT_H

#include "proc.h"

/* Append helpers and the backends' scans. */
struct proc_info *proc_list_add(struct proc_list *l);
/* p as a new entry has it: nothing known (state 0: never filled). */
void proc_info_reset(struct proc_info *p);
/* A scan's first step: the list's entries (the last scan's, in PID
 * order) to the PIDs about to be read (sorted, unique). An entry whose
 * PID stays keeps all its bytes (see proc_list); a new PID gets a zeroed
 * entry, its proc_info reset, its pid set. Entries in another order are
 * all dropped first. 0 or -ENOMEM (the list then empty). */
int proc_list_align(struct proc_list *l, const int *pids, size_t n);
/* Entry i's PID is now another process (it had another start time): the
 * caller's bytes past its proc_info zeroed, as a new entry's are. */
void proc_list_renew(struct proc_list *l, size_t i);
/* Whether entry i, filled, stays in the list (proc_list.keep); if not,
 * it is dropped (as by proc_list_drop). */
bool proc_list_kept(struct proc_list *l, size_t i);
/* Entry i could not be read (the process left, or was unreadable):
 * marked, and removed by proc_list_compact at the end of the scan. */
void proc_list_drop(struct proc_list *l, size_t i);
void proc_list_compact(struct proc_list *l);
/* A thread of p: its id, last CPU, CPU ticks and run time in ns (-1
 * unknown). */
int proc_list_add_thread(struct proc_list *l, struct proc_info *p, int tid,
			 int cpu, int64_t ticks, int64_t run_ns);
/* A thread's run time in ns from its schedstat text, -1 unknown. Pure. */
int64_t proc_parse_run_ns(const char *text, size_t len);
int proc_scan_files(const struct fsroot *r, struct proc_list *l);
/* Command lines are kept up to this many bytes (with the NUL). */
#define PROC_CMDLINE_MAX 256
/* Into dst: NULs become blanks, trailing NULs dropped; returns the length. */
size_t proc_clean_cmdline(char *dst, size_t dstsz, const char *src, size_t n);

/* A backend: its state (opened for a root), a scan into a list, a
 * process's threads, and optionally a file of a listed process opened
 * without a path lookup (NULL: -EOPNOTSUPP) and its counters (NULL: none
 * kept). 0 or -errno throughout. */
struct proc_backend_ops {
	int (*open)(const struct fsroot *r, void **state);
	void (*close)(void *state);
	int (*scan)(void *state, struct proc_list *l);
	int (*threads)(void *state, struct proc_list *l, struct proc_info *p, struct buf *scratch);
	int (*openat)(void *state, const struct proc_info *p, const char *name);
	void (*stats)(const void *state, struct proc_scan_stats *out);
};
extern const struct proc_backend_ops proc_files_ops;   /* proc_files.c */
extern const struct proc_backend_ops proc_live_ops;    /* proc_live.c */

#endif
