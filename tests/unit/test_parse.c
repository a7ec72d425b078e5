/* test_parse.c - node meminfo/numastat/distance, /proc/stat, /proc/PID
 * stat and status, vmstat and name sanitizing on literal inputs. */
#include "parse.h"

#include <unistd.h>
#include "sanitize.h"
#include "check.h"
#include "columns.h"

static void meminfo_node(void)
{
	const char *t =
		"Node 0 MemTotal:        8386704 kB\n"
		"Node 0 MemFree:         3548136 kB\n"
		"Node 0 Active(anon):       1476 kB\n"
		"Node 0 Active:            57024 kB\n"
		"Node 0 FilePages:        129032 kB\n"
		"Node 0 AnonPages:          3984 kB\n"
		"Node 0 Shmem:              9508 kB\n"
		"Node 0 HugePages_Total:     16\n"
		"Node 0 HugePages_Free:      12\n"
		"Node 0 HugePages_Surp:      0\n";
	struct mem_info m;
	CHECK_EQ_INT(parse_meminfo(t, strlen(t), &m), 0);
	CHECK_EQ_INT(m.mem_total_kb, 8386704);
	CHECK_EQ_INT(m.mem_free_kb, 3548136);
	CHECK_EQ_INT(m.file_pages_kb, 129032);
	CHECK_EQ_INT(m.anon_pages_kb, 3984);
	CHECK_EQ_INT(m.shmem_kb, 9508);
	CHECK_EQ_INT(m.huge_total, 16);
	CHECK_EQ_INT(m.huge_free, 12);
	CHECK_EQ_INT(m.hugepagesize_kb, -1);
	/* Two-digit node id, an old kernel with few keys. */
	const char *old = "Node 17 MemTotal:  1020176 kB\nNode 17 MemFree: 5 kB\n";
	CHECK_EQ_INT(parse_meminfo(old, strlen(old), &m), 0);
	CHECK_EQ_INT(m.mem_total_kb, 1020176);
	CHECK_EQ_INT(m.shmem_kb, -1);   /* missing is unknown, not 0 */
	/* /proc/meminfo spelling. */
	const char *pm = "MemTotal:  24000000 kB\nCached: 100 kB\nHugepagesize:  2048 kB\n";
	CHECK_EQ_INT(parse_meminfo(pm, strlen(pm), &m), 0);
	CHECK_EQ_INT(m.mem_total_kb, 24000000);
	CHECK_EQ_INT(m.file_pages_kb, 100);
	CHECK_EQ_INT(m.hugepagesize_kb, 2048);
	CHECK(parse_meminfo("garbage", 7, &m) < 0);
	CHECK(parse_meminfo("", 0, &m) < 0);
	/* A truncated value is not read as a number. */
	CHECK_EQ_INT(parse_meminfo("Node 0 MemTotal:", 16, &m), -EINVAL);
	CHECK_EQ_INT(m.mem_total_kb, -1);
}

static void numastat(void)
{
	const char *t = "numa_hit 603455\nnuma_miss 7\nnuma_foreign 0\n"
			"interleave_hit 1132\nlocal_node 603455\nother_node 3\n";
	struct numastat n;
	CHECK_EQ_INT(parse_numastat(t, strlen(t), &n), 0);
	CHECK_EQ_INT(n.v[NUMASTAT_HIT], 603455);
	CHECK_EQ_INT(n.v[NUMASTAT_MISS], 7);
	CHECK_EQ_INT(n.v[NUMASTAT_FOREIGN], 0);
	CHECK_EQ_INT(n.v[NUMASTAT_INTERLEAVE_HIT], 1132);
	CHECK_EQ_INT(n.v[NUMASTAT_OTHER_NODE], 3);
	const char *part = "numa_hit 5\nnuma_mi";
	CHECK_EQ_INT(parse_numastat(part, strlen(part), &n), 0);
	CHECK_EQ_INT(n.v[NUMASTAT_HIT], 5);
	CHECK_EQ_INT(n.v[NUMASTAT_MISS], -1);
	CHECK(parse_numastat("x y\n", 4, &n) < 0);
}

static void distance(void)
{
	int v[8];
	size_t n;
	CHECK_EQ_INT(parse_distance("10 20 20 20\n", 12, v, 8, &n), 0);
	CHECK_EQ_INT(n, 4);
	CHECK_EQ_INT(v[0], 10);
	CHECK_EQ_INT(v[3], 20);
	CHECK_EQ_INT(parse_distance("10 16 32 33\n\0", 13, v, 8, &n), 0);
	CHECK_EQ_INT(n, 4);
	CHECK_EQ_INT(parse_distance("0\n", 2, v, 8, &n), 0);
	CHECK_EQ_INT(n, 1);
	CHECK_EQ_INT(v[0], 0);
	CHECK_EQ_INT(parse_distance("10 20 x\n", 8, v, 8, &n), -EINVAL);
	CHECK_EQ_INT(parse_distance("10 20 20\n", 9, v, 2, &n), -E2BIG);
	CHECK_EQ_INT(parse_distance("\n", 1, v, 8, &n), -ENODATA);
	CHECK_EQ_INT(parse_distance("10 999\n", 7, v, 8, &n), -ERANGE);
}

struct seen { int cpus[8]; int n; struct cpu_ticks total, c1; };

static int on_cpu(int cpu, const struct cpu_ticks *t, void *ctx)
{
	struct seen *s = ctx;
	if (cpu < 0)
		s->total = *t;
	else if (s->n < 8)
		s->cpus[s->n++] = cpu;
	if (cpu == 1)
		s->c1 = *t;
	return 0;
}

static void proc_stat(void)
{
	const char *t =
		"cpu  1317 0 1315 224243 180 0 17 100 0 0\n"
		"cpu0 514 0 526 112567 6 0 3 39 0 0\n"
		"cpu1 803 0 789 111675 174 0 13 60 0 0\n"
		"cpu3 1 2 3 4 5 6 7\n"           /* 2.6-era 7/8 columns */
		"cpu4 1 2\n"                     /* too short: skipped */
		"intr 12345 0 0\n"
		"ctxt 99\n";
	struct seen s = { .n = 0 };
	CHECK_EQ_INT(parse_proc_stat(t, strlen(t), on_cpu, &s), 0);
	CHECK_EQ_INT(s.n, 3);
	CHECK_EQ_INT(s.cpus[2], 3);
	CHECK_EQ_INT(s.total.nfields, 10);
	CHECK_EQ_INT(s.total.t[TICK_IDLE], 224243);
	CHECK_EQ_INT(s.c1.t[TICK_IOWAIT], 174);
}

static void pid_stat(void)
{
	/* A hostile 15-byte name with ')' and spaces: the last ')' ends it. */
	const char *t = "4242 (a) b) (c d) S 1 4242 4242 0 -1 4194304 100 0 2 0 "
			"50 25 0 0 20 0 3 0 12345 10000000 250 18446744073709551615 "
			"1 1 0 0 0 0 0 0 0 0 0 0 17 6 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
	struct pid_stat st;
	CHECK_EQ_INT(parse_pid_stat(t, strlen(t), &st), 0);
	CHECK_EQ_INT(st.pid, 4242);
	CHECK_EQ_STR(st.comm, "a) b) (c d");
	CHECK_EQ_INT(st.state, 'S');
	CHECK_EQ_INT(st.ppid, 1);
	CHECK_EQ_INT(st.minflt, 100);
	CHECK_EQ_INT(st.majflt, 2);
	CHECK_EQ_INT(st.utime, 50);
	CHECK_EQ_INT(st.stime, 25);
	CHECK_EQ_INT(st.nthreads, 3);
	CHECK_EQ_INT(st.starttime, 12345);
	CHECK_EQ_INT(st.rss_pages, 250);
	CHECK_EQ_INT(st.processor, 6);
	/* Cut before field 39: no last CPU, but still usable. */
	const char *cut = "7 (x) R 1 7 7 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 99 0 5";
	CHECK_EQ_INT(parse_pid_stat(cut, strlen(cut), &st), 0);
	CHECK_EQ_INT(st.processor, -1);
	CHECK_EQ_INT(st.starttime, 99);
	/* Cut before starttime: rejected. */
	CHECK(parse_pid_stat("7 (x) R 1 7", 11, &st) < 0);
	CHECK(parse_pid_stat("garbage", 7, &st) < 0);
	CHECK(parse_pid_stat("7 (x R 1", 8, &st) < 0);
	CHECK(parse_pid_stat("", 0, &st) < 0);
}

static void pid_status(void)
{
	const char *t = "Name:\tdbserver\nUmask:\t0022\nState:\tS (sleeping)\n"
			"Uid:\t1000\t1001\t1000\t1000\nThreads:\t3\nVmRSS:\t  10240 kB\n"
			"Cpus_allowed_list:\t2-3\nMems_allowed_list:\t0-3\n";
	struct pid_status s;
	CHECK_EQ_INT(parse_pid_status(t, strlen(t), &s), 0);
	CHECK_EQ_STR(s.name, "dbserver");
	CHECK_EQ_INT(s.uid, 1001);   /* effective */
	CHECK_EQ_INT(s.threads, 3);
	CHECK_EQ_INT(s.vm_rss_kb, 10240);
	CHECK_EQ_STR(s.cpus_allowed_list, "2-3");
	CHECK_EQ_STR(s.mems_allowed_list, "0-3");
	/* Kernel thread: no VmRSS line = unknown. */
	const char *k = "Name:\tkthreadd\nUid:\t0\t0\t0\t0\nThreads:\t1\n";
	CHECK_EQ_INT(parse_pid_status(k, strlen(k), &s), 0);
	CHECK_EQ_INT(s.vm_rss_kb, -1);
	CHECK(parse_pid_status("nothing\n", 8, &s) < 0);
}

static void vmstat(void)
{
	const char *t = "nr_free_pages 5\npgmigrate_success 42\nnuma_pages_migrated 7\n";
	struct vmstat_migrate v;
	CHECK_EQ_INT(parse_vmstat_migrate(t, strlen(t), &v), 0);
	CHECK_EQ_INT(v.pgmigrate_success, 42);
	CHECK_EQ_INT(v.numa_pages_migrated, 7);
	CHECK_EQ_INT(parse_vmstat_migrate("", 0, &v), 0);
	CHECK_EQ_INT(v.pgmigrate_success, -1);
}

/* NUMA balancing: /proc/vmstat keys, absent ones unknown. */
static void numa_vmstat(void)
{
	const char *t = "numa_hit 5\nnuma_hint_faults 1200\nnuma_hint_faults_local 900\n"
			"numa_pages_migrated 77\npgmigrate_success 80\npgmigrate_fail 3\n"
			"pgpromote_success 0\nnuma_hint_faults_localx 5\n";
	struct numa_vmstat v;
	CHECK_EQ_INT(parse_numa_vmstat(t, strlen(t), &v), 0);
	CHECK_EQ_INT(v.v[NVM_HINT_FAULTS], 1200);
	CHECK_EQ_INT(v.v[NVM_HINT_FAULTS_LOCAL], 900);
	CHECK_EQ_INT(v.v[NVM_PAGES_MIGRATED], 77);
	CHECK_EQ_INT(v.v[NVM_PGMIGRATE_SUCCESS], 80);
	CHECK_EQ_INT(v.v[NVM_PGMIGRATE_FAIL], 3);
	CHECK_EQ_INT(v.v[NVM_PGPROMOTE_SUCCESS], 0);
	CHECK_EQ_INT(v.v[NVM_PGDEMOTE_KSWAPD], -1);      /* an older kernel: absent */
	CHECK_EQ_INT(parse_numa_vmstat("nr_free_pages 1\n", 16, &v), -ENODATA);
	CHECK_EQ_INT(parse_numa_vmstat("numa_hint_faults x\n", 19, &v), -ENODATA);
}

/* /proc/PID/sched with NUMA balancing, and without. */
static void pid_sched(void)
{
	const char *t =
		"dbserver (1001, #threads: 3)\n"
		"-------------------------------------------------------------------\n"
		"se.exec_start                                :      12345678.123456\n"
		"mm->numa_scan_seq                            :                    5\n"
		"numa_pages_migrated                          :                  128\n"
		"numa_preferred_nid                           :                    1\n"
		"total_numa_faults                            :                  200\n"
		"current_node=1, numa_group_id=0\n"
		"numa_faults node=0 task_private=8 task_shared=2 group_private=0 group_shared=0\n"
		"numa_faults node=1 task_private=128 task_shared=42 group_private=0 group_shared=0\n"
		"numa_faults node=9 task_private=1 task_shared=1 group_private=0 group_shared=0\n";
	struct pid_sched ps;
	int64_t f[4];
	CHECK_EQ_INT(parse_pid_sched(t, strlen(t), &ps, f, 4), 0);
	CHECK_EQ_INT(ps.pages_migrated, 128);
	CHECK_EQ_INT(ps.preferred_nid, 1);
	CHECK_EQ_INT(ps.total_faults, 200);
	CHECK_EQ_INT(ps.current_node, 1);
	CHECK_EQ_INT(ps.nfault_lines, 3);
	CHECK_EQ_INT(f[0], 10);
	CHECK_EQ_INT(f[1], 170);
	CHECK_EQ_INT(f[2], -1);                  /* no line: unknown */
	/* A kernel without NUMA balancing prints none of it. */
	const char *n = "cat (77, #threads: 1)\nse.exec_start   :   1.0\nnr_switches   :   3\n";
	CHECK_EQ_INT(parse_pid_sched(n, strlen(n), &ps, f, 4), -ENODATA);
	CHECK_EQ_INT(ps.pages_migrated, -1);
	/* A broken faults line is an error, not zeros. */
	const char *b = "numa_pages_migrated : 1\nnuma_faults node=0 task_private=x\n";
	CHECK_EQ_INT(parse_pid_sched(b, strlen(b), &ps, f, 4), -EINVAL);
	/* A preferred node of -1 (none). */
	const char *m = "numa_preferred_nid                           :                   -1\n";
	CHECK_EQ_INT(parse_pid_sched(m, strlen(m), &ps, f, 4), 0);
	CHECK_EQ_INT(ps.preferred_nid, -1);
}

/* /proc/zoneinfo: the low watermarks of each node's zones, summed. */
static void zoneinfo(void)
{
	const char *t =
		"Node 0, zone      DMA\n  per-node stats\n      nr_inactive_anon 5\n"
		"  pages free     3840\n        boost    0\n        min      10\n"
		"        low      13\n        high     16\n        spanned  4095\n"
		"        protection: (0, 2917, 23993, 23993, 23993)\n"
		"Node 0, zone    DMA32\n  pages free     700000\n        min      2000\n"
		"        low      2500\n        high     3000\n"
		"Node 2, zone   Normal\n  pages free     5\n        low      400\n"
		"Node 9, zone   Normal\n        low      7\n";
	int64_t low[4];
	CHECK_EQ_INT(parse_zoneinfo_low(t, strlen(t), low, 4), 0);
	CHECK_EQ_INT(low[0], 2513);
	CHECK_EQ_INT(low[1], -1);                /* no such node */
	CHECK_EQ_INT(low[2], 400);
	CHECK_EQ_INT(parse_zoneinfo_low("garbage\n", 8, low, 4), -EINVAL);
	/* Two zones whose sum does not fit: unknown, not a wrapped number. */
	const char *big = "Node 1, zone A\n  low 7550956297025341212\n"
			  "Node 1, zone B\n  low 7550956297025341212\n  low 5\n"
			  "Node 0, zone C\n  low 9\n";
	CHECK_EQ_INT(parse_zoneinfo_low(big, strlen(big), low, 4), 0);
	CHECK_EQ_INT(low[1], -1);
	CHECK_EQ_INT(low[0], 9);
}

/* Display widths: CJK counts 2, a cut never splits a character. */
static void widths(void)
{
	CHECK_EQ_INT(utf8_width("abc"), 3);
	CHECK_EQ_INT(utf8_width("\xe5\xb1\xb1\xe7\x94\xb0"), 4);     /* two CJK */
	CHECK_EQ_INT(utf8_width("e\xcc\x81"), 1);                        /* e + combining acute */
	int used;
	/* 3 columns of two wide characters: only the first fits, whole. */
	CHECK_EQ_INT(utf8_fit("\xe5\xb1\xb1\xe7\x94\xb0", 3, &used), 3);
	CHECK_EQ_INT(used, 2);
	CHECK_EQ_INT(utf8_fit("ab\xff", 10, &used), 3);                   /* invalid byte: 1 */
	CHECK_EQ_INT(used, 3);
	struct col_ctx c = { 0 };
	char out[64];
	/* USER is 10 columns wide in batch text: a name of six CJK
	 * characters is cut to four (8 columns) + "+" and one space. */
	const char *cjk6 = "\xe5\xb1\xb1\xe7\x94\xb0\xe5\xb1\xb1\xe7\x94\xb0\xe5\xb1\xb1\xe7\x94\xb0";
	col_pad(&c, COL_USER, false, cjk6, out, sizeof(out));
	CHECK_EQ_INT(-col_get(COL_USER)->text_w, 10);
	CHECK_EQ_INT(utf8_width(out), 10);
	CHECK_EQ_INT(strlen(out), 4 * 3 + 2);
	CHECK(strstr(out, "+ ") != NULL);
	col_pad(&c, COL_USER, false, "bob", out, sizeof(out));
	CHECK_EQ_STR(out, "bob       ");
}

static void sanitize(void)
{
	char out[128];
	sanitize_term("evil\x1b[2Jname", out, sizeof(out));
	CHECK_EQ_STR(out, "evil\\x1b[2Jname");
	sanitize_term("a\rb\nc\x7f", out, sizeof(out));
	CHECK_EQ_STR(out, "a\\x0db\\x0ac\\x7f");
	sanitize_term("rtl\xe2\x80\xaegnp.exe", out, sizeof(out));
	CHECK_EQ_STR(out, "rtl\\u202egnp.exe");
	sanitize_term("bad\xff\xfeutf", out, sizeof(out));
	CHECK_EQ_STR(out, "bad\\xff\\xfeutf");
	sanitize_term("caf\xc3\xa9", out, sizeof(out));
	CHECK_EQ_STR(out, "caf\xc3\xa9");
	sanitize_term("c1\xc2\x9b", out, sizeof(out));
	CHECK_EQ_STR(out, "c1\\u009b");
	/* Truncation never splits an escape or overflows. */
	char small[6];
	sanitize_term("ab\x1b\x1b", small, sizeof(small));
	CHECK_EQ_STR(small, "ab");
	sanitize_utf8("ok\xff\x1b", out, sizeof(out));
	CHECK_EQ_STR(out, "ok\xef\xbf\xbd\x1b");
}

/* Ticks and seconds, the one conversion: USER_HZ as sysconf says. */
static void ticks(void)
{
	long hz = sysconf(_SC_CLK_TCK);
	CHECK(hz > 0);
	CHECK(parse_ticks_s((uint64_t)hz * 3) == 3.0);
	CHECK(parse_ticks_s(0) == 0.0);
	for (uint64_t t = 1; t < 1000000000000ull; t = t * 7 + 3)
		CHECK(parse_s_ticks(parse_ticks_s(t)) == t);
}

int main(void)
{
	RUN_TEST(meminfo_node);
	RUN_TEST(numastat);
	RUN_TEST(distance);
	RUN_TEST(proc_stat);
	RUN_TEST(pid_stat);
	RUN_TEST(pid_status);
	RUN_TEST(vmstat);
	RUN_TEST(sanitize);
	RUN_TEST(widths);
	RUN_TEST(numa_vmstat);
	RUN_TEST(pid_sched);
	RUN_TEST(zoneinfo);
	RUN_TEST(ticks);
	return CHECK_DONE();
}
