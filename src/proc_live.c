/* proc_live.c - the libproc2 (procps 4) backend for the live machine.
 *
 * Facts that shape this file: the info pointer must be NULL before
 * procps_pids_new(); a reap's results are overwritten by the next reap, so
 * everything is copied out at once. Every item comes from /proc/PID/stat
 * (plus the stat(2) of /proc/PID that gives the euid): PIDS_RSS, not
 * PIDS_VM_RSS (status) or PIDS_MEM_RES (statm), one file read less each;
 * the command line is read once per process (PID + start time) and again
 * only when its comm changes (an exec), not every tick; PIDS_PROCESSOR_NODE
 * is avoided (it calls libnuma, which cannot follow the rooted layer).
 * PIDS_CMD is libproc2's escaped comm (control bytes become '.', bytes it
 * cannot print '?'): a name holding either is read raw from
 * /proc/PID/stat once, so the output layers escape the real bytes. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libproc2/pids.h>

#include "parse.h"
#include "proc_int.h"

enum item_index {
	I_PID, I_PPID, I_CMD, I_EUID, I_EUSER, I_STATE, I_UTIME,
	I_STIME, I_BEGAN, I_FLT_MIN, I_FLT_MAJ, I_RSS, I_PROCESSOR, I_NLWP, I_FLAGS, I_N
};

static enum pids_item items[I_N] = {
	[I_PID] = PIDS_ID_PID,         [I_PPID] = PIDS_ID_PPID,
	[I_CMD] = PIDS_CMD,
	[I_EUID] = PIDS_ID_EUID,       [I_EUSER] = PIDS_ID_EUSER,
	[I_STATE] = PIDS_STATE,        [I_UTIME] = PIDS_TICS_USER,
	[I_STIME] = PIDS_TICS_SYSTEM,  [I_BEGAN] = PIDS_TICS_BEGAN,
	[I_FLT_MIN] = PIDS_FLT_MIN,    [I_FLT_MAJ] = PIDS_FLT_MAJ,
	[I_RSS] = PIDS_RSS,            [I_PROCESSOR] = PIDS_PROCESSOR,
	[I_NLWP] = PIDS_NLWP,          [I_FLAGS] = PIDS_FLAGS,
};

/* Names of the previous scan, sorted by PID. */
struct cmd_ent {
	int pid;
	uint64_t starttime;
	char key[24];           /* libproc2's comm: a change means an exec */
	char raw[16];           /* the kernel's comm (TASK_COMM_LEN) */
	char cmdline[256];
};

struct cmd_gen {
	struct cmd_ent *v;
	size_t n, cap;
};

struct live {
	struct pids_info *info;
	struct cmd_gen gen[2];
	int g;                  /* gen[g]: the previous scan's */
	struct buf b;
	long page_kb;
};

void proc_live_close(void *p)
{
	struct live *lv = p;
	procps_pids_unref(&lv->info);
	free(lv->gen[0].v);
	free(lv->gen[1].v);
	buf_free(&lv->b);
	free(lv);
}

_Static_assert(offsetof(struct cmd_ent, pid) == 0, "proc_find_pid needs pid first");

static const struct cmd_ent *cmd_find(const struct cmd_gen *g, int pid)
{
	return proc_find_pid(g->v, g->n, sizeof(*g->v), pid);
}

static void copy_name(char *d, size_t n, const char *src)
{
	size_t k = strnlen(src, n - 1);
	memcpy(d, src, k);
	d[k] = '\0';
}

/* A comm from libproc2 that may stand for other bytes. */
static bool maybe_escaped(const char *c)
{
	return strpbrk(c, "?.") != NULL;
}

/* The raw comm of p from /proc/PID/stat; p->comm is kept if that fails
 * (the process exited: the next scan drops it). */
static void read_raw_comm(const struct proc_source *s, struct proc_info *p)
{
	struct pid_stat st;
	if (proc_read_stat(proc_source_root(s), p->pid, &st) == 0 && st.starttime == p->starttime)
		snprintf(p->comm, sizeof(p->comm), "%s", st.comm);
}

/* The names of p: from the last scan when it is the same process with the
 * same comm, else read (the command line; the raw comm when libproc2's
 * may be escaped). A zombie has no command line. Recorded in ng. */
static void fill_names(const struct proc_source *s, struct live *lv, struct cmd_gen *ng,
		       struct proc_info *p)
{
	struct cmd_ent *ne = &ng->v[ng->n++];
	*ne = (struct cmd_ent){ .pid = p->pid, .starttime = p->starttime };
	copy_name(ne->key, sizeof(ne->key), p->comm);
	p->cmdline[0] = '\0';
	const struct cmd_ent *e = cmd_find(&lv->gen[lv->g], p->pid);
	bool same = e && e->starttime == p->starttime && strcmp(e->key, p->comm) == 0;
	if (same) {
		if (e->raw[0])
			copy_name(p->comm, sizeof(p->comm), e->raw);
	} else if (maybe_escaped(p->comm)) {
		read_raw_comm(s, p);
	}
	if (maybe_escaped(ne->key))
		copy_name(ne->raw, sizeof(ne->raw), p->comm);
	if (p->state == 'Z')
		return;
	if (same) {
		memcpy(p->cmdline, e->cmdline, sizeof(p->cmdline));
	} else {
		char path[40];
		snprintf(path, sizeof(path), "/proc/%d/cmdline", p->pid);
		if (fsroot_read_file(proc_source_root(s), path, &lv->b, 64 << 10) == 0 && lv->b.len)
			proc_clean_cmdline(p->cmdline, sizeof(p->cmdline), lv->b.data, lv->b.len);
	}
	memcpy(ne->cmdline, p->cmdline, sizeof(ne->cmdline));
}

/* The new generation becomes the previous one; sorted by PID (/proc lists
 * PIDs in order: insertion sort is linear here). */
static void remember(struct live *lv, struct cmd_gen *ng)
{
	for (size_t i = 1; i < ng->n; i++)
		for (size_t j = i; j > 0 && ng->v[j].pid < ng->v[j - 1].pid; j--) {
			struct cmd_ent t = ng->v[j];
			ng->v[j] = ng->v[j - 1];
			ng->v[j - 1] = t;
		}
	lv->g = !lv->g;
}

#define VAL(i, type) PIDS_VAL(i, type, st, info)

int proc_scan_libproc2(struct proc_source *s, struct proc_list *l)
{
	void **slot = proc_source_pids_slot(s);
	struct live *lv = *slot;
	if (!lv) {
		lv = calloc(1, sizeof(*lv));
		if (!lv)
			return -ENOMEM;
		long ps = sysconf(_SC_PAGESIZE);
		lv->page_kb = ps > 0 ? ps / 1024 : 4;
		lv->info = NULL;   /* must be NULL before procps_pids_new */
		int rc = procps_pids_new(&lv->info, items, I_N);
		if (rc < 0) {
			free(lv);
			return rc;
		}
		*slot = lv;
	}
	struct pids_info *info = lv->info;
	struct pids_fetch *f = procps_pids_reap(info, PIDS_FETCH_TASKS_ONLY);
	if (!f)
		return errno ? -errno : -EIO;
	int total = f->counts ? f->counts->total : 0;
	struct cmd_gen *ng = &lv->gen[!lv->g];
	ng->n = 0;
	if ((size_t)total > ng->cap) {
		struct cmd_ent *v = realloc(ng->v, (size_t)total * sizeof(*v));
		if (!v)
			return -ENOMEM;
		ng->v = v;
		ng->cap = (size_t)total;
	}
	for (int i = 0; i < total; i++) {
		struct pids_stack *st = f->stacks[i];
		struct proc_info *p = proc_list_add(l);
		if (!p)
			return -ENOMEM;
		p->pid = VAL(I_PID, s_int);
		p->ppid = VAL(I_PPID, s_int);
		const char *cmd = VAL(I_CMD, str);
		snprintf(p->comm, sizeof(p->comm), "%s", cmd ? cmd : "");
		p->uid = VAL(I_EUID, u_int);
		const char *user = VAL(I_EUSER, str);
		snprintf(p->user, sizeof(p->user), "%s", user ? user : "?");
		p->state = VAL(I_STATE, s_ch);
		p->utime = VAL(I_UTIME, ull_int);
		p->stime = VAL(I_STIME, ull_int);
		p->starttime = VAL(I_BEGAN, ull_int);
		p->minflt = VAL(I_FLT_MIN, ul_int);
		p->majflt = VAL(I_FLT_MAJ, ul_int);
		p->rss_kb = (int64_t)VAL(I_RSS, ul_int) * lv->page_kb;
		p->last_cpu = VAL(I_PROCESSOR, s_int);
		p->nthreads = VAL(I_NLWP, s_int);
		p->kthread = (VAL(I_FLAGS, ul_int) & PID_STAT_PF_KTHREAD) != 0;
		fill_names(s, lv, ng, p);
	}
	remember(lv, ng);
	return 0;
}
