/* topology.c - NUMA nodes and the distance matrix. */
#include "topology_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "numa_maps.h"
#include "parse.h"

#define NODE_DIR "/sys/devices/system/node"

static int read_node_list(const struct fsroot *r, const char *name,
			  struct bitmap *out)
{
	char path[256];
	snprintf(path, sizeof(path), NODE_DIR "/%s", name);
	struct buf b = { 0 };
	int rc = fsroot_read_file(r, path, &b, 1 << 20);
	if (rc == 0)
		rc = bitmap_parse_list(out, b.data ? b.data : "", b.len);
	buf_free(&b);
	return rc;
}

int topology_build_index(struct topology *t)
{
	int maxid = -1;
	for (size_t i = 0; i < t->nnodes; i++)
		if (t->nodes[i].id > maxid)
			maxid = t->nodes[i].id;
	t->nids = (size_t)(maxid + 1);
	t->index_of_id = malloc((t->nids ? t->nids : 1) * sizeof(int));
	if (!t->index_of_id)
		return -ENOMEM;
	for (size_t i = 0; i < t->nids; i++)
		t->index_of_id[i] = -1;
	for (size_t i = 0; i < t->nnodes; i++)
		t->index_of_id[t->nodes[i].id] = (int)i;
	return 0;
}

/* Distance rows list the ONLINE nodes in ascending id order. */
static void read_distances(const struct fsroot *r, struct topology *t)
{
	size_t n = t->nnodes;
	t->dist = malloc((n ? n * n : 1) * sizeof(int));
	if (!t->dist)
		return;
	for (size_t i = 0; i < n * n; i++)
		t->dist[i] = -1;
	if (t->synthetic) {
		/* One implicit node: local distance by convention (numactl). */
		t->dist[0] = 10;
		t->dist_known = true;
		return;
	}
	/* Column ids: node/online when it matches the row length, else the
	 * node directories themselves. */
	int *cols = malloc((n ? n : 1) * sizeof(int));
	int *vals = malloc((n + 1) * sizeof(int));
	struct buf b = { 0 };
	size_t known = 0;
	if (!cols || !vals)
		goto out;
	for (size_t i = 0; i < n; i++) {
		char path[256];
		snprintf(path, sizeof(path), NODE_DIR "/node%d/distance",
			 t->nodes[i].id);
		int rc = fsroot_read_file(r, path, &b, 1 << 16);
		size_t nv = 0;
		if (rc == 0)
			rc = parse_distance(b.data ? b.data : "", b.len, vals, n + 1, &nv);
		if (rc == 0 && nv == 1 && vals[0] == 0) {
			topo_warn(t, "node%d/distance holds just 0: distances unknown",
				  t->nodes[i].id);
			continue;
		}
		if (rc) {
			topo_warn(t, "node%d/distance: %s", t->nodes[i].id,
				  rc == -E2BIG ? "more columns than nodes" : fsroot_strerror(-rc));
			continue;
		}
		size_t ncols = 0;
		unsigned online = bitmap_count(&t->online_nodes);
		if (online == nv) {
			for (int id = bitmap_next(&t->online_nodes, 0); id >= 0;
			     id = bitmap_next(&t->online_nodes, id + 1))
				cols[ncols++] = id;
		} else if (nv == n) {
			for (size_t k = 0; k < n; k++)
				cols[ncols++] = t->nodes[k].id;
		} else {
			topo_warn(t, "node%d/distance has %zu values for %zu nodes: row unknown",
				  t->nodes[i].id, nv, n);
			continue;
		}
		for (size_t k = 0; k < ncols; k++) {
			int j = topology_node_index(t, cols[k]);
			if (j >= 0)
				t->dist[i * n + (size_t)j] = vals[k];
		}
		known++;
	}
	t->dist_known = known == n;
out:
	free(cols);
	free(vals);
	buf_free(&b);
}

static int read_node_mem(const struct fsroot *r, struct topo_node *nd,
			 struct buf *b)
{
	char path[256];
	snprintf(path, sizeof(path), NODE_DIR "/node%d/meminfo", nd->id);
	struct mem_info mi;
	int rc = fsroot_read_file(r, path, b, 1 << 20);
	if (rc == 0)
		rc = parse_meminfo(b->data ? b->data : "", b->len, &mi);
	nd->mem_total_kb = rc == 0 ? mi.mem_total_kb : -1;
	nd->has_memory = nd->mem_total_kb > 0;
	return rc;
}

static int read_nodes(const struct fsroot *r, struct topology *t)
{
	int *ids = NULL;
	size_t nids = 0;
	int rc = fsroot_list_ids(r, NODE_DIR, "node", FSROOT_DIRS, &ids, &nids);
	if (rc == -ENOENT || (rc == 0 && nids == 0)) {
		free(ids);
		t->synthetic = true;
		nids = 0;
	} else if (rc) {
		return rc;
	}
	/* No kernel has node ids this large (MAX_NUMNODES is 1 << 10 on
	 * x86): a broken tree, not a reason to size tables by the id. */
	size_t keep = 0;
	for (size_t i = 0; i < nids; i++) {
		if (ids[i] >= 0 && ids[i] <= TOPO_MAX_NODE_ID)
			ids[keep++] = ids[i];
		else
			topo_warn(t, "node id %d ignored: beyond the largest possible (%d)",
				  ids[i], TOPO_MAX_NODE_ID);
	}
	if (nids && keep == 0)
		t->synthetic = true;
	nids = keep;
	size_t n = t->synthetic ? 1 : nids;
	t->nodes = calloc(n, sizeof(*t->nodes));
	if (!t->nodes) {
		free(ids);
		return -ENOMEM;
	}
	t->nnodes = n;
	struct buf b = { 0 };
	for (size_t i = 0; i < n; i++) {
		struct topo_node *nd = &t->nodes[i];
		bitmap_init(&nd->cpus);
		nd->id = t->synthetic ? 0 : ids[i];
		if (t->synthetic)
			continue;
		char dir[256];
		snprintf(dir, sizeof(dir), NODE_DIR "/node%d", nd->id);
		/* A cpulist that exists but cannot be read is said, even
		 * when cpumap stands in for it. */
		char path[300];
		snprintf(path, sizeof(path), "%s/cpulist", dir);
		int le = fsroot_read_file(r, path, &b, 1 << 20);
		int e = topo_read_bitmap(r, dir, "cpulist", "cpumap", &nd->cpus);
		if (e)
			topo_warn(t, "node%d: no readable cpulist or cpumap (%s)",
				  nd->id, fsroot_strerror(-e));
		else if (le && le != -ENOENT)
			topo_warn(t, "node%d/cpulist: %s: cpumap used", nd->id, fsroot_strerror(-le));
		if (read_node_mem(r, nd, &b))
			topo_warn(t, "node%d/meminfo unreadable: memory unknown", nd->id);
	}
	buf_free(&b);
	free(ids);
	if (t->synthetic) {
		struct mem_info mi;
		struct buf mb = { 0 };
		int e = fsroot_read_file(r, "/proc/meminfo", &mb, 1 << 20);
		if (e == 0)
			e = parse_meminfo(mb.data ? mb.data : "", mb.len, &mi);
		buf_free(&mb);
		t->nodes[0].mem_total_kb = e == 0 ? mi.mem_total_kb : -1;
		t->nodes[0].has_memory = t->nodes[0].mem_total_kb > 0;
	}
	return 0;
}

/* The default huge page size, once: numa_maps counts hugetlb mappings in
 * pages of it when a line has no kernelpagesize_kB. */
static void read_huge_size(const struct fsroot *r, struct topology *t)
{
	struct buf b = { 0 };
	struct mem_info mi;
	t->default_huge_kb = -1;
	int rc = fsroot_read_file(r, "/proc/meminfo", &b, 1 << 20);
	if (rc == 0 && parse_meminfo(b.data, b.len, &mi) == 0)
		t->default_huge_kb = mi.hugepagesize_kb;
	else if (rc && rc != -ENOENT)
		topo_warn(t, "/proc/meminfo: %s: huge page size unknown", fsroot_strerror(-rc));
	buf_free(&b);
}

int topology_read(const struct fsroot *r, struct topology *t)
{
	memset(t, 0, sizeof(*t));
	bitmap_init(&t->online_nodes);
	bitmap_init(&t->possible_nodes);
	if (fsroot_exists(r, "/sys") != 0 && fsroot_exists(r, "/proc") != 0)
		return -ENOENT;
	int rc = read_nodes(r, t);
	if (rc)
		goto fail;
	if ((rc = topology_build_index(t)) != 0)
		goto fail;
	if (t->synthetic || read_node_list(r, "online", &t->online_nodes) != 0) {
		if (!t->synthetic)
			topo_warn(t, "node/online unreadable: online nodes taken from the node directories");
		bitmap_clear(&t->online_nodes);
		for (size_t i = 0; i < t->nnodes; i++)
			bitmap_set(&t->online_nodes, (unsigned)t->nodes[i].id);
	}
	if (t->synthetic || read_node_list(r, "possible", &t->possible_nodes) != 0)
		bitmap_copy(&t->possible_nodes, &t->online_nodes);
	if ((rc = topo_read_cpus(r, t)) != 0)
		goto fail;
	read_distances(r, t);
	read_huge_size(r, t);
	return 0;
fail:
	topology_free(t);
	return rc;
}

void topology_free(struct topology *t)
{
	for (size_t i = 0; i < t->nnodes; i++)
		bitmap_free(&t->nodes[i].cpus);
	free(t->nodes);
	for (size_t i = 0; i < t->ncpus; i++) {
		struct topo_cpu *c = &t->cpus[i];
		bitmap_free(&c->thread_siblings);
		bitmap_free(&c->core_siblings);
		for (size_t k = 0; k < c->ncaches; k++)
			bitmap_free(&c->caches[k].shared);
		free(c->caches);
	}
	free(t->cpus);
	free(t->dist);
	free(t->index_of_id);
	free(t->cpu_node);
	bitmap_free(&t->online_nodes);
	bitmap_free(&t->possible_nodes);
	for (size_t i = 0; i < t->nwarnings; i++)
		free(t->warnings[i]);
	free(t->warnings);
	memset(t, 0, sizeof(*t));
}

int topology_node_index(const struct topology *t, int node_id)
{
	if (node_id < 0 || (size_t)node_id >= t->nids)
		return -1;
	return t->index_of_id[node_id];
}

int topology_cpu_node(const struct topology *t, int cpu)
{
	if (cpu < 0 || (size_t)cpu >= t->ncpu_ids)
		return -1;
	return t->cpu_node[cpu];
}

const struct topo_cpu *topology_cpu(const struct topology *t, int cpu)
{
	size_t lo = 0, hi = t->ncpus;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->cpus[mid].id == cpu)
			return &t->cpus[mid];
		if (t->cpus[mid].id < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int topology_distance(const struct topology *t, size_t from, size_t to)
{
	if (!t->dist || from >= t->nnodes || to >= t->nnodes)
		return -1;
	return t->dist[from * t->nnodes + to];
}

void topology_nm_params(const struct topology *t, struct nm_params *p)
{
	memset(p, 0, sizeof(*p));     /* fields added later start off */
	p->base_page_kb = sysconf(_SC_PAGESIZE) / 1024;
	p->default_huge_kb = t->default_huge_kb;
	p->index_of_id = t->index_of_id;
	p->nids = t->nids;
	p->nnodes = t->nnodes;
}
