/* placement.h - sampled placement: where a large process's pages are,
 * estimated without a numa_maps walk.
 *
 * /proc/PID/maps lists the mappings; a move_pages(2) query (nodes = NULL,
 * nothing moves) asks for the node of a few pages per mapping: every page
 * of a small mapping, about one per 2 MiB of a large one. Each sample
 * stands for its share of the mapping, so a mapping whose pages are all
 * present is counted exactly and a sparse one by the fraction present.
 * The mmap lock is held only per query batch, not for a whole walk. */
#ifndef NUMATOP_PLACEMENT_H
#define NUMATOP_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "fsroot.h"
#include "numa_maps.h"

struct placement_ops {
	/* move_pages(2): >= 0 or -errno; nodes is always NULL here. */
	long (*move_pages)(void *ctx, int pid, unsigned long count, void **pages,
			   const int *nodes, int *status, int flags);
	void *ctx;
};
extern const struct placement_ops placement_kernel_ops;

enum placement_kind { PLK_ANON, PLK_FILE, PLK_HUGE };

struct placement_vma {
	uint64_t start, end;
	enum placement_kind kind;
};

/* Reused between calls: no allocation once grown, and no memory that
 * grows with the number of mappings (maps is read in chunks). */
struct placement_scratch {
	struct buf maps;
	void **pages;
	double *weight;          /* pages each sample stands for */
	int *status;
	size_t bcap;
};
void placement_scratch_free(struct placement_scratch *s);

/* Parse one /proc/PID/maps line (without its newline): 1 and *out for a
 * mapping that can hold pages, 0 for anything else (vsyscall, vvar,
 * vdso, PROT_NONE, unparsable). */
int placement_parse_line(const char *s, size_t len, struct placement_vma *out);

/* A sample stands for its share of a mapping, so a vast, sparsely touched
 * mapping (reserved address space, a sanitizer's shadow) is over- or
 * under-counted: one sample may stand for a GiB. The resident set is what
 * numa_maps would count, hugetlb pages aside (they are not in RSS): the
 * estimate of the rest is scaled to rss_kb, keeping its split by node and
 * kind. Nothing changes when nothing was found or RSS is unknown. */
void placement_scale_rss(struct nm_summary *s, int64_t rss_kb);

/* Samples for a mapping of npages pages: one per `per` pages, at least
 * min_samples, at most one per page. */
uint64_t placement_samples_for(uint64_t npages, uint64_t min_samples, uint64_t per);

/* Estimate pid's placement into out (reset first; policy left empty).
 * pagesize in bytes; nmaps_hint, the number of mappings last seen (0
 * unknown), thins the samples of small mappings when there are many.
 * 0, -EACCES (not allowed), -ESRCH (gone), -ENOENT, -ENOMEM. */
int placement_sample(const struct fsroot *r, int pid, long pagesize,
		     const struct nm_params *np, const struct placement_ops *ops,
		     size_t nmaps_hint, struct placement_scratch *s,
		     struct nm_summary *out);

#endif
