/* proc_int.h - internal to the process list (proc.c, proc_live.c): the
 * helpers the two backends share. */
#ifndef NUMATOP_PROC_INT_H
#define NUMATOP_PROC_INT_H

#include "proc.h"

/* Append helpers and the backends' scans. */
struct proc_info *proc_list_add(struct proc_list *l);
int proc_list_add_thread(struct proc_list *l, struct proc_info *p, int tid,
			 int cpu);
int proc_scan_libproc2(struct proc_source *s, struct proc_list *l);
int proc_scan_files(const struct fsroot *r, struct proc_list *l);
void proc_clean_cmdline(char *dst, size_t dstsz, const char *src, size_t n);

void **proc_source_pids_slot(struct proc_source *s);
const struct fsroot *proc_source_root(const struct proc_source *s);
void proc_live_close(void *live);

#endif
