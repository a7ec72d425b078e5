/* snapshot_json_check.c - what a recorded line must be before it is read into
 * the model: every number finite and of a size a machine can have, kB at
 * most SNAPSHOT_JSON_KB_MAX, the numbers kept as ints (PIDs, uids, CPUs, node
 * ids) in their range, keys valid UTF-8; the access heat as the program
 * writes it (access_ok below). Anything else is malformed: never printed as
 * a wrong number (2^40 as PID 0, 1e308 kB, more hot remote than hot). */
#include "snapshot_json_int.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "access.h"
#include "sanitize.h"
#include "topology.h"
#include "jsonget.h"
#include "fields_proc.h"

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

/* ---- the access heat (access_json.c writes it) ---- */

/* Each key of r in o: missing, null, or a number above lo (at lo too when
 * closed) and at most hi. */
struct real_range {
	const char *key;
	double lo, hi;
	bool open;              /* lo itself is out */
};

static int reals(json_object *o, const struct real_range *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		json_object *v = jget(o, r[i].key);
		if (!v)
			continue;
		if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
			return -EINVAL;
		double d = json_object_get_double(v);
		if (d < r[i].lo || (r[i].open && d == r[i].lo) || d > r[i].hi)
			return -EINVAL;
	}
	return 0;
}

/* o's key k: missing, null, or one of the n names. */
static int one_of(json_object *o, const char *k, const char *const *names, size_t n)
{
	json_object *v = jget(o, k);
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (strcmp(json_object_get_string(v), names[i]) == 0)
			return 0;
	return -EINVAL;
}

static bool is(json_object *o, const char *k, const char *v)
{
	json_object *x = jget(o, k);
	return x && json_object_is_type(x, json_type_string) && strcmp(json_object_get_string(x), v) == 0;
}

/* A whole number of kB (>= 0, at most SNAPSHOT_JSON_KB_MAX), -1 when v is
 * NULL (missing or null), -2 anything else. */
static int64_t whole(json_object *v)
{
	if (!v)
		return -1;
	double d = json_object_get_double(v);
	if ((!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double)) ||
	    d != floor(d) || d < 0 || d > SNAPSHOT_JSON_KB_MAX)
		return -2;
	return (int64_t)d;
}

/* kB by node: null, or an object of whole kB (a node null); their sum
 * into *sum, -1 when one is null. */
static int node_kb(json_object *o, int64_t *sum)
{
	*sum = -1;
	if (!o)
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return -EINVAL;
	*sum = 0;
	json_object_object_foreach(o, key, val) {
		(void)key;
		int64_t kb = whole(val);
		if (kb == -2)
			return -EINVAL;
		*sum = kb < 0 || *sum < 0 ? -1 : *sum + kb;
	}
	return 0;
}

/* An address as access_json.c writes it: 0x and 1 to 16 hex digits. */
static bool hex_addr(json_object *o, const char *k)
{
	json_object *v = jget(o, k);
	if (!v || !json_object_is_type(v, json_type_string))
		return false;
	const char *s = json_object_get_string(v);
	size_t n = strlen(s);
	if (n < 3 || n > 18 || strncmp(s, "0x", 2) != 0)
		return false;
	return strspn(s + 2, "0123456789abcdef") == n - 2;
}

static int region_ok(json_object *r)
{
	/* nr_accesses: at most ACCESS_COUNT_MAX (access.h), null unknown. */
	static const struct range whole_r[] = { { "nr_accesses", 0, (double)ACCESS_COUNT_MAX },
						{ "max_accesses", 1, INT32_MAX },
						{ "resident_kb", 0, SNAPSHOT_JSON_KB_MAX } };
	static const struct real_range real_r[] = { { "age_s", 0, NUM_MAX, false } };
	int64_t sum;
	if (!r || !json_object_is_type(r, json_type_object) || !hex_addr(r, "start") ||
	    !hex_addr(r, "end") || one_of(r, "heat", access_heat_names, 3) != 0 ||
	    ranges(r, whole_r, NRANGES(whole_r)) || reals(r, real_r, NRANGES(real_r)) ||
	    node_kb(jget(r, "node_kb"), &sum))
		return -EINVAL;
	return 0;
}

/* A process's access: its source and reason from their tables (a
 * measuring source, damon, only when on); kB whole and >= 0, each total the sum of its nodes, hot remote
 * no more than hot and hot_remote_pct its share (0 to 100, as written: to
 * 0.1), null when nothing is hot; the window at least 1 ms (it is
 * written to 0.001 s), the other times >= 0; the regions' addresses, heat
 * and counts. */
static int access_proc_ok(json_object *a)
{
	static const char *const heats[3][2] = { { "hot_kb", "hot_total_kb" },
						 { "warm_kb", "warm_total_kb" },
						 { "cold_kb", "cold_total_kb" } };
	static const struct real_range real_r[] = {
		{ "window_s", 0.001, 1e6, false }, { "age_s", 0, NUM_MAX, false },
		{ "monitored_s", 0, NUM_MAX, false }, { "hot_remote_pct", 0, 100, false },
		{ "cold_remote_idle_s", 0, NUM_MAX, false },
	};
	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_object) ||
	    one_of(a, "source", access_source_names, ACCESS_NSRC) ||
	    one_of(a, "reason", access_why_names, ACCESS_NWHY) ||
	    /* A measuring source's numbers (DAMON's): usable (on), or shown
	     * and not used (stale, measuring, unseen: access_proc_trust). */
	    (access_source_name_measures(jget_str(a, "source")) && jget(a, "reason") && !is(a, "reason", "on") &&
	     !is(a, "reason", "stale") && !is(a, "reason", "measuring") &&
	     !is(a, "reason", "unseen")) ||
	    reals(a, real_r, NRANGES(real_r)))
		return -EINVAL;
	int64_t total[3];
	for (int k = 0; k < 3; k++) {
		int64_t sum;
		total[k] = whole(jget(a, heats[k][1]));
		if (total[k] == -2 || node_kb(jget(a, heats[k][0]), &sum) ||
		    (sum >= 0 && total[k] >= 0 && sum != total[k]))
			return -EINVAL;
	}
	int64_t rem = whole(jget(a, "hot_remote_kb"));
	json_object *pct = jget(a, "hot_remote_pct");
	if (rem == -2 || (rem >= 0 && total[0] >= 0 && rem > total[0]) ||
	    (pct && total[0] == 0))
		return -EINVAL;
	if (pct && rem >= 0 && total[0] > 0 &&
	    fabs(json_object_get_double(pct) - 100.0 * (double)rem / (double)total[0]) > 0.05 + 1e-9)
		return -EINVAL;
	json_object *rs = jget(a, "regions");
	if (rs && !json_object_is_type(rs, json_type_array))
		return -EINVAL;
	for (size_t i = 0; rs && i < json_object_array_length(rs); i++)
		if (region_ok(json_object_array_get_idx(rs, i)))
			return -EINVAL;
	return 0;
}

/* The sample's access status: source and reason from their tables, a
 * measuring one (damon) exactly when a process is watched, no more watched than the most, the
 * kdamond a possible PID, the window at least 1 ms, times and CPU >= 0. */
static int access_status_ok(json_object *s)
{
	static const struct range whole_r[] = { { "monitored", 0, INT32_MAX },
						{ "max_targets", 0, INT32_MAX },
						{ "kdamond_pid", 1, PID_MAX_LIMIT } };
	static const struct real_range real_r[] = {
		{ "window_s", 0.001, 1e6, false }, { "kdamond_cpu_pct", 0, NUM_MAX, false },
		{ "request_ms", 0, NUM_MAX, false },
	};
	if (!s)
		return 0;
	if (!json_object_is_type(s, json_type_object) ||
	    one_of(s, "source", access_source_names, ACCESS_NSRC) ||
	    one_of(s, "reason", access_why_names, ACCESS_NWHY) ||
	    ranges(s, whole_r, NRANGES(whole_r)) || reals(s, real_r, NRANGES(real_r)))
		return -EINVAL;
	/* (read back, a missing monitored is 0 and a missing source none) */
	json_object *m = jget(s, "monitored"), *mx = jget(s, "max_targets");
	int64_t n = m ? json_object_get_int64(m) : 0;
	if ((mx && json_object_get_int64(mx) > 0 && n > json_object_get_int64(mx)) ||
	    (n > 0) != access_source_name_measures(jget_str(s, "source")))
		return -EINVAL;
	return 0;
}

/* A process's integers in the ranges of their facts (fields_proc.h). */
static int proc_ranges(json_object *p)
{
	for (size_t i = 0; i < proc_nfields; i++) {
		const struct proc_field *f = &proc_fields[i];
		struct range r = { f->key, (double)f->lo, (double)f->hi };
		if (f->key && f->lo < f->hi && ranges(p, &r, 1))
			return -EINVAL;
	}
	return 0;
}

int snapshot_json_check_sample(json_object *root)
{
	static const struct range top[] = { { "sample", 0, UINT32_MAX } };
	static const struct range node[] = { { "id", 0, TOPO_MAX_NODE_ID }, { "memory_tier", 0, INT32_MAX } };
	static const struct range bal[] = { { "mode", 0, INT32_MAX } };
	static const struct range adv[] = { { "node", 0, TOPO_MAX_NODE_ID } };
	if (walk(root, false) || ranges(root, top, NRANGES(top)) ||
	    each(jget(root, "nodes"), node, NRANGES(node)) ||
	    ranges(jget(root, "numa_balancing"), bal, NRANGES(bal)) ||
	    access_status_ok(jget(root, "access")))
		return -EINVAL;
	json_object *procs = jget(root, "processes");
	for (size_t i = 0; procs && json_object_is_type(procs, json_type_array) &&
			   i < json_object_array_length(procs); i++) {
		json_object *p = json_object_array_get_idx(procs, i);
		/* A process is an object with its PID. */
		json_object *pid = jget(p, "pid");
		if (!p || !json_object_is_type(p, json_type_object) || !pid ||
		    proc_ranges(p) || ranges(jget(p, "advice"), adv, NRANGES(adv)) ||
		    access_proc_ok(jget(p, "access")))
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
	json_object *to = jget(h, "topology");
	if (walk(h, false) || ranges(jget(h, "hmat"), hm, NRANGES(hm)))
		return -EINVAL;
	json_object *cpus = jget(to, "cpus");
	if (each(cpus, cpu, NRANGES(cpu)))
		return -EINVAL;
	for (size_t i = 0; cpus && json_object_is_type(cpus, json_type_array) &&
			   i < json_object_array_length(cpus); i++)
		if (each(jget(json_object_array_get_idx(cpus, i), "caches"), cache, NRANGES(cache)))
			return -EINVAL;
	/* Distances as sysfs has them: 0 to 255. */
	json_object *m = jget(jget(to, "distances"), "matrix");
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
