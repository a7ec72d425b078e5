/* access.h - access heat: which of a process's memory is used, joined
 * with where it is. The sources, best first:
 *   damon           the kernel's data access monitor (DAMON, vaddr): per
 *                   address range of the process, how many of the last
 *                   aggregation interval's samples saw an access, and how
 *                   long the range kept that rate (damon.h);
 *   numa_balancing  the kernel's NUMA balancing hint faults (RACC%): the
 *                   share of sampled accesses that were remote, no sizes;
 *   none            nothing: every heat field is unknown, never 0.
 * This header is the pure part: the words, the heat of a region, and the
 * join of a process's regions with the nodes their pages are on. The
 * sampler (sampler_access.c) chooses the processes, runs our kdamond and
 * samples the pages' nodes.
 *
 * Heat of a region (of its resident pages):
 *   hot   accessed in the last aggregation interval (nr_accesses > 0);
 *   warm  not then, but within the last ACCESS_COLD_S seconds (its age,
 *         the intervals it kept the rate 0, times the interval);
 *   cold  untouched for ACCESS_COLD_S seconds or more.
 * A process is monitored for ACCESS_TURN_S seconds per turn at least (so
 * that its heat settles and cold can be said), ACCESS_MAX_TARGETS at
 * once; its last numbers are kept, with their age, for ACCESS_KEEP_S
 * after its turn.
 *
 * What heat may be used for (access_proc_trust): only usable heat decides
 * anything (advice, the monitor's x, --hot, --cold, the heat columns'
 * sort, the exporter's per-process heat); the rest is shown marked.
 *   usable     fresh and settled;
 *   measuring  watched for less than ACCESS_SETTLE_WINDOWS windows (15 s
 *              of the monitor's, 3 s of a one-off watch's): DAMON's
 *              regions are still splitting
 *              towards what is used, and a region that is partly hot
 *              counts whole (hot is over-counted: about twice the truth
 *              for 13-15 one-second windows, measured);
 *   stale      older than ACCESS_STALE_WINDOWS windows (its turn ended,
 *              or DAMON stopped and nothing newer came);
 *   unseen     the process ran on a CPU for ACCESS_UNSEEN_CPU_PCT % of
 *              the time it was watched and DAMON saw none of its memory
 *              accessed: a running process touches at least its code and
 *              stack, so DAMON did not see its accesses (the accessed
 *              bits hidden by a TLB that was not flushed: docs/access.md)
 *              and its memory is not known to be cold. */
#ifndef NUMATOP_ACCESS_H
#define NUMATOP_ACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ACCESS_COLD_S 5.0
#define ACCESS_TURN_S 20.0
#define ACCESS_SETTLE_WINDOWS 15.0
#define ACCESS_STALE_WINDOWS 2.0
#define ACCESS_UNSEEN_CPU_PCT 50.0
#define ACCESS_KEEP_S 300.0
#define ACCESS_MAX_TARGETS 16
/* Pages whose node is asked per hot or warm region (evenly spaced). */
#define ACCESS_SAMPLE_PAGES 32
/* Regions kept per process for the detail screen and migrate hot. */
#define ACCESS_MAX_REGIONS 64

enum access_source { ACCESS_SRC_NONE, ACCESS_SRC_DAMON, ACCESS_SRC_NUMAB, ACCESS_NSRC };
/* "none", "damon", "numa_balancing" */
extern const char *const access_source_names[ACCESS_NSRC];

/* Why DAMON does not cover a process (ACCESS_ON: it does). */
enum access_why {
	ACCESS_ON,
	ACCESS_OFF,          /* --access off */
	ACCESS_NO_DAMON,     /* kernel without CONFIG_DAMON_SYSFS */
	ACCESS_NO_VADDR,     /* kernel without CONFIG_DAMON_VADDR */
	ACCESS_NOT_ROOT,     /* DAMON's files need root */
	ACCESS_IN_USE,       /* a kdamond that is not ours */
	ACCESS_NOT_YET,      /* waiting for its turn (or just started) */
	ACCESS_RECORDED,     /* a recorded tree without monitoring results */
	ACCESS_ERROR,        /* DAMON answered an error (the message says) */
	/* Heat there, not to be used (access_proc_trust); stale also for
	 * the whole machine when DAMON's answers stopped coming. */
	ACCESS_STALE,
	ACCESS_MEASURING,
	ACCESS_UNSEEN,
	ACCESS_NWHY
};
/* "on", "off", "no_damon", "no_vaddr", "not_root", "in_use", "not_yet",
 * "recorded", "error", "stale", "measuring", "unseen" */
extern const char *const access_why_names[ACCESS_NWHY];
/* A plain sentence: "DAMON is in use by someone else". */
const char *access_why_text(enum access_why w);
/* The name's enum, or -1. */
int access_why_parse(const char *name);
int access_source_parse(const char *name);
/* The source measures ranges (access_source.h): its numbers are heat.
 * Every one but none and numa_balancing (RACC%, no sizes). */
bool access_source_measures(enum access_source s);
/* The same of a source's name (JSON); false for an unknown one. */
bool access_source_name_measures(const char *name);

enum access_heat { ACCESS_HOT, ACCESS_WARM, ACCESS_COLD };
extern const char *const access_heat_names[3];   /* "hot", "warm", "cold" */

/* A range of a process's address space as an access source measured it:
 * in how many of a window's samples it was accessed, and for how many
 * windows it kept that rate. The heat is built on this alone, whatever
 * the source: DAMON's regions (damon.h) are one source's, converted by
 * the sampler (sampler_access.c). */
#define ACCESS_COUNT_MAX UINT64_C(4294967295)   /* nr_accesses, age at most */
struct access_range {
	uint64_t start, end;
	int64_t nr_accesses;        /* samples with an access per window, -1 unknown */
	int64_t age;                /* windows it kept that rate, -1 unknown */
};

/* The heat of a range seen over windows of aggr_s seconds (nr_accesses
 * or age unknown: cold is not claimed, warm). */
enum access_heat access_region_heat(const struct access_range *r, double aggr_s);
/* How long a range with no access was untouched (age x window), 0 when
 * accessed, -1 unknown. */
double access_region_idle_s(const struct access_range *r, double aggr_s);

/* One hot or warm region of a process, for the detail and migrate hot. */
struct access_region {
	uint64_t start, end;
	int64_t nr_accesses;            /* samples with an access, 0..UINT_MAX; -1
					 * unknown (then warm: neither hot nor cold) */
	int max_accesses;               /* samples per interval, -1 unknown */
	double age_s;                   /* how long it kept this rate */
	enum access_heat heat;
	int64_t resident_kb;            /* estimated from the sampled pages, -1 unknown */
	size_t kb_off;                  /* its kB per node: access_state.kb + kb_off */
};

/* A process's heat. kB fields -1 unknown; the per-node arrays [nnodes]. */
struct access_proc {
	int pid;
	enum access_source source;
	double window_s;                /* the aggregation interval counted over */
	double age_s;                   /* of these numbers (0: this sample) */
	double monitored_s;             /* how long its turn has lasted */
	int64_t hot_kb, warm_kb, cold_kb, hot_remote_kb;
	double hot_remote_pct;          /* of hot, -1 unknown */
	double cold_remote_idle_s;      /* the remote cold memory's shortest idle, -1 none */
	int64_t *hot_node_kb, *warm_node_kb, *cold_node_kb;
	/* Tiers and heat: hot kB on the slower tiers (they pay the far
	 * latency) and cold kB on the fastest (room it could make); -1
	 * unknown (one tier). snapshot_tiers_heat() sets them. */
	int64_t hot_slow_kb, cold_fast_kb;
	const struct access_region *regions;   /* hottest first */
	size_t nregions;
	/* It ran on a CPU through the watch and DAMON saw nothing of it
	 * accessed (see unseen above). */
	bool unseen;
};

enum access_trust { ACCESS_USABLE, ACCESS_TRUST_MEASURING, ACCESS_TRUST_STALE,
		    ACCESS_TRUST_UNSEEN };
/* What a's numbers may be used for (above); NULL: unseen is not claimed,
 * stale (no numbers). */
enum access_trust access_proc_trust(const struct access_proc *a);
/* a when its heat is usable, else NULL: what every decision reads. */
const struct access_proc *access_usable(const struct access_proc *a);
/* Seconds until a measuring process's heat settles (0 when it has). */
double access_settle_left_s(const struct access_proc *a);
/* Why a's heat is not to be used, in words ("measuring heat (12 s
 * left)", "heat not fresh: read 27 s ago", "heat not seen: ..."); ""
 * when it is usable. Returns buf. */
const char *access_trust_text(const struct access_proc *a, char *buf, size_t n);
/* The reason word of a trust (ACCESS_ON for usable). */
enum access_why access_trust_why(enum access_trust t);

/* The machine's access monitoring, as one sample saw it. */
struct access_status {
	enum access_source source;      /* damon when any process is covered */
	enum access_why why;            /* ACCESS_ON, or why not */
	char msg[160];                  /* DAMON's own words when why is ERROR/IN_USE */
	size_t monitored;               /* processes DAMON watches now */
	size_t max_targets;
	double window_s;                /* aggregation interval, -1 unknown */
	double kdamond_cpu_pct;         /* our kdamond's CPU, -1 unknown or none */
	int64_t kdamond_pid;            /* -1 none */
	/* The last request for the regions, start to answer (a thread of its
	 * own waits for it, not the sample), -1 none yet. */
	double request_ms;
};

/* Join of one process's regions (one target's, in address order) with
 * placement. reg_node_kb[i*nnodes + k]: resident kB of region i on node
 * index k estimated from sampled pages (only hot and warm regions need
 * it; -1 unknown), node_kb the process's numa_maps totals (NULL unknown),
 * work[nnodes] true where its threads work (NULL: HOME only, home index).
 * Fills out's kB fields (the arrays must be allocated) and the regions
 * into reg (at most maxreg, hottest first; *nreg). */
struct access_join_in {
	size_t nnodes;
	const struct access_range *r;
	size_t n;
	double aggr_s, sample_s;
	const int64_t *reg_node_kb;
	const int64_t *node_kb;
	const bool *work;
	int home;
	double max_age_s;   /* > 0: ages past this are not its own (the kdamond's
			     * slot held another process before): capped */
};
void access_join(const struct access_join_in *in, struct access_proc *out,
		 struct access_region *reg, size_t maxreg, size_t *nreg,
		 int64_t *reg_kb);

#endif
