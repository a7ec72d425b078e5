/* test_access_json.c - the access heat of a recorded sample read back
 * (access_json.c) and the checks it passes first (snapshot_json_check.c):
 * a sample recorded from a tree with a kdamond
 * (tests/fuzz/corpus/access_json/damon: tests/sh/damon_tree.sh) gives
 * its heat; each value out of its range or inconsistent with another
 * (kB below 0, a total that is not its nodes' sum, more hot remote than
 * hot, a share that is not hot remote / hot or past 100, a window under
 * 1 ms, a source or reason not in the tables, an address that is not
 * hex ...)
 * makes the sample malformed; a value left unknown (null) does not.
 * DAMON's counts as sysfs may hold them (empty, not a number, negative,
 * past what the kernel's unsigned int holds): null in the JSON, never -1
 * or a wrapped number, and the largest valid ones written as they are;
 * either way the sample reads back with the same values. */
#include <math.h>

#include "access_json.h"
#include "check.h"
#include "damon.h"
#include "jsonget.h"
#include "snapshot_json.h"

static char *hdr, *good;

/* Line n (0-based) of path, without its newline; NULL when missing. */
static char *file_line(const char *path, int n)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len = -1;
	for (int i = 0; f && i <= n; i++)
		len = getline(&line, &cap, f);
	if (f)
		fclose(f);
	if (len <= 0) {
		free(line);
		return NULL;
	}
	if (line[len - 1] == '\n')
		line[len - 1] = '\0';
	return line;
}

/* s with the first from as to (from must be there). */
static char *edit(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	if (!at) {
		printf("  fixture has no %s\n", from);
		return NULL;
	}
	size_t n = strlen(s) - strlen(from) + strlen(to) + 1;
	char *o = malloc(n);
	snprintf(o, n, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
	return o;
}

/* Read line against the header's topology: the snapshot_json_snapshot rc. */
static int read_line(const char *line, struct snapshot *s, struct topology *t)
{
	char err[256];
	memset(s, 0, sizeof(*s));
	if (snapshot_json_topology(hdr, t, err, sizeof(err)) != 0)
		return -100;
	return snapshot_json_snapshot(line, strlen(line), t, s, err, sizeof(err));
}

static const struct snap_proc *pid(const struct snapshot *s, int p)
{
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i].info.pid == p)
			return &s->procs[i];
	return NULL;
}

static void read_heat(void)
{
	struct snapshot s;
	struct topology t;
	CHECK_EQ_INT(read_line(good, &s, &t), 0);
	CHECK_EQ_INT(s.access.source, ACCESS_SRC_DAMON);
	CHECK_EQ_INT(s.access.monitored, 2);
	CHECK(s.access.window_s > 0.099 && s.access.window_s < 0.101);
	const struct snap_proc *p = pid(&s, 1000), *q = pid(&s, 4242);
	CHECK(p && p->acc && p->acc->hot_kb == 98304 && p->acc->hot_remote_kb == 32768);
	CHECK(p && p->acc && p->acc->nregions == 3 && p->acc->hot_node_kb[1] == 49152);
	/* The share from the kB, not as rounded for the JSON (33.3). */
	CHECK(p && p->acc && p->acc->hot_remote_pct > 33.33 && p->acc->hot_remote_pct < 33.34);
	CHECK(q && !q->acc);
	snapshot_free(&s);
	topology_free(&t);
}

/* Each edit of the good sample makes it malformed. */
static void refused(void)
{
	static const char *const e[][2] = {
		{ "\"hot_total_kb\":98304", "\"hot_total_kb\":-1" },
		{ "\"hot_total_kb\":98304", "\"hot_total_kb\":98305" },            /* not its nodes' sum */
		{ "\"cold_kb\":{\"0\":3072", "\"cold_kb\":{\"0\":3072.5" },
		{ "\"cold_kb\":{\"0\":3072", "\"cold_kb\":{\"0\":-1" },
		{ "\"hot_remote_kb\":32768,\"hot_remote_pct\":33.3",
		  "\"hot_remote_kb\":131072,\"hot_remote_pct\":null" },                  /* more than hot */
		{ "\"hot_remote_pct\":33.3", "\"hot_remote_pct\":50.0" },          /* not 32768 / 98304 */
		{ "\"hot_remote_pct\":33.3", "\"hot_remote_pct\":133.3" },
		{ "\"hot_remote_kb\":0,\"hot_remote_pct\":null", "\"hot_remote_kb\":0,\"hot_remote_pct\":0.0" },
		{ "\"window_s\":0.100,\"age_s\"", "\"window_s\":0,\"age_s\"" },
		{ "\"window_s\":0.100,\"age_s\"", "\"window_s\":0.0004,\"age_s\"" },   /* written 0.000 */
		{ "\"age_s\":0.0,\"monitored_s\"", "\"age_s\":-0.5,\"monitored_s\"" },
		{ "\"cold_remote_idle_s\":60.0", "\"cold_remote_idle_s\":-1" },
		{ "\"source\":\"damon\",\"reason\":\"on\",\"window_s\"",
		  "\"source\":\"damon\",\"reason\":\"not_yet\",\"window_s\"" },
		{ "\"reason\":\"not_yet\"}", "\"reason\":\"bogus\"}" },
		{ "\"source\":\"none\",\"reason\":\"not_yet\"}", "\"source\":7,\"reason\":\"not_yet\"}" },
		{ "\"end\":\"0x7f0004000000\"", "\"end\":\"0x-1\"" },
		{ "\"end\":\"0x7f0004000000\"", "\"end\":\"0x 7f0004000000\"" },
		{ "\"end\":\"0x7f0004000000\"", "\"end\":\"0x17f0004000000000000\"" },
		{ "\"nr_accesses\":18", "\"nr_accesses\":-2" },
		{ "\"nr_accesses\":18", "\"nr_accesses\":-1" },
		{ "\"nr_accesses\":18", "\"nr_accesses\":-2147483648" },
		{ "\"nr_accesses\":18", "\"nr_accesses\":4294967296" },
		{ "\"max_accesses\":20", "\"max_accesses\":0" },
		{ "\"resident_kb\":65536", "\"resident_kb\":-1" },
		{ "\"age_s\":4.0,\"resident_kb\"", "\"age_s\":-4.0,\"resident_kb\"" },
		{ "\"regions\":[]", "\"regions\":{}" },
		/* the status */
		{ "\"source\":\"damon\",\"reason\":\"on\",\"text\"", "\"source\":\"dam0n\",\"reason\":\"on\",\"text\"" },
		{ "\"reason\":\"on\",\"text\"", "\"reason\":\"off \",\"text\"" },
		{ "\"monitored\":2,\"max_targets\":16", "\"monitored\":17,\"max_targets\":16" },
		{ "\"monitored\":2,", "\"monitored\":0," },                         /* damon, none watched */
		{ "\"monitored\":2,", "\"monitored\":-2," },
		{ "\"monitored\":2,", "" },                                        /* damon, read as 0 */
		{ "\"window_s\":0.100,\"kdamond_pid\"", "\"window_s\":-0.5,\"kdamond_pid\"" },
		{ "\"kdamond_pid\":77", "\"kdamond_pid\":0" },
		{ "\"request_ms\":0.0", "\"request_ms\":-3" },
	};
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
		char *line = edit(good, e[i][0], e[i][1]);
		struct snapshot s;
		struct topology t;
		int rc = line ? read_line(line, &s, &t) : 0;
		if (rc != -EINVAL)
			printf("  not refused (%d): %s\n", rc, e[i][1]);
		CHECK_EQ_INT(rc, -EINVAL);
		snapshot_free(&s);
		topology_free(&t);
		free(line);
	}
}

/* Unknown values (null) are read as unknown, never refused. */
static void unknown_kept(void)
{
	static const char *const e[][2] = {
		{ "\"hot_remote_pct\":33.3", "\"hot_remote_pct\":null" },
		{ "\"hot_kb\":{\"0\":16384", "\"hot_kb\":{\"0\":null" },
		{ "\"cold_remote_idle_s\":60.0", "\"cold_remote_idle_s\":null" },
		{ "\"kdamond_pid\":77", "\"kdamond_pid\":null" },
		{ "\"max_accesses\":20", "\"max_accesses\":null" },
		{ "\"nr_accesses\":18", "\"nr_accesses\":null" },
		{ "\"nr_accesses\":18", "\"nr_accesses\":2147483648" },
		{ "\"nr_accesses\":18", "\"nr_accesses\":4294967295" },
	};
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
		char *line = edit(good, e[i][0], e[i][1]);
		struct snapshot s;
		struct topology t;
		int rc = line ? read_line(line, &s, &t) : -1;
		if (rc != 0)
			printf("  refused (%d): %s\n", rc, e[i][1]);
		CHECK_EQ_INT(rc, 0);
		const struct snap_proc *p = pid(&s, 1000);
		CHECK(p && p->acc && p->acc->hot_remote_kb == 32768);
		snapshot_free(&s);
		topology_free(&t);
		free(line);
	}
}

/* One region of a process (one node, 4 kB of it resident) whose
 * nr_accesses and age files hold acc and age, parsed as the sampler
 * parses them, joined (windows of 0.1 s, samples of 5 ms) and written as
 * the JSON sample writes it: its first region's object, as text in *text
 * (NULL when the region is not listed). The parsed region into *r. */
static json_object *region_json(const char *acc, const char *age, struct damon_region *r,
				json_object **proc)
{
	struct damon_region_text rt = { { "4096\n", "8192\n", acc, age, NULL }, { 0 } };
	for (int f = 0; f < DAMON_RF_N; f++)
		rt.len[f] = rt.f[f] ? strlen(rt.f[f]) : 0;
	*proc = NULL;
	if (damon_parse_region(&rt, r) != 0)
		return NULL;
	static struct topo_node node = { .id = 0 };
	static struct topology t = { .nodes = &node, .nnodes = 1 };
	static int64_t kb[3], reg_kb[1], one = 4, total = 4;
	static struct access_region reg[1];
	static struct access_proc a;
	static struct snapshot s;
	static struct snap_proc p;
	memset(&a, 0, sizeof(a));
	a.hot_node_kb = kb;
	a.warm_node_kb = kb + 1;
	a.cold_node_kb = kb + 2;
	/* DAMON's region as the heat's range (access.h), as the sampler
	 * converts it. */
	struct access_range ar = { r->start, r->end, r->nr_accesses, r->age };
	struct access_join_in in = { .nnodes = 1, .r = &ar, .n = 1, .aggr_s = 0.1, .sample_s = 0.005,
				     .reg_node_kb = &one, .node_kb = &total, .home = 0 };
	size_t nreg = 0;
	access_join(&in, &a, reg, 1, &nreg, reg_kb);
	a.regions = reg;
	a.nregions = nreg;
	a.source = ACCESS_SRC_DAMON;
	a.monitored_s = 60;
	a.hot_slow_kb = a.cold_fast_kb = -1;
	memset(&s, 0, sizeof(s));
	memset(&p, 0, sizeof(p));
	s.topo = &t;
	s.acc_kb = reg_kb;
	s.access.why = ACCESS_ON;
	p.acc = &a;
	*proc = access_json_proc(&s, &p);
	json_object *rs = jget(*proc, "regions");
	return rs && json_object_array_length(rs) ? json_object_array_get_idx(rs, 0) : NULL;
}

/* The number k of o as text ("null" when null or missing). */
static const char *as_text(json_object *o, const char *k)
{
	json_object *v = jget(o, k);
	return v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN) : "null";
}

/* The good sample with its first region's nr_accesses and age_s those
 * of ro, read back: the region's values (-1 unknown), rc the read's. */
static int read_back(json_object *ro, int64_t *acc, double *age_s)
{
	char to[64];
	snprintf(to, sizeof(to), "\"nr_accesses\":%s,", as_text(ro, "nr_accesses"));
	char *l1 = edit(good, "\"nr_accesses\":18,", to);
	snprintf(to, sizeof(to), "\"age_s\":%s,\"resident_kb\":65536", as_text(ro, "age_s"));
	char *l2 = l1 ? edit(l1, "\"age_s\":4.0,\"resident_kb\":65536", to) : NULL;
	struct snapshot s;
	struct topology t;
	int rc = l2 ? read_line(l2, &s, &t) : -100;
	*acc = -100;
	*age_s = -100;
	const struct snap_proc *p = rc == 0 ? pid(&s, 1000) : NULL;
	for (size_t i = 0; p && p->acc && i < p->acc->nregions; i++)
		if (p->acc->regions[i].start == 0x7f0000000000) {
			*acc = p->acc->regions[i].nr_accesses;
			*age_s = p->acc->regions[i].age_s;
		}
	if (rc == 0)
		snapshot_free(&s);
	topology_free(&t);
	free(l1);
	free(l2);
	return rc;
}

static void damon_numbers(void)
{
	/* The text of a count, and what it is: -1 unknown. */
	static const struct { const char *text; int64_t v; } n[] = {
		{ "", -1 }, { "abc", -1 }, { "-1", -1 }, { "2147483648", 2147483648LL },
		{ "4294967295\n", 4294967295LL }, { "4294967296", -1 },
		{ "18446744073709551615", -1 }, { "18446744073709551616", -1 }, { " 7\n", 7 },
		{ "1e3", -1 }, { "0x10", -1 },
	};
	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		/* In nr_accesses (age 40 windows: 4 s). */
		struct damon_region r;
		json_object *proc, *ro = region_json(n[i].text, "40\n", &r, &proc);
		CHECK_EQ_INT(r.nr_accesses, n[i].v);
		/* Unknown is neither hot nor cold: warm, listed. */
		CHECK(ro != NULL);
		const char *want_heat = n[i].v > 0 ? "hot" : "warm";
		const char *heat = ro && jget_str(ro, "heat") ? jget_str(ro, "heat") : "(none)";
		if (strcmp(heat, want_heat) != 0)
			printf("  nr_accesses \"%s\": heat %s, want %s\n", n[i].text, heat, want_heat);
		CHECK(strcmp(heat, want_heat) == 0);
		char want[32];
		if (n[i].v < 0)
			snprintf(want, sizeof(want), "null");
		else
			snprintf(want, sizeof(want), "%lld", (long long)n[i].v);
		if (ro && strcmp(as_text(ro, "nr_accesses"), want) != 0)
			printf("  nr_accesses \"%s\": written %s, want %s\n", n[i].text,
			       as_text(ro, "nr_accesses"), want);
		CHECK(ro && strcmp(as_text(ro, "nr_accesses"), want) == 0);
		CHECK_EQ_STR(ro ? as_text(ro, "age_s") : NULL, "4.0");
		/* What was written is read back, the same. */
		int64_t acc;
		double age_s;
		int rc = ro ? read_back(ro, &acc, &age_s) : -100;
		if (rc != 0)
			printf("  nr_accesses \"%s\": written %s, not read back (%d)\n", n[i].text,
			       ro ? as_text(ro, "nr_accesses") : "-", rc);
		CHECK_EQ_INT(rc, 0);
		CHECK_EQ_INT(acc, n[i].v);
		json_object_put(proc);

		/* In age (accessed: hot, listed whatever its age). */
		ro = region_json("5", n[i].text, &r, &proc);
		CHECK_EQ_INT(r.age, n[i].v);
		CHECK(ro && jget_str(ro, "heat") && strcmp(jget_str(ro, "heat"), "hot") == 0);
		if (n[i].v < 0)
			snprintf(want, sizeof(want), "null");
		else
			snprintf(want, sizeof(want), "%.1f", (double)n[i].v * 0.1);
		if (ro && strcmp(as_text(ro, "age_s"), want) != 0)
			printf("  age \"%s\": age_s written %s, want %s\n", n[i].text,
			       as_text(ro, "age_s"), want);
		CHECK(ro && strcmp(as_text(ro, "age_s"), want) == 0);
		rc = ro ? read_back(ro, &acc, &age_s) : -100;
		if (rc != 0)
			printf("  age \"%s\": written %s, not read back (%d)\n", n[i].text,
			       ro ? as_text(ro, "age_s") : "-", rc);
		CHECK_EQ_INT(rc, 0);
		CHECK_EQ_INT(acc, 5);
		CHECK(n[i].v < 0 ? age_s == -1 : fabs(age_s - (double)n[i].v * 0.1) < 0.06);
		json_object_put(proc);
	}
}

int main(void)
{
	const char *fx = "tests/fuzz/corpus/access_json/damon";
	hdr = file_line(fx, 0);
	good = file_line(fx, 1);
	if (!hdr || !good) {
		printf("FAIL test_access_json: cannot read %s (run from the source tree)\n", fx);
		return 1;
	}
	RUN_TEST(read_heat);
	RUN_TEST(refused);
	RUN_TEST(unknown_kept);
	RUN_TEST(damon_numbers);
	free(hdr);
	free(good);
	return CHECK_DONE();
}
