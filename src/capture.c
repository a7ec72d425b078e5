/* capture.c - copy what the readers read into a new tree (--capture DIR):
 * the lists follow topology.c, topo_cpu.c, nodestat.c, hmat.c, sampler_*.c,
 * cgroup*.c, proc.c's file backend, record_header.c and measure_io.c; the
 * processes and users are capture_proc.c's, DAMON's kdamonds
 * capture_damon.c's. */
#include "capture.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture_int.h"
#include "cgroup.h"
#include "safefile.h"

#define NODE_DIR "/sys/devices/system/node"
#define CPU_DIR "/sys/devices/system/cpu"
#define HOSTNAME "/proc/sys/kernel/hostname"

int capture_open_dest(const char *dir, char *why, size_t whysz)
{
	struct stat st;
	why[0] = '\0';
	if (lstat(dir, &st) == 0) {
		if (S_ISLNK(st.st_mode))
			return -ELOOP;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
	} else if (errno != ENOENT || mkdir(dir, 0700) != 0) {
		return -errno;
	}
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* Checked on what was opened (a directory swapped in meanwhile is
	 * what is checked); made private once it is known to be empty. */
	int rc = safefile_check_private(fd, dir, why, whysz);
	DIR *d = rc ? NULL : fdopendir(openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	rc = rc ? rc : d ? 0 : -errno;
	for (struct dirent *de; d && rc == 0 && (de = readdir(d)) != NULL;)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			rc = -ENOTEMPTY;
	if (d)
		closedir(d);
	if (rc == 0 && fstat(fd, &st) == 0 && (st.st_mode & 077) && fchmod(fd, st.st_mode & 07700) != 0)
		rc = -errno;
	if (rc)
		close(fd);
	return rc ? rc : fd;
}

static int copy_in(struct cap *c, const char *dir, const char *const *names)
{
	int rc = capture_dir_fd(c, dir);
	char path[4096];
	for (size_t i = 0; rc >= 0 && names[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		rc = capture_copy(c, path);
	}
	return rc < 0 ? rc : 0;
}

static const char *const sys_files[] = {
	"/proc/stat", "/proc/meminfo", "/proc/vmstat", "/proc/zoneinfo", "/proc/cpuinfo",
	"/proc/sys/kernel/numa_balancing", "/proc/sys/kernel/osrelease",
	"/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps", "/sys/kernel/mm/numa/demotion_enabled",
	"/sys/hypervisor/type", "/sys/class/dmi/id/sys_vendor",
	"/sys/class/dmi/id/product_name", "/sys/class/dmi/id/bios_vendor",
	CPU_DIR "/online", CPU_DIR "/possible", CPU_DIR "/present",
	NODE_DIR "/online", NODE_DIR "/possible", NODE_DIR "/has_cpu", NODE_DIR "/has_memory",
	NODE_DIR "/has_normal_memory", NODE_DIR "/has_high_memory",
	NODE_DIR "/has_generic_initiator", NULL,
};
static const char *const node_files[] = { "cpulist", "cpumap", "distance", "meminfo",
					  "numastat", "vmstat", NULL };
static const char *const pool_files[] = { "nr_hugepages", "free_hugepages", NULL };
static const char *const hmat_files[] = { "read_latency", "read_bandwidth", "write_latency",
					  "write_bandwidth", NULL };
static const char *const topo_files[] = { "physical_package_id", "die_id", "core_id",
					  "cluster_id", "thread_siblings_list", "thread_siblings",
					  "core_siblings_list", "core_siblings", NULL };
static const char *const cache_files[] = { "level", "type", "size", "shared_cpu_list",
					   "shared_cpu_map", NULL };
static const char *const online_file[] = { "online", NULL };
static const char *const tier_files[] = { "nodelist", NULL };

/* Directories PREFIX<id> of dir, each made and filled with names, then
 * more(c, path, id) when given. */
static int copy_ids(struct cap *c, const char *dir, const char *prefix, const char *const *names,
		    int (*more)(struct cap *c, const char *path))
{
	int *ids = NULL;
	size_t n = 0;
	if (fsroot_list_ids(c->r, dir, prefix, FSROOT_DIRS, &ids, &n) != 0)
		return 0;
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/%s%d", dir, prefix, ids[i]);
		rc = copy_in(c, path, names);
		if (rc == 0 && more)
			rc = more(c, path);
	}
	free(ids);
	return rc;
}

/* accessK/initiators: the attributes and the nodeN links (by name). */
static int copy_hmat(struct cap *c, const char *node)
{
	int rc = 0;
	for (int k = 0; k <= 1 && rc == 0; k++) {
		char dir[512], path[600], target[64];
		snprintf(dir, sizeof(dir), "%s/access%d/initiators", node, k);
		int *ids = NULL;
		size_t n = 0;
		if (fsroot_list_ids(c->r, dir, "node", FSROOT_LINKS, &ids, &n) != 0)
			continue;
		rc = copy_in(c, dir, hmat_files);
		for (size_t i = 0; i < n && rc == 0; i++) {
			snprintf(path, sizeof(path), "%s/node%d", dir, ids[i]);
			snprintf(target, sizeof(target), "../../../node%d", ids[i]);
			const char *name;
			int dfd = capture_parent_fd(c, path, &name);
			rc = dfd < 0 ? dfd : symlinkat(target, dfd, name) != 0 ? -errno : 0;
			c->st->links += rc == 0;
		}
		free(ids);
	}
	return rc;
}

static int copy_node(struct cap *c, const char *node)
{
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/hugepages", node);
	char **names = NULL;
	size_t n = 0;
	int rc = 0;
	if (fsroot_list_names(c->r, dir, "hugepages-", FSROOT_DIRS, &names, &n) == 0) {
		for (size_t i = 0; i < n && rc == 0; i++) {
			char pool[600];
			snprintf(pool, sizeof(pool), "%s/%s", dir, names[i]);
			rc = copy_in(c, pool, pool_files);
		}
		fsroot_free_names(names, n);
	}
	return rc ? rc : copy_hmat(c, node);
}

static int copy_cpu(struct cap *c, const char *cpu)
{
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/topology", cpu);
	if (fsroot_exists(c->r, dir) != 0)
		return 0;
	int rc = copy_in(c, dir, topo_files);
	snprintf(dir, sizeof(dir), "%s/cache", cpu);
	return rc ? rc : copy_ids(c, dir, "index", cache_files, NULL);
}

/* The cgroup walk of cgroup.c: the memory hierarchy (and v1's cpuset
 * one) in preorder, CGROUP_MAX cgroups, CGROUP_MAX_DEPTH deep. */
struct cgwalk { const char *mem, *cpuset; const char *const *mem_files, *const *cpu_files; size_t n; };

static int copy_cgroup(struct cap *c, struct cgwalk *w, const char *path, int depth)
{
	if (w->n++ >= CGROUP_MAX)
		return 0;
	char dir[4096], cpuset[4096];
	snprintf(cpuset, sizeof(cpuset), "%s%s", w->cpuset ? w->cpuset : "", path);
	snprintf(dir, sizeof(dir), "%s%s", w->mem, path);
	int rc = copy_in(c, dir, w->mem_files);
	if (rc == 0 && w->cpuset && fsroot_exists(c->r, cpuset) == 0)
		rc = copy_in(c, cpuset, w->cpu_files);
	char **names = NULL;
	size_t n = 0;
	if (rc || depth >= CGROUP_MAX_DEPTH ||
	    fsroot_list_names(c->r, dir, "", FSROOT_DIRS, &names, &n) != 0)
		return rc;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char child[4096];
		if (snprintf(child, sizeof(child), "%s/%s", path, names[i]) < (int)sizeof(child))
			rc = copy_cgroup(c, w, child, depth + 1);
	}
	fsroot_free_names(names, n);
	return rc;
}

static int copy_cgroups(struct cap *c)
{
	static const char *const v2_mem[] = { "cgroup.procs", "memory.numa_stat", "memory.current",
					      "cpuset.cpus.effective", "cpuset.mems.effective", NULL };
	static const char *const v1_mem[] = { "cgroup.procs", "memory.numa_stat",
					      "memory.usage_in_bytes", NULL };
	static const char *const v1_cpu[] = { "cgroup.procs", "cpuset.effective_cpus",
					      "cpuset.effective_mems", NULL };
	enum cgroup_layout l = cgroup_detect(c->r);
	if (l == CGROUP_NONE)
		return 0;
	int rc = capture_copy(c, "/sys/fs/cgroup/cgroup.controllers");
	if (rc == 0 && l == CGROUP_HYBRID)
		rc = capture_copy(c, "/sys/fs/cgroup/unified/cgroup.controllers");
	struct cgwalk w = { .mem = cgroup_mem_base(l), .mem_files = l == CGROUP_V2 ? v2_mem : v1_mem };
	if (l != CGROUP_V2 && fsroot_exists(c->r, "/sys/fs/cgroup/cpuset/cgroup.procs") == 0)
		w.cpuset = "/sys/fs/cgroup/cpuset", w.cpu_files = v1_cpu;
	return rc ? rc : copy_cgroup(c, &w, "", 0);
}

int capture_run(const struct fsroot *src, int destfd, const struct capture_opts *o,
		struct capture_stats *st)
{
	memset(st, 0, sizeof(*st));
	struct cap c = { .r = src, .o = o, .root = destfd, .dfd = -1, .st = st };
	int rc = 0;
	for (size_t i = 0; sys_files[i] && rc == 0; i++)
		rc = capture_copy(&c, sys_files[i]);
	/* The host name, unless anonymized. */
	size_t files = st->files;
	rc = rc || o->anonymize ? rc : capture_copy(&c, HOSTNAME);
	st->host = st->files > files;
	rc = rc ? rc : copy_ids(&c, NODE_DIR, "node", node_files, copy_node);
	rc = rc ? rc : copy_ids(&c, CPU_DIR, "cpu", online_file, copy_cpu);
	rc = rc ? rc : copy_ids(&c, "/sys/devices/virtual/memory_tiering", "memory_tier", tier_files, NULL);
	rc = rc ? rc : copy_cgroups(&c);
	rc = rc ? rc : capture_copy_damon(&c);
	rc = rc ? rc : capture_dir_fd(&c, "/proc");    /* there even with no process */
	rc = rc < 0 ? rc : capture_copy_procs(&c);
	rc = rc ? rc : capture_copy_users(&c);
	if (c.dfd >= 0)
		close(c.dfd);
	buf_free(&c.b);
	buf_free(&c.stage);
	free(c.sv);
	free(c.uids);
	return rc;
}
