/* capture.c - copy what the readers read into a new tree (--capture DIR):
 * the lists follow topology.c, topo_cpu.c, nodestat.c, hmat.c, sampler_*.c,
 * cgroup*.c, proc.c's file backend, record_header.c and measure_io.c. */
#include "capture.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cgroup.h"
#include "parse.h"
#include "safefile.h"

#define NODE_DIR "/sys/devices/system/node"
#define CPU_DIR "/sys/devices/system/cpu"
#define MAX_SMALL ((size_t)16 << 20)   /* every file but numa_maps */

struct staged { char path[80]; size_t off, len; };

struct cap {
	const struct fsroot *r;
	int root;                /* the destination */
	int dfd;                 /* the last directory written to, or -1 */
	char dpath[4096];
	struct buf b, stage;
	struct staged *sv;       /* one process's files, in stage */
	size_t sn, scap;
	int64_t *uids;
	size_t nuids, uidcap;
	struct capture_stats *st;
};

static int by_pid(const void *a, const void *b)
{
	const struct capture_rank *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int by_rss(const void *a, const void *b)
{
	const struct capture_rank *x = a, *y = b;
	return x->rss_kb != y->rss_kb ? (x->rss_kb > y->rss_kb ? -1 : 1) : by_pid(a, b);
}

size_t capture_pick_top(struct capture_rank *v, size_t n, size_t top)
{
	if (n)
		qsort(v, n, sizeof(*v), by_rss);
	if (top < n)
		n = top;
	if (n)
		qsort(v, n, sizeof(*v), by_pid);
	return n;
}

int capture_open_dest(const char *dir)
{
	struct stat st;
	if (lstat(dir, &st) == 0) {
		if (S_ISLNK(st.st_mode))
			return -ELOOP;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
	} else if (errno != ENOENT || mkdir(dir, 0755) != 0) {
		return -errno;
	}
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	DIR *d = fdopendir(openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	int rc = d ? 0 : -errno;
	for (struct dirent *de; d && rc == 0 && (de = readdir(d)) != NULL;)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			rc = -ENOTEMPTY;
	if (d)
		closedir(d);
	if (rc)
		close(fd);
	return rc ? rc : fd;
}

/* The directory dir (kernel spelling, "/proc/1") below the destination,
 * made as needed, each part opened without following a link. */
static int dir_fd(struct cap *c, const char *dir)
{
	while (*dir == '/')
		dir++;
	if (!*dir)
		return c->root;
	if (c->dfd >= 0 && strcmp(dir, c->dpath) == 0)
		return c->dfd;
	if (c->dfd >= 0)
		close(c->dfd);
	c->dfd = -1;
	char tmp[sizeof(c->dpath)], *save = NULL;
	if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	int fd = dup(c->root);
	for (char *part = strtok_r(tmp, "/", &save); part && fd >= 0; part = strtok_r(NULL, "/", &save)) {
		int nfd = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0 && errno == ENOENT && mkdirat(fd, part, 0755) == 0)
			nfd = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = errno;
		close(fd);
		if ((fd = nfd) < 0)
			return -e;
	}
	if (fd < 0)
		return -errno;
	snprintf(c->dpath, sizeof(c->dpath), "%s", dir);
	return c->dfd = fd;
}

/* The directory fd of an absolute path, and its last part in *name. */
static int parent_fd(struct cap *c, const char *path, const char **name)
{
	char dir[sizeof(c->dpath)];
	*name = strrchr(path, '/') + 1;
	snprintf(dir, sizeof(dir), "%.*s", (int)(*name - path - 1), path);
	return dir_fd(c, dir);
}

static int put(struct cap *c, const char *path, const char *data, size_t len)
{
	const char *name;
	int dfd = parent_fd(c, path, &name);
	if (dfd < 0)
		return dfd;
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	int rc = safefile_write_all(fd, data, len);
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0) {
		c->st->files++;
		c->st->bytes += len;
	}
	return rc;
}

/* Read path into c->b: 1 read, 0 not there, -errno unreadable (noted). */
static int get(struct cap *c, const char *path, size_t max)
{
	int rc = fsroot_read_file(c->r, path, &c->b, max);
	if (rc == -ENOENT || rc == -ESRCH || rc == -ENOTDIR)
		return 0;
	if (rc && c->st->unreadable++ == 0) {
		snprintf(c->st->first_unreadable, sizeof(c->st->first_unreadable), "%s", path);
		c->st->unreadable_errno = -rc;
	}
	return rc ? rc : 1;
}

/* Copy one file when it is there: 0, or -errno of the write. */
static int copy(struct cap *c, const char *path)
{
	return get(c, path, MAX_SMALL) == 1 ? put(c, path, c->b.data ? c->b.data : "", c->b.len) : 0;
}

/* Copy dir/name for each name; dir is made even when none is there. */
static int copy_in(struct cap *c, const char *dir, const char *const *names)
{
	int rc = dir_fd(c, dir);
	char path[4096];
	for (size_t i = 0; rc >= 0 && names[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		rc = copy(c, path);
	}
	return rc < 0 ? rc : 0;
}

static const char *const sys_files[] = {
	"/proc/stat", "/proc/meminfo", "/proc/vmstat", "/proc/zoneinfo", "/proc/cpuinfo",
	"/proc/sys/kernel/numa_balancing", "/proc/sys/kernel/osrelease",
	"/proc/sys/kernel/hostname", "/sys/hypervisor/type", "/sys/class/dmi/id/sys_vendor",
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
			int dfd = parent_fd(c, path, &name);
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
	int rc = copy(c, "/sys/fs/cgroup/cgroup.controllers");
	if (rc == 0 && l == CGROUP_HYBRID)
		rc = copy(c, "/sys/fs/cgroup/unified/cgroup.controllers");
	struct cgwalk w = { .mem = cgroup_mem_base(l), .mem_files = l == CGROUP_V2 ? v2_mem : v1_mem };
	if (l != CGROUP_V2 && fsroot_exists(c->r, "/sys/fs/cgroup/cpuset/cgroup.procs") == 0)
		w.cpuset = "/sys/fs/cgroup/cpuset", w.cpu_files = v1_cpu;
	return rc ? rc : copy_cgroup(c, &w, "", 0);
}

/* Read path into the stage: 1 read, 0 not there or unreadable, -errno. */
static int stage(struct cap *c, const char *path, size_t max)
{
	int rc = get(c, path, max);
	struct staged *v = rc <= 0 ? NULL : buf_grow_array(c->sv, &c->scap, c->sn + 1, sizeof(*v));
	if (!v)
		return rc == -ENOMEM || rc > 0 ? -ENOMEM : 0;
	c->sv = v;
	snprintf(v[c->sn].path, sizeof(v->path), "%s", path);
	v[c->sn].off = c->stage.len;
	v[c->sn].len = c->b.len;
	if (c->b.len && buf_append(&c->stage, c->b.data, c->b.len) != 0)
		return -ENOMEM;
	c->sn++;
	return 1;
}

static void add_uid(struct cap *c, int64_t uid)
{
	for (size_t i = 0; i < c->nuids; i++)
		if (c->uids[i] == uid)
			return;
	int64_t *v = buf_grow_array(c->uids, &c->uidcap, c->nuids + 1, sizeof(*v));
	if (v)
		(c->uids = v)[c->nuids++] = uid;
}

/* One process, whole: read every file, then stat again; written only
 * when the process is still the same one (PID and start time). */
static int copy_proc(struct cap *c, int pid)
{
	static const char *const names[] = { "status", "cmdline", "numa_maps", "cgroup", "sched" };
	char path[80];
	struct pid_stat st0, st1;
	struct pid_status ss;
	c->sn = 0;
	buf_clear(&c->stage);
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	int rc = stage(c, path, MAX_SMALL);
	if (rc <= 0)
		return rc;
	bool parsed = parse_pid_stat(c->b.data, c->b.len, &st0) == 0;
	int64_t uid = -1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && rc >= 0; i++) {
		snprintf(path, sizeof(path), "/proc/%d/%s", pid, names[i]);
		rc = stage(c, path, i == 2 ? FSROOT_MAX_FILE : MAX_SMALL);
		if (rc == 1 && i == 0 && parse_pid_status(c->b.data, c->b.len, &ss) == 0)
			uid = ss.uid;
	}
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	int *tids = NULL;
	size_t n = 0;
	if (rc >= 0 && fsroot_list_ids(c->r, path, "", FSROOT_DIRS, &tids, &n) == 0)
		for (size_t i = 0; i < n && rc >= 0; i++) {
			snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tids[i]);
			rc = stage(c, path, MAX_SMALL);
			snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", pid, tids[i]);
			if (rc >= 0)
				rc = stage(c, path, MAX_SMALL);
		}
	free(tids);
	if (rc < 0)
		return rc;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	int again = fsroot_read_file(c->r, path, &c->b, MAX_SMALL);
	if (again == -ENOENT || again == -ESRCH ||
	    (again == 0 && parsed && (parse_pid_stat(c->b.data, c->b.len, &st1) != 0 ||
				      st1.starttime != st0.starttime))) {
		c->st->vanished++;
		return 0;
	}
	for (size_t i = 0; i < c->sn && rc >= 0; i++)
		rc = put(c, c->sv[i].path, c->stage.data ? c->stage.data + c->sv[i].off : "",
			 c->sv[i].len);
	if (rc < 0)
		return rc;
	c->st->procs++;
	if (uid >= 0)
		add_uid(c, uid);
	return 0;
}

static int copy_procs(struct cap *c, const struct capture_opts *o)
{
	int *pids = NULL;
	size_t n = 0, keep = 0;
	if (o->mode == CAPTURE_NONE || fsroot_list_ids(c->r, "/proc", "", FSROOT_DIRS, &pids, &n) != 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k <= o->npids; k++)
			if (k == o->npids ? !o->pids : o->pids[k] == pids[i]) {
				pids[keep++] = pids[i];
				break;
			}
	n = keep;
	if (o->mode == CAPTURE_TOP) {
		struct capture_rank *v = calloc(n ? n : 1, sizeof(*v));
		if (!v) {
			free(pids);
			return -ENOMEM;
		}
		long pagekb = sysconf(_SC_PAGESIZE) / 1024;
		size_t m = 0;
		for (size_t i = 0; i < n; i++) {
			char path[64];
			struct pid_stat st;
			snprintf(path, sizeof(path), "/proc/%d/stat", pids[i]);
			if (fsroot_read_file(c->r, path, &c->b, MAX_SMALL) == 0 &&
			    parse_pid_stat(c->b.data, c->b.len, &st) == 0)
				v[m++] = (struct capture_rank){ pids[i], st.rss_pages * pagekb };
		}
		n = capture_pick_top(v, m, o->top);
		for (size_t i = 0; i < n; i++)
			pids[i] = v[i].pid;
		free(v);
	}
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = copy_proc(c, pids[i]);
	free(pids);
	return rc;
}

/* etc/passwd: a recorded tree's own; live, one line per captured uid
 * that has a name (uid and name: what the tree reader uses). */
static int copy_users(struct cap *c)
{
	if (!fsroot_is_live(c->r))
		return copy(c, "/etc/passwd");
	buf_clear(&c->b);
	for (size_t i = 0; i < c->nuids; i++) {
		struct passwd *pw = getpwuid((uid_t)c->uids[i]);
		char line[256];
		int len = pw ? snprintf(line, sizeof(line), "%s:x:%lld:%lld::/:/usr/sbin/nologin\n",
					pw->pw_name, (long long)c->uids[i], (long long)pw->pw_gid) : 0;
		if (len > 0 && (size_t)len < sizeof(line) && buf_append(&c->b, line, (size_t)len) != 0)
			return -ENOMEM;
	}
	return c->b.len ? put(c, "/etc/passwd", c->b.data, c->b.len) : 0;
}

int capture_run(const struct fsroot *src, int destfd, const struct capture_opts *o,
		struct capture_stats *st)
{
	memset(st, 0, sizeof(*st));
	struct cap c = { .r = src, .root = destfd, .dfd = -1, .st = st };
	int rc = 0;
	for (size_t i = 0; sys_files[i] && rc == 0; i++)
		rc = copy(&c, sys_files[i]);
	rc = rc ? rc : copy_ids(&c, NODE_DIR, "node", node_files, copy_node);
	rc = rc ? rc : copy_ids(&c, CPU_DIR, "cpu", online_file, copy_cpu);
	rc = rc ? rc : copy_ids(&c, "/sys/devices/virtual/memory_tiering", "memory_tier", tier_files, NULL);
	rc = rc ? rc : copy_cgroups(&c);
	rc = rc ? rc : dir_fd(&c, "/proc");    /* there even with no process */
	rc = rc < 0 ? rc : copy_procs(&c, o);
	rc = rc ? rc : copy_users(&c);
	if (c.dfd >= 0)
		close(c.dfd);
	buf_free(&c.b);
	buf_free(&c.stage);
	free(c.sv);
	free(c.uids);
	return rc;
}
