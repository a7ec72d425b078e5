/* sampler_access_place.c - where the pages of DAMON's regions are: on
 * the live machine, move_pages(2) queries on ACCESS_SAMPLE_PAGES evenly
 * spaced pages of each hot or warm region (cold memory is the rest of
 * numa_maps' totals, access_join's work); on a recorded tree, where no
 * page can be asked, each region's share of the numa_maps mappings it
 * overlaps. */
#include <stdio.h>
#include <string.h>

#include "access.h"
#include "parse.h"
#include "sampler_int.h"

/* Resident kB per node of region r of pid, from ACCESS_SAMPLE_PAGES
 * pages evenly spaced (kb[nnodes]; all -1 when not known). */
static void sample_region(struct sampler *s, int pid, const struct access_range *r, int64_t *kb,
			  void **pages, int *status)
{
	size_t nn = s->topo->nnodes;
	uint64_t ps = (uint64_t)(s->pagesize > 0 ? s->pagesize : 4096);
	uint64_t npages = (r->end - r->start) / ps;
	if (npages == 0)
		npages = 1;
	size_t ns = npages < ACCESS_SAMPLE_PAGES ? (size_t)npages : ACCESS_SAMPLE_PAGES;
	for (size_t i = 0; i < ns; i++) {
		uint64_t pg = npages * i / ns + npages / (2 * ns);
		pages[i] = (void *)(uintptr_t)(r->start + pg * ps);
	}
	for (size_t k = 0; k < nn; k++)
		kb[k] = 0;
	long rc = s->pops.move_pages(s->pops.ctx, pid, ns, pages, NULL, status, 0);
	if (rc < 0) {
		for (size_t k = 0; k < nn; k++)
			kb[k] = -1;
		return;
	}
	double per_kb = (double)(r->end - r->start) / 1024.0 / (double)ns;
	for (size_t i = 0; i < ns; i++) {
		if (status[i] < 0)
			continue;         /* not present (or not a page): no memory */
		int k = topology_node_index(s->topo, status[i]);
		if (k >= 0)
			kb[k] += (int64_t)(per_kb + 0.5);
	}
}

/* Where no page can be asked (a recorded tree): each region's kB per
 * node from the numa_maps mappings it overlaps, a mapping's pages taken
 * as dense from its start (numa_maps has no end). All -1
 * when numa_maps cannot be read. */
static void regions_from_numa_maps(struct sampler *s, int pid, const struct access_range *r,
				   size_t n, int64_t *kb)
{
	size_t nn = s->topo->nnodes;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", pid);
	int rc = fsroot_read_file(s->root, path, &s->scratch, 0);
	for (size_t i = 0; i < n * nn; i++)
		kb[i] = rc ? -1 : 0;
	if (rc)
		return;
	const char *p = s->scratch.data, *end = p + s->scratch.len;
	struct nm_mapping *m = &s->map, next;
	nm_mapping_init(&next);
	bool have = false;
	while (p < end || have) {
		/* Parse one line ahead: a mapping ends where the next begins. */
		bool more = false;
		while (p < end && !more) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
			more = numa_maps_parse_line(p, len, have ? &next : m) == 0;
			p += len + (nl != NULL);
		}
		if (!have) {
			have = more;
			if (!have)
				break;
			continue;
		}
		uint64_t mstart = m->start, mend = more ? next.start : UINT64_MAX;
		int64_t pkb = nm_mapping_page_kb(m, s->pagesize / 1024, s->params.default_huge_kb);
		uint64_t total = 0;
		for (size_t k = 0; k < m->nnodes; k++)
			total += m->nodes[k].pages;
		/* Without maps, a mapping's extent is not known: its pages
		 * taken as dense, up to the next mapping. */
		if (pkb > 0 && mstart + total * (uint64_t)pkb * 1024 < mend)
			mend = mstart + total * (uint64_t)pkb * 1024;
		for (size_t i = 0; i < n && pkb > 0 && mend > mstart; i++) {
			uint64_t lo = r[i].start > mstart ? r[i].start : mstart;
			uint64_t hi = r[i].end < mend ? r[i].end : mend;
			if (hi <= lo)
				continue;
			double share = (double)(hi - lo) / (double)(mend - mstart);
			for (size_t k = 0; k < m->nnodes; k++) {
				int ni = topology_node_index(s->topo, m->nodes[k].node);
				if (ni >= 0)
					kb[i * nn + (size_t)ni] += (int64_t)((double)m->nodes[k].pages * (double)pkb * share + 0.5);
			}
		}
		if (!more)
			break;
		/* The next line becomes the current one. */
		struct nm_mapping t = *m;
		*m = next;
		next = t;
	}
	nm_mapping_free(&next);
}

void sampler_access_place(struct sampler *s, int pid, const struct access_range *r, size_t n,
			  double aggr_s, int64_t *kb, void **pages, int *status)
{
	size_t nn = s->topo->nnodes;
	if (!s->cfg.can_sample) {
		regions_from_numa_maps(s, pid, r, n, kb);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (access_region_heat(&r[i], aggr_s) != ACCESS_COLD)
			sample_region(s, pid, &r[i], kb + i * nn, pages, status);
}
