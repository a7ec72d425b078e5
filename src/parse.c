/* parse.c - pure parsers for node meminfo/numastat/distance, /proc/stat,
 * /proc/vmstat and shared integer helpers. */
#include "parse.h"

#include <errno.h>
#include <string.h>

const char *const numastat_names[NUMASTAT_NKEYS] = {
	"numa_hit", "numa_miss", "numa_foreign", "interleave_hit",
	"local_node", "other_node",
};

static bool blank(char c) { return c == ' ' || c == '\t'; }

int parse_u64(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	if (s >= end || *s < '0' || *s > '9')
		return -EINVAL;
	while (s < end && *s >= '0' && *s <= '9') {
		unsigned d = (unsigned)(*s - '0');
		/* No division per digit: UINT64_MAX is 1844674407370955161 * 10 + 5. */
		if (v > UINT64_MAX / 10 || (v == UINT64_MAX / 10 && d > UINT64_MAX % 10))
			return -ERANGE;
		v = v * 10 + d;
		s++;
	}
	*p = s;
	*out = v;
	return 0;
}

int parse_i64(const char **p, const char *end, int64_t *out)
{
	const char *s = *p;
	bool neg = false;
	if (s < end && (*s == '-' || *s == '+')) {
		neg = *s == '-';
		s++;
	}
	uint64_t v;
	int rc = parse_u64(&s, end, &v);
	if (rc)
		return rc;
	if (v > (uint64_t)INT64_MAX)
		return -ERANGE;
	*p = s;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* Iterate lines of a buffer. */
struct lines {
	const char *p, *end;
};

static bool next_line(struct lines *l, const char **s, const char **e)
{
	while (l->p < l->end && (*l->p == '\0'))
		l->p++;
	if (l->p >= l->end)
		return false;
	*s = l->p;
	const char *nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
	*e = nl ? nl : l->end;
	/* A NUL inside a line ends it (binary sysfs tails). */
	const char *z = memchr(*s, '\0', (size_t)(*e - *s));
	if (z)
		*e = z;
	l->p = nl ? nl + 1 : l->end;
	return true;
}

void mem_info_init(struct mem_info *m)
{
	m->mem_total_kb = m->mem_free_kb = m->mem_used_kb = NT_UNKNOWN;
	m->file_pages_kb = m->anon_pages_kb = m->shmem_kb = NT_UNKNOWN;
	m->huge_total = m->huge_free = m->huge_surp = NT_UNKNOWN;
	m->hugepagesize_kb = NT_UNKNOWN;
}

struct key_slot {
	const char *key;
	size_t off;
};

#define MI(k, f) { k, offsetof(struct mem_info, f) }
static const struct key_slot meminfo_keys[] = {
	MI("MemTotal", mem_total_kb),      MI("MemFree", mem_free_kb),
	MI("MemUsed", mem_used_kb),        MI("FilePages", file_pages_kb),
	MI("Cached", file_pages_kb),       MI("AnonPages", anon_pages_kb),
	MI("Shmem", shmem_kb),             MI("HugePages_Total", huge_total),
	MI("HugePages_Free", huge_free),   MI("HugePages_Surp", huge_surp),
	MI("Hugepagesize", hugepagesize_kb),
};

int parse_meminfo(const char *buf, size_t len, struct mem_info *out)
{
	mem_info_init(out);
	struct lines l = { buf, buf + len };
	const char *s, *e;
	int found = 0;
	while (next_line(&l, &s, &e)) {
		while (s < e && blank(*s))
			s++;
		/* Per-node files prefix every line with "Node <n> ". */
		if (e - s > 5 && memcmp(s, "Node ", 5) == 0) {
			s += 5;
			while (s < e && *s >= '0' && *s <= '9')
				s++;
			while (s < e && blank(*s))
				s++;
		}
		const char *colon = memchr(s, ':', (size_t)(e - s));
		if (!colon)
			continue;
		size_t klen = (size_t)(colon - s);
		const char *v = colon + 1;
		while (v < e && blank(*v))
			v++;
		int64_t val;
		if (parse_i64(&v, e, &val) != 0)
			continue;
		for (size_t i = 0; i < sizeof(meminfo_keys) / sizeof(*meminfo_keys); i++) {
			const struct key_slot *k = &meminfo_keys[i];
			if (strlen(k->key) == klen && memcmp(k->key, s, klen) == 0) {
				int64_t *slot = (int64_t *)((char *)out + k->off);
				/* /proc/meminfo has Cached, nodes FilePages:
				 * FilePages wins if both appear. */
				if (strcmp(k->key, "Cached") == 0 && *slot != NT_UNKNOWN)
					break;
				*slot = val;
				found++;
				break;
			}
		}
	}
	return found ? 0 : -EINVAL;
}

void numastat_init(struct numastat *n)
{
	for (int i = 0; i < NUMASTAT_NKEYS; i++)
		n->v[i] = NT_UNKNOWN;
}

int parse_numastat(const char *buf, size_t len, struct numastat *out)
{
	numastat_init(out);
	struct lines l = { buf, buf + len };
	const char *s, *e;
	int found = 0;
	while (next_line(&l, &s, &e)) {
		const char *k = s;
		while (s < e && !blank(*s))
			s++;
		size_t klen = (size_t)(s - k);
		while (s < e && blank(*s))
			s++;
		int64_t val;
		if (parse_i64(&s, e, &val) != 0 || val < 0)
			continue;
		for (int i = 0; i < NUMASTAT_NKEYS; i++) {
			if (strlen(numastat_names[i]) == klen &&
			    memcmp(numastat_names[i], k, klen) == 0) {
				out->v[i] = val;
				found++;
			}
		}
	}
	return found ? 0 : -EINVAL;
}

int parse_distance(const char *buf, size_t len, int *vals, size_t max,
		   size_t *n)
{
	const char *p = buf, *end = buf + len;
	*n = 0;
	for (;;) {
		while (p < end && (blank(*p) || *p == '\n' || *p == '\0' || *p == '\r'))
			p++;
		if (p >= end)
			break;
		int64_t v;
		int rc = parse_i64(&p, end, &v);
		if (rc)
			return -EINVAL;
		if (p < end && !(blank(*p) || *p == '\n' || *p == '\0' || *p == '\r'))
			return -EINVAL;
		if (v < 0 || v > 255)
			return -ERANGE;
		if (*n >= max)
			return -E2BIG;
		vals[(*n)++] = (int)v;
	}
	return *n ? 0 : -ENODATA;
}

int parse_proc_stat(const char *buf, size_t len,
		    int (*fn)(int cpu, const struct cpu_ticks *t, void *ctx),
		    void *ctx)
{
	struct lines l = { buf, buf + len };
	const char *s, *e;
	while (next_line(&l, &s, &e)) {
		if (e - s < 4 || memcmp(s, "cpu", 3) != 0)
			continue;
		const char *p = s + 3;
		int cpu = -1;
		if (p < e && *p >= '0' && *p <= '9') {
			int64_t v;
			if (parse_i64(&p, e, &v) != 0 || v > 0x7fffffff)
				continue;
			cpu = (int)v;
		}
		if (p >= e || !blank(*p))
			continue;
		struct cpu_ticks t = { .nfields = 0 };
		while (t.nfields < TICK_NFIELDS) {
			while (p < e && blank(*p))
				p++;
			if (p >= e)
				break;
			uint64_t v;
			if (parse_u64(&p, e, &v) != 0)
				break;
			t.t[t.nfields++] = v;
		}
		if (t.nfields < 4)
			continue;
		int rc = fn(cpu, &t, ctx);
		if (rc)
			return rc;
	}
	return 0;
}

int parse_vmstat_migrate(const char *buf, size_t len,
			 struct vmstat_migrate *out)
{
	out->pgmigrate_success = out->numa_pages_migrated = NT_UNKNOWN;
	struct lines l = { buf, buf + len };
	const char *s, *e;
	while (next_line(&l, &s, &e)) {
		const char *k = s;
		while (s < e && !blank(*s))
			s++;
		size_t klen = (size_t)(s - k);
		while (s < e && blank(*s))
			s++;
		int64_t v;
		if (parse_i64(&s, e, &v) != 0)
			continue;
		if (klen == 17 && memcmp(k, "pgmigrate_success", 17) == 0)
			out->pgmigrate_success = v;
		else if (klen == 19 && memcmp(k, "numa_pages_migrated", 19) == 0)
			out->numa_pages_migrated = v;
	}
	return 0;
}

int parse_zoneinfo_low(const char *buf, size_t len, int64_t *low_pages, size_t n)
{
	for (size_t i = 0; i < n; i++)
		low_pages[i] = NT_UNKNOWN;
	struct lines l = { buf, buf + len };
	const char *s, *e;
	long node = -1;
	bool any = false;
	while (next_line(&l, &s, &e)) {
		while (s < e && blank(*s))
			s++;
		if ((size_t)(e - s) > 5 && memcmp(s, "Node ", 5) == 0) {
			const char *p = s + 5;
			int64_t id;
			node = parse_i64(&p, e, &id) == 0 && p < e && *p == ',' && id >= 0 ? (long)id : -1;
			any |= node >= 0;
			continue;
		}
		if ((size_t)(e - s) < 4 || memcmp(s, "low", 3) != 0 || !blank(s[3]))
			continue;
		s += 3;
		while (s < e && blank(*s))
			s++;
		int64_t v;
		if (node < 0 || parse_i64(&s, e, &v) != 0 || v < 0)
			continue;
		if ((size_t)node >= n)
			continue;
		/* A sum that does not fit is no watermark: the node stays
		 * unknown for the rest of the file (poisoned below NT_UNKNOWN). */
		int64_t cur = low_pages[node];
		if (cur == NT_UNKNOWN)
			cur = 0;
		if (cur < 0 || v > INT64_MAX - cur)
			low_pages[node] = NT_UNKNOWN - 1;
		else
			low_pages[node] = cur + v;
	}
	for (size_t i = 0; i < n; i++)
		if (low_pages[i] < NT_UNKNOWN)
			low_pages[i] = NT_UNKNOWN;
	return any ? 0 : -EINVAL;
}
