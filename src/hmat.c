/* hmat.c - read the HMAT attributes the kernel exports per memory node. */
#include "hmat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static int64_t read_num(const struct fsroot *r, const char *dir, const char *name)
{
	char path[256], v[32];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (fsroot_read_small(r, path, v, sizeof(v)) <= 0)
		return -1;
	const char *p = v;
	uint64_t x;
	if (parse_u64(&p, v + strlen(v), &x) != 0 || *p || x > INT64_MAX)
		return -1;
	/* 0 is what the kernel prints when the firmware gave nothing. */
	return x ? (int64_t)x : -1;
}

static int read_class(const struct fsroot *r, const struct topology *t, int access,
		      struct hmat *h)
{
	size_t n = t->nnodes;
	for (size_t k = 0; k < n * n; k++)
		h->lat_ns[k] = h->bw_mbs[k] = -1;
	h->ncells = 0;
	for (size_t j = 0; j < n; j++) {
		char dir[160];
		snprintf(dir, sizeof(dir), "/sys/devices/system/node/node%d/access%d/initiators",
			 t->nodes[j].id, access);
		int *ids = NULL;
		size_t nids = 0;
		if (fsroot_list_ids(r, dir, "node", FSROOT_LINKS, &ids, &nids) != 0)
			continue;
		int64_t lat = read_num(r, dir, "read_latency");
		int64_t bw = read_num(r, dir, "read_bandwidth");
		for (size_t k = 0; k < nids; k++) {
			int i = topology_node_index(t, ids[k]);
			if (i < 0 || (lat < 0 && bw < 0))
				continue;
			h->lat_ns[(size_t)i * n + j] = lat;
			h->bw_mbs[(size_t)i * n + j] = bw;
			h->ncells++;
		}
		free(ids);
	}
	return h->ncells ? 0 : -ENOENT;
}

int hmat_read(const struct fsroot *r, const struct topology *t, struct hmat *h)
{
	memset(h, 0, sizeof(*h));
	size_t n = t->nnodes;
	if (!n)
		return -ENOENT;
	h->n = n;
	h->lat_ns = malloc(n * n * sizeof(int64_t));
	h->bw_mbs = malloc(n * n * sizeof(int64_t));
	if (!h->lat_ns || !h->bw_mbs) {
		hmat_free(h);
		return -ENOMEM;
	}
	/* access1 (CPU initiators only) is what a process sees; access0
	 * may name a device as the best initiator. */
	for (int access = 1; access >= 0; access--) {
		h->access = access;
		if (read_class(r, t, access, h) == 0)
			return 0;
	}
	hmat_free(h);
	return -ENOENT;
}

void hmat_free(struct hmat *h)
{
	free(h->lat_ns);
	free(h->bw_mbs);
	memset(h, 0, sizeof(*h));
}
