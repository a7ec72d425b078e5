/* topology_cpu.c - CPUs: online state, package/core/thread topology, caches
 * (the data of the article's tables 5.1-5.3). */
#include "topology_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define CPU_DIR "/sys/devices/system/cpu"

static int read_int(const struct fsroot *r, const char *path, int *out)
{
	char s[64];
	int n = fsroot_read_small(r, path, s, sizeof(s));
	if (n <= 0)
		return n < 0 ? n : -ENODATA;
	const char *p = s;
	int64_t v;
	if (parse_i64(&p, s + n, &v) != 0 || v < -1 || v > 0x7fffffff)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* "32K", "1024K", "8M", "2048" (bytes? the kernel always prints K). */
static int64_t parse_cache_size(const char *s)
{
	const char *p = s, *end = s + strlen(s);
	int64_t v;
	if (parse_i64(&p, end, &v) != 0 || v < 0)
		return -1;
	if (*p == 'K' || *p == 'k')
		return v;
	if (*p == 'M' || *p == 'm')
		return v * 1024;
	if (*p == 'G' || *p == 'g')
		return v * 1024 * 1024;
	return *p == '\0' ? v / 1024 : -1;
}

static void read_caches(const struct fsroot *r, struct topo_cpu *c)
{
	char dir[256];
	snprintf(dir, sizeof(dir), CPU_DIR "/cpu%d/cache", c->id);
	int *idx = NULL;
	size_t n = 0;
	if (fsroot_list_ids(r, dir, "index", FSROOT_DIRS, &idx, &n) != 0 || n == 0) {
		free(idx);
		return;
	}
	c->caches = calloc(n, sizeof(*c->caches));
	if (!c->caches) {
		free(idx);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct topo_cache *k = &c->caches[c->ncaches];
		char d[320], path[400], s[64];
		snprintf(d, sizeof(d), "%s/index%d", dir, idx[i]);
		bitmap_init(&k->shared);
		k->level = -1;
		snprintf(path, sizeof(path), "%s/level", d);
		read_int(r, path, &k->level);
		snprintf(path, sizeof(path), "%s/type", d);
		if (fsroot_read_small(r, path, k->type, sizeof(k->type)) <= 0)
			strcpy(k->type, "?");
		snprintf(path, sizeof(path), "%s/size", d);
		k->size_kb = fsroot_read_small(r, path, s, sizeof(s)) > 0 ?
			     parse_cache_size(s) : -1;
		topo_read_bitmap(r, d, "shared_cpu_list", "shared_cpu_map", &k->shared);
		c->ncaches++;
	}
	free(idx);
}

static void read_cpu(const struct fsroot *r, const struct bitmap *online_list,
		     bool have_online_list, struct topo_cpu *c)
{
	char dir[256], path[320], s[16];
	snprintf(dir, sizeof(dir), CPU_DIR "/cpu%d", c->id);
	c->package = c->die = c->core = c->cluster = -1;
	c->node_index = -1;
	bitmap_init(&c->thread_siblings);
	bitmap_init(&c->core_siblings);
	/* cpuN/online first ("0"/"1"; empty = unknown), then cpu/online. */
	snprintf(path, sizeof(path), "%s/online", dir);
	int n = fsroot_read_small(r, path, s, sizeof(s));
	if (n > 0)
		c->online = s[0] == '0' ? 0 : 1;
	else if (have_online_list)
		c->online = bitmap_test(online_list, (unsigned)c->id) ? 1 : 0;
	else
		c->online = -1;
	snprintf(path, sizeof(path), "%s/topology", dir);
	c->has_topology = fsroot_exists(r, path) == 0;
	if (!c->has_topology)
		return;
	snprintf(path, sizeof(path), "%s/topology/physical_package_id", dir);
	read_int(r, path, &c->package);
	snprintf(path, sizeof(path), "%s/topology/die_id", dir);
	read_int(r, path, &c->die);
	snprintf(path, sizeof(path), "%s/topology/core_id", dir);
	read_int(r, path, &c->core);
	snprintf(path, sizeof(path), "%s/topology/cluster_id", dir);
	read_int(r, path, &c->cluster);
	snprintf(path, sizeof(path), "%s/topology", dir);
	topo_read_bitmap(r, path, "thread_siblings_list", "thread_siblings",
			 &c->thread_siblings);
	topo_read_bitmap(r, path, "core_siblings_list", "core_siblings",
			 &c->core_siblings);
	read_caches(r, c);
}

static int cmp_cpu(const void *a, const void *b)
{
	int x = ((const struct topo_cpu *)a)->id, y = ((const struct topo_cpu *)b)->id;
	return (x > y) - (x < y);
}

int topo_read_cpus(const struct fsroot *r, struct topology *t)
{
	int *ids = NULL;
	size_t n = 0;
	int rc = fsroot_list_ids(r, CPU_DIR, "cpu", FSROOT_DIRS, &ids, &n);
	if (rc && rc != -ENOENT)
		return rc;
	/* CPUs named by a node but without a directory still exist. */
	struct bitmap all;
	bitmap_init(&all);
	for (size_t i = 0; i < n; i++)
		bitmap_set(&all, (unsigned)ids[i]);
	free(ids);
	for (size_t i = 0; i < t->nnodes; i++)
		bitmap_or(&all, &t->nodes[i].cpus);
	struct bitmap online_list;
	bitmap_init(&online_list);
	struct buf b = { 0 };
	int orc = fsroot_read_file(r, CPU_DIR "/online", &b, 1 << 16);
	bool have_list = orc == 0 &&
			 bitmap_parse_list(&online_list, b.data ? b.data : "", b.len) == 0;
	if (orc && orc != -ENOENT)
		topo_warn(t, "cpu/online: %s: each CPU's online file used", fsroot_strerror(-orc));
	buf_free(&b);
	size_t count = bitmap_count(&all);
	t->cpus = calloc(count ? count : 1, sizeof(*t->cpus));
	if (!t->cpus) {
		bitmap_free(&all);
		bitmap_free(&online_list);
		return -ENOMEM;
	}
	int maxid = -1;
	for (int id = bitmap_next(&all, 0); id >= 0; id = bitmap_next(&all, id + 1)) {
		struct topo_cpu *c = &t->cpus[t->ncpus++];
		c->id = id;
		read_cpu(r, &online_list, have_list, c);
		maxid = id;
	}
	qsort(t->cpus, t->ncpus, sizeof(*t->cpus), cmp_cpu);
	bitmap_free(&online_list);
	bitmap_free(&all);
	t->ncpu_ids = (size_t)(maxid + 1);
	t->cpu_node = malloc((t->ncpu_ids ? t->ncpu_ids : 1) * sizeof(int));
	if (!t->cpu_node)
		return -ENOMEM;
	for (size_t i = 0; i < t->ncpu_ids; i++)
		t->cpu_node[i] = t->synthetic ? 0 : -1;
	for (size_t i = 0; i < t->nnodes; i++) {
		struct topo_node *nd = &t->nodes[i];
		for (int c = bitmap_next(&nd->cpus, 0); c >= 0;
		     c = bitmap_next(&nd->cpus, c + 1))
			t->cpu_node[c] = (int)i;
	}
	for (size_t i = 0; i < t->ncpus; i++) {
		struct topo_cpu *c = &t->cpus[i];
		c->node_index = t->cpu_node[c->id];
		if (t->synthetic)
			bitmap_set(&t->nodes[0].cpus, (unsigned)c->id);
		if (c->node_index >= 0 && c->online != 0)
			t->nodes[c->node_index].ncpus_online++;
	}
	return 0;
}
