/* action_cgroup.c - a v2 cgroup to one node through cpuset.mems, pinned by a
 * directory fd, with before/after numbers from memory.numa_stat. */
#include "action_cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bitmap.h"
#include "cgroup.h"

#define CG_BASE "/sys/fs/cgroup"

void cgaction_free(struct cgaction *a)
{
	if (a->dirfd >= 0)
		close(a->dirfd);
	a->dirfd = -1;
	free(a->before_kb);
	free(a->after_kb);
	a->before_kb = a->after_kb = NULL;
}

/* A small file of the pinned directory, trailing whitespace cut. */
static int read_at(int dirfd, const char *name, char *out, size_t n)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	ssize_t k = read(fd, out, n - 1);
	int e = errno;
	close(fd);
	if (k < 0)
		return -e;
	while (k > 0 && (out[k - 1] == '\n' || out[k - 1] == ' '))
		k--;
	out[k] = '\0';
	return (int)k;
}

/* memory.numa_stat of the pinned cgroup by node index; *total summed. */
static int read_numa(const struct topology *t, int dirfd, int64_t *kb, int64_t *total)
{
	char *buf = malloc(1 << 16);
	int maxid = t->nnodes ? t->nodes[t->nnodes - 1].id : 0;
	int64_t *ids = malloc(3 * (size_t)(maxid + 1) * sizeof(*ids));
	int rc = buf && ids ? read_at(dirfd, "memory.numa_stat", buf, 1 << 16) : -ENOMEM;
	if (rc >= 0) {
		struct cgroup_numa_stat ns = { .node_kb = ids, .anon_kb = ids + maxid + 1,
					       .file_kb = ids + 2 * (maxid + 1), .max_id = maxid };
		rc = cgroup_parse_numa_stat(buf, (size_t)rc, 4, &ns);
		*total = 0;
		for (size_t i = 0; rc == 0 && i < t->nnodes; i++) {
			int64_t v = ns.node_kb[t->nodes[i].id];
			kb[i] = v > 0 ? v : 0;
			*total += kb[i];
		}
	}
	free(buf);
	free(ids);
	return rc < 0 ? rc : 0;
}

int cgaction_prepare(const struct fsroot *r, const struct topology *t, const char *path,
		     int node_id, struct cgaction *a, char *err, size_t errsz)
{
	memset(a, 0, sizeof(*a));
	a->dirfd = -1;
	a->node_id = node_id;
	a->node_idx = topology_node_index(t, node_id);
	snprintf(a->path, sizeof(a->path), "%s", path);
	if (!fsroot_is_live(r)) {
		snprintf(err, errsz, "cgroup actions are disabled on a recorded tree");
		return -EROFS;
	}
	if (a->node_idx < 0) {
		snprintf(err, errsz, "no node %d", node_id);
		return -ENOENT;
	}
	if (!t->nodes[a->node_idx].has_memory) {
		snprintf(err, errsz, "node %d has no memory", node_id);
		return -EINVAL;
	}
	if (path[0] != '/' || strstr(path, "/..") || strstr(path, "//") ||
	    strlen(path) >= sizeof(a->path)) {
		snprintf(err, errsz, "'%s' is not a cgroup path (/a/b)", path);
		return -EINVAL;
	}
	enum cgroup_layout l = cgroup_detect(r);
	if (l != CGROUP_V2) {
		snprintf(err, errsz, "cgroup %s: moving a cgroup needs cgroup v2 (this machine: %s); "
			 "move its processes with m in the process table", path,
			 cgroup_layout_names[l]);
		return -EOPNOTSUPP;
	}
	if (strcmp(path, "/") == 0) {
		snprintf(err, errsz, "the root cgroup has no cpuset.mems: choose a cgroup below it");
		return -EINVAL;
	}
	char full[600];
	snprintf(full, sizeof(full), CG_BASE "%s", path);
	a->dirfd = open(full, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (a->dirfd < 0) {
		int e = errno;
		snprintf(err, errsz, "cgroup %s: %s", path, e == ENOENT ? "no such cgroup (removed?)" :
			 strerror(e));
		return -e;
	}
	char v[256];
	int rc = read_at(a->dirfd, "cpuset.mems", v, sizeof(v));
	if (rc < 0) {
		char parent[600];
		snprintf(parent, sizeof(parent), "%s", full);
		*strrchr(parent, '/') = '\0';
		snprintf(err, errsz, "cgroup %s: the cpuset controller is not enabled for it "
			 "(echo +cpuset > %s/cgroup.subtree_control)", path, parent);
		cgaction_free(a);
		return -EOPNOTSUPP;
	}
	snprintf(a->mems_before, sizeof(a->mems_before), "%s", v);
	/* The parent's effective mems: the node must be among them. */
	int pfd = openat(a->dirfd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct bitmap pm;
	bitmap_init(&pm);
	if (pfd >= 0 && read_at(pfd, "cpuset.mems.effective", v, sizeof(v)) >= 0 &&
	    bitmap_parse_list(&pm, v, strlen(v)) == 0) {
		snprintf(a->parent_mems, sizeof(a->parent_mems), "%s", v);
		if (!bitmap_test(&pm, (unsigned)node_id)) {
			snprintf(err, errsz, "node %d is not in the parent cgroup's cpuset.mems.effective "
				 "(%s): allow it there first", node_id, v);
			bitmap_free(&pm);
			close(pfd);
			cgaction_free(a);
			return -EINVAL;
		}
	}
	bitmap_free(&pm);
	if (pfd >= 0)
		close(pfd);
	size_t nn = t->nnodes ? t->nnodes : 1;
	a->before_kb = calloc(nn, sizeof(int64_t));
	a->after_kb = calloc(nn, sizeof(int64_t));
	if (!a->before_kb || !a->after_kb) {
		cgaction_free(a);
		return -ENOMEM;
	}
	rc = read_numa(t, a->dirfd, a->before_kb, &a->before_total);
	if (rc) {
		snprintf(err, errsz, "cgroup %s: memory.numa_stat: %s (is the memory controller "
			 "enabled for it?)", path, strerror(-rc));
		cgaction_free(a);
		return rc;
	}
	return 0;
}

int cgaction_apply(const struct topology *t, struct cgaction *a, char *err, size_t errsz)
{
	int fd = openat(a->dirfd, "cpuset.mems", O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	int e = 0;
	if (fd < 0) {
		e = errno;
	} else {
		char v[32];
		int n = snprintf(v, sizeof(v), "%d\n", a->node_id);
		if (write(fd, v, (size_t)n) != n)
			e = errno ? errno : EIO;
		if (close(fd) != 0 && !e)
			e = errno;
	}
	if (e) {
		const char *why =
			e == EACCES || e == EPERM ? "need root (or write access to its cpuset.mems)" :
			e == ENOENT || e == ENODEV ? "the cgroup was removed" :
			e == EINVAL ? "the kernel refused the node (it must be in the parent's "
				      "cpuset.mems.effective)" :
			e == ENOSPC ? "the cgroup has processes and would be left without a node or CPU" :
			e == EBUSY ? "the cpuset is busy: try again" : "";
		snprintf(err, errsz, "cgroup %s: writing cpuset.mems: %s (%s)%s%s", a->path,
			 strerror(e), e == EACCES ? "EACCES" : e == EPERM ? "EPERM" :
			 e == EINVAL ? "EINVAL" : e == ENOSPC ? "ENOSPC" : e == EBUSY ? "EBUSY" :
			 e == ENOENT ? "ENOENT" : e == ENODEV ? "ENODEV" : "errno",
			 why[0] ? ": " : "", why);
		return -e;
	}
	read_at(a->dirfd, "cpuset.mems.effective", a->mems_effective, sizeof(a->mems_effective));
	int rc = read_numa(t, a->dirfd, a->after_kb, &a->after_total);
	if (rc) {
		snprintf(err, errsz, "cgroup %s: cpuset.mems set, but memory.numa_stat could not be "
			 "read again: %s", a->path, strerror(-rc));
		return rc;
	}
	return 0;
}

int cgaction_read_now(const struct topology *t, const struct cgaction *a, int64_t *kb,
		      int64_t *total)
{
	return a->dirfd >= 0 ? read_numa(t, a->dirfd, kb, total) : -EBADF;
}

int64_t cgaction_left_kb(const struct cgaction *a)
{
	return a->after_total - (a->node_idx >= 0 ? a->after_kb[a->node_idx] : 0);
}
