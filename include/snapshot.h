/* snapshot.h - the snapshot model: everything one refresh knows, ready to
 * be shown. The UI and the output formats read only this. */
#ifndef NUMATOP_SNAPSHOT_H
#define NUMATOP_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "access.h"
#include "cgroup.h"
#include "why.h"
#include "nodestat.h"
#include "proc.h"
#include "tiers.h"
#include "topology.h"

enum nm_state { NMS_NOT_READ, NMS_OK, NMS_NO_PERM, NMS_GONE, NMS_ERROR };
extern const char *const nm_state_names[];   /* "not_read","ok","no_perm","gone","error" */

/* The kernel's view of a process (/proc/PID/sched, on a budget): the
 * share of its sampled NUMA faults on another node than the faulting
 * thread's, pages it migrated (summed over the threads read), their rate,
 * the age of these numbers; -1 unknown. */
struct snap_sched {
	int64_t kmig_pages;
	float racc_pct, kmig_rate, sched_age_s;
};
extern const struct snap_sched snap_sched_unknown;

/* One process of a sample. 10 000 processes are 10 000 of these: the
 * pointers, then the 64-bit numbers, then the narrow ones, no padding
 * between them; rates and shares are floats (their 7 digits are more
 * than any view prints). */
struct snap_proc {
	struct proc_info info;
	/* [nnodes] kB per node, then in the same allocation the anon, file,
	 * hugetlb and policy kB (snap_kb). */
	int64_t *node_kb;
	const char *pol_top;          /* that policy holding most, "" none
				       * (never NULL; interned by the sampler) */
	const char *policy;           /* never NULL, "" unknown; interned */
	const char *cgroup;           /* path in the memory hierarchy, NULL
				       * unknown or not read (sampler_set_cgroups) */
	const struct access_proc *acc; /* its access heat (snapshot.acc), NULL none */
	int64_t total_kb;             /* resident in numa_maps; -1 unknown */
	int64_t unknown_node_kb;      /* on nodes the topology lacks (not in total) */
	int64_t remote_kb;            /* -1 unknown */
	int64_t rss_growth_kb;        /* since the previous sample */
	/* The kernel's view (/proc/PID/sched, read for a few processes a
	 * sample): NULL none (snap_sched gives "unknown"). */
	const struct snap_sched *sched;
	float cpu_pct;                /* -1 unknown (first sample) */
	float nm_age_s;               /* age of the placement numbers, -1 never read */
	uint32_t nm_warnings;         /* numa_maps lines not understood */
	uint32_t nmappings;
	int32_t why_idx;              /* into snapshot.why, -1 none */
	int32_t cgroup_idx;           /* into snapshot.cgroups, -1 none */
	int unknown_node_id;          /* the first such node id, -1 none */
	int16_t home;                 /* node index, -1 unknown */
	int16_t moved_from;           /* HOME (index) before it last changed
				       * while watched, -1 never */
	int16_t nm_errno;             /* for NMS_ERROR */
	uint8_t nm;                   /* enum nm_state */
	int8_t pol_mode;              /* pol_top's enum nm_mode, -1 none */
	uint8_t why;                  /* enum why_cause (why.h) */
	bool huge_unknown;            /* hugetlb pages of unknown size, not counted */
	bool nm_sampled;              /* estimated from maps + move_pages queries */
	bool nm_fresh;                /* read in this sample */
	/* Where the sampler keeps its own state of the process (its entry
	 * of the last sample + 1; 0 none): carried with the record by the
	 * process list (proc_list) and meaningful only to the sampler that
	 * ticked the snapshot last (kept_by). The views never read it; a
	 * replayed sample has none. */
	uint32_t kept_slot;
};

/* What the numa_maps budget did in one sample. */
struct snap_nm_stats {
	size_t read, sampled, kept, skipped;
	double spent_ms, budget_ms;
	bool full;                    /* --full: every process read */
	size_t known;                 /* processes with a result (any state
				       * but not read), this sample */
	bool warmup;                  /* the warm-up is still on (see
				       * sampler_warmup) */
};

/* The kernel's NUMA balancing and memory tiers (sampler_kernel.c). */
struct snap_numa_kernel {
	int balancing;                /* kernel.numa_balancing: 0 off, 1 NUMA,
				       * 2 tiering, 3 both; -1 unknown */
	struct numa_vmstat sys;       /* /proc/vmstat */
	double sys_rate[NVM_NKEYS];   /* per second, -1 unknown */
	struct numa_vmstat *node;     /* [nnodes]: nodeN/vmstat */
	double (*node_rate)[NVM_NKEYS];
	int *tier;                    /* [nnodes]: memory tier id, -1 none */
	size_t sched_read;            /* processes whose sched was read now */
	struct tier_model tiers;      /* the tier model (every TIERS_EVERY_S) */
};
/* "off", "NUMA", "tiering", "NUMA+tiering", "unknown" */
const char *snapshot_balancing_name(int mode);

struct snapshot {
	const struct topology *topo;
	struct timespec wall;         /* CLOCK_REALTIME of the sample */
	double interval_s;            /* since the previous sample, -1 first */
	unsigned seq;                 /* 1 for the first sample */
	struct node_sample *nodes;    /* [nnodes] */
	struct cpu_load *node_load;   /* [nnodes], -1 on the first sample */
	struct cpu_ticks *node_ticks; /* [nnodes]: summed over the node's CPUs,
				       * since boot (nfields 0: unknown) */
	double (*ns_rate)[NUMASTAT_NKEYS];   /* per second, -1 unknown */
	/* In the sampler's order (by PID); the views show them in order[]. */
	struct snap_proc *procs;
	size_t nprocs, proccap;
	/* The display order (snapshot_sort): norder indexes into procs. Set
	 * for this sample only when norder == nprocs (whoever fills procs
	 * sets norder to 0); else the views show procs as they are. */
	uint32_t *order;
	size_t norder, ordercap;
	/* The sampler that ticked these records last (snap_proc.kept_slot,
	 * and the last results they show), and its sample: any other
	 * snapshot's records start afresh. */
	const void *kept_by;
	uint64_t kept_seq;
	int64_t *kb_pool;             /* NM_KB_ARRAYS*nnodes per process */
	size_t kb_cap;
	struct proc_list plist;       /* owns infos and threads */
	int proc_rc;                  /* error of the process scan, or 0 */
	int stat_rc, vmstat_rc;       /* reading /proc/stat, /proc/vmstat */
	size_t kthreads_hidden;       /* kernel threads left out (see sampler_filter) */
	double self_cpu_pct;          /* this tool's CPU use since last sample */
	struct snap_nm_stats nm_stats;
	struct snap_numa_kernel nk;
	/* The processes' sched numbers (snap_proc.sched points here). */
	struct snap_sched *sched;
	size_t nsched, schedcap;
	struct why_result *why;       /* the causes that are not "none" */
	size_t nwhy, whycap;
	int64_t *low_kb;              /* [nnodes]: each node's low watermark
				       * (zoneinfo), -1 unknown */
	enum cgroup_layout cg_layout; /* when process cgroups were read */
	bool have_cgroups;            /* cgroups below was read this sample */
	struct cgroup_set cgroups;
	double cgroups_ms;            /* what reading them cost */
	/* Access heat (access.h): the machine's monitoring, and the
	 * processes' heat (snap_proc.acc points here); the regions and the
	 * kB arrays they point to. */
	struct access_status access;
	struct access_proc *acc;
	size_t nacc, acccap;
	struct access_region *acc_reg;
	size_t acc_regcap;
	int64_t *acc_kb;
	size_t acc_kbcap;
	/* A sample replayed from a recording (snapshot_json.c): its warnings as
	 * recorded (snapshot_warnings says these instead), and the strings
	 * the processes point to (cgroup paths). */
	bool replayed;
	char **rec_strings;
	size_t nrec_strings;
	size_t rec_nwarnings;         /* the first rec_nwarnings are warnings */
};

void snapshot_free(struct snapshot *s);

/* p's kB arrays, [nnodes] each, after node_kb: which one of
 * SNAP_KB_ANON, _FILE, _HUGE and _POL (in mappings with a policy other
 * than default/local). */
enum { SNAP_KB_NODE, SNAP_KB_ANON, SNAP_KB_FILE, SNAP_KB_HUGE, SNAP_KB_POL };
static inline int64_t *snap_kb(const struct snap_proc *p, size_t nnodes, int which)
{
	return p->node_kb + (size_t)which * (nnodes ? nnodes : 1);
}

/* The i-th process in display order (i < nprocs): through the order
 * snapshot_sort made, or procs' own order when it made none. */
static inline const struct snap_proc *snapshot_row(const struct snapshot *s, size_t i)
{
	return s->norder == s->nprocs && s->order ? &s->procs[s->order[i]] : &s->procs[i];
}
/* The same as an index into procs. */
static inline size_t snapshot_row_index(const struct snapshot *s, size_t i)
{
	return s->norder == s->nprocs && s->order ? s->order[i] : i;
}

/* p's threads (info.thr_n of them, NULL none) in the sample's list. */
static inline const struct proc_thread *snap_threads(const struct snapshot *s,
						     const struct snap_proc *p)
{
	return p->info.thr_n && s->plist.threads ? s->plist.threads + p->info.thr_off : NULL;
}

/* REMOTE as a share of the placement's total: -1 unknown (remote_kb
 * unknown, or nothing resident). */
static inline double snap_remote_pct(const struct snap_proc *p)
{
	return p->remote_kb >= 0 && p->total_kb > 0 ?
	       100.0 * (double)p->remote_kb / (double)p->total_kb : -1;
}

/* p's /proc/PID/sched numbers, all unknown when not read. */
static inline const struct snap_sched *snap_sched(const struct snap_proc *p)
{
	return p->sched ? p->sched : &snap_sched_unknown;
}
/* An entry for a process's sched numbers, valid until the next sample
 * (snapshot.sched), or NULL when full. */
struct snap_sched *snapshot_sched_add(struct snapshot *s);

/* p's hot kB on the slower tiers and cold kB on the fastest (access.h):
 * -1 unknown (no heat, or one tier). */
static inline int64_t snap_hot_slow_kb(const struct snap_proc *p)
{
	return p->acc ? p->acc->hot_slow_kb : -1;
}
static inline int64_t snap_cold_fast_kb(const struct snap_proc *p)
{
	return p->acc ? p->acc->cold_fast_kb : -1;
}

/* Facts every view shows alike (-1 unknown): a node's memory in use
 * (total - free) in kB and as a share of its total, and the share of
 * NUMA hint faults taken on the faulting task's own node. */
int64_t snapshot_node_used_kb(const struct node_sample *ns);
double snapshot_node_used_pct(const struct node_sample *ns);
/* Of the memory used, the page cache (FilePages, shmem included): -1 when
 * unknown or more than the used memory (a torn read). What programs use
 * is used - cache, as htop's meter shows it. */
int64_t snapshot_node_cache_kb(const struct node_sample *ns);
double snapshot_hint_local_pct(const struct snap_numa_kernel *nk);

/* The process's why result (its advice), NULL when it has none. */
const struct why_result *snapshot_why(const struct snapshot *s, const struct snap_proc *p);

/* What a cell shows when numa_maps was not read: "no perm", "gone",
 * "error", or "-" (not read). */
/* A copy of v (NULL: "") the snapshot keeps until it is freed (a
 * replayed sample's strings), into *out when out is not NULL; 0 or
 * -ENOMEM. */
int snapshot_keep_string(struct snapshot *s, const char *v, char **out);
const char *snapshot_nm_mark(const struct snap_proc *p);
/* The process with this PID that started at starttime (0: any start), or
 * NULL: another process that now has the PID is never returned. */
const struct snap_proc *snapshot_find_proc(const struct snapshot *s, int pid,
					   uint64_t starttime);
/* Region r's resident kB per node index ([nnodes]) in s (access.h). */
const int64_t *snapshot_region_node_kb(const struct snapshot *s, const struct access_region *r);

/* How many processes' placement could not be read for want of
 * permission (another user's numa_maps without CAP_SYS_PTRACE). */
size_t snapshot_no_perm(const struct snapshot *s);
/* "31 of 32 processes not readable: run as root or with CAP_SYS_PTRACE"
 * (as root: "... not readable even as root (...)"); out "" and false
 * when every process could be read. */
bool snapshot_no_perm_text(const struct snapshot *s, char *out, size_t n);
/* The same in short, for a status line: "31 unreadable: run as root"
 * (long) and "31 unreadable" (short); as root "1 unreadable even as
 * root" and "1 unreadable". false when every process could be read. */
bool snapshot_no_perm_short(const struct snapshot *s, char *lng, size_t nl, char *shrt,
			    size_t ns);
/* Why one process's placement is not readable, in words (no count):
 * "not readable: run as root or with CAP_SYS_PTRACE", or as root "not
 * readable even as root (...)". */
const char *snapshot_no_perm_why(void);

/* The sample's warnings, one line each, to fn: processes not readable
 * (snapshot_no_perm_text), processes left out
 * ("1 process skipped: /proc/4242/stat unparsable"), files that could
 * not be read, pages on unknown nodes, numa_maps lines not understood,
 * hugetlb pages of unknown size. Returns how many (fn may be NULL). The
 * topology's own warnings are in topology.warnings. */
size_t snapshot_warnings(const struct snapshot *s,
			 void (*fn)(void *ctx, const char *line), void *ctx);

#endif
