/* test_replay.c - the replay (src/replay.c): a sample that cannot be
 * rebuilt leaves the caller's model as it was and is skipped with a
 * warning, both ways, also under an unusable later header; -p, -u and K
 * filter as the live sampler does (the same function), in the model and
 * in the --json line; the --json line is the recorded one, re-escaped;
 * absurd numbers make a sample malformed. Recordings are made from the
 * opteron4 sample (tests/fuzz/corpus/replay/opteron4). */
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "check.h"
#include "replay.h"
#include "sanitize.h"

static char *hdr, *good;       /* the fixture's header and sample */

static char *file_line(const char *path, int n)
{
	FILE *f = fopen(path, "r");
	char *l = NULL;
	size_t cap = 0;
	ssize_t len = -1;
	for (int i = 0; f && i <= n; i++)
		len = getline(&l, &cap, f);
	if (f)
		fclose(f);
	if (len <= 0) {
		free(l);
		return NULL;
	}
	l[strcspn(l, "\n")] = '\0';
	return l;
}

/* s with the first `from` replaced by `to` (malloc'ed). */
static char *edit(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	CHECK(at != NULL);
	size_t n = strlen(s) + strlen(to) + 1;
	char *o = malloc(n);
	if (!at)
		snprintf(o, n, "%s", s);
	else
		snprintf(o, n, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
	return o;
}

/* The good sample at minute m (its timestamp), with an edit. */
static char *at_min(int m, const char *from, const char *to)
{
	char ts[64];
	int tl = snprintf(ts, sizeof(ts), "{\"timestamp\":\"2026-12-04T10:%02d:00Z\"", m);
	char *l = strdup(good);
	memcpy(l, ts, (size_t)tl);     /* the same length */
	if (!from)
		return l;
	char *e = edit(l, from, to);
	free(l);
	return e;
}

static time_t minute(int m)
{
	return 1796378400 + 60 * m;       /* 2026-12-04T10:00:00Z + m min */
}

/* A recording of these lines (a header line starts a zstd frame, as
 * the recorder writes them); lines are freed. */
static void make(const char *path, char **lines, size_t n)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	for (size_t a = 0; f && a < n;) {
		size_t b = a + 1;
		while (b < n && strncmp(lines[b], "{\"numatop_tui_recording\"", 24) != 0)
			b++;
		size_t len = 0;
		for (size_t i = a; i < b; i++)
			len += strlen(lines[i]) + 1;
		char *text = malloc(len + 1), *z = malloc(ZSTD_compressBound(len));
		size_t o = 0;
		for (size_t i = a; i < b; i++)
			o += (size_t)sprintf(text + o, "%s\n", lines[i]);
		size_t zl = ZSTD_compress(z, ZSTD_compressBound(len), text, len, 1);
		CHECK(!ZSTD_isError(zl) && fwrite(z, 1, zl, f) == zl);
		free(text);
		free(z);
		a = b;
	}
	if (f)
		fclose(f);
	for (size_t i = 0; i < n; i++)
		if (lines[i] != hdr)
			free(lines[i]);
}

static char path[] = "/tmp/numatop-test-replay.XXXXXX";

struct model {
	struct replay *rp;
	struct session se;
	struct snapshot snap;
	char err[512];
};

static int open_model(struct model *m, char **lines, size_t n)
{
	make(path, lines, n);
	memset(m, 0, sizeof(*m));
	return replay_open(&m->rp, path, m->err, sizeof(m->err));
}

static int move(struct model *m, enum replay_to to, time_t when)
{
	bool nt;
	return replay_move(m->rp, to, when, &m->se, &m->snap, &nt, m->err, sizeof(m->err));
}

static void close_model(struct model *m)
{
	snapshot_free(&m->snap);
	replay_close(m->rp, &m->se);
}

static bool warned(const struct replay *rp, const char *what)
{
	for (size_t i = 0; i < replay_nwarnings(rp); i++)
		if (strstr(replay_warning(rp, i), what))
			return true;
	return false;
}

static const char *const bad_from[] = { "\"run_nodes\":[", "\"mems_effective\":[", "\"comm\":" };
static const char *const bad_to[] = { "\"run_nodes\":[-1,", "\"mems_effective\":[99999999,",
				      "\"x\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
				      "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],\"comm\":" };

/* A failed move leaves the model as it was: the snapshot (its
 * processes, its topology), the position. */
static void failed_move_keeps_model(void)
{
	for (size_t b = 0; b < 3; b++) {
		char *lines[] = { hdr, at_min(0, NULL, NULL), at_min(1, bad_from[b], bad_to[b]) };
		struct model m;
		CHECK_EQ_INT(open_model(&m, lines, 3), 0);
		CHECK_EQ_INT(move(&m, REPLAY_FIRST, 0), 0);
		const struct snap_proc *procs = m.snap.procs;
		size_t n = m.snap.nprocs;
		CHECK(n == 4 && m.snap.topo == &m.se.topo && m.se.topo.nnodes == 4);
		CHECK_EQ_INT(move(&m, REPLAY_NEXT, 0), -ENOENT);
		CHECK(m.snap.procs == procs && m.snap.nprocs == n && m.snap.topo == &m.se.topo &&
		      m.snap.nodes && m.se.topo.nnodes == 4);
		CHECK(replay_when(&*m.rp) == minute(0));
		CHECK(warned(m.rp, "malformed: skipped") && replay_nskipped(m.rp) == 1);
		/* The model is still whole: the history takes it. */
		struct history h = { 0 };
		CHECK_EQ_INT(replay_history(m.rp, &m.se, &h, 8), 0);
		CHECK_EQ_INT(history_add(&h, &m.snap, NULL, 0), 0);
		CHECK(history_node(&h, 0, HIST_FREE_KB)->n == 1);
		history_free(&h);
		CHECK_EQ_INT(move(&m, REPLAY_SAME, 0), 0);
		close_model(&m);
	}
}

/* Good, bad, good: every move lands on a good one, the bad one is
 * skipped (and said) whichever way; also at the start and at the end. */
static void skipped_both_ways(void)
{
	char *lines[] = { hdr, at_min(0, NULL, NULL), at_min(1, bad_from[0], bad_to[0]),
			  at_min(2, NULL, NULL) };
	struct model m;
	CHECK_EQ_INT(open_model(&m, lines, 4), 0);
	CHECK_EQ_INT(move(&m, REPLAY_FIRST, 0), 0);
	CHECK_EQ_INT(move(&m, REPLAY_NEXT, 0), 0);
	CHECK(replay_when(m.rp) == minute(2) && replay_nskipped(m.rp) == 1);
	CHECK_EQ_INT(move(&m, REPLAY_PREV, 0), 0);
	CHECK(replay_when(m.rp) == minute(0) && replay_nskipped(m.rp) == 2);
	CHECK_EQ_INT(move(&m, REPLAY_AT, minute(1)), 0);
	CHECK(replay_when(m.rp) == minute(2));
	CHECK_EQ_INT(move(&m, REPLAY_LAST, 0), 0);
	CHECK(replay_when(m.rp) == minute(2));
	close_model(&m);
	/* Bad first: the first readable; bad last: AT turns back. */
	char *l2[] = { hdr, at_min(0, bad_from[1], bad_to[1]), at_min(1, NULL, NULL),
		       at_min(2, bad_from[2], bad_to[2]) };
	CHECK_EQ_INT(open_model(&m, l2, 4), 0);
	CHECK_EQ_INT(move(&m, REPLAY_FIRST, 0), 0);
	CHECK(replay_when(m.rp) == minute(1));
	CHECK_EQ_INT(move(&m, REPLAY_AT, minute(2)), 0);
	CHECK(replay_when(m.rp) == minute(1));
	CHECK_EQ_INT(move(&m, REPLAY_LAST, 0), 0);
	CHECK(replay_when(m.rp) == minute(1));
	close_model(&m);
	/* None readable: -ENOENT, nothing changed. */
	char *l3[] = { hdr, at_min(0, bad_from[0], bad_to[0]) };
	CHECK_EQ_INT(open_model(&m, l3, 2), 0);
	CHECK_EQ_INT(move(&m, REPLAY_FIRST, 0), -ENOENT);
	CHECK(m.snap.procs == NULL && m.se.topo.nnodes == 0);
	close_model(&m);
}

/* A later header that is no topology: a warning, its samples skipped,
 * the next header's read; a file with only a header, or a first header
 * that is none, is refused at open. */
static void headers(void)
{
	char *bad_hdr = edit(hdr, "\"topology\":{", "\"topology\":7,\"x\":{");
	char *hdr2 = edit(hdr, "\"start\":\"", "\"start\":\"1");
	char *lines[] = { hdr, at_min(0, NULL, NULL), bad_hdr, at_min(1, NULL, NULL), hdr2,
			  at_min(2, NULL, NULL) };
	struct model m;
	CHECK_EQ_INT(open_model(&m, lines, 6), 0);
	CHECK_EQ_INT(move(&m, REPLAY_FIRST, 0), 0);
	bool nt;
	CHECK_EQ_INT(replay_move(m.rp, REPLAY_NEXT, 0, &m.se, &m.snap, &nt, m.err, sizeof(m.err)), 0);
	CHECK(replay_when(m.rp) == minute(2) && nt && m.snap.topo == &m.se.topo);
	CHECK(warned(m.rp, "header") && warned(m.rp, "unusable"));
	close_model(&m);
	char *only[] = { hdr };
	CHECK_EQ_INT(open_model(&m, only, 1), -ENOENT);
	CHECK(strstr(m.err, "no samples") != NULL);
	char *first_bad[] = { edit(hdr, "\"topology\":{", "\"topology\":7,\"x\":{"), at_min(0, NULL, NULL) };
	CHECK(open_model(&m, first_bad, 2) != 0);
	CHECK(strstr(m.err, "topology") != NULL);
}

/* -p, -u (name or uid), K: the sampler's own filter, in the model and in
 * the --json line (with the counts that go with it). */
static void filter(void)
{
	/* 1000 alice, 2000 bob (uid 1001), 4242 root, 3000 root: 3000 made a
	 * kernel thread. */
	char *k = at_min(0, NULL, NULL);
	char *kth = strstr(strstr(k, "\"pid\":3000,"), "\"kernel_thread\":false");
	memcpy(kth + strlen("\"kernel_thread\":"), "true ", 5);
	char *lines[] = { hdr, k };
	struct model m;
	CHECK_EQ_INT(open_model(&m, lines, 2), 0);
	static const int p1000[] = { 1000 }, p3000[] = { 3000 };
	const struct {
		struct sampler_filter f;
		size_t n;
		int pid;
		size_t hidden;
	} cases[] = {
		{ { NULL, 0, NULL, false }, 3, 0, 1 },
		{ { NULL, 0, NULL, true }, 4, 0, 0 },
		{ { p1000, 1, NULL, false }, 1, 1000, 0 },
		{ { p3000, 1, NULL, false }, 1, 3000, 0 },   /* named: shown */
		{ { NULL, 0, "bob", false }, 1, 2000, 0 },
		{ { NULL, 0, "1001", false }, 1, 2000, 0 },
		{ { NULL, 0, "root", false }, 1, 4242, 1 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		replay_set_filter(m.rp, &cases[i].f);
		CHECK_EQ_INT(move(&m, i ? REPLAY_SAME : REPLAY_FIRST, 0), 0);
		CHECK_EQ_INT((int)m.snap.nprocs, (int)cases[i].n);
		for (size_t j = 0; j < m.snap.nprocs; j++) {
			bool kt;
			CHECK(sampler_filter_keeps(&cases[i].f, &m.snap.procs[j].info, &kt));
		}
		if (cases[i].pid)
			CHECK_EQ_INT(m.snap.procs[0].info.pid, cases[i].pid);
		CHECK_EQ_INT((int)m.snap.kthreads_hidden, (int)cases[i].hidden);
		char *line;
		size_t len;
		CHECK_EQ_INT(replay_json_line(m.rp, &line, &len), 0);
		json_object *o = json_tokener_parse(line), *v;
		CHECK(o && json_object_object_get_ex(o, "processes", &v) &&
		      json_object_array_length(v) == cases[i].n);
		CHECK(json_object_object_get_ex(o, "kernel_threads_hidden", &v) &&
		      json_object_get_int(v) == (int)cases[i].hidden);
		CHECK(json_object_object_get_ex(o, "numa_maps_budget", &v) &&
		      json_object_object_get_ex(v, "processes", &v) && json_object_get_int(v) == (int)cases[i].n);
		json_object_put(o);
		free(line);
	}
	close_model(&m);
}

/* --json: the line as recorded when the program wrote it; escapes and
 * invalid UTF-8 anywhere made valid; absurd numbers: malformed. */
static void json_and_numbers(void)
{
	char *raw = at_min(0, "\"comm\":\"dbserver\"", "\"comm\":\"db\x1b]0;x\x07\xff\xc0\xaf\"");
	char *esc = edit(raw, "\"user\":\"bob\"", "\"user\":\"b\xfe\\u0000\xff\"");
	free(raw);
	char *lines[] = { hdr, at_min(0, NULL, NULL), esc };
	struct model m;
	CHECK_EQ_INT(open_model(&m, lines, 3), 0);
	CHECK_EQ_INT(move(&m, REPLAY_FIRST, 0), 0);
	/* (recorded without schema_version: the replay adds it after
	 * "version", where --json writes it) */
	char *line, *rec = at_min(0, NULL, NULL),
	     *want = edit(rec, "\"version\":\"" NUMATOP_VERSION "\",",
							 "\"version\":\"" NUMATOP_VERSION "\",\"schema_version\":1,");
	free(rec);
	size_t len;
	CHECK_EQ_INT(replay_json_line(m.rp, &line, &len), 0);
	if (!(len == strlen(want) && strcmp(line, want) == 0))
		fprintf(stderr, "got  %.160s\nwant %.160s\n", line, want);
	CHECK(len == strlen(want) && strcmp(line, want) == 0);
	free(line);
	free(want);
	CHECK_EQ_INT(move(&m, REPLAY_NEXT, 0), 0);
	CHECK_EQ_INT(replay_json_line(m.rp, &line, &len), 0);
	json_tokener *tok = json_tokener_new();
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	json_object *o = json_tokener_parse_ex(tok, line, (int)len);
	CHECK(o != NULL && strstr(line, "db\\u001b]0;x\\u0007\xef\xbf\xbd") != NULL);
	CHECK(strchr(line, '\x1b') == NULL && utf8_valid(line));
	json_object_put(o);
	json_tokener_free(tok);
	free(line);
	close_model(&m);
	/* Each of these makes the sample malformed: skipped, never shown. */
	static const char *const from[] = { "\"rss_kb\":", "\"pid\":1000,", "\"uid\":1000,", "\"cpu_pct\":",
					    "\"node_kb\":{\"0\":", "\"mem_free_kb\":", "\"pid\":1000,",
					    "\"home_node\":" };
	static const char *const to[] = { "\"rss_kb\":1e308,\"x\":", "\"pid\":1099511627776,",
					  "\"uid\":1099511627776,", "\"cpu_pct\":NaN,\"x\":",
					  "\"node_kb\":{\"0\":2251799813685248,\"x\":", "\"mem_free_kb\":1e19,\"x\":",
					  "\"pid\":\"1000\",", "\"home_node\":4294967296,\"x\":" };
	for (size_t i = 0; i < sizeof(from) / sizeof(from[0]); i++) {
		char *bad[] = { hdr, at_min(0, from[i], to[i]), at_min(1, NULL, NULL) };
		CHECK_EQ_INT(open_model(&m, bad, 3), 0);
		CHECK_EQ_INT(move(&m, REPLAY_FIRST, 0), 0);
		if (replay_when(m.rp) != minute(1))
			printf("  not refused: %s\n", to[i]);
		CHECK(replay_when(m.rp) == minute(1) && replay_nskipped(m.rp) == 1);
		close_model(&m);
	}
}

int main(void)
{
	const char *fx = "tests/fuzz/corpus/replay/opteron4";
	hdr = file_line(fx, 0);
	good = file_line(fx, 1);
	if (!hdr || !good) {
		printf("FAIL test_replay: cannot read %s (run from the source tree)\n", fx);
		return 1;
	}
	int fd = mkstemp(path);
	if (fd >= 0)
		close(fd);
	RUN_TEST(failed_move_keeps_model);
	RUN_TEST(skipped_both_ways);
	RUN_TEST(headers);
	RUN_TEST(filter);
	RUN_TEST(json_and_numbers);
	unlink(path);
	free(hdr);
	free(good);
	return CHECK_DONE();
}
