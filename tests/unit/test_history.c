/* test_history.c - the history rings (src/history.c): wrap-around keeps
 * the newest values in order, unknown values stay unknown, processes are
 * kept by PID and start time with at most HIST_MAX_PROCS (the least
 * recently displayed goes), sparklines scale and cut to their width; a
 * sample that could not be read adds unknown values, never a crash. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "history.h"
#include "snapshot_json.h"

/* A snapshot of nnodes nodes and n processes, PIDs 100.. */
static void fake(struct snapshot *s, struct topology *t, size_t n, double busy, int64_t free_kb,
		 double remote_pct)
{
	memset(s, 0, sizeof(*s));
	s->topo = t;
	s->nodes = calloc(t->nnodes, sizeof(*s->nodes));
	s->node_load = calloc(t->nnodes, sizeof(*s->node_load));
	s->ns_rate = calloc(t->nnodes, sizeof(*s->ns_rate));
	for (size_t i = 0; i < t->nnodes; i++) {
		s->nodes[i].mem.mem_free_kb = free_kb;
		s->node_load[i].busy = busy;
		s->ns_rate[i][NUMASTAT_MISS] = 1;
		s->ns_rate[i][NUMASTAT_OTHER_NODE] = i == 0 ? -1 : 2;
	}
	s->procs = calloc(n, sizeof(*s->procs));
	s->kb_pool = calloc(n * t->nnodes, sizeof(int64_t));
	s->nprocs = n;
	for (size_t k = 0; k < n; k++) {
		s->procs[k].info.pid = 100 + (int)k;
		s->procs[k].info.starttime = 7;
		s->procs[k].nm = NMS_OK;
		/* REMOTE% as given: 1000 kB resident, remote_pct * 10 of it */
		s->procs[k].total_kb = 1000;
		s->procs[k].remote_kb = remote_pct < 0 ? -1 : (int64_t)(remote_pct * 10);
		s->procs[k].node_kb = s->kb_pool + k * t->nnodes;
		s->procs[k].node_kb[0] = (int64_t)k;
	}
}

static void unfake(struct snapshot *s)
{
	free(s->nodes);
	free(s->node_load);
	free(s->ns_rate);
	free(s->procs);
	free(s->kb_pool);
}

static void rings(void)
{
	struct topology t = { .nnodes = 2 };
	struct history h;
	CHECK_EQ_INT(history_init(&h, 4, 2), 0);
	for (int k = 0; k < 6; k++) {
		struct snapshot s;
		fake(&s, &t, 1, k == 4 ? -1 : 10.0 * k, 1000 + k, 50);
		int pid = 100;
		CHECK_EQ_INT(history_add(&h, &s, &pid, 1), 0);
		unfake(&s);
	}
	const struct hist_ring *r = history_node(&h, 1, HIST_CPU);
	CHECK_EQ_INT((int)r->n, 4);
	CHECK(hist_at(r, 0) == 20 && hist_at(r, 1) == 30 && isnan(hist_at(r, 2)) && hist_at(r, 3) == 50);
	CHECK(hist_at(history_node(&h, 0, HIST_FREE_KB), 3) == 1005);
	/* miss + other_node, unknown when one is unknown (node 0) */
	CHECK(isnan(hist_at(history_node(&h, 0, HIST_MISS), 0)));
	CHECK(hist_at(history_node(&h, 1, HIST_MISS), 0) == 3);
	double lo, hi;
	CHECK(hist_range(r, &lo, &hi) && lo == 20 && hi == 50);
	const struct hist_proc *p = history_proc(&h, 100, 7);
	CHECK(p != NULL && p->remote_pct.n == 4);
	CHECK(history_proc(&h, 100, 8) == NULL);       /* another start: another process */
	/* Sparklines: 0..100, unknown as a blank, cut to the width. */
	char out[64];
	CHECK_EQ_INT((int)hist_spark(r, 10, true, 0, 100, out, sizeof(out)), 4);
	CHECK_EQ_STR(out, ".: =");
	CHECK_EQ_INT((int)hist_spark(r, 2, true, 0, 100, out, sizeof(out)), 2);
	CHECK_EQ_STR(out, " =");
	CHECK_EQ_INT((int)hist_spark(r, 10, false, 0, 0, out, sizeof(out)), 4);  /* own range */
	CHECK_EQ_STR(out, "\u2581\u2583 \u2588");
	CHECK_EQ_INT((int)hist_spark(r, 10, false, 0, 100, out, 7), 2);         /* room for 2 */
	history_reset(&h);
	CHECK_EQ_INT((int)history_node(&h, 1, HIST_CPU)->n, 0);
	CHECK(history_proc(&h, 100, 7) == NULL);
	history_free(&h);
}

/* Past HIST_MAX_PROCS the least recently displayed process goes; memory
 * stays bounded whatever the number of processes. */
static void bounded(void)
{
	struct topology t = { .nnodes = 4 };
	struct history h;
	CHECK_EQ_INT(history_init(&h, 300, 4), 0);
	struct snapshot s;
	size_t n = HIST_MAX_PROCS + 100;
	fake(&s, &t, n, 1, 1, 1);
	int *pids = malloc(n * sizeof(int));
	for (size_t k = 0; k < n; k++)
		pids[k] = 100 + (int)k;
	CHECK_EQ_INT(history_add(&h, &s, pids, 10), 0);                 /* 100..109 */
	CHECK_EQ_INT(history_add(&h, &s, pids + 10, HIST_MAX_PROCS - 10), 0);
	CHECK_EQ_INT((int)h.nprocs, HIST_MAX_PROCS);
	CHECK_EQ_INT(history_add(&h, &s, pids + 5, 1), 0);              /* 105 seen again */
	CHECK_EQ_INT(history_add(&h, &s, pids + HIST_MAX_PROCS, 3), 0); /* three more */
	CHECK_EQ_INT((int)h.nprocs, HIST_MAX_PROCS);
	CHECK(history_proc(&h, 105, 7) != NULL);
	CHECK(history_proc(&h, 100, 7) == NULL && history_proc(&h, 101, 7) == NULL);
	CHECK(history_proc(&h, 100 + HIST_MAX_PROCS + 2, 7) != NULL);
	size_t bytes = history_bytes(&h);
	for (int k = 0; k < 400; k++)
		history_add(&h, &s, pids, n);
	CHECK(history_bytes(&h) == bytes);
	/* 256 processes x 5 rings x 300 samples x 4 bytes, and the nodes */
	CHECK(bytes < 2 * 1024 * 1024);
	free(pids);
	unfake(&s);
	history_free(&h);
}

/* A line of a file, malloc'ed without its newline. */
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

/* A sample that could not be read (a recorded one the replay rejects: a
 * cgroup's run_nodes [-1], mems_effective [99999999]) has no nodes: the
 * history takes it as unknown values, never reads what is not there. */
static void unread_sample(void)
{
	const char *fx = "tests/fuzz/corpus/snapshot_json/opteron4";
	char *hdr = file_line(fx, 0), *line = file_line(fx, 1), err[200];
	struct topology t;
	CHECK(hdr && line && snapshot_json_topology(hdr, &t, err, sizeof(err)) == 0);
	if (!hdr || !line) {
		free(hdr);
		free(line);
		return;
	}
	struct history h;
	CHECK_EQ_INT(history_init(&h, 8, t.nnodes), 0);
	struct snapshot s;
	memset(&s, 0, sizeof(s));
	CHECK_EQ_INT(snapshot_json_snapshot(line, strlen(line), &t, &s, err, sizeof(err)), 0);
	int pid = s.nprocs ? s.procs[0].info.pid : 0;
	CHECK_EQ_INT(history_add(&h, &s, &pid, 1), 0);
	CHECK(!isnan(hist_at(history_node(&h, 0, HIST_FREE_KB), 0)));
	static const char *const from[] = { "\"run_nodes\":[", "\"mems_effective\":[" };
	static const char *const to[] = { "\"run_nodes\":[-1,", "\"mems_effective\":[99999999," };
	for (int k = 0; k < 2; k++) {
		char *at = strstr(line, from[k]);
		CHECK(at != NULL);
		if (!at)
			continue;
		size_t pre = (size_t)(at - line), n = strlen(line) + 32;
		char *bad = malloc(n);
		snprintf(bad, n, "%.*s%s%s", (int)pre, line, to[k], at + strlen(from[k]));
		CHECK(snapshot_json_snapshot(bad, strlen(bad), &t, &s, err, sizeof(err)) != 0);
		CHECK_EQ_INT(history_add(&h, &s, &pid, 1), 0);
		const struct hist_ring *r = history_node(&h, 0, HIST_FREE_KB);
		CHECK(r->n == (size_t)k + 2 && isnan(hist_at(r, r->n - 1)));
		const struct hist_proc *p = history_proc(&h, pid, h.procs[0].starttime);
		CHECK(p && isnan(hist_at(&p->remote_pct, p->remote_pct.n - 1)));
		free(bad);
	}
	/* The same without snapshot_json: a snapshot with its topology and no
	 * nodes, no processes. */
	snapshot_free(&s);
	s.topo = &t;
	CHECK_EQ_INT(history_add(&h, &s, NULL, 0), 0);
	CHECK(isnan(hist_at(history_node(&h, 1, HIST_FREE_KB), 3)));
	snapshot_free(&s);
	history_free(&h);
	topology_free(&t);
	free(hdr);
	free(line);
}

/* Three nodes: 0 and 2 in tier 4, 1 in tier 67. A tier's promotion and
 * demotion rates are its nodes' summed, sample by sample; one node's
 * unknown makes the tier's unknown there. */
static void tier_rates(void)
{
	struct topology t = { .nnodes = 3 };
	struct tier_model m;
	CHECK_EQ_INT(tiers_init(&m, 3), 0);
	int tier_of[3] = { 4, 67, 4 };
	for (size_t i = 0; i < 3; i++) {
		m.node[i].id = (int)i;
		m.node[i].tier = tier_of[i];
		m.node[i].cpus = i != 1;
	}
	CHECK_EQ_INT(tiers_build(&m), 0);
	CHECK_EQ_INT((int)m.ntiers, 2);
	struct history h;
	CHECK_EQ_INT(history_init(&h, 4, 3), 0);
	for (int k = 0; k < 6; k++) {
		struct snapshot s;
		fake(&s, &t, 0, 10, 1000, 0);
		s.nk.node_rate = calloc(3, sizeof(*s.nk.node_rate));
		for (size_t i = 0; i < 3; i++) {
			s.nk.node_rate[i][NVM_PGPROMOTE_SUCCESS] = 10.0 * k + (double)i;
			s.nk.node_rate[i][NVM_PGDEMOTE_KSWAPD] = i == 2 && k == 3 ? -1 : 100.0 * k;
			s.nk.node_rate[i][NVM_PGDEMOTE_DIRECT] = i == 2 && k == 3 ? -1 : 1;
		}
		CHECK_EQ_INT(history_add(&h, &s, NULL, 0), 0);
		free(s.nk.node_rate);
		unfake(&s);
	}
	struct hist_ring r;
	CHECK_EQ_INT(history_tier(&h, &m, 0, HIST_PROMOTE, &r), 0);
	/* The last 4 of 6 samples (k = 2..5): nodes 0 and 2 summed. */
	CHECK_EQ_INT((int)r.n, 4);
	for (size_t x = 0; x < r.n; x++)
		CHECK(fabs(hist_at(&r, x) - (20.0 * (double)(x + 2) + 2)) < 1e-3);
	hist_ring_free(&r);
	CHECK_EQ_INT(history_tier(&h, &m, 1, HIST_PROMOTE, &r), 0);
	CHECK(fabs(hist_at(&r, 3) - 51) < 1e-3);   /* node 1 alone, k = 5 */
	hist_ring_free(&r);
	CHECK_EQ_INT(history_tier(&h, &m, 0, HIST_DEMOTE, &r), 0);
	CHECK(fabs(hist_at(&r, 0) - 402) < 1e-3);   /* k = 2: 201 + 201 */
	CHECK(isnan(hist_at(&r, 1)));                /* k = 3: node 2 unknown */
	CHECK(fabs(hist_at(&r, 3) - 1002) < 1e-3);
	hist_ring_free(&r);
	CHECK_EQ_INT(history_tier(&h, &m, 1, HIST_DEMOTE, &r), 0);
	CHECK(!isnan(hist_at(&r, 1)));               /* node 1 was known */
	hist_ring_free(&r);
	/* No such tier; a model of other nodes. */
	CHECK_EQ_INT(history_tier(&h, &m, 2, HIST_DEMOTE, &r), -ENOENT);
	CHECK(r.v == NULL);
	struct history h2;
	CHECK_EQ_INT(history_init(&h2, 4, 2), 0);
	CHECK_EQ_INT(history_tier(&h2, &m, 0, HIST_DEMOTE, &r), -ENOENT);
	history_free(&h2);
	/* Without tiers (no rates read): unknown, never 0. */
	struct snapshot s;
	fake(&s, &t, 0, 10, 1000, 0);
	CHECK_EQ_INT(history_add(&h, &s, NULL, 0), 0);
	unfake(&s);
	CHECK(isnan(hist_at(history_node(&h, 1, HIST_PROMOTE), 3)));
	history_free(&h);
	tiers_free(&m);
}

int main(void)
{
	RUN_TEST(rings);
	RUN_TEST(bounded);
	RUN_TEST(unread_sample);
	RUN_TEST(tier_rates);
	return CHECK_DONE();
}
