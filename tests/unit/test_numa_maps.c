/* test_numa_maps.c - the whole numa_maps grammar on literal inputs. */
#include "numa_maps.h"
#include "check.h"

/* Figure 5.2 of the article: /bin/cat on a 4-node Opteron (old format,
 * no kernelpagesize_kB). */
static const char fig52[] =
"00400000 default file=/bin/cat mapped=3 N3=3\n"
"00504000 default file=/bin/cat anon=1 dirty=1 mapped=2 N3=2\n"
"00506000 default heap anon=3 dirty=3 active=0 N3=3\n"
"38a9000000 default file=/lib64/ld-2.4.so mapped=22 mapmax=47 N1=22\n"
"38a9119000 default file=/lib64/ld-2.4.so anon=1 dirty=1 N3=1\n"
"38a911a000 default file=/lib64/ld-2.4.so anon=1 dirty=1 N3=1\n"
"38a9200000 default file=/lib64/libc-2.4.so mapped=53 mapmax=52 N1=51 N2=2\n"
"38a933f000 default file=/lib64/libc-2.4.so\n"
"38a943f000 default file=/lib64/libc-2.4.so anon=1 dirty=1 mapped=3 mapmax=32 N1=2 N3=1\n"
"38a9443000 default file=/lib64/libc-2.4.so anon=1 dirty=1 N3=1\n"
"38a9444000 default anon=4 dirty=4 active=0 N3=4\n"
"2b2bbcdce000 default anon=1 dirty=1 N3=1\n"
"2b2bbcde4000 default anon=2 dirty=2 N3=2\n"
"2b2bbcde6000 default file=/usr/lib/locale/locale-archive mapped=11 mapmax=8 N0=11\n"
"7fffedcc7000 default stack anon=2 dirty=2 N3=2\n";

static const int ids4[] = { 0, 1, 2, 3 };
static const struct nm_params p4 = { 4, 2048, ids4, 4, 4, false };

static void article_figure(void)
{
	struct nm_mapping m;
	struct nm_summary s;
	nm_mapping_init(&m);
	CHECK_EQ_INT(nm_summary_init(&s, 4), 0);
	CHECK_EQ_INT(numa_maps_summarize(fig52, strlen(fig52), &p4, &m, &s), 0);
	CHECK_EQ_INT(s.nmappings, 15);
	CHECK_EQ_INT(s.nbad, 0);
	/* Pages: N0 11, N1 22+51+2 = 75, N2 2, N3 3+2+3+1+1+1+1+4+1+2+2 = 21. */
	CHECK_EQ_INT(s.node_kb[0], 44);
	CHECK_EQ_INT(s.node_kb[1], 300);
	CHECK_EQ_INT(s.node_kb[2], 8);
	CHECK_EQ_INT(s.node_kb[3], 84);
	CHECK_EQ_INT(s.total_kb, 436);
	/* anon: heap 3 + anon 4 + 1 + 2 + stack 2 = 12 pages on N3. */
	CHECK_EQ_INT(s.anon_kb[3], 48);
	CHECK_EQ_INT(s.file_kb[3], 36);
	CHECK_EQ_INT(s.file_kb[1], 300);
	CHECK_EQ_INT(s.huge_kb[3], 0);
	CHECK_EQ_STR(s.policy, "default");
	nm_summary_free(&s);
	nm_mapping_free(&m);
}

static int parse(struct nm_mapping *m, const char *line)
{
	return numa_maps_parse_line(line, strlen(line), m);
}

static void policies(void)
{
	struct nm_mapping m;
	nm_mapping_init(&m);
	CHECK_EQ_INT(parse(&m, "7f0000000000 prefer (many)=static:0-3 anon=2 N0=1 N2=1"), 0);
	CHECK_EQ_INT(m.mode, NM_MODE_PREFER_MANY);
	CHECK_EQ_STR(m.policy, "prefer (many)=static:0-3");
	CHECK_EQ_INT(m.anon, 2);
	CHECK_EQ_INT(m.nnodes, 2);
	CHECK_EQ_INT(parse(&m, "7f0000000000 weighted interleave:0-1 anon=4 N0=2 N1=2 kernelpagesize_kB=4"), 0);
	CHECK_EQ_INT(m.mode, NM_MODE_WEIGHTED_INTERLEAVE);
	CHECK_EQ_STR(m.policy, "weighted interleave:0-1");
	CHECK_EQ_INT(parse(&m, "7f0000000000 bind=static:0-3 anon=1 N1=1"), 0);
	CHECK_EQ_INT(m.mode, NM_MODE_BIND);
	CHECK_EQ_STR(m.policy, "bind=static:0-3");
	CHECK_EQ_INT(parse(&m, "7f0000000000 interleave=relative|static:0-3 N0=435 N1=435 N2=435 N3=50098"), 0);
	CHECK_EQ_INT(m.mode, NM_MODE_INTERLEAVE);
	CHECK_EQ_INT(m.nodes[3].pages, 50098);
	CHECK_EQ_INT(parse(&m, "7f0000000000 prefer:1 N1=3"), 0);
	CHECK_EQ_INT(m.mode, NM_MODE_PREFER);
	CHECK_EQ_STR(m.policy, "prefer:1");
	CHECK_EQ_INT(parse(&m, "7f0000000000 local"), 0);
	CHECK_EQ_INT(m.mode, NM_MODE_LOCAL);
	CHECK_EQ_INT(m.nnodes, 0);
	/* A mode from a future kernel is kept as text. */
	CHECK_EQ_INT(parse(&m, "7f0000000000 newmode:0 N0=1"), 0);
	CHECK_EQ_INT(m.mode, NM_MODE_UNKNOWN);
	CHECK_EQ_STR(m.policy, "newmode:0");
	nm_mapping_free(&m);
}

static void kinds_and_fields(void)
{
	struct nm_mapping m;
	nm_mapping_init(&m);
	CHECK_EQ_INT(parse(&m, "00400000 default file=/tmp/my\\040file\\075x\\011y mapped=3 N0=3 kernelpagesize_kB=4"), 0);
	CHECK_EQ_INT(m.kind, NM_KIND_FILE);
	CHECK_EQ_STR(m.file, "/tmp/my file=x\ty");
	CHECK_EQ_INT(m.pagesize_kb, 4);
	CHECK_EQ_INT(parse(&m, "00400000 default file=/usr/lib/x.so\\040(deleted) N0=1"), 0);
	CHECK_EQ_STR(m.file, "/usr/lib/x.so (deleted)");
	CHECK_EQ_INT(parse(&m, "00506000 default heap anon=3 dirty=3 active=0 N3=3"), 0);
	CHECK_EQ_INT(m.kind, NM_KIND_HEAP);
	CHECK_EQ_INT(m.active, 0);
	CHECK_EQ_INT(m.mapped, -1);   /* absent, not 0 */
	CHECK_EQ_INT(parse(&m, "7fff00000000 default stack:1234 anon=2 N0=2"), 0);
	CHECK_EQ_INT(m.kind, NM_KIND_STACK);
	CHECK_EQ_INT(m.stack_tid, 1234);
	CHECK_EQ_INT(parse(&m, "2aaaaac00000 default file=/dev/hugepages/x huge dirty=4 N0=3 N1=1 kernelpagesize_kB=2048"), 0);
	CHECK(m.huge);
	CHECK_EQ_INT(nm_mapping_page_kb(&m, 4, 2048), 2048);
	CHECK_EQ_INT(parse(&m, "3000 bind:1 anon=1 dirty=1 mapped=2 mapmax=3 swapcache=1 active=1 writeback=1 N1=2"), 0);
	CHECK_EQ_INT(m.mapmax, 3);
	CHECK_EQ_INT(m.swapcache, 1);
	CHECK_EQ_INT(m.writeback, 1);
	/* Unknown tokens from newer kernels are skipped. */
	CHECK_EQ_INT(parse(&m, "3000 default anon=1 shiny=7 N0=1"), 0);
	CHECK_EQ_INT(m.nnodes, 1);
	/* Sparse node ids. */
	CHECK_EQ_INT(parse(&m, "3000 default N33=5 N1023=1"), 0);
	CHECK_EQ_INT(m.nodes[0].node, 33);
	CHECK_EQ_INT(m.nodes[1].node, 1023);
	nm_mapping_free(&m);
}

static void bad_lines(void)
{
	struct nm_mapping m;
	nm_mapping_init(&m);
	CHECK(parse(&m, "") < 0);
	CHECK(parse(&m, "zzzz default") < 0);
	CHECK(parse(&m, "00400000") < 0);
	CHECK(parse(&m, "00400000 default N0=") < 0);      /* cut mid-token */
	CHECK(parse(&m, "00400000 default N0=x") < 0);
	CHECK(parse(&m, "00400000 default anon=-1") < 0);
	CHECK(parse(&m, "00400000 default N0=99999999999999999999999") < 0);
	/* Past any real machine (found by the fuzzer: kB sums wrapped). */
	CHECK_EQ_INT(parse(&m, "00400000 default N0=68719476737"), -ERANGE);
	CHECK_EQ_INT(parse(&m, "00400000 default N0=1 kernelpagesize_kB=99999999999"), -ERANGE);
	CHECK_EQ_INT(parse(&m, "00400000 default N0=68719476736 kernelpagesize_kB=16777216"), 0);
	nm_mapping_free(&m);
}

static void huge_pages_not_4k(void)
{
	const char *txt =
		"2aaaaac00000 default file=/dev/hugepages/a huge N0=2 N1=1 kernelpagesize_kB=2048\n"
		"7f0000000000 default anon=10 N1=10 kernelpagesize_kB=4\n"
		/* old kernel, no kernelpagesize_kB: the default huge size */
		"2aaaab000000 default file=/dev/hugepages/b huge N1=1\n";
	struct nm_mapping m;
	struct nm_summary s;
	nm_mapping_init(&m);
	nm_summary_init(&s, 4);
	CHECK_EQ_INT(numa_maps_summarize(txt, strlen(txt), &p4, &m, &s), 0);
	CHECK_EQ_INT(s.huge_kb[0], 4096);
	CHECK_EQ_INT(s.huge_kb[1], 2048 + 2048);
	CHECK_EQ_INT(s.anon_kb[1], 40);
	CHECK_EQ_INT(s.node_kb[1], 4136);
	CHECK_EQ_INT(s.total_kb, 8232);
	/* Unknown huge page size: counted apart, never as 4 KiB pages. */
	struct nm_params q = p4;
	q.default_huge_kb = -1;
	CHECK_EQ_INT(numa_maps_summarize(txt, strlen(txt), &q, &m, &s), 0);
	CHECK_EQ_INT(s.unknown_size_pages, 1);
	CHECK_EQ_INT(s.huge_kb[1], 2048);
	nm_summary_free(&s);
	nm_mapping_free(&m);
}

static void truncated_and_mixed(void)
{
	/* A process that exited mid-read: the last line is cut. */
	const char *txt =
		"00400000 bind:1 anon=2 N1=2 kernelpagesize_kB=4\n"
		"00500000 default anon=1 N0=1 kernelpagesize_kB=4\n"
		"00600000 default anon=7 N0=";
	struct nm_mapping m;
	struct nm_summary s;
	nm_mapping_init(&m);
	nm_summary_init(&s, 4);
	CHECK_EQ_INT(numa_maps_summarize(txt, strlen(txt), &p4, &m, &s), 0);
	CHECK_EQ_INT(s.nmappings, 2);
	CHECK_EQ_INT(s.nbad, 1);
	CHECK_EQ_INT(s.total_kb, 12);
	CHECK_EQ_STR(s.policy, "mixed: bind:1,default");
	/* Only garbage: an error, not an empty process. */
	CHECK(numa_maps_summarize("garbage\n", 8, &p4, &m, &s) < 0);
	/* Empty file (kernel thread): zero mappings, no error. */
	CHECK_EQ_INT(numa_maps_summarize("", 0, &p4, &m, &s), 0);
	CHECK_EQ_INT(s.total_kb, 0);
	/* Sparse ids map to indexes; ids outside the topology are "other". */
	const int sparse[] = { 0, -1, -1, 1 };
	struct nm_params sp = { 4, 2048, sparse, 4, 2, false };
	struct nm_summary s2;
	nm_summary_init(&s2, 2);
	const char *t2 = "1000 default N3=2 N0=1 N2=5 N77=1 kernelpagesize_kB=4\n";
	CHECK_EQ_INT(numa_maps_summarize(t2, strlen(t2), &sp, &m, &s2), 0);
	CHECK_EQ_INT(s2.node_kb[0], 4);
	CHECK_EQ_INT(s2.node_kb[1], 8);
	/* Pages on nodes the topology lacks are neither local nor remote:
	 * apart from the total, with the first such id remembered. */
	CHECK_EQ_INT(s2.other_kb, 24);
	CHECK_EQ_INT(s2.total_kb, 12);
	CHECK_EQ_INT(s2.other_id, 2);
	/* kernelpagesize_kB=0 is no page size (not 4 kB): a bad line. */
	const char *t3 = "1000 default N0=2 kernelpagesize_kB=0\n2000 default N0=1 kernelpagesize_kB=4\n";
	CHECK_EQ_INT(numa_maps_summarize(t3, strlen(t3), &sp, &m, &s2), 0);
	CHECK_EQ_INT(s2.nbad, 1);
	CHECK_EQ_INT(s2.total_kb, 4);
	CHECK_EQ_INT(s2.other_id, -1);
	nm_summary_free(&s2);
	nm_summary_free(&s);
	nm_mapping_free(&m);
}

static void many_lines(void)
{
	/* 100 000 mappings: no per-line allocation, correct totals. */
	size_t n = 100000, cap = n * 64;
	char *txt = malloc(cap);
	size_t o = 0;
	for (size_t i = 0; i < n; i++)
		o += (size_t)snprintf(txt + o, cap - o, "%zx default anon=1 N%zu=1 kernelpagesize_kB=4\n",
				      0x10000 + i * 0x1000, i % 4);
	struct nm_mapping m;
	struct nm_summary s;
	nm_mapping_init(&m);
	nm_summary_init(&s, 4);
	CHECK_EQ_INT(numa_maps_summarize(txt, o, &p4, &m, &s), 0);
	CHECK_EQ_INT(s.nmappings, n);
	CHECK_EQ_INT(s.node_kb[2], 100000);
	CHECK_EQ_INT(s.total_kb, 400000);
	nm_summary_free(&s);
	nm_mapping_free(&m);
	free(txt);
}

/* Runs of lines alike after their address (the fast path takes each
 * from the one before) count once per line; a bad address or counter in
 * a run is a bad line, each time; the general parser alone (reference)
 * gives the same summary. */
static void runs_of_alike_lines(void)
{
	size_t cap = 1 << 20, o = 0;
	char *txt = malloc(cap);
	for (size_t i = 0; i < 1000; i++)
		o += (size_t)snprintf(txt + o, cap - o,
				      "%zx default anon=1 dirty=1 active=0 N0=1 kernelpagesize_kB=4\n",
				      0x7f0000000000 + i * 0x2000);
	/* 17 hex digits: not an address, though the rest is the run's. */
	o += (size_t)snprintf(txt + o, cap - o,
			      "7f000000000000000 default anon=1 dirty=1 active=0 N0=1 kernelpagesize_kB=4\n");
	for (size_t i = 0; i < 3; i++)
		o += (size_t)snprintf(txt + o, cap - o, "%zx default anon=x N1=5 kernelpagesize_kB=4\n",
				      0x10000 + i * 0x1000);
	for (size_t i = 0; i < 500; i++)
		o += (size_t)snprintf(txt + o, cap - o, "%zx bind:1 anon=2 N1=2 kernelpagesize_kB=4\n",
				      0x20000 + i * 0x1000);
	o += (size_t)snprintf(txt + o, cap - o, "30000 default\n30001 default\n");
	/* 20 nodes on one line: the node array grows past its first 8. */
	o += (size_t)snprintf(txt + o, cap - o, "40000 default");
	for (int nd = 0; nd < 20; nd++)
		o += (size_t)snprintf(txt + o, cap - o, " N%d=1", nd);
	o += (size_t)snprintf(txt + o, cap - o, " kernelpagesize_kB=4\n");
	struct nm_params ref = p4;
	ref.reference = true;
	struct nm_mapping m;
	struct nm_summary s, r;
	nm_mapping_init(&m);
	nm_summary_init(&s, 4);
	nm_summary_init(&r, 4);
	CHECK_EQ_INT(numa_maps_summarize(txt, o, &p4, &m, &s), 0);
	CHECK_EQ_INT(s.nmappings, 1503);
	CHECK_EQ_INT(s.nbad, 4);
	CHECK_EQ_INT(s.node_kb[0], 4004);
	CHECK_EQ_INT(s.node_kb[1], 4004);
	CHECK_EQ_INT(s.node_kb[3], 4);
	CHECK_EQ_INT(s.other_kb, 64);
	CHECK_EQ_INT(s.pol_kb[1], 4000);
	CHECK_EQ_INT(s.anon_kb[0], 4004);
	CHECK_EQ_INT(s.npolicies, 2);
	CHECK_EQ_STR(s.policy, "mixed: default,bind:1");
	CHECK_EQ_STR(s.pol_top, "bind:1");
	CHECK_EQ_INT(numa_maps_summarize(txt, o, &ref, &m, &r), 0);
	CHECK_EQ_INT(r.nmappings, s.nmappings);
	CHECK_EQ_INT(r.nbad, s.nbad);
	CHECK_EQ_INT(r.node_kb[0], s.node_kb[0]);
	CHECK_EQ_INT(r.node_kb[1], s.node_kb[1]);
	CHECK_EQ_INT(r.other_kb, s.other_kb);
	CHECK_EQ_INT(r.pol_kb[1], s.pol_kb[1]);
	CHECK_EQ_STR(r.policy, s.policy);
	nm_summary_free(&s);
	nm_summary_free(&r);
	nm_mapping_free(&m);
	free(txt);
}

/* Found by the fuzzer: distinct policies whose list ends 1-2 bytes short
 * of the summary's size overflowed it. Every length is tried. */
static void policy_list_overflow(void)
{
	struct nm_mapping m;
	struct nm_summary s;
	nm_mapping_init(&m);
	nm_summary_init(&s, 4);
	for (int len = 1; len < 70; len++) {
		char txt[512];
		int o = snprintf(txt, sizeof(txt), "1000 default N0=1\n2000 bind:%.*s N0=1\n",
				 len, "0123456789012345678901234567890123456789012345678901234567890123456789");
		snprintf(txt + o, sizeof(txt) - (size_t)o, "3000 local N0=1\n4000 prefer:1 N0=1\n");
		CHECK_EQ_INT(numa_maps_summarize(txt, strlen(txt), &p4, &m, &s), 0);
		CHECK(strlen(s.policy) < sizeof(s.policy));
		CHECK_EQ_INT(s.npolicies, 4);
		CHECK(strncmp(s.policy, "mixed: default,", 15) == 0);
	}
	nm_summary_free(&s);
	nm_mapping_free(&m);
}

/* Inputs the fast parser must treat exactly as the first one did. */
static void same_as_before(void)
{
	struct nm_mapping m;
	nm_mapping_init(&m);
	/* "N0" alone is not a node count: skipped, the rest still parsed. */
	CHECK_EQ_INT(parse(&m, "7f0000000000 default N0 anon=1 N1=2"), 0);
	CHECK_EQ_INT(m.anon, 1);
	CHECK_EQ_INT(m.nnodes, 1);
	CHECK_EQ_INT(m.nodes[0].node, 1);
	/* Leading zeros are not digits that overflow. */
	CHECK_EQ_INT(parse(&m, "7f0000000000 default anon=0000000000000000000000005 N00000000000000000000001=0000000000000000000007"), 0);
	CHECK_EQ_INT(m.anon, 5);
	CHECK(m.nnodes == 1 && m.nodes[0].node == 1 && m.nodes[0].pages == 7);
	/* 21 significant digits overflow; trailing junk is an error. */
	CHECK(parse(&m, "7f0000000000 default anon=100000000000000000000") != 0);
	CHECK_EQ_INT(parse(&m, "7f0000000000 default N0=1x"), -EINVAL);
	CHECK_EQ_INT(parse(&m, "7f0000000000 default anon=1x"), -EINVAL);
	CHECK_EQ_INT(parse(&m, "7f0000000000 default anonymous=3 N0=1"), 0);
	CHECK_EQ_INT(m.anon, -1);
	nm_mapping_free(&m);
}


int main(void)
{
	RUN_TEST(same_as_before);
	RUN_TEST(policy_list_overflow);
	RUN_TEST(article_figure);
	RUN_TEST(policies);
	RUN_TEST(kinds_and_fields);
	RUN_TEST(bad_lines);
	RUN_TEST(huge_pages_not_4k);
	RUN_TEST(truncated_and_mixed);
	RUN_TEST(many_lines);
	RUN_TEST(runs_of_alike_lines);
	return CHECK_DONE();
}
