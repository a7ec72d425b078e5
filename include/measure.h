/* measure.h - the measured distance matrix: idle load-to-use latency and
 * read bandwidth for every (CPU node, memory node) pair, beside the
 * firmware's SLIT.
 *
 * Latency: a dependent pointer chase over a buffer on the memory node much
 * larger than the last-level cache, one random cycle through all its cache
 * lines (huge pages asked for with madvise, a warm-up pass first), the
 * thread pinned to the CPU node. Bandwidth: streaming reads of the same
 * buffer by one thread and by one thread per CPU of the node. The buffer's
 * placement is checked with move_pages queries before a number is kept. */
#ifndef NUMATOP_MEASURE_H
#define NUMATOP_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "fsroot.h"
#include "placement.h"
#include "topology.h"

struct measure_cell {
	double lat_ns;          /* -1 not measured */
	double bw1_gbs;         /* one thread, GB/s (10^9 bytes), -1 */
	double bwall_gbs;       /* every CPU of the node, -1 */
	double on_node_pct;     /* buffer pages found on the memory node, -1 */
	int err;                /* positive errno when the pair failed */
};

struct measure_result {
	size_t n;               /* nodes, in the topology's index order */
	int *node_ids;          /* [n] */
	struct measure_cell *cell;   /* [n * n]: row = CPU node, column = memory node */
	double l2_ns;           /* latency of a buffer that fits in L2, -1 */
	int64_t l2_kb;          /* its size */
	int64_t buf_kb;         /* the large buffer */
	bool quick;
	time_t when;            /* wall clock at the end */
	double seconds;         /* how long it took */
	char host[64];
	char key[32];           /* topology key: node ids, CPUs, memory */
	char hypervisor[96];    /* "" on bare metal, else what was found */
};

struct measure_opts {
	bool quick;             /* --measure-quick: a coarse run */
	int64_t buf_kb;         /* 0: from the caches (>= 8 x LLC) */
	atomic_int *cancel;     /* set non-zero (another thread) to stop */
	/* Called between steps: done of total steps, and what runs now. */
	void (*progress)(void *ctx, unsigned done, unsigned total, const char *what);
	void *ctx;
	const struct placement_ops *ops;   /* NULL: the kernel's move_pages */
};

/* Measure every pair on the live machine. 0, -ECANCELED, -EINVAL (not
 * the live root), -ENOMEM. Pairs that fail keep -1 and their errno. */
int measure_run(const struct fsroot *r, const struct topology *t,
		const struct measure_opts *o, struct measure_result *res);
void measure_free(struct measure_result *res);
int measure_alloc(struct measure_result *res, const struct topology *t);
struct measure_cell *measure_at(const struct measure_result *res, size_t cpu, size_t mem);

/* A single random cycle through n slots (Sattolo's algorithm): next[i]
 * is the slot after i. */
void measure_make_cycle(uint32_t *next, size_t n, uint64_t seed);
/* True when next[] visits all n slots before it returns to 0. */
bool measure_is_one_cycle(const uint32_t *next, size_t n);

/* Share (0..100) of len bytes at buf that a move_pages query finds on
 * node id `node` (one page per 2 MiB), or -errno. */
double measure_placement_pct(const struct placement_ops *ops, void *buf, size_t len,
			     long pagesize, int node);

/* The per-machine cache: $XDG_CACHE_HOME/numatop-tui/measure-HOST-KEY.json
 * (XDG_CACHE_HOME defaults to ~/.cache). */
int measure_cache_path(const struct measure_result *res, char *out, size_t n);
void measure_key(const struct topology *t, char *out, size_t n);
/* Save to the absolute path (see safefile.h: no symbolic links, only
 * directories owned by root or this user). 0 or -errno; why says what
 * was refused (-EPERM). */
int measure_save(const struct measure_result *res, const char *path, char *why, size_t whysz);
/* Load the absolute path into res (as safely as measure_save writes); -ENOENT none, -ESTALE when its nodes or key differ
 * from t's, -EINVAL unreadable or holding impossible values (not finite,
 * negative, latency above 10 ms, bandwidth above 100 TB/s, placement
 * outside 0..100 %), -EFBIG above MEASURE_FILE_MAX, -EMEDIUMTYPE not a regular
 * file, -ELOOP a symbolic link. res is only filled
 * on success. measure_parse is the same over a buffer (pure). */
#define MEASURE_FILE_MAX (1 << 20)
int measure_load(const char *path, const struct topology *t, struct measure_result *res);
int measure_parse(const char *buf, size_t len, const struct topology *t,
		  struct measure_result *res);
/* The cached result for this machine, if any (0 or -errno). */
int measure_load_cached(const struct topology *t, struct measure_result *res);

/* What the firmware's SLIT says against the measured latency: the first
 * disagreement as one line ("firmware says node 2 is as close as node 1;
 * measured 31 % slower" from CPU node 0), and marks[n * n] set for the
 * cells involved. 0 when they agree, 1 when out was written. */
int measure_disagreement(const struct topology *t, const struct measure_result *res,
			 char *out, size_t n, bool *marks);

/* The result as a JSON object (json-c), and as text matrices: latency,
 * NUMA factor, bandwidth, placement, beside the SLIT (and HMAT). */
struct json_object *measure_to_json(const struct measure_result *res);
struct hmat;
void measure_write_text(FILE *f, const struct topology *t, const struct measure_result *res,
			const struct hmat *h);

/* A hypervisor, from the cpuinfo flag, /sys/hypervisor and DMI: "" on
 * bare metal. */
void measure_detect_hypervisor(const struct fsroot *r, char *out, size_t n);

#endif
