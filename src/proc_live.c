/* proc_live.c - the libproc2 (procps 4) backend for the live machine.
 *
 * Facts that shape this file: the info pointer must be NULL before
 * procps_pids_new(); a reap's results are overwritten by the next reap, so
 * everything is copied out at once; PIDS_MEM_RES (statm) is used, not
 * PIDS_VM_RSS (status, twice the cost); PIDS_PROCESSOR_NODE is avoided
 * (it calls libnuma, which cannot follow the rooted layer). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <libproc2/pids.h>

#include "proc.h"

void **proc_source_pids_slot(struct proc_source *s);
void proc_live_close(void *pids);

enum item_index {
	I_PID, I_PPID, I_CMD, I_CMDLINE, I_EUID, I_EUSER, I_STATE, I_UTIME,
	I_STIME, I_BEGAN, I_FLT_MIN, I_FLT_MAJ, I_RES, I_PROCESSOR, I_NLWP, I_N
};

static enum pids_item items[I_N] = {
	[I_PID] = PIDS_ID_PID,         [I_PPID] = PIDS_ID_PPID,
	[I_CMD] = PIDS_CMD,            [I_CMDLINE] = PIDS_CMDLINE,
	[I_EUID] = PIDS_ID_EUID,       [I_EUSER] = PIDS_ID_EUSER,
	[I_STATE] = PIDS_STATE,        [I_UTIME] = PIDS_TICS_USER,
	[I_STIME] = PIDS_TICS_SYSTEM,  [I_BEGAN] = PIDS_TICS_BEGAN,
	[I_FLT_MIN] = PIDS_FLT_MIN,    [I_FLT_MAJ] = PIDS_FLT_MAJ,
	[I_RES] = PIDS_MEM_RES,        [I_PROCESSOR] = PIDS_PROCESSOR,
	[I_NLWP] = PIDS_NLWP,
};

void proc_live_close(void *pids)
{
	struct pids_info *info = pids;
	procps_pids_unref(&info);
}

#define VAL(i, type) PIDS_VAL(i, type, st, info)

int proc_scan_libproc2(struct proc_source *s, struct proc_list *l)
{
	void **slot = proc_source_pids_slot(s);
	struct pids_info *info = *slot;
	if (!info) {
		info = NULL;   /* must be NULL before procps_pids_new */
		int rc = procps_pids_new(&info, items, I_N);
		if (rc < 0)
			return rc;
		*slot = info;
	}
	struct pids_fetch *f = procps_pids_reap(info, PIDS_FETCH_TASKS_ONLY);
	if (!f)
		return errno ? -errno : -EIO;
	int total = f->counts ? f->counts->total : 0;
	for (int i = 0; i < total; i++) {
		struct pids_stack *st = f->stacks[i];
		struct proc_info *p = proc_list_add(l);
		if (!p)
			return -ENOMEM;
		p->pid = VAL(I_PID, s_int);
		p->ppid = VAL(I_PPID, s_int);
		const char *cmd = VAL(I_CMD, str);
		snprintf(p->comm, sizeof(p->comm), "%s", cmd ? cmd : "");
		const char *cl = VAL(I_CMDLINE, str);
		/* libproc2 shows "[comm]" in place of an empty cmdline: keep
		 * it empty then, as the file backend does. */
		size_t cn = strlen(p->comm);
		bool bracketed = cl && strlen(cl) == cn + 2 && cl[0] == '[' &&
				 cl[cn + 1] == ']' && memcmp(cl + 1, p->comm, cn) == 0;
		if (cl && !bracketed)
			snprintf(p->cmdline, sizeof(p->cmdline), "%s", cl);
		p->uid = VAL(I_EUID, u_int);
		const char *user = VAL(I_EUSER, str);
		snprintf(p->user, sizeof(p->user), "%s", user ? user : "?");
		p->state = VAL(I_STATE, s_ch);
		/* A zombie has no cmdline; libproc2 shows "[comm] <defunct>". */
		if (p->state == 'Z')
			p->cmdline[0] = '\0';
		p->utime = VAL(I_UTIME, ull_int);
		p->stime = VAL(I_STIME, ull_int);
		p->starttime = VAL(I_BEGAN, ull_int);
		p->minflt = VAL(I_FLT_MIN, ul_int);
		p->majflt = VAL(I_FLT_MAJ, ul_int);
		p->rss_kb = (int64_t)VAL(I_RES, ul_int);
		p->last_cpu = VAL(I_PROCESSOR, s_int);
		p->nthreads = VAL(I_NLWP, s_int);
	}
	return 0;
}
