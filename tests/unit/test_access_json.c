/* test_access_json.c - the access heat of a recorded sample read back
 * (access_json.c) and the checks it passes first (snapshot_json_check.c):
 * a sample recorded from a tree with a kdamond
 * (tests/fuzz/corpus/access_json/damon: tests/sh/damon_tree.sh) gives
 * its heat; each value out of its range or inconsistent with another
 * (kB below 0, a total that is not its nodes' sum, more hot remote than
 * hot, a share that is not hot remote / hot or past 100, a window under
 * 1 ms, a source or reason not in the tables, an address that is not
 * hex ...)
 * makes the sample malformed; a value left unknown (null) does not. */
#include "access_json.h"
#include "check.h"
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
	free(hdr);
	free(good);
	return CHECK_DONE();
}
