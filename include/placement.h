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

/* Reused between calls: no allocation once grown. */
struct placement_scratch {
	struct buf maps;
	struct placement_vma *vma;
	size_t nvma, vcap;
	void **pages;
	double *weight;          /* pages each sample stands for */
	int *status;
	size_t bcap;
};
void placement_scratch_free(struct placement_scratch *s);

/* Parse a maps buffer into s->vma (vsyscall/vvar/vdso and PROT_NONE
 * mappings left out). 0 or
 * -ENOMEM; unparsable lines are skipped. */
int placement_parse_maps(const char *buf, size_t len, struct placement_scratch *s);

/* Samples for a mapping of npages pages: one per `per` pages, at least
 * min_samples, at most one per page. */
uint64_t placement_samples_for(uint64_t npages, uint64_t min_samples, uint64_t per);

/* Estimate pid's placement into out (reset first; policy left empty).
 * pagesize in bytes. 0, -EACCES (not allowed), -ESRCH (gone), -ENOENT,
 * -ENOMEM. */
int placement_sample(const struct fsroot *r, int pid, long pagesize,
		     const struct nm_params *np, const struct placement_ops *ops,
		     struct placement_scratch *s, struct nm_summary *out);

#endif
