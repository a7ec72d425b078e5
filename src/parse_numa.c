/* parse_numa.c - the kernel's NUMA balancing counters: /proc/vmstat (and
 * nodeN/vmstat) and /proc/PID/sched. Pure parsers over a buffer. */
#include "parse.h"

#include <errno.h>
#include <string.h>

const char *const nvm_names[NVM_NKEYS] = {
	"numa_hint_faults", "numa_hint_faults_local", "numa_pages_migrated",
	"pgmigrate_success", "pgmigrate_fail", "pgpromote_success",
	"pgdemote_kswapd", "pgdemote_direct",
};

static const char *eol(const char *p, const char *e)
{
	const char *nl = memchr(p, '\n', (size_t)(e - p));
	return nl ? nl : e;
}

int parse_numa_vmstat(const char *buf, size_t len, struct numa_vmstat *out)
{
	for (int k = 0; k < NVM_NKEYS; k++)
		out->v[k] = NT_UNKNOWN;
	const char *p = buf, *e = buf + len;
	bool any = false;
	while (p < e) {
		const char *le = eol(p, e);
		const char *sp = memchr(p, ' ', (size_t)(le - p));
		if (sp) {
			size_t kl = (size_t)(sp - p);
			for (int k = 0; k < NVM_NKEYS; k++) {
				if (strlen(nvm_names[k]) != kl || memcmp(p, nvm_names[k], kl) != 0)
					continue;
				const char *q = sp + 1;
				int64_t v;
				if (parse_i64(&q, le, &v) == 0 && q == le && v >= 0) {
					out->v[k] = v;
					any = true;
				}
			}
		}
		p = le < e ? le + 1 : e;
	}
	return any ? 0 : -ENODATA;
}

/* "name   :   value" of /proc/PID/sched: the value of key, or false. */
static bool sched_value(const char *p, const char *le, const char *key, int64_t *v)
{
	size_t kl = strlen(key);
	if ((size_t)(le - p) <= kl || memcmp(p, key, kl) != 0 || (p[kl] != ' ' && p[kl] != ':'))
		return false;
	const char *q = memchr(p + kl, ':', (size_t)(le - p - (ptrdiff_t)kl));
	if (!q)
		return false;
	q++;
	while (q < le && *q == ' ')
		q++;
	return parse_i64(&q, le, v) == 0 && q == le;
}

/* The number after "name=" in [p, le), or false. */
static bool kv(const char *p, const char *le, const char *name, int64_t *v)
{
	size_t nl = strlen(name);
	for (const char *q = p; q + nl < le; q++) {
		if ((q == p || q[-1] == ' ' || q[-1] == ',') && memcmp(q, name, nl) == 0 && q[nl] == '=') {
			const char *r = q + nl + 1;
			return parse_i64(&r, le, v) == 0 && (r == le || *r == ' ' || *r == ',');
		}
	}
	return false;
}

int parse_pid_sched(const char *buf, size_t len, struct pid_sched *out, int64_t *faults,
		    size_t n)
{
	out->pages_migrated = out->preferred_nid = out->total_faults = NT_UNKNOWN;
	out->current_node = NT_UNKNOWN;
	out->nfault_lines = 0;
	for (size_t i = 0; i < n; i++)
		faults[i] = NT_UNKNOWN;
	const char *p = buf, *e = buf + len;
	bool any = false;
	while (p < e) {
		const char *le = eol(p, e);
		int64_t v;
		if (sched_value(p, le, "numa_pages_migrated", &v)) {
			out->pages_migrated = v;
			any = true;
		} else if (sched_value(p, le, "numa_preferred_nid", &v)) {
			out->preferred_nid = v;
			any = true;
		} else if (sched_value(p, le, "total_numa_faults", &v)) {
			out->total_faults = v;
			any = true;
		} else if ((size_t)(le - p) > 13 && memcmp(p, "current_node=", 13) == 0) {
			const char *q = p + 13;
			if (parse_i64(&q, le, &v) == 0)
				out->current_node = v;
		} else if ((size_t)(le - p) > 17 && memcmp(p, "numa_faults node=", 17) == 0) {
			int64_t id, tp, ts;
			if (kv(p + 12, le, "node", &id) && kv(p, le, "task_private", &tp) &&
			    kv(p, le, "task_shared", &ts) && id >= 0 && tp >= 0 && ts >= 0) {
				out->nfault_lines++;
				if ((size_t)id < n)
					faults[id] = tp + ts;
				any = true;
			} else {
				return -EINVAL;
			}
		}
		p = le < e ? le + 1 : e;
	}
	return any ? 0 : -ENODATA;
}
