/* proc_int.h - internal to the process list (proc.c, proc_live.c): the
 * helpers the two backends share. */
#ifndef NUMATOP_PROC_INT_H
#define NUMATOP_PROC_INT_H

#include "proc.h"

/* Append helpers and the backends' scans. */
struct proc_info *proc_list_add(struct proc_list *l);
int proc_list_add_thread(struct proc_list *l, struct proc_info *p, int tid,
			 int cpu);
int proc_scan_live(struct proc_source *s, struct proc_list *l);
int proc_scan_files(const struct fsroot *r, struct proc_list *l);
/* Command lines are kept up to this many bytes (with the NUL). */
#define PROC_CMDLINE_MAX 256
/* Into dst: NULs become blanks, trailing NULs dropped; returns the length. */
size_t proc_clean_cmdline(char *dst, size_t dstsz, const char *src, size_t n);

void **proc_source_pids_slot(struct proc_source *s);
const struct fsroot *proc_source_root(const struct proc_source *s);
void proc_live_close(void *live);
int proc_live_threads(struct proc_source *s, struct proc_list *l, struct proc_info *p,
		      struct buf *scratch);
void proc_live_stats(const void *live, struct proc_scan_stats *out);
int proc_live_openat(void *live, const struct proc_info *p, const char *name);

#endif
