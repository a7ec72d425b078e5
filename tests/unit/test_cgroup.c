/* test_cgroup.c - the cgroup parsers (memory.numa_stat v1 and v2,
 * /proc/PID/cgroup, the short name) on literal inputs, then the reader
 * (layout, walk, per-node kB, procs, cpuset, REMOTE) and the per-process
 * map on small trees built at run time in a mkdtemp() directory. Every
 * expected value is computed by hand in the comments. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "proc.h"
#include "check.h"

/* ---- helpers ---- */

/* Parse a numa_stat buffer with max_id into fixed arrays. */
struct ns {
	int64_t node[8], anon[8], file[8];
	struct cgroup_numa_stat s;
};

static int parse_ns(struct ns *x, const char *buf, size_t len, long page_kb, int max_id)
{
	x->s = (struct cgroup_numa_stat){ .node_kb = x->node, .anon_kb = x->anon,
					  .file_kb = x->file, .max_id = max_id };
	return cgroup_parse_numa_stat(buf, len, page_kb, &x->s);
}

/* Write root/rel (creating its directories), text as given. */
static void put(const char *root, const char *rel, const char *text)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	FILE *f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void mkdirs(const char *root, const char *rel)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s/%s/", root, rel);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
}

static void rm_tree(const char *dir)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("  note: could not remove %s\n", dir);
}

/* A temp dir holding a copy of opteron4's sys/devices (4 nodes 0-3, CPUs
 * 0-7, every node with memory; not its cgroups). 0, or -1 when not run from the project root. */
static int new_tree(char *dir)
{
	if (!mkdtemp(dir))
		return -1;
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "mkdir '%s/sys' && "
		 "cp -r tests/trees/opteron4/sys/devices '%s/sys/devices' 2>/dev/null", dir, dir);
	if (system(cmd) != 0) {
		rm_tree(dir);
		return -1;
	}
	return 0;
}

static long page_kb(void)
{
	long ps = sysconf(_SC_PAGESIZE);
	return ps > 0 ? ps / 1024 : 4;
}

/* ---- memory.numa_stat, v2 (bytes) ---- */

static void numa_stat_v2(void)
{
	struct ns x;
	const char *t = "anon N0=4096 N1=8192\n"
			"file N0=1048576 N1=0\n"
			"kernel_stack N0=16384 N1=0\n"
			"shmem N0=0 N1=0\n";
	CHECK_EQ_INT(parse_ns(&x, t, strlen(t), 4, 1), 0);
	CHECK_EQ_INT(x.s.version, 2);
	CHECK_EQ_INT(x.anon[0], 4);
	CHECK_EQ_INT(x.anon[1], 8);
	CHECK_EQ_INT(x.file[0], 1024);
	CHECK_EQ_INT(x.file[1], 0);
	CHECK_EQ_INT(x.node[0], 1028);          /* anon + file */
	CHECK_EQ_INT(x.node[1], 8);
	CHECK_EQ_INT(x.s.other_kb, 0);
	CHECK_EQ_INT(x.s.other_id, -1);

	/* A fuller real-looking file: other keys (file_mapped, anon_thp,
	 * file_dirty ...) do not disturb anon and file; order does not matter. */
	const char *full =
		"file_mapped N0=4096 N1=0\n"
		"anon_thp N0=2097152 N1=0\n"
		"file N0=8192 N1=4096\n"
		"file_dirty N0=0 N1=0\n"
		"anon N0=2101248 N1=12288\n"
		"unevictable N0=0 N1=0\n"
		"slab_reclaimable N0=1024 N1=0\n";
	CHECK_EQ_INT(parse_ns(&x, full, strlen(full), 4, 1), 0);
	CHECK_EQ_INT(x.anon[0], 2052);          /* 2101248 / 1024 */
	CHECK_EQ_INT(x.anon[1], 12);
	CHECK_EQ_INT(x.file[0], 8);
	CHECK_EQ_INT(x.file[1], 4);
	CHECK_EQ_INT(x.node[0], 2060);
	CHECK_EQ_INT(x.node[1], 16);
}

static void numa_stat_v2_other_and_sparse(void)
{
	struct ns x;
	/* Ids past max_id = 1: anon + file of N2 and N3 summed into other. */
	const char *t = "anon N0=4096 N1=0 N2=2048 N3=1024\n"
			"file N0=0 N1=0 N2=8192 N3=0\n";
	CHECK_EQ_INT(parse_ns(&x, t, strlen(t), 4, 1), 0);
	CHECK_EQ_INT(x.node[0], 4);
	CHECK_EQ_INT(x.node[1], 0);
	CHECK_EQ_INT(x.s.other_kb, 2 + 1 + 8 + 0);
	CHECK_EQ_INT(x.s.other_id, 2);          /* the first such id */
	/* Only the first id past max_id is named, even when it comes later
	 * in the line than another one. */
	const char *t2 = "anon N0=0 N5=4096 N3=4096\nfile N0=0 N5=0 N3=0\n";
	CHECK_EQ_INT(parse_ns(&x, t2, strlen(t2), 4, 1), 0);
	CHECK_EQ_INT(x.s.other_kb, 8);
	CHECK_EQ_INT(x.s.other_id, 5);

	/* Sparse ids: N0 and N2 with max_id 2; node 1 stays unknown. */
	const char *sp = "anon N0=4096 N2=8192\nfile N0=4096 N2=0\n";
	CHECK_EQ_INT(parse_ns(&x, sp, strlen(sp), 4, 2), 0);
	CHECK_EQ_INT(x.node[0], 8);
	CHECK_EQ_INT(x.node[1], -1);
	CHECK_EQ_INT(x.anon[1], -1);
	CHECK_EQ_INT(x.file[1], -1);
	CHECK_EQ_INT(x.node[2], 8);
	CHECK_EQ_INT(x.s.other_kb, 0);
	CHECK_EQ_INT(x.s.other_id, -1);
}

static void numa_stat_v2_errors(void)
{
	struct ns x;
	/* No "file" line: node memory cannot be known. */
	const char *nofile = "anon N0=4096 N1=8192\nshmem N0=0 N1=0\n";
	CHECK_EQ_INT(parse_ns(&x, nofile, strlen(nofile), 4, 1), -EINVAL);
	/* No "anon" line either way. */
	const char *noanon = "file N0=4096 N1=8192\n";
	CHECK_EQ_INT(parse_ns(&x, noanon, strlen(noanon), 4, 1), -EINVAL);
	/* A token that is not N<id>=<number>. */
	const char *bad = "anon N0=abc\nfile N0=0\n";
	CHECK_EQ_INT(parse_ns(&x, bad, strlen(bad), 4, 1), -EINVAL);
	const char *bad2 = "anon N0=4096 X1=5\nfile N0=0\n";
	CHECK_EQ_INT(parse_ns(&x, bad2, strlen(bad2), 4, 1), -EINVAL);
	const char *bad3 = "anon N0=40x6\nfile N0=0\n";
	CHECK_EQ_INT(parse_ns(&x, bad3, strlen(bad3), 4, 1), -EINVAL);
	const char *bad4 = "anon N=4096\nfile N0=0\n";
	CHECK_EQ_INT(parse_ns(&x, bad4, strlen(bad4), 4, 1), -EINVAL);
	/* Empty, or nothing understood. */
	CHECK_EQ_INT(parse_ns(&x, "", 0, 4, 1), -EINVAL);
	CHECK_EQ_INT(x.node[0], -1);
	CHECK_EQ_INT(x.node[1], -1);
	CHECK_EQ_INT(parse_ns(&x, "\n\n", 2, 4, 1), -EINVAL);
	const char *junk = "hello world\nfoo=bar\n";
	CHECK_EQ_INT(parse_ns(&x, junk, strlen(junk), 4, 1), -EINVAL);
}

static void numa_stat_length(void)
{
	struct ns x;
	/* Only len bytes are used: the file value "1024000" is cut to
	 * "1024" bytes = 1 kB, in an exact-size heap copy (no NUL after it:
	 * a sanitizer sees any read past the end). */
	const char *t = "anon N0=4096\nfile N0=1024000\nshmem N0=0\n";
	size_t len = strlen("anon N0=4096\nfile N0=1024");
	char *raw = malloc(len);
	CHECK(raw != NULL);
	if (!raw)
		return;
	memcpy(raw, t, len);
	CHECK_EQ_INT(parse_ns(&x, raw, len, 4, 0), 0);
	CHECK_EQ_INT(x.anon[0], 4);
	CHECK_EQ_INT(x.file[0], 1);
	CHECK_EQ_INT(x.node[0], 5);
	free(raw);
	/* Cut before the file line's first token: "file" alone is no line,
	 * so file is missing. */
	len = strlen("anon N0=4096\nfile");
	raw = malloc(len);
	if (!raw)
		return;
	memcpy(raw, t, len);
	CHECK_EQ_INT(parse_ns(&x, raw, len, 4, 0), -EINVAL);
	free(raw);
	/* Cut after "N0=": a token without its number. */
	len = strlen("anon N0=4096\nfile N0=");
	raw = malloc(len);
	if (!raw)
		return;
	memcpy(raw, t, len);
	CHECK_EQ_INT(parse_ns(&x, raw, len, 4, 0), -EINVAL);
	free(raw);
	/* v1: "hierarchical_" past the end is not seen. */
	const char *v1 = "total=10 N0=10\nhierarchical_total=99 N0=99\n";
	len = strlen("total=10 N0=10\n");
	raw = malloc(len);
	if (!raw)
		return;
	memcpy(raw, v1, len);
	CHECK_EQ_INT(parse_ns(&x, raw, len, 4, 0), 0);
	CHECK_EQ_INT(x.node[0], 40);
	free(raw);
}

/* ---- memory.numa_stat, v1 (pages) ---- */

static void numa_stat_v1(void)
{
	struct ns x;
	const char *t = "total=3139 N0=3139\n"
			"file=68 N0=68\n"
			"anon=0 N0=0\n"
			"unevictable=3071 N0=3071\n"
			"hierarchical_total=613017 N0=613017\n"
			"hierarchical_file=607011 N0=607011\n"
			"hierarchical_anon=2935 N0=2935\n"
			"hierarchical_unevictable=3071 N0=3071\n";
	CHECK_EQ_INT(parse_ns(&x, t, strlen(t), 4, 0), 0);
	CHECK_EQ_INT(x.s.version, 1);
	CHECK_EQ_INT(x.node[0], 613017LL * 4);   /* hierarchical wins */
	CHECK_EQ_INT(x.file[0], 607011LL * 4);
	CHECK_EQ_INT(x.anon[0], 2935LL * 4);
	CHECK_EQ_INT(x.s.other_kb, 0);
	CHECK_EQ_INT(x.s.other_id, -1);

	/* Hierarchical lines first, the cgroup's own after: still they win. */
	const char *rev = "hierarchical_total=7 N0=7\ntotal=3 N0=3\nfile=1 N0=1\n";
	CHECK_EQ_INT(parse_ns(&x, rev, strlen(rev), 4, 0), 0);
	CHECK_EQ_INT(x.node[0], 28);
	CHECK_EQ_INT(x.file[0], -1);     /* no hierarchical_file */

	/* Without hierarchical lines the plain ones are used. */
	const char *plain = "total=3139 N0=3139\nfile=68 N0=68\nanon=0 N0=0\n"
			    "unevictable=3071 N0=3071\n";
	CHECK_EQ_INT(parse_ns(&x, plain, strlen(plain), 4, 0), 0);
	CHECK_EQ_INT(x.s.version, 1);
	CHECK_EQ_INT(x.node[0], 3139LL * 4);
	CHECK_EQ_INT(x.file[0], 68 * 4);
	CHECK_EQ_INT(x.anon[0], 0);

	/* Two nodes, 64 kB pages. */
	const char *two = "total=300 N0=100 N1=200\n"
			  "file=30 N0=10 N1=20\n"
			  "anon=270 N0=90 N1=180\n"
			  "unevictable=0 N0=0 N1=0\n";
	CHECK_EQ_INT(parse_ns(&x, two, strlen(two), 64, 1), 0);
	CHECK_EQ_INT(x.node[0], 6400);
	CHECK_EQ_INT(x.node[1], 12800);
	CHECK_EQ_INT(x.file[0], 640);
	CHECK_EQ_INT(x.file[1], 1280);
	CHECK_EQ_INT(x.anon[0], 5760);
	CHECK_EQ_INT(x.anon[1], 11520);
	/* Same with max_id 0: N1's total (200 pages) is other, once. */
	CHECK_EQ_INT(parse_ns(&x, two, strlen(two), 4, 0), 0);
	CHECK_EQ_INT(x.node[0], 400);
	CHECK_EQ_INT(x.s.other_kb, 800);
	CHECK_EQ_INT(x.s.other_id, 1);
}

static void numa_stat_v1_errors(void)
{
	struct ns x;
	/* v1 and v2 lines mixed, in either order. */
	const char *mix = "total=1 N0=1\nfile=1 N0=1\nanon N0=4096\nfile N0=4096\n";
	CHECK_EQ_INT(parse_ns(&x, mix, strlen(mix), 4, 0), -EINVAL);
	const char *mix2 = "anon N0=4096\nfile N0=4096\ntotal=1 N0=1\n";
	CHECK_EQ_INT(parse_ns(&x, mix2, strlen(mix2), 4, 0), -EINVAL);
	/* A bad page size. */
	const char *ok = "total=3 N0=3\n";
	CHECK_EQ_INT(parse_ns(&x, ok, strlen(ok), 0, 0), -EINVAL);
	CHECK_EQ_INT(parse_ns(&x, ok, strlen(ok), -4, 0), -EINVAL);
	CHECK_EQ_INT(x.node[0], -1);
	CHECK_EQ_INT(parse_ns(&x, ok, strlen(ok), 4, 0), 0);
	CHECK_EQ_INT(x.node[0], 12);
	/* Garbage values. */
	const char *g1 = "total=abc N0=1\n";
	CHECK_EQ_INT(parse_ns(&x, g1, strlen(g1), 4, 0), -EINVAL);
	const char *g2 = "total=3 N0=x\n";
	CHECK_EQ_INT(parse_ns(&x, g2, strlen(g2), 4, 0), -EINVAL);
	const char *g3 = "total=3 M0=3\n";
	CHECK_EQ_INT(parse_ns(&x, g3, strlen(g3), 4, 0), -EINVAL);
	/* A page count that overflows in kB. */
	const char *big = "total=4611686018427387904 N0=4611686018427387904\n";
	CHECK_EQ_INT(parse_ns(&x, big, strlen(big), 4, 0), -EINVAL);
}

/* ---- /proc/PID/cgroup ---- */

static void proc_cgroup(void)
{
	struct cgroup_proc_paths pp;
	const char *v2 = "0::/user.slice/user-0.slice/session-1.scope\n";
	CHECK_EQ_INT(cgroup_parse_proc(v2, strlen(v2), &pp), 0);
	CHECK(pp.have_v2);
	CHECK(!pp.have_memory);
	CHECK_EQ_STR(pp.v2, "/user.slice/user-0.slice/session-1.scope");
	CHECK_EQ_STR(pp.memory, "");

	const char *hyb = "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/ec3e\n"
			  "3:cpuset:/\n0::/\n";
	CHECK_EQ_INT(cgroup_parse_proc(hyb, strlen(hyb), &pp), 0);
	CHECK(pp.have_memory);
	CHECK_EQ_STR(pp.memory, "/process_api/ec3e");
	CHECK(pp.have_v2);
	CHECK_EQ_STR(pp.v2, "/");

	const char *comb = "5:cpu,cpuacct:/a\n4:memory,blkio:/b\n";
	CHECK_EQ_INT(cgroup_parse_proc(comb, strlen(comb), &pp), 0);
	CHECK(pp.have_memory);
	CHECK_EQ_STR(pp.memory, "/b");
	CHECK(!pp.have_v2);
	CHECK_EQ_STR(pp.v2, "");
	/* "memory" last in the list; "memoryx" is not it. */
	const char *comb2 = "4:blkio,memory:/c\n6:memoryx:/d\n";
	CHECK_EQ_INT(cgroup_parse_proc(comb2, strlen(comb2), &pp), 0);
	CHECK_EQ_STR(pp.memory, "/c");

	CHECK_EQ_INT(cgroup_parse_proc("0::/\n", 5, &pp), 0);
	CHECK(pp.have_v2);
	CHECK(!pp.have_memory);
	CHECK_EQ_STR(pp.v2, "/");
	/* No final newline. */
	CHECK_EQ_INT(cgroup_parse_proc("0::/x", 5, &pp), 0);
	CHECK_EQ_STR(pp.v2, "/x");
	/* Only len bytes: "0::/abc" cut to "0::/ab", in an exact-size copy. */
	char *raw = malloc(6);
	if (raw) {
		memcpy(raw, "0::/abc\n", 6);
		CHECK_EQ_INT(cgroup_parse_proc(raw, 6, &pp), 0);
		CHECK_EQ_STR(pp.v2, "/ab");
		free(raw);
	}
}

static void proc_cgroup_errors(void)
{
	struct cgroup_proc_paths pp;
	/* The longest path that fits (511 bytes) and one byte more. */
	char buf[700];
	char path[600];
	memset(path, 'x', sizeof(path));
	path[0] = '/';
	snprintf(buf, sizeof(buf), "0::%.*s\n", 511, path);
	CHECK_EQ_INT(cgroup_parse_proc(buf, strlen(buf), &pp), 0);
	CHECK_EQ_INT(strlen(pp.v2), 511);
	snprintf(buf, sizeof(buf), "0::%.*s\n", 512, path);
	CHECK_EQ_INT(cgroup_parse_proc(buf, strlen(buf), &pp), -ENAMETOOLONG);
	CHECK_EQ_INT(strlen(pp.v2), 511);       /* cut at n - 1 */
	snprintf(buf, sizeof(buf), "4:memory:%.*s\n0::/\n", 600, path);
	CHECK_EQ_INT(cgroup_parse_proc(buf, strlen(buf), &pp), -ENAMETOOLONG);
	CHECK_EQ_INT(strlen(pp.memory), 511);
	CHECK(strncmp(pp.memory, path, 511) == 0);

	const char *g = "hello\n";
	CHECK_EQ_INT(cgroup_parse_proc(g, strlen(g), &pp), -EINVAL);
	const char *g2 = "0::/\nnot a cgroup line\n";
	CHECK_EQ_INT(cgroup_parse_proc(g2, strlen(g2), &pp), -EINVAL);
	const char *g3 = "0::relative\n";
	CHECK_EQ_INT(cgroup_parse_proc(g3, strlen(g3), &pp), -EINVAL);
	CHECK_EQ_INT(cgroup_parse_proc("", 0, &pp), -EINVAL);
	CHECK_EQ_INT(cgroup_parse_proc("\n", 1, &pp), -EINVAL);
}

/* ---- the short name ---- */

static void short_name(void)
{
	char out[64];
	cgroup_short_name("/system.slice/ssh.service", out, sizeof(out));
	CHECK_EQ_STR(out, "ssh.service");
	cgroup_short_name("/", out, sizeof(out));
	CHECK_EQ_STR(out, "/");
	cgroup_short_name("/user.slice/user-1000.slice/session-3.scope", out, sizeof(out));
	CHECK_EQ_STR(out, "session-3.scope");
	cgroup_short_name("/a", out, sizeof(out));
	CHECK_EQ_STR(out, "a");

	const char *hex = "4f3a9c2b1d0e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a";
	CHECK_EQ_INT(strlen(hex), 64);
	char path[256];
	snprintf(path, sizeof(path), "/system.slice/docker-%s.scope", hex);
	cgroup_short_name(path, out, sizeof(out));
	CHECK_EQ_STR(out, "docker-4f3a9c2b1d0e");
	snprintf(path, sizeof(path), "/docker/%s", hex);            /* cgroupfs driver */
	cgroup_short_name(path, out, sizeof(out));
	CHECK_EQ_STR(out, "4f3a9c2b1d0e");
	snprintf(path, sizeof(path),
		 "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod1234abcd"
		 "_5678_90ef_aaaa_bbbbccccdddd.slice/cri-containerd-%s.scope", hex);
	cgroup_short_name(path, out, sizeof(out));
	CHECK_EQ_STR(out, "cri-containerd-4f3a9c2b1d0e");

	/* A short buffer cuts (and terminates). */
	char small[4];
	cgroup_short_name("/system.slice/ssh.service", small, sizeof(small));
	CHECK_EQ_STR(small, "ssh");
	small[0] = 'Z';
	cgroup_short_name("/x", small, 0);      /* n == 0: nothing written */
	CHECK(small[0] == 'Z');
}

/* k8s pods: "pod<uid>" cut to 12 (header), else the last component. */
static void short_name_k8s(void)
{
	char out[64];
	/* cgroupfs driver: the component is the pod itself. */
	cgroup_short_name("/kubepods/besteffort/pod1234abcd-5678-90ef-aaaa-bbbbccccdddd",
			  out, sizeof(out));
	CHECK(strncmp(out, "pod1234abcd", 11) == 0);
	CHECK(strlen(out) <= 3 + 12);
	/* systemd driver: the pod after "kubepods-besteffort-". The first
	 * "pod" in the component is inside "kubepods": it must not be taken. */
	cgroup_short_name("/kubepods.slice/kubepods-besteffort.slice/"
			  "kubepods-besteffort-pod1234abcd_5678_90ef_aaaa_bbbbccccdddd.slice",
			  out, sizeof(out));
	if (strncmp(out, "pod1234abcd", 11) != 0)
		printf("  got \"%s\"\n", out);
	CHECK(strncmp(out, "pod1234abcd", 11) == 0);
	CHECK(strlen(out) <= 3 + 12);
	/* A QoS slice is no pod: its last component. */
	cgroup_short_name("/kubepods.slice/kubepods-burstable.slice", out, sizeof(out));
	CHECK_EQ_STR(out, "kubepods-burstable.slice");
	cgroup_short_name("/kubepods.slice", out, sizeof(out));
	CHECK_EQ_STR(out, "kubepods.slice");
}

/* ---- the reader on a v2 tree ---- */

static bool mems_are(const struct cgroup_info *c, const char *want)
{
	struct bitmap b;
	bitmap_init(&b);
	bool ok = bitmap_parse_list(&b, want, strlen(want)) == 0 && bitmap_equal(&b, &c->mems);
	bitmap_free(&b);
	return ok;
}

static bool cpus_are(const struct cgroup_info *c, const char *want)
{
	struct bitmap b;
	bitmap_init(&b);
	bool ok = bitmap_parse_list(&b, want, strlen(want)) == 0 && bitmap_equal(&b, &c->cpus);
	bitmap_free(&b);
	return ok;
}

#define CG "sys/fs/cgroup"

/*
 *  /      procs 3, mems 0-3 (unrestricted), current 10485760 B = 10240 kB
 *         anon kB {1024, 2048, 0, 4}, file {1024, 0, 3072, 0}
 *         node {2048, 2048, 3072, 4} = 7172; anon 3076; file 4096
 *  /a     procs 2, mems 0-3, current 4194304 B = 4096 kB
 *         anon {1024, 1024, 0, 0}, file {0, 1024, 0, 0}: node {1024, 2048, 0, 0}
 *  /a/b   procs 1 (no final newline), cpus 2-3, mems 1 (restricted)
 *         anon {512, 1024, 0, 0} + N4 2048 (no such node), file 0:
 *         node {512, 1024, 0, 0} = 1536, unknown 2048
 *  /a/c   procs 0 (empty file), mems 0-3, node {4, 0, 0, 0}
 *  /a-x   procs 1, no memory.numa_stat, no cpuset files (inherits /'s)
 *
 * Run nodes: / itself 0, /a/b 2, /a-x 3. After finish:
 *  /a/b   by mems {1}: node0 512 + unknown 2048 = 2560
 *  /a/c   unrestricted, never ran: -1
 *  /a     runs {2}: node0 1024 + node1 2048 + node3 0 = 3072
 *  /a-x   no numa: -1
 *  /      runs {0, 2, 3}: node1 2048
 * procs_tree: /a/b 1, /a/c 0, /a 3, /a-x 1, / 3 + 3 + 1 = 7.
 */
static void build_v2(const char *d)
{
	put(d, CG "/cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
	put(d, CG "/cgroup.procs", "1\n2\n3\n");
	put(d, CG "/memory.numa_stat",
	    "anon N0=1048576 N1=2097152 N2=0 N3=4096\n"
	    "file N0=1048576 N1=0 N2=3145728 N3=0\n"
	    "kernel_stack N0=16384 N1=16384 N2=0 N3=0\n");
	put(d, CG "/cpuset.cpus.effective", "0-7\n");
	put(d, CG "/cpuset.mems.effective", "0-3\n");
	put(d, CG "/memory.current", "10485760\n");

	put(d, CG "/a/cgroup.procs", "10\n11\n");
	put(d, CG "/a/memory.numa_stat",
	    "anon N0=1048576 N1=1048576 N2=0 N3=0\n"
	    "file N0=0 N1=1048576 N2=0 N3=0\n");
	put(d, CG "/a/cpuset.cpus.effective", "0-7\n");
	put(d, CG "/a/cpuset.mems.effective", "0-3\n");
	put(d, CG "/a/memory.current", "4194304\n");

	put(d, CG "/a/b/cgroup.procs", "20");
	put(d, CG "/a/b/memory.numa_stat",
	    "anon N0=524288 N1=1048576 N2=0 N3=0 N4=2097152\n"
	    "file N0=0 N1=0 N2=0 N3=0 N4=0\n");
	put(d, CG "/a/b/cpuset.cpus.effective", "2-3\n");
	put(d, CG "/a/b/cpuset.mems.effective", "1\n");
	put(d, CG "/a/b/memory.current", "1572864\n");

	put(d, CG "/a/c/cgroup.procs", "");
	put(d, CG "/a/c/memory.numa_stat",
	    "anon N0=4096 N1=0 N2=0 N3=0\nfile N0=0 N1=0 N2=0 N3=0\n");
	put(d, CG "/a/c/cpuset.cpus.effective", "0-7\n");
	put(d, CG "/a/c/cpuset.mems.effective", "0-3\n");

	put(d, CG "/a-x/cgroup.procs", "30\n");
}

static void reader_v2(void)
{
	char dir[] = "/tmp/numatop-cg-XXXXXX";
	if (new_tree(dir) != 0) {
		SKIP_TEST("reader_v2", "run from the project root");
		return;
	}
	build_v2(dir);
	struct fsroot *r;
	struct topology t;
	CHECK_EQ_INT(fsroot_open(dir, &r), 0);
	CHECK_EQ_INT(topology_read(r, &t), 0);
	CHECK_EQ_INT(t.nnodes, 4);
	CHECK_EQ_INT(cgroup_detect(r), CGROUP_V2);
	CHECK_EQ_STR(cgroup_layout_names[CGROUP_V2], "v2");
	CHECK_EQ_STR(cgroup_mem_base(CGROUP_V2), "/sys/fs/cgroup");

	struct cgroup_set set;
	memset(&set, 0, sizeof(set));
	CHECK_EQ_INT(cgroup_read_all(r, &t, &set), 0);
	CHECK_EQ_INT(set.layout, CGROUP_V2);
	CHECK_EQ_INT(set.rc, 0);
	CHECK_EQ_INT(set.truncated, 0);
	CHECK_EQ_INT(set.n, 5);
	if (set.n != 5)
		goto out;
	/* Preorder, siblings by name. */
	const char *order[] = { "/", "/a", "/a/b", "/a/c", "/a-x" };
	const int parent[] = { -1, 0, 1, 1, 0 }, depth[] = { 0, 1, 2, 2, 1 };
	for (int i = 0; i < 5; i++) {
		CHECK_EQ_STR(set.v[i].path, order[i]);
		CHECK_EQ_INT(set.v[i].parent, parent[i]);
		CHECK_EQ_INT(set.v[i].depth, depth[i]);
		CHECK_EQ_INT(cgroup_find(&set, order[i]), i);
		CHECK_EQ_INT(set.v[i].state, CGS_OK);
		CHECK_EQ_INT(set.v[i].remote_kb, -1);      /* before finish */
	}
	CHECK_EQ_INT(cgroup_find(&set, "/nope"), -1);
	CHECK_EQ_INT(cgroup_find(&set, "/a/"), -1);
	CHECK_EQ_INT(cgroup_find(&set, "/a/bb"), -1);
	CHECK_EQ_INT(cgroup_find(&set, "/a-"), -1);
	CHECK_EQ_INT(cgroup_find(&set, ""), -1);

	const struct cgroup_info *root = &set.v[0], *a = &set.v[1], *b = &set.v[2],
				 *c = &set.v[3], *ax = &set.v[4];
	/* / */
	CHECK(root->have_numa);
	const int64_t rn[] = { 2048, 2048, 3072, 4 }, ra[] = { 1024, 2048, 0, 4 },
		      rf[] = { 1024, 0, 3072, 0 };
	for (int k = 0; k < 4; k++) {
		CHECK_EQ_INT(root->node_kb[k], rn[k]);
		CHECK_EQ_INT(root->anon_kb[k], ra[k]);
		CHECK_EQ_INT(root->file_kb[k], rf[k]);
	}
	CHECK_EQ_INT(root->total_kb, 7172);
	CHECK_EQ_INT(root->anon_total_kb, 3076);
	CHECK_EQ_INT(root->file_total_kb, 4096);
	CHECK_EQ_INT(root->unknown_node_kb, 0);
	CHECK_EQ_INT(root->procs, 3);
	CHECK_EQ_INT(root->current_kb, 10240);
	CHECK(root->have_cpus && cpus_are(root, "0-7"));
	CHECK(root->have_mems && mems_are(root, "0-3"));
	/* /a */
	const int64_t an[] = { 1024, 2048, 0, 0 };
	for (int k = 0; k < 4; k++)
		CHECK_EQ_INT(a->node_kb[k], an[k]);
	CHECK_EQ_INT(a->total_kb, 3072);
	CHECK_EQ_INT(a->anon_total_kb, 2048);
	CHECK_EQ_INT(a->file_total_kb, 1024);
	CHECK_EQ_INT(a->procs, 2);
	CHECK_EQ_INT(a->current_kb, 4096);
	/* /a/b */
	const int64_t bn[] = { 512, 1024, 0, 0 };
	for (int k = 0; k < 4; k++)
		CHECK_EQ_INT(b->node_kb[k], bn[k]);
	CHECK_EQ_INT(b->total_kb, 1536);
	CHECK_EQ_INT(b->unknown_node_kb, 2048);
	CHECK_EQ_INT(b->procs, 1);
	CHECK_EQ_INT(b->current_kb, 1536);
	CHECK(b->have_cpus && cpus_are(b, "2-3"));
	CHECK(b->have_mems && mems_are(b, "1"));
	/* /a/c */
	CHECK(c->have_numa);
	CHECK_EQ_INT(c->node_kb[0], 4);
	CHECK_EQ_INT(c->total_kb, 4);
	CHECK_EQ_INT(c->procs, 0);
	CHECK_EQ_INT(c->current_kb, -1);
	/* /a-x: memory controller not enabled there: no numbers, no error. */
	CHECK(!ax->have_numa);
	CHECK_EQ_INT(ax->state, CGS_OK);
	CHECK_EQ_INT(ax->err, 0);
	CHECK_EQ_INT(ax->total_kb, -1);
	CHECK_EQ_INT(ax->procs, 1);
	CHECK_EQ_INT(ax->current_kb, -1);
	/* The effective cpuset of the nearest ancestor that has one. */
	CHECK(ax->have_mems && mems_are(ax, "0-3"));
	CHECK(ax->have_cpus && cpus_are(ax, "0-7"));

	cgroup_add_run_node(&set, cgroup_find(&set, "/"), 0);
	cgroup_add_run_node(&set, cgroup_find(&set, "/a/b"), 2);
	cgroup_add_run_node(&set, cgroup_find(&set, "/a-x"), 3);
	cgroup_add_run_node(&set, -1, 1);           /* ignored */
	cgroup_add_run_node(&set, 99, 1);
	cgroup_add_run_node(&set, 0, -1);
	cgroup_finish(&set, &t);

	CHECK_EQ_INT(b->procs_tree, 1);
	CHECK_EQ_INT(c->procs_tree, 0);
	CHECK_EQ_INT(a->procs_tree, 3);
	CHECK_EQ_INT(ax->procs_tree, 1);
	CHECK_EQ_INT(root->procs_tree, 7);

	CHECK(bitmap_test(&a->run_nodes, 2) && bitmap_count(&a->run_nodes) == 1);
	CHECK(bitmap_empty(&c->run_nodes));
	CHECK(bitmap_count(&root->run_nodes) == 3 && bitmap_test(&root->run_nodes, 0) &&
	      bitmap_test(&root->run_nodes, 2) && bitmap_test(&root->run_nodes, 3));

	CHECK_EQ_INT(b->remote_kb, 2560);
	CHECK(b->remote_by_mems);
	CHECK_EQ_INT(c->remote_kb, -1);
	CHECK_EQ_INT(a->remote_kb, 3072);
	CHECK(!a->remote_by_mems);
	CHECK_EQ_INT(ax->remote_kb, -1);
	CHECK_EQ_INT(root->remote_kb, 2048);
	CHECK(!root->remote_by_mems);

	/* Read again into the same set: everything from scratch. */
	put(dir, CG "/a/b/cgroup.procs", "20\n21\n");
	CHECK_EQ_INT(cgroup_read_all(r, &t, &set), 0);
	CHECK_EQ_INT(set.n, 5);
	if (set.n == 5) {
		CHECK_EQ_INT(set.v[2].procs, 2);
		CHECK_EQ_INT(set.v[2].procs_tree, -1);
		CHECK(bitmap_empty(&set.v[0].run_nodes));
		CHECK_EQ_INT(set.v[0].remote_kb, -1);
		CHECK_EQ_INT(set.v[0].node_kb[2], 3072);
		cgroup_finish(&set, &t);
		CHECK_EQ_INT(set.v[0].procs_tree, 8);
		CHECK_EQ_INT(set.v[0].remote_kb, -1);   /* no run nodes this time */
		CHECK_EQ_INT(set.v[2].remote_kb, 2560); /* by mems all the same */
	}
out:
	cgroup_set_free(&set);
	topology_free(&t);
	fsroot_close(r);
	rm_tree(dir);
}

/* A cgroup whose numa_stat cannot be parsed is an error, not zeros; a root
 * without memory files (v2's real root) has no numbers and no error. */
static void reader_v2_errors(void)
{
	char dir[] = "/tmp/numatop-cg-XXXXXX";
	if (new_tree(dir) != 0) {
		SKIP_TEST("reader_v2_errors", "run from the project root");
		return;
	}
	put(dir, CG "/cgroup.controllers", "memory\n");
	put(dir, CG "/cgroup.procs", "1\n");
	put(dir, CG "/bad/cgroup.procs", "5\n");
	put(dir, CG "/bad/memory.numa_stat", "anon N0=abc\nfile N0=0\n");
	put(dir, CG "/bad/memory.current", "not a number\n");
	mkdirs(dir, CG "/bad/sub");
	put(dir, CG "/bad/sub/cgroup.procs", "6\n7\n");
	struct fsroot *r;
	struct topology t;
	CHECK_EQ_INT(fsroot_open(dir, &r), 0);
	CHECK_EQ_INT(topology_read(r, &t), 0);
	struct cgroup_set set;
	memset(&set, 0, sizeof(set));
	CHECK_EQ_INT(cgroup_read_all(r, &t, &set), 0);
	CHECK_EQ_INT(set.n, 3);
	if (set.n == 3) {
		CHECK_EQ_STR(set.v[1].path, "/bad");
		CHECK_EQ_STR(set.v[2].path, "/bad/sub");
		CHECK(!set.v[0].have_numa);
		CHECK_EQ_INT(set.v[0].state, CGS_OK);
		CHECK_EQ_INT(set.v[0].current_kb, -1);
		CHECK(!set.v[0].have_mems && !set.v[0].have_cpus);
		CHECK(!set.v[1].have_numa);
		CHECK_EQ_INT(set.v[1].state, CGS_ERROR);
		CHECK_EQ_INT(set.v[1].err, EINVAL);
		CHECK_EQ_INT(set.v[1].procs, 1);
		CHECK_EQ_INT(set.v[1].current_kb, -1);
		CHECK_EQ_STR(cgroup_state_names[set.v[1].state], "error");
		cgroup_add_run_node(&set, 1, 0);
		cgroup_finish(&set, &t);
		CHECK_EQ_INT(set.v[1].remote_kb, -1);
		CHECK_EQ_INT(set.v[0].procs_tree, 4);
		CHECK_EQ_INT(set.v[1].procs_tree, 3);
	}
	cgroup_set_free(&set);
	topology_free(&t);
	fsroot_close(r);
	rm_tree(dir);
}

/* Node 3 without memory: the kernel's numa_stat names only the nodes
 * with memory (N_MEMORY), so N3 is absent. A node the file does not name
 * holds nothing of the cgroup (cgroup.c's own comment): the totals are
 * known, and mems 0-2 leave no node with memory out (not restricted). */
static void reader_memoryless_node(void)
{
	char dir[] = "/tmp/numatop-cg-XXXXXX";
	if (new_tree(dir) != 0) {
		SKIP_TEST("reader_memoryless_node", "run from the project root");
		return;
	}
	put(dir, "sys/devices/system/node/node3/meminfo",
	    "Node 3 MemTotal:        0 kB\nNode 3 MemFree:         0 kB\n");
	put(dir, "sys/devices/system/node/has_memory", "0-2\n");
	put(dir, CG "/cgroup.controllers", "cpuset memory\n");
	put(dir, CG "/cgroup.procs", "1\n");
	put(dir, CG "/memory.numa_stat",
	    "anon N0=1048576 N1=0 N2=0\nfile N0=0 N1=1048576 N2=0\n");
	put(dir, CG "/cpuset.mems.effective", "0-2\n");
	struct fsroot *r;
	struct topology t;
	CHECK_EQ_INT(fsroot_open(dir, &r), 0);
	CHECK_EQ_INT(topology_read(r, &t), 0);
	CHECK(t.nnodes == 4 && !t.nodes[3].has_memory);
	struct cgroup_set set;
	memset(&set, 0, sizeof(set));
	CHECK_EQ_INT(cgroup_read_all(r, &t, &set), 0);
	CHECK_EQ_INT(set.n, 1);
	if (set.n == 1) {
		const struct cgroup_info *c = &set.v[0];
		CHECK(c->have_numa);
		CHECK_EQ_INT(c->node_kb[0], 1024);
		CHECK_EQ_INT(c->node_kb[1], 1024);
		CHECK_EQ_INT(c->node_kb[3], 0);
		CHECK_EQ_INT(c->total_kb, 2048);
		CHECK_EQ_INT(c->anon_total_kb, 1024);
		CHECK_EQ_INT(c->file_total_kb, 1024);
		cgroup_add_run_node(&set, 0, 0);
		cgroup_finish(&set, &t);
		CHECK(!c->remote_by_mems);
		CHECK_EQ_INT(c->remote_kb, 1024);       /* node 1's */
	}
	cgroup_set_free(&set);
	topology_free(&t);
	fsroot_close(r);
	rm_tree(dir);
}

/* ---- v1, hybrid, none ---- */

/*
 * memory/      hierarchical_total {1100, 200, 0, 0} pages (own total 300
 *              is ignored), usage_in_bytes 8192000 = 8000 kB
 * memory/x     total {10, 50, 0, 0} (no hierarchical lines)
 * memory/x/z   total {0, 0, 4, 0}
 * cpuset/      effective_cpus 0-7, effective_mems 0-3
 * cpuset/x     effective_cpus 2-3, effective_mems 1; no cpuset/x/z:
 *              z inherits x's.
 */
static void build_v1(const char *d, bool with_cpuset)
{
	put(d, CG "/memory/cgroup.procs", "1\n2\n");
	put(d, CG "/memory/memory.numa_stat",
	    "total=300 N0=100 N1=200 N2=0 N3=0\n"
	    "file=200 N0=0 N1=200 N2=0 N3=0\n"
	    "anon=100 N0=100 N1=0 N2=0 N3=0\n"
	    "unevictable=0 N0=0 N1=0 N2=0 N3=0\n"
	    "hierarchical_total=1300 N0=1100 N1=200 N2=0 N3=0\n"
	    "hierarchical_file=300 N0=100 N1=200 N2=0 N3=0\n"
	    "hierarchical_anon=1000 N0=1000 N1=0 N2=0 N3=0\n"
	    "hierarchical_unevictable=0 N0=0 N1=0 N2=0 N3=0\n");
	put(d, CG "/memory/memory.usage_in_bytes", "8192000\n");
	put(d, CG "/memory/x/cgroup.procs", "5\n");
	put(d, CG "/memory/x/memory.numa_stat",
	    "total=60 N0=10 N1=50 N2=0 N3=0\n"
	    "file=10 N0=0 N1=10 N2=0 N3=0\n"
	    "anon=50 N0=10 N1=40 N2=0 N3=0\n");
	put(d, CG "/memory/x/z/cgroup.procs", "");
	put(d, CG "/memory/x/z/memory.numa_stat",
	    "total=4 N0=0 N1=0 N2=4 N3=0\nfile=0 N0=0 N1=0 N2=0 N3=0\n"
	    "anon=4 N0=0 N1=0 N2=4 N3=0\n");
	if (with_cpuset) {
		put(d, CG "/cpuset/cgroup.procs", "1\n2\n5\n");
		put(d, CG "/cpuset/cpuset.effective_cpus", "0-7\n");
		put(d, CG "/cpuset/cpuset.effective_mems", "0-3\n");
		put(d, CG "/cpuset/x/cgroup.procs", "5\n");
		put(d, CG "/cpuset/x/cpuset.effective_cpus", "2-3\n");
		put(d, CG "/cpuset/x/cpuset.effective_mems", "1\n");
	}
}

static void reader_v1(void)
{
	char dir[] = "/tmp/numatop-cg-XXXXXX";
	if (new_tree(dir) != 0) {
		SKIP_TEST("reader_v1", "run from the project root");
		return;
	}
	build_v1(dir, true);
	long pk = page_kb();
	struct fsroot *r;
	struct topology t;
	CHECK_EQ_INT(fsroot_open(dir, &r), 0);
	CHECK_EQ_INT(topology_read(r, &t), 0);
	CHECK_EQ_INT(cgroup_detect(r), CGROUP_V1);
	CHECK_EQ_STR(cgroup_mem_base(CGROUP_V1), "/sys/fs/cgroup/memory");
	struct cgroup_set set;
	memset(&set, 0, sizeof(set));
	CHECK_EQ_INT(cgroup_read_all(r, &t, &set), 0);
	CHECK_EQ_INT(set.layout, CGROUP_V1);
	CHECK_EQ_INT(set.n, 3);
	if (set.n == 3) {
		const struct cgroup_info *root = &set.v[0], *x = &set.v[1], *z = &set.v[2];
		CHECK_EQ_STR(root->path, "/");
		CHECK_EQ_STR(x->path, "/x");
		CHECK_EQ_STR(z->path, "/x/z");
		CHECK_EQ_INT(cgroup_find(&set, "/x/z"), 2);
		CHECK(root->have_numa && x->have_numa && z->have_numa);
		CHECK_EQ_INT(root->node_kb[0], 1100 * pk);
		CHECK_EQ_INT(root->node_kb[1], 200 * pk);
		CHECK_EQ_INT(root->anon_kb[0], 1000 * pk);
		CHECK_EQ_INT(root->file_kb[1], 200 * pk);
		CHECK_EQ_INT(root->total_kb, 1300 * pk);
		CHECK_EQ_INT(root->current_kb, 8000);
		CHECK_EQ_INT(root->procs, 2);
		CHECK(root->have_mems && mems_are(root, "0-3"));
		CHECK_EQ_INT(x->node_kb[0], 10 * pk);
		CHECK_EQ_INT(x->node_kb[1], 50 * pk);
		CHECK_EQ_INT(x->total_kb, 60 * pk);
		CHECK_EQ_INT(x->current_kb, -1);
		CHECK(x->have_mems && mems_are(x, "1"));
		CHECK(x->have_cpus && cpus_are(x, "2-3"));
		CHECK_EQ_INT(z->node_kb[2], 4 * pk);
		CHECK_EQ_INT(z->procs, 0);
		CHECK(z->have_mems && mems_are(z, "1"));    /* cpuset/x's */
		cgroup_add_run_node(&set, 0, 0);
		cgroup_finish(&set, &t);
		CHECK_EQ_INT(root->procs_tree, 3);
		/* / runs {0}, unrestricted: node 1's 200 pages. */
		CHECK(!root->remote_by_mems);
		CHECK_EQ_INT(root->remote_kb, 200 * pk);
		/* x and z by mems {1}: node 0's 10 pages; node 2's 4 pages. */
		CHECK(x->remote_by_mems && z->remote_by_mems);
		CHECK_EQ_INT(x->remote_kb, 10 * pk);
		CHECK_EQ_INT(z->remote_kb, 4 * pk);
	}
	cgroup_set_free(&set);
	topology_free(&t);
	fsroot_close(r);
	rm_tree(dir);
}

static void reader_hybrid_and_none(void)
{
	char dir[] = "/tmp/numatop-cg-XXXXXX";
	if (new_tree(dir) != 0) {
		SKIP_TEST("reader_hybrid_and_none", "run from the project root");
		return;
	}
	long pk = page_kb();
	struct fsroot *r;
	struct topology t;
	CHECK_EQ_INT(fsroot_open(dir, &r), 0);
	CHECK_EQ_INT(topology_read(r, &t), 0);
	struct cgroup_set set;
	memset(&set, 0, sizeof(set));

	/* No sys/fs/cgroup at all, then an empty one. */
	CHECK_EQ_INT(cgroup_detect(r), CGROUP_NONE);
	CHECK_EQ_INT(cgroup_read_all(r, &t, &set), 0);
	CHECK_EQ_INT(set.layout, CGROUP_NONE);
	CHECK_EQ_INT(set.n, 0);
	CHECK(cgroup_mem_base(CGROUP_NONE) == NULL);
	CHECK_EQ_STR(cgroup_layout_names[CGROUP_NONE], "none");
	mkdirs(dir, CG);
	CHECK_EQ_INT(cgroup_detect(r), CGROUP_NONE);

	/* Hybrid: v1 memory, an empty v2 at unified/, no cpuset hierarchy. */
	build_v1(dir, false);
	put(dir, CG "/unified/cgroup.controllers", "");
	put(dir, CG "/unified/cgroup.procs", "1\n");
	CHECK_EQ_INT(cgroup_detect(r), CGROUP_HYBRID);
	CHECK_EQ_STR(cgroup_layout_names[CGROUP_HYBRID], "hybrid");
	CHECK_EQ_STR(cgroup_mem_base(CGROUP_HYBRID), "/sys/fs/cgroup/memory");
	CHECK_EQ_INT(cgroup_read_all(r, &t, &set), 0);
	CHECK_EQ_INT(set.layout, CGROUP_HYBRID);
	CHECK_EQ_INT(set.n, 3);
	if (set.n == 3) {
		CHECK_EQ_STR(set.v[1].path, "/x");
		CHECK_EQ_INT(set.v[0].node_kb[0], 1100 * pk);
		CHECK(!set.v[0].have_mems && !set.v[0].have_cpus);
		CHECK(!set.v[2].have_mems);
		cgroup_add_run_node(&set, 2, 2);
		cgroup_finish(&set, &t);
		/* By run nodes: z {2} has all on node 2; x {2}: 10 + 50 pages;
		 * / {2}: 1100 + 200 pages. */
		CHECK_EQ_INT(set.v[2].remote_kb, 0);
		CHECK_EQ_INT(set.v[1].remote_kb, 60 * pk);
		CHECK_EQ_INT(set.v[0].remote_kb, 1300 * pk);
		CHECK(!set.v[0].remote_by_mems);
	}
	/* A v2 cgroup.controllers at the top wins. */
	put(dir, CG "/cgroup.controllers", "memory\n");
	CHECK_EQ_INT(cgroup_detect(r), CGROUP_V2);

	/* Back to none: the set is emptied. */
	char cg[256];
	snprintf(cg, sizeof(cg), "%s/" CG, dir);
	rm_tree(cg);
	CHECK_EQ_INT(cgroup_read_all(r, &t, &set), 0);
	CHECK_EQ_INT(set.layout, CGROUP_NONE);
	CHECK_EQ_INT(set.n, 0);
	cgroup_set_free(&set);
	topology_free(&t);
	fsroot_close(r);
	rm_tree(dir);
}

/* ---- each process's cgroup ---- */

static void pidmap(void)
{
	char dir[] = "/tmp/numatop-cgp-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	put(dir, "proc/100/cgroup", "0::/a\n");
	put(dir, "proc/200/cgroup", "4:memory:/m\n1:name=systemd:/s\n0::/\n");
	put(dir, "proc/400/cgroup", "garbage\n");
	/* (no proc/300) */
	struct fsroot *r;
	CHECK_EQ_INT(fsroot_open(dir, &r), 0);
	struct cgroup_pidmap *m;
	CHECK_EQ_INT(cgroup_pidmap_new(&m), 0);
	struct proc_info v[4];
	memset(v, 0, sizeof(v));
	/* Not in PID order. */
	v[0].pid = 200; v[0].starttime = 2000;
	v[1].pid = 100; v[1].starttime = 1000;
	v[2].pid = 400; v[2].starttime = 4000;
	v[3].pid = 300; v[3].starttime = 3000;
	const char *paths[4];

	CHECK_EQ_INT(cgroup_pidmap_update(m, r, CGROUP_V2, v, sizeof(*v), 4, 100, 10, paths), 4);
	CHECK_EQ_STR(paths[0], "/");
	CHECK_EQ_STR(paths[1], "/a");
	CHECK(paths[2] == NULL);     /* unparsable */
	CHECK(paths[3] == NULL);     /* no file */

	/* Within refresh_s: nothing read (the file's change is not seen). */
	put(dir, "proc/100/cgroup", "0::/b\n");
	CHECK_EQ_INT(cgroup_pidmap_update(m, r, CGROUP_V2, v, sizeof(*v), 4, 105, 10, paths), 0);
	CHECK_EQ_STR(paths[0], "/");
	CHECK_EQ_STR(paths[1], "/a");
	CHECK(paths[2] == NULL && paths[3] == NULL);

	/* Re-reads are spread by PID over refresh_s .. 2 * refresh_s
	 * (refresh_s * (1 + pid % 16 / 16)): 10 s later only PID 400
	 * (400 % 16 = 0), 12.5 s later also 100 (100 % 16 = 4), 20 s later
	 * every one. */
	CHECK_EQ_INT(cgroup_pidmap_update(m, r, CGROUP_V2, v, sizeof(*v), 4, 110, 10, paths), 1);
	CHECK_EQ_STR(paths[1], "/a");
	CHECK_EQ_INT(cgroup_pidmap_update(m, r, CGROUP_V2, v, sizeof(*v), 4, 112.5, 10, paths), 1);
	CHECK_EQ_STR(paths[1], "/b");
	CHECK_EQ_INT(cgroup_pidmap_update(m, r, CGROUP_V2, v, sizeof(*v), 4, 120, 10, paths), 3);
	CHECK_EQ_STR(paths[0], "/");
	CHECK_EQ_STR(paths[1], "/b");

	/* A new start time (the PID was reused): read again at once. */
	put(dir, "proc/200/cgroup", "4:memory:/m2\n0::/c\n");
	v[0].starttime = 2001;
	CHECK_EQ_INT(cgroup_pidmap_update(m, r, CGROUP_V2, v, sizeof(*v), 4, 121, 10, paths), 1);
	CHECK_EQ_STR(paths[0], "/c");
	CHECK_EQ_STR(paths[1], "/b");

	/* A process that leaves the list and comes back is new. */
	CHECK_EQ_INT(cgroup_pidmap_update(m, r, CGROUP_V2, v, sizeof(*v), 1, 122, 10, paths), 0);
	CHECK_EQ_STR(paths[0], "/c");
	put(dir, "proc/100/cgroup", "0::/d\n");
	CHECK_EQ_INT(cgroup_pidmap_update(m, r, CGROUP_V2, v, sizeof(*v), 2, 123, 10, paths), 1);
	CHECK_EQ_STR(paths[0], "/c");
	CHECK_EQ_STR(paths[1], "/d");

	/* A file removed: NULL after the next read. */
	char p[256];
	snprintf(p, sizeof(p), "%s/proc/100/cgroup", dir);
	unlink(p);
	CHECK_EQ_INT(cgroup_pidmap_update(m, r, CGROUP_V2, v, sizeof(*v), 2, 300, 10, paths), 2);
	CHECK_EQ_STR(paths[0], "/c");
	CHECK(paths[1] == NULL);
	cgroup_pidmap_free(m);

	/* v1 and hybrid: the memory controller's line. */
	put(dir, "proc/100/cgroup", "0::/a\n");
	enum cgroup_layout ls[] = { CGROUP_V1, CGROUP_HYBRID };
	for (int i = 0; i < 2; i++) {
		CHECK_EQ_INT(cgroup_pidmap_new(&m), 0);
		CHECK_EQ_INT(cgroup_pidmap_update(m, r, ls[i], v, sizeof(*v), 4, 0, 10, paths), 4);
		CHECK_EQ_STR(paths[0], "/m2");
		CHECK(paths[1] == NULL);   /* no memory line */
		CHECK(paths[2] == NULL && paths[3] == NULL);
		cgroup_pidmap_free(m);
	}
	/* No cgroups: nothing read, all unknown. */
	CHECK_EQ_INT(cgroup_pidmap_new(&m), 0);
	paths[0] = "x";
	CHECK_EQ_INT(cgroup_pidmap_update(m, r, CGROUP_NONE, v, sizeof(*v), 4, 0, 10, paths), 0);
	CHECK(paths[0] == NULL && paths[1] == NULL);
	cgroup_pidmap_free(m);
	cgroup_pidmap_free(NULL);
	fsroot_close(r);
	rm_tree(dir);
}

int main(void)
{
	RUN_TEST(numa_stat_v2);
	RUN_TEST(numa_stat_v2_other_and_sparse);
	RUN_TEST(numa_stat_v2_errors);
	RUN_TEST(numa_stat_length);
	RUN_TEST(numa_stat_v1);
	RUN_TEST(numa_stat_v1_errors);
	RUN_TEST(proc_cgroup);
	RUN_TEST(proc_cgroup_errors);
	RUN_TEST(short_name);
	RUN_TEST(short_name_k8s);
	RUN_TEST(reader_v2);
	RUN_TEST(reader_v2_errors);
	RUN_TEST(reader_memoryless_node);
	RUN_TEST(reader_v1);
	RUN_TEST(reader_hybrid_and_none);
	RUN_TEST(pidmap);
	return CHECK_DONE();
}
