/* action_cgroup.h - move a cgroup v2 to one node: set its cpuset.mems, and the
 * kernel migrates the cgroup's pages (as it does whenever the mems of a
 * v2 cpuset change). The cgroup is pinned by a directory fd taken when
 * the preview is made: a cgroup removed and made again under the same
 * name is never the one written to. Live machine only. */
#ifndef NUMATOP_ACTION_CGROUP_H
#define NUMATOP_ACTION_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fsroot.h"
#include "topology.h"

struct cgaction {
	char path[512];              /* "/app.slice/db.service" */
	int dirfd;                   /* O_PATH of its directory, -1 closed */
	int node_id, node_idx;
	char mems_before[256];       /* cpuset.mems as it was ("" = inherit) */
	char parent_mems[256];       /* what the node must be in */
	int64_t *before_kb, *after_kb;   /* [nnodes]: memory.numa_stat */
	int64_t before_total, after_total;
	char mems_effective[256];    /* after: the kernel's view */
};

/* Check that path can be moved to node_id and read the "before" numbers:
 * a live root, cgroup v2 with the cpuset controller enabled for this
 * cgroup (not the root cgroup), a node with memory that the parent's
 * cpuset.mems.effective allows. 0, or -errno with the reason and the fix
 * in err. a is cleaned up on failure. */
int cgaction_prepare(const struct fsroot *r, const struct topology *t, const char *path,
		     int node_id, struct cgaction *a, char *err, size_t errsz);
/* Write cpuset.mems through the pinned directory (blocks while the kernel
 * migrates), then read the "after" numbers and cpuset.mems.effective.
 * 0, or -errno with the reason and the fix in err. */
int cgaction_apply(const struct topology *t, struct cgaction *a, char *err, size_t errsz);
/* The cgroup's memory per node now (progress while apply runs in
 * another thread). 0 or -errno. */
int cgaction_read_now(const struct topology *t, const struct cgaction *a, int64_t *kb,
		      int64_t *total);
/* kB of the cgroup that stayed off the node after apply. */
int64_t cgaction_left_kb(const struct cgaction *a);
void cgaction_free(struct cgaction *a);

#endif
