/* test_measure.c - the pointer-chase cycle, the placement check against a
 * fake move_pages, the result file round trip, SLIT disagreement, the
 * hypervisor probe and HMAT on recorded trees. */
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hmat.h"
#include "measure.h"
#include "check.h"

static void one_cycle(void)
{
	static uint32_t next[100000];
	size_t sizes[] = { 1, 2, 3, 7, 64, 1000, 100000 };
	for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
		measure_make_cycle(next, sizes[k], 42 + k);
		CHECK(measure_is_one_cycle(next, sizes[k]));
		/* A permutation: every slot is some slot's successor once. */
		static unsigned char seen[100000];
		memset(seen, 0, sizes[k]);
		for (size_t i = 0; i < sizes[k]; i++)
			seen[next[i]]++;
		int ok = 1;
		for (size_t i = 0; i < sizes[k]; i++)
			ok &= seen[i] == 1;
		CHECK(ok);
	}
	/* Not random order by accident: few lines follow their neighbour. */
	measure_make_cycle(next, 100000, 7);
	size_t seq = 0;
	for (size_t i = 0; i < 100000; i++)
		seq += next[i] == i + 1;
	CHECK(seq < 100);
	/* The checker itself: two cycles, a self loop, out of range. */
	uint32_t two[4] = { 1, 0, 3, 2 }, self[3] = { 0, 2, 1 }, bad[2] = { 5, 0 };
	CHECK(!measure_is_one_cycle(two, 4));
	CHECK(!measure_is_one_cycle(self, 3));
	CHECK(!measure_is_one_cycle(bad, 2));
}

struct fake { int node, other_every; int calls; };

static long fake_mp(void *ctx, int pid, unsigned long count, void **pages,
		    const int *nodes, int *status, int flags)
{
	struct fake *f = ctx;
	(void)pid;
	(void)pages;
	(void)flags;
	f->calls++;
	if (nodes)
		return -EINVAL;
	for (unsigned long i = 0; i < count; i++)
		status[i] = f->other_every && i % (unsigned long)f->other_every == 0 ? f->node + 1 : f->node;
	return 0;
}

static void placement_check(void)
{
	struct fake f = { 3, 0, 0 };
	struct placement_ops ops = { fake_mp, &f };
	char *buf = (char *)0x100000000ull;     /* never touched: the fake answers */
	double pct = measure_placement_pct(&ops, buf, 64u << 20, 4096, 3);
	CHECK(fabs(pct - 100.0) < 1e-9);
	CHECK(f.calls == 1);                    /* 32 samples, one query */
	f.other_every = 4;                      /* a quarter elsewhere */
	pct = measure_placement_pct(&ops, buf, 64u << 20, 4096, 3);
	CHECK(fabs(pct - 75.0) < 1e-9);
	pct = measure_placement_pct(&ops, buf, 64u << 20, 4096, 4);
	CHECK(fabs(pct - 25.0) < 1e-9);
	/* The real kernel on this process's own memory. */
	size_t len = 8u << 20;
	char *p = malloc(len);
	CHECK(p != NULL);
	if (p) {
		memset(p, 1, len);
		pct = measure_placement_pct(&placement_kernel_ops, p, len, 4096, 0);
		/* On a one-node machine all of it is on node 0. */
		if (access("/sys/devices/system/node/node1", F_OK) != 0)
			CHECK(fabs(pct - 100.0) < 1e-9);
		else
			CHECK(pct >= 0 && pct <= 100);
		free(p);
	}
}

static void topo2(struct topology *t, int d01, int d02)
{
	/* Three nodes by hand: 0 and 1 with CPUs, 2 memory-only. */
	memset(t, 0, sizeof(*t));
	t->nnodes = 3;
	t->nodes = calloc(3, sizeof(*t->nodes));
	t->dist = malloc(9 * sizeof(int));
	int d[9] = { 10, d01, d02, d01, 10, d02, d02, d02, 10 };
	memcpy(t->dist, d, sizeof(d));
	t->dist_known = true;
	t->nids = 3;
	t->index_of_id = malloc(3 * sizeof(int));
	for (int i = 0; i < 3; i++) {
		t->nodes[i].id = i;
		t->nodes[i].has_memory = true;
		bitmap_init(&t->nodes[i].cpus);
		t->index_of_id[i] = i;
	}
	bitmap_set(&t->nodes[0].cpus, 0);
	bitmap_set(&t->nodes[1].cpus, 1);
}

/* The saved text of r with the first value after `field` replaced by
 * `with`, parsed back: what measure_parse returns. */
static int parse_mutated(const char *good, const char *field, const char *with,
			 const struct topology *t)
{
	char text[8192];
	const char *at = strstr(good, field);
	if (!at)
		return 1;
	at += strlen(field);
	const char *end = at + strcspn(at, ",]}");
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - good), good, with, end);
	struct measure_result b;
	int rc = measure_parse(text, strlen(text), t, &b);
	if (rc == 0)
		measure_free(&b);
	return rc;
}

/* A cache file is anyone's to edit: impossible numbers, a cut file and
 * trailing bytes reject the whole file (never shown as a measurement). */
static void impossible_values(const struct measure_result *r, const struct topology *t)
{
	json_object *o = measure_to_json(r);
	const char *good = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	struct measure_result b;
	CHECK_EQ_INT(measure_parse(good, strlen(good), t, &b), 0);
	measure_free(&b);
	CHECK_EQ_INT(parse_mutated(good, "\"latency_ns\":[[", "95", t), 0);
	CHECK_EQ_INT(parse_mutated(good, "\"latency_ns\":[[", "-5", t), -EINVAL);
	CHECK_EQ_INT(parse_mutated(good, "\"latency_ns\":[[", "0", t), -EINVAL);
	CHECK_EQ_INT(parse_mutated(good, "\"latency_ns\":[[", "1e300", t), -EINVAL);
	CHECK_EQ_INT(parse_mutated(good, "\"latency_ns\":[[", "\"fast\"", t), -EINVAL);
	CHECK_EQ_INT(parse_mutated(good, "\"latency_ns\":[[", "null", t), 0);
	CHECK_EQ_INT(parse_mutated(good, "\"bandwidth_1t_gbs\":[[", "200000", t), -EINVAL);
	CHECK_EQ_INT(parse_mutated(good, "\"bandwidth_all_gbs\":[[", "-0.5", t), -EINVAL);
	CHECK_EQ_INT(parse_mutated(good, "\"on_node_pct\":[[", "100.5", t), -EINVAL);
	CHECK_EQ_INT(parse_mutated(good, "\"on_node_pct\":[[", "0", t), 0);
	CHECK_EQ_INT(parse_mutated(good, "\"nodes\":[", "\"0\"", t), -EINVAL);
	/* A "when" that is no plausible time is unknown (0): no nonsense age. */
	static const char *const whens[] = { "-5", "\"yesterday\"", "1e18", "99999999999", "0.5" };
	for (size_t k = 0; k < sizeof(whens) / sizeof(whens[0]); k++) {
		char text[8192];
		const char *at = strstr(good, "\"when\":");
		CHECK(at != NULL);
		if (!at)
			break;
		at += 7;
		snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - good), good, whens[k],
			 at + strcspn(at, ",}"));
		CHECK_EQ_INT(measure_parse(text, strlen(text), t, &b), 0);
		CHECK_EQ_INT(b.when, 0);
		measure_free(&b);
	}
	size_t n = strlen(good);
	CHECK_EQ_INT(measure_parse(good, n - 3, t, &b), -EINVAL);
	char more[8192];
	snprintf(more, sizeof(more), "%s{}", good);
	CHECK_EQ_INT(measure_parse(more, strlen(more), t, &b), -EINVAL);
	json_object_put(o);
}

static void round_trip(void)
{
	struct topology t;
	topo2(&t, 20, 20);
	struct measure_result r;
	CHECK_EQ_INT(measure_alloc(&r, &t), 0);
	snprintf(r.host, sizeof(r.host), "box/with spaces");
	r.when = 1764748800;
	r.seconds = 12.5;
	r.buf_kb = 262144;
	r.l2_kb = 512;
	r.l2_ns = 4.25;
	snprintf(r.hypervisor, sizeof(r.hypervisor), "KVM");
	for (size_t i = 0; i < 2; i++)
		for (size_t j = 0; j < 3; j++) {
			struct measure_cell *c = measure_at(&r, i, j);
			c->lat_ns = 90 + 10.0 * (double)(i + 2 * j);
			c->bw1_gbs = 10.5 - (double)j;
			c->bwall_gbs = 20.25 - (double)j;
			c->on_node_pct = 100;
		}
	char dir[] = "/tmp/numatop-measure-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	setenv("XDG_CACHE_HOME", dir, 1);
	char path[1024];
	CHECK_EQ_INT(measure_cache_path(&r, path, sizeof(path)), 0);
	CHECK(strstr(path, dir) == path && strstr(path, "/numatop-tui/measure-box_with_spaces-3n-"));
	char why[256];
	CHECK_EQ_INT(measure_save(&r, path, why, sizeof(why)), 0);
	struct measure_result b;
	CHECK_EQ_INT(measure_load(path, &t, &b), 0);
	CHECK_EQ_STR(b.host, "box/with spaces");
	CHECK_EQ_STR(b.hypervisor, "KVM");
	CHECK(b.when == r.when && b.buf_kb == r.buf_kb && b.l2_kb == 512 && fabs(b.l2_ns - 4.25) < 0.06);
	int same = 1;
	for (size_t k = 0; k < 9; k++) {
		const struct measure_cell *x = &r.cell[k], *y = &b.cell[k];
		same &= fabs(x->lat_ns - y->lat_ns) < 0.06 && fabs(x->bw1_gbs - y->bw1_gbs) < 0.006 &&
			fabs(x->bwall_gbs - y->bwall_gbs) < 0.006 && fabs(x->on_node_pct - y->on_node_pct) < 0.006;
	}
	CHECK(same);
	/* The memory-only row was never measured: still unknown, not 0. */
	CHECK(measure_at(&b, 2, 0)->lat_ns < 0 && measure_at(&b, 2, 2)->bw1_gbs < 0);
	measure_free(&b);
	/* Another machine shape: the file is not used. */
	struct topology t2;
	topo2(&t2, 20, 20);
	bitmap_set(&t2.nodes[2].cpus, 2);
	CHECK_EQ_INT(measure_load(path, &t2, &b), -ESTALE);
	CHECK_EQ_INT(measure_load("/nonexistent/x.json", &t, &b), -ENOENT);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs("{\"nodes\":[0,1,2],\"latency_ns\":[[1]]}", f);
		fclose(f);
	}
	CHECK_EQ_INT(measure_load(path, &t, &b), -EINVAL);
	impossible_values(&r, &t);
	measure_free(&r);
	topology_free(&t);
	topology_free(&t2);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	unsetenv("XDG_CACHE_HOME");
}

static void disagreement(void)
{
	/* The SLIT says nodes 1 and 2 are both 20 away from node 0, but
	 * node 2 measures 31 % slower. */
	struct topology t;
	topo2(&t, 20, 20);
	struct measure_result r;
	measure_alloc(&r, &t);
	measure_at(&r, 0, 0)->lat_ns = 80;
	measure_at(&r, 0, 1)->lat_ns = 130;
	measure_at(&r, 0, 2)->lat_ns = 170.3;
	measure_at(&r, 1, 1)->lat_ns = 80;
	measure_at(&r, 1, 0)->lat_ns = 131;
	measure_at(&r, 1, 2)->lat_ns = 150;
	char msg[200] = "";
	bool marks[9];
	CHECK_EQ_INT(measure_disagreement(&t, &r, msg, sizeof(msg), marks), 1);
	CHECK_EQ_STR(msg, "firmware says node 2 is as close as node 1 (from node 0); measured 31 % slower");
	CHECK(marks[0 * 3 + 1] && marks[0 * 3 + 2] && !marks[0]);
	/* Within 10 %: agreement. */
	measure_at(&r, 0, 2)->lat_ns = 140;
	measure_at(&r, 1, 2)->lat_ns = 140;
	CHECK_EQ_INT(measure_disagreement(&t, &r, msg, sizeof(msg), marks), 0);
	/* The SLIT says 2 is farther: then slower is what it promised. */
	topology_free(&t);
	topo2(&t, 20, 30);
	measure_at(&r, 0, 2)->lat_ns = 300;
	CHECK_EQ_INT(measure_disagreement(&t, &r, msg, sizeof(msg), NULL), 0);
	measure_free(&r);
	topology_free(&t);
}

static void write_tree_file(const char *root, const char *rel, const char *text)
{
	char p[512], cmd[600];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", p);
	CHECK(system(cmd) == 0);
	FILE *f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* What measure_detect_hypervisor says of the tree at dir. */
static void hv_of(const char *dir, char *out, size_t n)
{
	struct fsroot *r;
	out[0] = '\0';
	if (fsroot_open(dir, &r) != 0) {
		snprintf(out, n, "(no tree)");
		return;
	}
	measure_detect_hypervisor(r, out, n);
	fsroot_close(r);
}

static void hypervisor(void)
{
	char dir[] = "/tmp/numatop-hv-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char out[96];
	write_tree_file(dir, "proc/cpuinfo", "processor : 0\nflags : fpu vme sse2\n\n");
	hv_of(dir, out, sizeof(out));
	CHECK_EQ_STR(out, "");
	write_tree_file(dir, "proc/cpuinfo", "processor : 0\nflags : fpu vme sse2 hypervisor lahf_lm\n\n");
	hv_of(dir, out, sizeof(out));
	CHECK_EQ_STR(out, "a hypervisor (cpuinfo flag)");
	write_tree_file(dir, "sys/class/dmi/id/sys_vendor", "QEMU\n");
	hv_of(dir, out, sizeof(out));
	CHECK_EQ_STR(out, "QEMU/KVM (DMI: QEMU)");
	write_tree_file(dir, "sys/hypervisor/type", "xen\n");
	hv_of(dir, out, sizeof(out));
	CHECK_EQ_STR(out, "xen (/sys/hypervisor)");
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

static void hmat_tree(void)
{
	const char *fix = getenv("NUMATOP_FIXTURES");
	char tar[512];
	snprintf(tar, sizeof(tar), "%s/fakeheteromemtiers.tar.bz2",
		 fix ? fix : "../shared/fixtures/hwloc-linux");
	if (access(tar, R_OK) != 0) {
		printf("SKIP hmat_tree: %s not present\n", tar);
		return;
	}
	char dir[] = "/tmp/numatop-hmat-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char cmd[1200];
	snprintf(cmd, sizeof(cmd), "tar -xjf %s -C %s", tar, dir);
	CHECK(system(cmd) == 0);
	char root[600];
	snprintf(root, sizeof(root), "%s/fakeheteromemtiers", dir);
	struct fsroot *r;
	struct topology t;
	CHECK_EQ_INT(fsroot_open(root, &r), 0);
	CHECK_EQ_INT(topology_read(r, &t), 0);
	struct hmat h;
	CHECK_EQ_INT(hmat_read(r, &t, &h), 0);
	CHECK_EQ_INT(h.access, 1);
	/* node4's initiator is node1 at 10000 MB/s, latency not given. */
	int i1 = topology_node_index(&t, 1), i4 = topology_node_index(&t, 4);
	CHECK(i1 >= 0 && i4 >= 0);
	if (i1 >= 0 && i4 >= 0) {
		CHECK_EQ_INT(h.bw_mbs[(size_t)i1 * h.n + (size_t)i4], 10000);
		CHECK_EQ_INT(h.lat_ns[(size_t)i1 * h.n + (size_t)i4], -1);
		CHECK_EQ_INT(h.bw_mbs[(size_t)i4 * h.n + (size_t)i4], -1);   /* no CPUs: no row */
	}
	CHECK(h.ncells >= 7);
	hmat_free(&h);
	topology_free(&t);
	fsroot_close(r);
	/* A tree without access directories has none. */
	CHECK_EQ_INT(fsroot_open("tests/trees/opteron4", &r), 0);
	CHECK_EQ_INT(topology_read(r, &t), 0);
	CHECK_EQ_INT(hmat_read(r, &t, &h), -ENOENT);
	topology_free(&t);
	fsroot_close(r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

int main(void)
{
	RUN_TEST(one_cycle);
	RUN_TEST(placement_check);
	RUN_TEST(round_trip);
	RUN_TEST(disagreement);
	RUN_TEST(hypervisor);
	RUN_TEST(hmat_tree);
	return CHECK_DONE();
}
