/* cgroup_parse.h - the cgroup files' pure parsers: memory.numa_stat (v1
 * and v2), /proc/PID/cgroup, and a path's short name for a cell. Buffers
 * in, 0 or -errno out; unknown stays -1. */
#ifndef NUMATOP_CGROUP_PARSE_H
#define NUMATOP_CGROUP_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* memory.numa_stat of either version, per node id. v2: "anon N0=4096 ..."
 * in bytes; v1: "total=12 N0=12", "hierarchical_total=..." in pages (the
 * hierarchical lines win: they include the descendants, as v2's do).
 * Node memory is v2's anon + file, v1's total (file + anon + unevictable).
 * The arrays are indexed by node id up to max_id (ids past it are
 * summed into *other_kb); absent values stay -1. */
struct cgroup_numa_stat {
	int version;                /* 1 or 2: which format was seen */
	int64_t *node_kb, *anon_kb, *file_kb;   /* [max_id + 1] */
	int max_id;
	int64_t other_kb;           /* on node ids past max_id */
	int other_id;               /* the first such id, -1 none */
};
/* page_kb: v1's page size (4 on x86). -EINVAL when no line is understood. */
int cgroup_parse_numa_stat(const char *buf, size_t len, long page_kb,
			   struct cgroup_numa_stat *out);

/* One process's cgroup from /proc/PID/cgroup: the v2 line ("0::/path")
 * and the v1 memory controller's line ("4:memory:/path"). Paths are
 * copied (cut at n-1 bytes: -ENAMETOOLONG); "" when absent. */
struct cgroup_proc_paths {
	char v2[512];
	char memory[512];
	bool have_v2, have_memory;
};
int cgroup_parse_proc(const char *buf, size_t len, struct cgroup_proc_paths *out);

/* The short form of a cgroup path for a table cell: a systemd unit
 * ("ssh.service"), a container id cut to 12 hex digits ("docker-" or a
 * 64-hex component), a k8s pod ("pod<uid>" cut to 12), else the last
 * component; "/" for the root. */
void cgroup_short_name(const char *path, char *out, size_t n);

#endif
