/* damon.h - DAMON (the kernel's data access monitor) as the program sees
 * it: the state of /sys/kernel/mm/damon/admin, read through the rooted
 * I/O layer (a recorded kdamonds tree under --root stands in), and the
 * rule that says which kdamond is ours. Nothing here writes to the kernel;
 * starting and stopping our kdamond is damon_ctl.h.
 *
 * What is read (Documentation/admin-guide/mm/damon/usage.rst, and
 * Documentation/ABI/testing/sysfs-kernel-mm-damon):
 *   kdamonds/nr_kdamonds, and for each kdamonds/<K>/: state ("on"/"off"),
 *   pid (-1 when off), contexts/nr_contexts and each context's operations,
 *   monitoring_attrs/intervals/{sample_us,aggr_us,update_us},
 *   monitoring_attrs/nr_regions/{min,max}, targets/<T>/pid_target, and
 *   schemes/<S>/: action, access_pattern/{sz,nr_accesses,age}/{min,max},
 *   tried_regions/total_bytes (kernels >= 6.6) and tried_regions/<R>/
 *   {start,end,nr_accesses,age} (sz_filter_passed on >= 6.14).
 *   No kdamonds directory: the kernel has no CONFIG_DAMON_SYSFS. The files
 *   are 0600/0400 root: anyone else reads EACCES.
 *
 * DAMON is shared with every other user of the machine, and its sysfs
 * interface has no owner field: writing nr_kdamonds rebuilds the
 * directories of every kdamond (the kernel refuses with EBUSY only while
 * one runs; a stopped one loses its settings). So a kdamond is OURS only
 * when it is recognised for certain: our record file (damon_record below;
 * /run/numatop-tui/damon.json, 0600 root, written atomically) names it by
 * index, and its settings match the record exactly (one context, vaddr,
 * the five attributes, the record's target pids in order, one "stat"
 * scheme matching every region, its pid the recorded one while it runs).
 * The owner named in the record (PID + start time, so a reused PID is not
 * taken for it) then decides: this process: ours; another live process:
 * in use by someone else; gone: stale, which the next start may stop and
 * remove. Any other kdamond, running or not, is foreign and never
 * written. nr_kdamonds == 0 is the only "free".
 *
 * Bounds (DAMON_* below). Sampling every 50 ms, aggregating over 1 s
 * (so nr_accesses of a region is 0..20 per window: 20 samples), regions
 * re-derived from the mappings every 1 s. Measured with 16 processes of
 * 1 GiB (make bench-damon), DAMON's own defaults (5 ms, 100 ms) came to
 * about 2.3 % of a CPU, 20 ms / 200 ms to 1.6 % and 20 ms / 1 s to 1.1 %
 * (estimates through an emulated guest), all above the 1 % aimed at: the
 * samples, one page-table check per region each, carried what was left;
 * 50 ms / 1 s: 0.5 % (docs/performance.md, The kdamond's CPU).
 * The kernel answers a request for the regions only at the end of the
 * next window, so with 1 s the request is made without waiting for it
 * (damon_ctl.h). A page's accessed bit is kept between samples, so a
 * longer interval misses no access; it only counts them more coarsely,
 * and "hot" (accessed in the window) needs no finer count. 10 to 1000
 * regions: the kdamond checks one page per region per sample, and the
 * maximum counts over all targets of the context (mm/damon/core.c sums
 * the targets' regions before splitting and merges past it), so the work
 * is at most 1000 x 50 checks a second whatever the number and size of
 * the processes (the target, 1 %
 * of a CPU with 16 processes of 1 GiB, is for make bench to measure;
 * DAMON merges alike regions, so far fewer are usual). The minimum is per target
 * (vaddr splits each target's three ranges by it), so each process starts
 * with at least 10. 1000 over one 1 GiB process is 1 MiB resolution;
 * shared by 16 it is about 16 MiB each, still finer than the mappings a
 * hot part of remote memory is usually in. At most DAMON_MAX_TARGETS
 * processes at once.
 *
 * tried_regions does not say which target a region belongs to: regions
 * are listed target by target, each target's in rising address order (a
 * vaddr target spans its program, heap, mmap area and stack), so a fall
 * in start address begins the next target. damon_split_targets() uses
 * that and says "unknown" (-EINVAL) unless the runs are exactly as many
 * as the targets: a target with no region, or two that did not fall
 * between, never gives one process another's regions.
 *
 * Parsers are pure functions over buffers: 0 or -errno; unknown is -1. */
#ifndef NUMATOP_DAMON_H
#define NUMATOP_DAMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "fsroot.h"

#define DAMON_ADMIN "/sys/kernel/mm/damon/admin"
#define DAMON_KDAMONDS DAMON_ADMIN "/kdamonds"

#define DAMON_SAMPLE_US 50000
#define DAMON_AGGR_US 1000000
/* A one-off watch (--hot, --cold: a few seconds, then the kdamond goes)
 * samples every 20 ms and aggregates five times as often: DAMON's regions
 * split towards what is used once per window, and three seconds of 1 s
 * windows leave them too coarse to tell a hot range from the cold memory
 * around it. Its cost lasts as long as the watch. */
#define DAMON_SAMPLE_WATCH_US 20000
#define DAMON_AGGR_WATCH_US 200000
#define DAMON_UPDATE_US 1000000
#define DAMON_MIN_REGIONS 10
#define DAMON_MAX_REGIONS 1000
#define DAMON_MAX_TARGETS 16
/* The scheme's access pattern matches every region: sz 0..ULONG_MAX,
 * nr_accesses and age 0..UINT_MAX (the kernel's fields' widths). */
#define DAMON_ANY_SZ UINT64_C(18446744073709551615)
#define DAMON_ANY_U32 UINT64_C(4294967295)
/* Read no more than this many kdamonds, targets, schemes or regions. */
#define DAMON_MAX_KDAMONDS 64
#define DAMON_MAX_READ_REGIONS 65536

#define DAMON_RECORD_PATH "/run/numatop-tui/damon.json"
#define DAMON_RECORD_MAX 4096

/* One region of tried_regions. start < end always (a region whose range
 * cannot be read is not kept); the rest -1 when unknown or absent.
 * nr_accesses and age are the kernel's unsigned ints: 0..DAMON_ANY_U32,
 * and a file that is empty, not a decimal number, negative or past
 * UINT_MAX is unknown (-1), never 0 nor cut to a smaller width. */
struct damon_region {
	uint64_t start, end;
	int64_t nr_accesses;        /* samples with an access, per aggregation */
	int64_t age;                /* aggregation intervals it kept its rate */
	int64_t sz_filter_passed;   /* bytes (>= 6.14), -1 absent */
};

/* A scheme; u64 fields are valid only when the matching have_ flag is set. */
struct damon_scheme {
	char action[24];            /* "" unknown */
	bool have_pattern;
	uint64_t sz_min, sz_max, acc_min, acc_max, age_min, age_max;
	int64_t total_bytes;        /* tried_regions/total_bytes, -1 absent */
	struct damon_region *regions;
	size_t nregions;
	size_t bad_regions;         /* directories whose range was unreadable */
	bool regions_cut;           /* more than DAMON_MAX_READ_REGIONS */
};

struct damon_context {
	char operations[16];        /* "vaddr", "paddr", ...; "" unknown */
	int64_t sample_us, aggr_us, update_us, min_regions, max_regions;
	int64_t *pids;              /* pid_target, -1 unknown */
	size_t ntargets;
	struct damon_scheme *schemes;
	size_t nschemes;
};

enum damon_kd_state { DAMON_KD_UNKNOWN = -1, DAMON_KD_OFF, DAMON_KD_ON };

/* Who a kdamond belongs to (damon_classify). */
enum damon_owner {
	DAMON_OWNER_FOREIGN,        /* not ours for certain: never written */
	DAMON_OWNER_SELF,           /* ours, this process */
	DAMON_OWNER_LIVE_OTHER,     /* our record, its owner is another live process */
	DAMON_OWNER_STALE,          /* our record, its owner is gone: may be removed */
};

struct damon_kdamond {
	int index;
	enum damon_kd_state state;
	int64_t pid;                /* the kdamond thread, -1 off or unknown */
	struct damon_context *ctxs;
	size_t nctxs;
	bool complete;              /* every file above was read */
	enum damon_owner owner;
};

/* The machine's DAMON, as one word. */
enum damon_avail {
	DAMON_UNAVAILABLE,          /* no sysfs interface (CONFIG_DAMON_SYSFS) */
	DAMON_NOT_PERMITTED,        /* EACCES/EPERM: needs root */
	DAMON_ERROR,                /* another read error (err says which) */
	DAMON_FREE,                 /* nr_kdamonds == 0 */
	DAMON_IN_USE,               /* a kdamond not ours (or another live run's) */
	DAMON_STALE,                /* only our stale kdamond: may be removed */
	DAMON_OURS,                 /* only ours, this process's */
};

struct damon_status {
	enum damon_avail avail;
	int err;                    /* the read's -errno, 0 */
	int64_t nr_kdamonds;        /* -1 unknown */
	struct damon_kdamond *kd;
	size_t nkd;
	int ours;                   /* index into kd of ours (self or stale), -1 */
};

/* The settings our kdamond is made with, and the record naming it. */
struct damon_settings {
	char operations[16];
	int64_t sample_us, aggr_us, update_us, min_regions, max_regions;
	int pids[DAMON_MAX_TARGETS];
	size_t npids;
};

struct damon_owner_id {
	int pid;
	uint64_t starttime;         /* /proc/PID/stat field 22, clock ticks */
};

struct damon_record {
	struct damon_owner_id owner;
	int kdamond;                /* its index under kdamonds/ */
	int64_t kdamond_pid;        /* -1 before it ran */
	struct damon_settings set;
	/* Targets being changed: the kdamond's pids may be these instead. */
	bool have_next;
	int next_pids[DAMON_MAX_TARGETS];
	size_t nnext;
};

/* ---- pure parsers ---- */

/* One unsigned decimal as sysfs prints it ("%lu\n"): surrounding blanks
 * allowed, nothing else. 0, -EINVAL, -ERANGE. */
int damon_parse_u64(const char *buf, size_t len, uint64_t *out);
/* The same, signed (pid prints -1). */
int damon_parse_i64(const char *buf, size_t len, int64_t *out);
/* "on" / "off" (anything else: -EINVAL, *out DAMON_KD_UNKNOWN). */
int damon_parse_state(const char *buf, size_t len, enum damon_kd_state *out);

/* The files of one tried_regions/<R>/ directory; a NULL field is absent. */
enum damon_region_field { DAMON_RF_START, DAMON_RF_END, DAMON_RF_NR_ACCESSES,
			  DAMON_RF_AGE, DAMON_RF_SZ_FILTER_PASSED, DAMON_RF_N };
extern const char *const damon_region_files[DAMON_RF_N];
struct damon_region_text {
	const char *f[DAMON_RF_N];
	size_t len[DAMON_RF_N];
};
/* 0 with *out filled (unreadable optional fields -1), or -EINVAL when
 * start/end are missing, not numbers, or start >= end. */
int damon_parse_region(const struct damon_region_text *t, struct damon_region *out);

/* Split regions (in tried_regions order) among ntargets targets: first[i]
 * is the index of target i's first region, first[ntargets] == n. 0, or
 * -EINVAL when the split is not certain (see above). */
int damon_split_targets(const struct damon_region *r, size_t n, size_t ntargets,
			size_t *first);

/* The record file (JSON). parse: 0 or -EINVAL (any field missing, of the
 * wrong type or out of range), -E2BIG (too many pids). format: 0 or
 * -ENOMEM; out gets the text. */
int damon_record_parse(const char *buf, size_t len, struct damon_record *out);
int damon_record_format(const struct damon_record *rec, struct buf *out);

/* Our settings, with the bounds above, for these target pids. */
void damon_settings_default(struct damon_settings *s, const int *pids, size_t n);
/* True when kd is, exactly, the kdamond rec describes (pids: either
 * rec's set or its next set). */
bool damon_settings_match(const struct damon_kdamond *kd, const struct damon_record *rec);

/* ---- readers ---- */

/* Read DAMON's state (every kdamond, without tried_regions) into st.
 * Returns 0 when st says something (avail, even UNAVAILABLE); -ENOMEM.
 * The owners are all FOREIGN until damon_classify. */
int damon_read(const struct fsroot *r, struct damon_status *st);
/* Read a scheme's tried_regions (replacing s->regions). 0 or -errno. */
int damon_read_regions(const struct fsroot *r, int kdamond, int ctx, int scheme,
		       struct damon_scheme *s);
/* PID's start time from PID's stat under r: 0, -ESRCH (gone), -errno. */
int damon_owner_starttime(const struct fsroot *r, int pid, uint64_t *starttime);
/* Read our record at path (DAMON_RECORD_PATH): 0, -ENOENT (none), -EPERM
 * (not owned by this user, or readable by others), -ELOOP (a symbolic
 * link), -EINVAL (not a record). Anything but 0 means: no record. */
int damon_record_load(const char *path, struct damon_record *rec);
/* Set each kdamond's owner and st->avail/ours from the record (NULL: none
 * or unreadable), whose owner is looked up under r, and who we are. */
void damon_classify(const struct fsroot *r, struct damon_status *st,
		    const struct damon_record *rec, const struct damon_owner_id *self);
void damon_status_free(struct damon_status *st);

/* A word for the state, and a plain sentence for a status line. */
const char *damon_avail_name(enum damon_avail a);
const char *damon_avail_text(enum damon_avail a);

#endif
