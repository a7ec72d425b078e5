/* cgroup.h - per-cgroup NUMA placement from the kernel's own counters
 * (memory.numa_stat, cpuset.*.effective): no page-table walks.
 *
 * Layouts: cgroup v2 (unified at /sys/fs/cgroup), v1 (one hierarchy per
 * controller under /sys/fs/cgroup/<controller>/), hybrid (v1 controllers
 * plus an empty v2 at /sys/fs/cgroup/unified) and none. Everything is
 * read through the rooted I/O layer. */
#ifndef NUMATOP_CGROUP_H
#define NUMATOP_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "cgroup_parse.h"
#include "fsroot.h"
#include "topology.h"

enum cgroup_layout { CGROUP_NONE, CGROUP_V1, CGROUP_HYBRID, CGROUP_V2 };
extern const char *const cgroup_layout_names[];   /* "none","v1","hybrid","v2" */

/* --- the reader ----------------------------------------------------------- */

enum cgroup_state { CGS_OK, CGS_GONE, CGS_NO_PERM, CGS_ERROR };
extern const char *const cgroup_state_names[];    /* "ok","gone","no_perm","error" */

struct cgroup_info {
	char *path;                 /* "/" or "/system.slice/ssh.service" */
	int parent;                 /* index, -1 for the root */
	int depth;                  /* 0 for the root */
	enum cgroup_state state;
	int err;                    /* errno for CGS_ERROR / CGS_NO_PERM */
	int64_t procs;              /* lines of cgroup.procs, -1 unknown */
	int64_t procs_tree;         /* with the descendants', -1 unknown */
	bool have_numa;             /* memory.numa_stat read */
	int64_t *node_kb, *anon_kb, *file_kb;   /* [nnodes] by node index */
	int64_t total_kb, anon_total_kb, file_total_kb;   /* -1 unknown */
	int64_t unknown_node_kb;    /* on nodes the topology lacks */
	int64_t current_kb;         /* memory.current / usage_in_bytes, -1 */
	struct bitmap cpus, mems;   /* effective cpuset (cpu ids, node ids) */
	bool have_cpus, have_mems;
	int *pids;                  /* cgroup.procs: its own processes */
	size_t npids, pidcap;
	struct bitmap run_nodes;    /* node ids where its (and its
				     * descendants') threads last ran */
	int64_t unseen;             /* member processes (below the root
				     * cgroup, with descendants') whose
				     * threads were not seen: filtered out */
	int64_t remote_kb;          /* -1 unknown */
	bool remote_by_mems;        /* judged against mems (else run_nodes) */
	bool cut;                   /* cgroups below it not read (too deep,
				     * too many, a name too long): the
				     * tree's process count and run nodes
				     * are unknown (memory.numa_stat is
				     * the kernel's, with every descendant) */
};

struct cgroup_set {
	enum cgroup_layout layout;
	struct cgroup_info *v;      /* preorder: a parent before its children,
				     * siblings by name */
	size_t n, cap;
	int64_t *kb;                /* 3 * nnodes per cgroup */
	size_t kbcap;
	int rc;                     /* the walk's error, 0 */
	size_t truncated;           /* cgroups left out: past CGROUP_MAX, or
				     * the children of one CGROUP_MAX_DEPTH
				     * deep (not their descendants) */
	long first_cut;             /* the first cgroup whose children were
				     * left out, -1 none */
};

#define CGROUP_MAX 65536        /* cgroups read in one sample */
#define CGROUP_MAX_DEPTH 64

/* The layout of the root's /sys/fs/cgroup. */
enum cgroup_layout cgroup_detect(const struct fsroot *r);

/* Read every cgroup of the memory hierarchy (v2: the unified one) into
 * set, reusing its buffers. 0 or -ENOMEM; per-cgroup failures are in
 * their state (a cgroup removed meanwhile is CGS_GONE, not zeros). */
int cgroup_read_all(const struct fsroot *r, const struct topology *t,
		    struct cgroup_set *set);
void cgroup_set_free(struct cgroup_set *set);

/* Index of the cgroup with this path, or -1 (set is sorted: bsearch). */
long cgroup_find(const struct cgroup_set *set, const char *path);

/* After the processes are known: for each member PID of each cgroup
 * (pids), the nodes its threads last ran on (add_run_node), or, when it
 * was not among the sampled processes, unseen++ (the root cgroup's own
 * unseen members are kernel threads: not counted). Then finish: run
 * nodes, unseen and process counts up the tree, and REMOTE: memory on
 * nodes outside mems_effective when that leaves a node with memory out,
 * else outside the run nodes; unknown (-1) without run nodes or with
 * unseen members (-p, -u: their threads were not read). */
void cgroup_add_run_node(struct cgroup_set *set, long idx, int node_id);
void cgroup_finish(struct cgroup_set *set, const struct topology *t);

/* The directory of the memory hierarchy for a path (for tests and the
 * detail): "/sys/fs/cgroup/memory" + path on v1. */
const char *cgroup_mem_base(enum cgroup_layout l);

/* --- each process's cgroup ------------------------------------------- */

struct proc_info;
struct cgroup_pidmap;

int cgroup_pidmap_new(struct cgroup_pidmap **out);
void cgroup_pidmap_free(struct cgroup_pidmap *m);
/* paths[i]: the cgroup of process i (at v + i * stride) in the memory hierarchy of layout l (v2:
 * the "0::" line; v1 and hybrid: the memory controller's line), or NULL
 * when unknown (exited, unreadable). Read from /proc/PID/cgroup when a
 * process (PID + start time) is new and then again after refresh_s to
 * 2 * refresh_s seconds of now, spread by PID (a process can be moved). The strings stay valid until the next
 * update. Returns how many files were read, or -ENOMEM. */
long cgroup_pidmap_update(struct cgroup_pidmap *m, const struct fsroot *r,
			  enum cgroup_layout l, const struct proc_info *v, size_t stride,
			  size_t n, double now, double refresh_s, const char **paths);

#endif
