/* snapshot_json_check.c - what a recorded line must be before it is read into
 * the model: every number finite and of a size a machine can have, kB at
 * most SNAPSHOT_JSON_KB_MAX, the numbers kept as ints (PIDs, uids, CPUs, node
 * ids) in their range, keys valid UTF-8. Anything else is malformed:
 * never printed as a wrong number (2^40 as PID 0, 1e308 kB). */
#include "snapshot_json_int.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sanitize.h"
#include "topology.h"

#define NUM_MAX 9007199254740992.0      /* 2^53: exact in a double */
#define PID_MAX_LIMIT (1 << 22)         /* the kernel's limit */

struct range {
	const char *key;
	double lo, hi;
};

static bool ends_kb(const char *k)
{
	size_t l = strlen(k);
	return l >= 3 && strcmp(k + l - 3, "_kb") == 0;
}

/* Numbers finite and at most 2^53 in size; kB (under a key ending in
 * "_kb", also the per-node objects there) from -1 to SNAPSHOT_JSON_KB_MAX. */
static int walk(json_object *v, bool kb)
{
	switch (json_object_get_type(v)) {
	case json_type_int:
	case json_type_double: {
		double d = json_object_get_double(v);
		if (json_object_is_type(v, json_type_int) && json_object_get_int64(v) == INT64_MAX)
			return -EINVAL;     /* INT64_MAX or beyond (uint64) */
		if (!isfinite(d) || fabs(d) > NUM_MAX || (kb && (d < -1 || d > SNAPSHOT_JSON_KB_MAX)))
			return -EINVAL;
		return 0;
	}
	case json_type_array:
		for (size_t i = 0; i < json_object_array_length(v); i++)
			if (walk(json_object_array_get_idx(v, i), kb))
				return -EINVAL;
		return 0;
	case json_type_object: {
		json_object_object_foreach(v, key, val) {
			if (!utf8_valid(key) || walk(val, kb || ends_kb(key)))
				return -EINVAL;
		}
		return 0;
	}
	default:
		return 0;
	}
}

/* Each key of r in o: missing, null, or a whole number in its range. */
static int ranges(json_object *o, const struct range *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		json_object *v = NULL;
		if (!json_object_object_get_ex(o, r[i].key, &v) || !v)
			continue;
		if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
			return -EINVAL;
		double d = json_object_get_double(v);
		if (d != floor(d) || d < r[i].lo || d > r[i].hi)
			return -EINVAL;
	}
	return 0;
}

#define NRANGES(a) (sizeof(a) / sizeof((a)[0]))

static int each(json_object *a, const struct range *r, size_t n)
{
	for (size_t i = 0; a && json_object_is_type(a, json_type_array) && i < json_object_array_length(a); i++)
		if (ranges(json_object_array_get_idx(a, i), r, n))
			return -EINVAL;
	return 0;
}

static json_object *get(json_object *o, const char *k)
{
	json_object *v = NULL;
	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

int snapshot_json_check_sample(json_object *root)
{
	static const struct range top[] = { { "sample", 0, UINT32_MAX } };
	static const struct range proc[] = {
		{ "pid", 1, PID_MAX_LIMIT }, { "ppid", 0, PID_MAX_LIMIT }, { "uid", 0, UINT32_MAX },
		{ "last_cpu", 0, 1 << 22 }, { "home_node", 0, TOPO_MAX_NODE_ID },
		{ "threads", 0, PID_MAX_LIMIT },
	};
	static const struct range node[] = { { "id", 0, TOPO_MAX_NODE_ID }, { "memory_tier", 0, INT32_MAX } };
	static const struct range bal[] = { { "mode", 0, INT32_MAX } };
	static const struct range adv[] = { { "node", 0, TOPO_MAX_NODE_ID } };
	if (walk(root, false) || ranges(root, top, NRANGES(top)) ||
	    each(get(root, "nodes"), node, NRANGES(node)) ||
	    ranges(get(root, "numa_balancing"), bal, NRANGES(bal)))
		return -EINVAL;
	json_object *procs = get(root, "processes");
	for (size_t i = 0; procs && json_object_is_type(procs, json_type_array) &&
			   i < json_object_array_length(procs); i++) {
		json_object *p = json_object_array_get_idx(procs, i);
		/* A process is an object with its PID. */
		json_object *pid = get(p, "pid");
		if (!p || !json_object_is_type(p, json_type_object) || !pid ||
		    ranges(p, proc, NRANGES(proc)) || ranges(get(p, "advice"), adv, NRANGES(adv)))
			return -EINVAL;
	}
	return 0;
}

int snapshot_json_check_header(json_object *h)
{
	static const struct range cpu[] = { { "package", 0, INT32_MAX }, { "die", 0, INT32_MAX },
					    { "core", 0, INT32_MAX }, { "node", 0, TOPO_MAX_NODE_ID } };
	static const struct range cache[] = { { "level", 0, 255 } };
	static const struct range hm[] = { { "access_class", 0, INT32_MAX } };
	json_object *to = get(h, "topology");
	if (walk(h, false) || ranges(get(h, "hmat"), hm, NRANGES(hm)))
		return -EINVAL;
	json_object *cpus = get(to, "cpus");
	if (each(cpus, cpu, NRANGES(cpu)))
		return -EINVAL;
	for (size_t i = 0; cpus && json_object_is_type(cpus, json_type_array) &&
			   i < json_object_array_length(cpus); i++)
		if (each(get(json_object_array_get_idx(cpus, i), "caches"), cache, NRANGES(cache)))
			return -EINVAL;
	/* Distances as sysfs has them: 0 to 255. */
	json_object *m = get(get(to, "distances"), "matrix");
	for (size_t i = 0; m && json_object_is_type(m, json_type_array) && i < json_object_array_length(m); i++) {
		json_object *row = json_object_array_get_idx(m, i);
		for (size_t j = 0; row && json_object_is_type(row, json_type_array) &&
				   j < json_object_array_length(row); j++) {
			json_object *v = json_object_array_get_idx(row, j);
			if (v && (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0 ||
				  json_object_get_int64(v) > 255))
				return -EINVAL;
		}
	}
	return 0;
}
