/* measure_io.h - a measured distance matrix as data: the result, its
 * cache file (parse, load, save), and what it says against the firmware.
 * Read by the model (the session, replay) without the measurement itself
 * (measure.h). */
#ifndef NUMATOP_MEASURE_IO_H
#define NUMATOP_MEASURE_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "fsroot.h"
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

int measure_alloc(struct measure_result *res, const struct topology *t);
void measure_free(struct measure_result *res);
struct measure_cell *measure_at(const struct measure_result *res, size_t cpu, size_t mem);

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

/* The result as a JSON object (json-c). */
struct json_object *measure_to_json(const struct measure_result *res);
/* A hypervisor, from the cpuinfo flag, /sys/hypervisor and DMI: "" on
 * bare metal. */
void measure_detect_hypervisor(const struct fsroot *r, char *out, size_t n);

#endif
