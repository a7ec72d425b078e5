/* tiers.c - the memory tier model (see tiers.h): read through fsroot,
 * built into fast -> slow order, and the questions the columns, the
 * causes and the views ask of it. */
#include "tiers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse.h"

#define TIERS_DIR "/sys/devices/virtual/memory_tiering"

int tiers_parse_bool(const char *s)
{
	static const char *const yes[] = { "true", "1", "y", "yes", "on" };
	static const char *const no[] = { "false", "0", "n", "no", "off" };
	if (!s)
		return -1;
	size_t len = strlen(s);
	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	for (size_t i = 0; i < sizeof(yes) / sizeof(*yes); i++) {
		if (strlen(yes[i]) == len && strncasecmp(s, yes[i], len) == 0)
			return 1;
		if (strlen(no[i]) == len && strncasecmp(s, no[i], len) == 0)
			return 0;
	}
	return -1;
}

int64_t tiers_parse_hmat(const char *s)
{
	if (!s)
		return -1;
	const char *p = s, *end = s + strlen(s);
	uint64_t x;
	if (parse_u64(&p, end, &x) != 0 || x == 0 || x > INT64_MAX)
		return -1;
	while (p < end && (*p == '\n' || *p == ' '))
		p++;
	return p == end ? (int64_t)x : -1;
}

static int64_t read_hmat(const struct fsroot *r, const char *dir, const char *name)
{
	char path[192], v[32];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fsroot_read_small(r, path, v, sizeof(v)) > 0 ? tiers_parse_hmat(v) : -1;
}

/* The node's figures from its best initiators: access1 (CPUs only, what
 * a process sees), else access0. */
static void read_node_hmat(const struct fsroot *r, struct tier_node *n)
{
	for (int access = 1; access >= 0; access--) {
		char dir[128];
		snprintf(dir, sizeof(dir), "/sys/devices/system/node/node%d/access%d/initiators", n->id,
			 access);
		int64_t rl = read_hmat(r, dir, "read_latency"), wl = read_hmat(r, dir, "write_latency");
		int64_t rb = read_hmat(r, dir, "read_bandwidth"), wb = read_hmat(r, dir, "write_bandwidth");
		if (rl < 0 && wl < 0 && rb < 0 && wb < 0)
			continue;
		n->access = access;
		n->read_lat_ns = rl;
		n->write_lat_ns = wl;
		n->read_bw_mbs = rb;
		n->write_bw_mbs = wb;
		return;
	}
}

int tiers_init(struct tier_model *m, size_t n)
{
	memset(m, 0, sizeof(*m));
	m->demotion = -1;
	m->promote_limit_mbps = -1;
	m->nnodes = n;
	m->node = calloc(n ? n : 1, sizeof(*m->node));
	if (!m->node)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		m->node[i] = (struct tier_node){ .id = -1, .tier = -1, .order = -1, .access = -1,
						 .read_lat_ns = -1, .write_lat_ns = -1,
						 .read_bw_mbs = -1, .write_bw_mbs = -1 };
	return 0;
}

void tiers_free(struct tier_model *m)
{
	free(m->node);
	free(m->tier);
	memset(m, 0, sizeof(*m));
	m->demotion = -1;
	m->promote_limit_mbps = -1;
}

static int64_t worse(int64_t a, int64_t b, bool higher)
{
	if (a < 0 || b < 0)
		return a < 0 ? b : a;
	return higher ? (a > b ? a : b) : (a < b ? a : b);
}

int tiers_build(struct tier_model *m)
{
	free(m->tier);
	m->tier = NULL;
	m->ntiers = 0;
	size_t n = m->nnodes;
	int *ids = malloc((n ? n : 1) * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	/* The distinct tier ids, ascending: fast -> slow. */
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		int id = m->node[i].tier;
		if (id < 0)
			continue;
		size_t j = 0;
		while (j < k && ids[j] < id)
			j++;
		if (j < k && ids[j] == id)
			continue;
		memmove(ids + j + 1, ids + j, (k - j) * sizeof(*ids));
		ids[j] = id;
		k++;
	}
	m->tier = calloc(k ? k : 1, sizeof(*m->tier));
	if (!m->tier) {
		free(ids);
		return -ENOMEM;
	}
	m->ntiers = k;
	for (size_t j = 0; j < k; j++)
		m->tier[j] = (struct tier_info){ .id = ids[j], .order = (int)j, .read_lat_ns = -1,
						 .write_lat_ns = -1, .read_bw_mbs = -1, .write_bw_mbs = -1 };
	for (size_t i = 0; i < n; i++) {
		struct tier_node *nd = &m->node[i];
		nd->order = -1;
		for (size_t j = 0; nd->tier >= 0 && j < k; j++) {
			if (ids[j] != nd->tier)
				continue;
			struct tier_info *ti = &m->tier[j];
			nd->order = (int)j;
			ti->nnodes++;
			ti->cpus |= nd->cpus;
			ti->read_lat_ns = worse(ti->read_lat_ns, nd->read_lat_ns, true);
			ti->write_lat_ns = worse(ti->write_lat_ns, nd->write_lat_ns, true);
			ti->read_bw_mbs = worse(ti->read_bw_mbs, nd->read_bw_mbs, false);
			ti->write_bw_mbs = worse(ti->write_bw_mbs, nd->write_bw_mbs, false);
		}
	}
	free(ids);
	return 0;
}

int tiers_copy(struct tier_model *dst, const struct tier_model *src)
{
	tiers_free(dst);
	if (tiers_init(dst, src->nnodes) != 0)
		return -ENOMEM;
	if (src->nnodes)
		memcpy(dst->node, src->node, src->nnodes * sizeof(*src->node));
	dst->demotion = src->demotion;
	dst->promote_limit_mbps = src->promote_limit_mbps;
	if (src->ntiers) {
		dst->tier = malloc(src->ntiers * sizeof(*dst->tier));
		if (!dst->tier)
			return -ENOMEM;
		memcpy(dst->tier, src->tier, src->ntiers * sizeof(*src->tier));
		dst->ntiers = src->ntiers;
	}
	return 0;
}

/* memory_tier<N>/nodelist: which tier each node is in. */
static void read_nodelists(const struct fsroot *r, const struct topology *t, struct tier_model *m)
{
	int *ids;
	size_t n;
	if (fsroot_list_ids(r, TIERS_DIR, "memory_tier", FSROOT_DIRS, &ids, &n) != 0)
		return;
	for (size_t j = 0; j < n; j++) {
		char path[128], v[1024];
		snprintf(path, sizeof(path), TIERS_DIR "/memory_tier%d/nodelist", ids[j]);
		int len = fsroot_read_small(r, path, v, sizeof(v));
		struct bitmap b;
		bitmap_init(&b);
		if (len >= 0 && bitmap_parse_list(&b, v, (size_t)len) == 0)
			for (size_t i = 0; i < t->nnodes; i++)
				if (bitmap_test(&b, (unsigned)t->nodes[i].id))
					m->node[i].tier = ids[j];
		bitmap_free(&b);
	}
	free(ids);
}

int tiers_read(const struct fsroot *r, const struct topology *t, struct tier_model *m)
{
	if (tiers_init(m, t->nnodes) != 0)
		return -ENOMEM;
	for (size_t i = 0; i < t->nnodes; i++) {
		struct tier_node *nd = &m->node[i];
		nd->id = t->nodes[i].id;
		nd->cpus = !bitmap_empty(&t->nodes[i].cpus);
		read_node_hmat(r, nd);
	}
	read_nodelists(r, t, m);
	char v[64];
	if (fsroot_read_small(r, "/sys/kernel/mm/numa/demotion_enabled", v, sizeof(v)) > 0)
		m->demotion = tiers_parse_bool(v);
	if (fsroot_read_small(r, "/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps", v,
			      sizeof(v)) > 0) {
		const char *p = v;
		uint64_t x;
		if (parse_u64(&p, v + strlen(v), &x) == 0 && !*p && x <= INT64_MAX)
			m->promote_limit_mbps = (int64_t)x;
	}
	return tiers_build(m);
}

bool tiers_multi(const struct tier_model *m)
{
	return m && m->ntiers > 1;
}

int tiers_node_order(const struct tier_model *m, size_t i)
{
	return m && m->node && i < m->nnodes ? m->node[i].order : -1;
}

const struct tier_info *tiers_node_tier(const struct tier_model *m, size_t i)
{
	int o = tiers_node_order(m, i);
	return o >= 0 && (size_t)o < m->ntiers ? &m->tier[o] : NULL;
}

int tiers_fastest_order(const struct tier_model *m, const struct bitmap *mems)
{
	int best = -1;
	for (size_t i = 0; m && m->node && i < m->nnodes; i++) {
		const struct tier_node *nd = &m->node[i];
		if (nd->order < 0 || (mems && (nd->id < 0 || !bitmap_test(mems, (unsigned)nd->id))))
			continue;
		if (best < 0 || nd->order < best)
			best = nd->order;
	}
	return best;
}

bool tiers_node_fastest(const struct tier_model *m, size_t i, const struct bitmap *mems)
{
	int o = tiers_node_order(m, i);
	return o >= 0 && o == tiers_fastest_order(m, mems);
}

bool tiers_node_far(const struct tier_model *m, size_t i)
{
	return tiers_multi(m) && tiers_node_order(m, i) > 0 && !m->node[i].cpus;
}

void tiers_split_kb(const struct tier_model *m, const int64_t *node_kb, int64_t *fast,
		    int64_t *slow)
{
	*fast = *slow = -1;
	if (!m || !m->ntiers || !node_kb)
		return;
	*fast = *slow = 0;
	for (size_t i = 0; i < m->nnodes; i++) {
		int o = m->node[i].order;
		if (o < 0 || node_kb[i] <= 0)
			continue;
		if (o == 0)
			*fast += node_kb[i];
		else
			*slow += node_kb[i];
	}
}

void tiers_kb(const struct tier_model *m, const int64_t *node_kb, int64_t *out)
{
	for (size_t j = 0; j < m->ntiers; j++)
		out[j] = 0;
	for (size_t i = 0; node_kb && i < m->nnodes; i++) {
		int o = m->node[i].order;
		if (o >= 0 && (size_t)o < m->ntiers && node_kb[i] > 0)
			out[o] += node_kb[i];
	}
}
