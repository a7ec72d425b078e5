/* test_tier_cols.c - the per-tier process columns (T<id>): their names
 * beside THR and TIME, the cells from the sample's tier model (unknown
 * without the placement, the model or the tier), the sort with unknowns
 * last, and the default lists: FAST/SLOW/SLOW% with two tiers, one T<id>
 * per tier and SLOW% with more, none with one. */
#include "columns.h"
#include "snapshot.h"
#include "tiers.h"
#include "check.h"

/* Nodes 0..3: tiers 4 (node 0), 67 (node 1), 100 (nodes 2 and 3). */
static int three_tiers(struct tier_model *m)
{
	static const int tier[] = { 4, 67, 100, 100 };
	if (tiers_init(m, 4) != 0)
		return -1;
	for (size_t i = 0; i < 4; i++) {
		m->node[i].id = (int)i;
		m->node[i].tier = tier[i];
		m->node[i].cpus = i == 0;
	}
	return tiers_build(m);
}

static void parse_names(void)
{
	struct col_ref r;
	CHECK_EQ_INT(col_parse_name(NULL, "T4", &r), 0);
	CHECK(r.col == COL_TIER && r.node == 4);
	CHECK_EQ_INT(col_parse_name(NULL, "tier67", &r), 0);
	CHECK(r.col == COL_TIER && r.node == 67);
	CHECK_EQ_INT(col_parse_name(NULL, "t100", &r), 0);
	CHECK(r.col == COL_TIER && r.node == 100);
	CHECK_EQ_INT(col_parse_name(NULL, "TIER0", &r), 0);
	CHECK(r.col == COL_TIER && r.node == 0);
	/* T alone (and tier): every tier. */
	CHECK_EQ_INT(col_parse_name(NULL, "T", &r), 0);
	CHECK(r.col == COL_TIER && r.node == -1);
	CHECK_EQ_INT(col_parse_name(NULL, "tier", &r), 0);
	CHECK(r.col == COL_TIER && r.node == -1);
	/* The other T names stay theirs. */
	CHECK_EQ_INT(col_parse_name(NULL, "THR", &r), 0);
	CHECK(r.col == COL_THREADS);
	CHECK_EQ_INT(col_parse_name(NULL, "threads", &r), 0);
	CHECK(r.col == COL_THREADS);
	CHECK_EQ_INT(col_parse_name(NULL, "TIME", &r), 0);
	CHECK(r.col == COL_TIME);
	CHECK_EQ_INT(col_parse_name(NULL, "time+", &r), 0);
	CHECK(r.col == COL_TIME);
	/* T and letters, digits and junk, a sign, too big: no column. */
	CHECK_EQ_INT(col_parse_name(NULL, "Tx", &r), -EINVAL);
	CHECK_EQ_INT(col_parse_name(NULL, "tiers", &r), -EINVAL);
	CHECK_EQ_INT(col_parse_name(NULL, "T4x", &r), -EINVAL);
	CHECK_EQ_INT(col_parse_name(NULL, "T-1", &r), -EINVAL);
	CHECK_EQ_INT(col_parse_name(NULL, "T+4", &r), -EINVAL);
	CHECK_EQ_INT(col_parse_name(NULL, "tier 4", &r), -EINVAL);
	CHECK_EQ_INT(col_parse_name(NULL, "T99999999999", &r), -EINVAL);
	/* As a sort key: T<id> descending; T alone is not one. */
	struct sort_key k;
	CHECK_EQ_INT(col_parse_sort(NULL, "tier67", &k), 0);
	CHECK(k.col == COL_TIER && k.node == 67 && k.descending);
	CHECK_EQ_INT(col_parse_sort(NULL, "T", &k), -EINVAL);
	/* In a list, and named back as -o takes them. */
	struct col_list l = { 0 };
	char err[512];
	CHECK_EQ_INT(col_list_parse(NULL, "pid,T4,tier100,t,thr", &l, err, sizeof(err)), 0);
	CHECK_EQ_INT(l.n, 5);
	char name[16];
	static const char *const want[] = { "PID", "T4", "T100", "T", "THR" };
	for (size_t i = 0; i < l.n && i < 5; i++) {
		col_ref_name(NULL, l.v[i], name, sizeof(name));
		CHECK_EQ_STR(name, want[i]);
	}
	CHECK(col_same(COL_TIER, 4, l.v[1].col, l.v[1].node));
	CHECK(!col_same(COL_TIER, 4, l.v[2].col, l.v[2].node));
	CHECK_EQ_INT(col_list_parse(NULL, "pid,tx", &l, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "T<id>") != NULL);     /* the valid names say it */
	col_list_free(&l);
	CHECK_EQ_STR(col_help_name(COL_TIER), "T<id>");
}

static void cells(void)
{
	struct tier_model m;
	CHECK_EQ_INT(three_tiers(&m), 0);
	int64_t kb[4] = { 10, 20, 30, 40 };
	struct snap_proc p;
	memset(&p, 0, sizeof(p));
	p.nm = NMS_OK;
	p.node_kb = kb;
	struct col_ctx text = { NULL, false, -1, false, &m, NULL };
	struct col_ctx mon = { NULL, true, -1, true, &m, NULL };
	char out[64];
	col_cell(&text, COL_TIER, 4, &p, out, sizeof(out));
	CHECK_EQ_STR(out, "10");
	col_cell(&text, COL_TIER, 67, &p, out, sizeof(out));
	CHECK_EQ_STR(out, "20");
	col_cell(&text, COL_TIER, 100, &p, out, sizeof(out));
	CHECK_EQ_STR(out, "70");         /* both of its nodes */
	kb[3] = 20000;
	col_cell(&mon, COL_TIER, 100, &p, out, sizeof(out));
	CHECK_EQ_STR(out, "19.6M");
	p.nm_sampled = true;             /* an estimate says so */
	col_cell(&text, COL_TIER, 4, &p, out, sizeof(out));
	CHECK_EQ_STR(out, "10~");
	p.nm_sampled = false;
	/* Unknown, not 0: no such tier, no model, the placement not read. */
	col_cell(&text, COL_TIER, 5, &p, out, sizeof(out));
	CHECK_EQ_STR(out, "-");
	struct col_ctx none = { NULL, false, -1, false, NULL, NULL };
	col_cell(&none, COL_TIER, 4, &p, out, sizeof(out));
	CHECK_EQ_STR(out, "-");
	p.nm = NMS_NO_PERM;
	col_cell(&text, COL_TIER, 4, &p, out, sizeof(out));
	CHECK_EQ_STR(out, "-");
	col_cell(&mon, COL_TIER, 4, &p, out, sizeof(out));
	CHECK_EQ_STR(out, "-");
	/* A tier of no pages there is 0. */
	p.nm = NMS_OK;
	kb[1] = 0;
	col_cell(&text, COL_TIER, 67, &p, out, sizeof(out));
	CHECK_EQ_STR(out, "0");
	col_header(&text, COL_TIER, 67, out, sizeof(out));
	CHECK_EQ_STR(out, "T67");
	col_header(&mon, COL_TIER, 100, out, sizeof(out));
	CHECK_EQ_STR(out, "T100");
	tiers_free(&m);
}

static void sort_order(void)
{
	struct snapshot s;
	memset(&s, 0, sizeof(s));
	CHECK_EQ_INT(three_tiers(&s.nk.tiers), 0);
	struct snap_proc p[4];
	memset(p, 0, sizeof(p));
	/* T100 (nodes 2 + 3): 70, unknown (no perm), 500, 0. */
	int64_t kb[4][4] = { { 1, 0, 30, 40 }, { 0, 0, 9, 9 }, { 0, 0, 0, 500 }, { 5, 5, 0, 0 } };
	static const int pids[4] = { 11, 12, 13, 14 };
	for (int i = 0; i < 4; i++) {
		p[i].info.pid = pids[i];
		p[i].info.rss_kb = 100;
		p[i].nm = i == 1 ? NMS_NO_PERM : NMS_OK;
		p[i].node_kb = kb[i];
	}
	s.procs = p;
	s.nprocs = 4;
	struct sort_key k;
	CHECK_EQ_INT(col_parse_sort(NULL, "T100", &k), 0);
	snapshot_sort(&s, &k);
	CHECK_EQ_INT(snapshot_row(&s, 0)->info.pid, 13);
	CHECK_EQ_INT(snapshot_row(&s, 1)->info.pid, 11);
	CHECK_EQ_INT(snapshot_row(&s, 2)->info.pid, 14);
	CHECK_EQ_INT(snapshot_row(&s, 3)->info.pid, 12);     /* unknown last */
	k.descending = false;
	snapshot_sort(&s, &k);
	CHECK_EQ_INT(snapshot_row(&s, 0)->info.pid, 14);
	CHECK_EQ_INT(snapshot_row(&s, 1)->info.pid, 11);
	CHECK_EQ_INT(snapshot_row(&s, 2)->info.pid, 13);
	CHECK_EQ_INT(snapshot_row(&s, 3)->info.pid, 12);     /* still last */
	/* The fastest tier: 14 (5), 11 (1), 13 (0), 12 unknown. */
	CHECK_EQ_INT(col_parse_sort(NULL, "t4", &k), 0);
	snapshot_sort(&s, &k);
	CHECK_EQ_INT(snapshot_row(&s, 0)->info.pid, 14);
	CHECK_EQ_INT(snapshot_row(&s, 1)->info.pid, 11);
	CHECK_EQ_INT(snapshot_row(&s, 2)->info.pid, 13);
	CHECK_EQ_INT(snapshot_row(&s, 3)->info.pid, 12);
	/* A tier the sample lacks: every value unknown, ties by PID. */
	CHECK_EQ_INT(col_parse_sort(NULL, "T5", &k), 0);
	snapshot_sort(&s, &k);
	for (int i = 0; i < 4; i++)
		CHECK_EQ_INT(snapshot_row(&s, i)->info.pid, 11 + i);
	/* The comparison alone, without a model: unknown on both sides. */
	struct sort_key bare = { COL_TIER, 4, true, NULL, false };
	CHECK_EQ_INT(col_compare(&p[0], &p[1], &bare), -1);   /* by PID */
	free(s.order);
	tiers_free(&s.nk.tiers);
}

/* The list's names joined: "PID USER ... COMMAND". */
static void names_of(const struct col_list *l, char *out, size_t n)
{
	size_t o = 0;
	out[0] = '\0';
	for (size_t i = 0; i < l->n && o < n; i++) {
		char name[16];
		col_ref_name(NULL, l->v[i], name, sizeof(name));
		o += (size_t)snprintf(out + o, n - o, "%s%s", i ? " " : "", name);
	}
}

static void default_lists(void)
{
	struct tier_model three, two, one;
	CHECK_EQ_INT(three_tiers(&three), 0);
	CHECK_EQ_INT(tiers_init(&two, 2), 0);
	CHECK_EQ_INT(tiers_init(&one, 2), 0);
	for (int i = 0; i < 2; i++) {
		two.node[i].id = one.node[i].id = i;
		two.node[i].tier = i ? 67 : 4;
		one.node[i].tier = 4;
	}
	CHECK_EQ_INT(tiers_build(&two), 0);
	CHECK_EQ_INT(tiers_build(&one), 0);
	struct col_list l = { 0 };
	char s[512];
	CHECK_EQ_INT(col_list_default(&l, false, false), 0);
	CHECK_EQ_INT(col_list_set_tiers(&l, &three), 0);
	names_of(&l, s, sizeof(s));
	CHECK_EQ_STR(s, "PID USER HOME CPU% RSS N REMOTE REMOTE% T4 T67 T100 SLOW% POLICY COMMAND");
	/* Again: nothing twice. */
	CHECK_EQ_INT(col_list_set_tiers(&l, &three), 0);
	names_of(&l, s, sizeof(s));
	CHECK_EQ_STR(s, "PID USER HOME CPU% RSS N REMOTE REMOTE% T4 T67 T100 SLOW% POLICY COMMAND");
	/* Two tiers (another sample): FAST SLOW SLOW%, no T<id> left. */
	CHECK_EQ_INT(col_list_set_tiers(&l, &two), 0);
	names_of(&l, s, sizeof(s));
	CHECK_EQ_STR(s, "PID USER HOME CPU% RSS N REMOTE REMOTE% FAST SLOW SLOW% POLICY COMMAND");
	CHECK_EQ_INT(col_list_set_tiers(&l, &three), 0);
	names_of(&l, s, sizeof(s));
	CHECK_EQ_STR(s, "PID USER HOME CPU% RSS N REMOTE REMOTE% T4 T67 T100 SLOW% POLICY COMMAND");
	/* One tier, or no model: none of them. */
	CHECK_EQ_INT(col_list_set_tiers(&l, &one), 0);
	names_of(&l, s, sizeof(s));
	CHECK_EQ_STR(s, "PID USER HOME CPU% RSS N REMOTE REMOTE% POLICY COMMAND");
	CHECK_EQ_INT(col_list_set_tiers(&l, &three), 0);
	CHECK_EQ_INT(col_list_set_tiers(&l, NULL), 0);
	names_of(&l, s, sizeof(s));
	CHECK_EQ_STR(s, "PID USER HOME CPU% RSS N REMOTE REMOTE% POLICY COMMAND");
	/* The monitor's list (WHY, no POLICY) and HOTSLOW after SLOW%. */
	CHECK_EQ_INT(col_list_default(&l, true, false), 0);
	CHECK_EQ_INT(col_list_set_tiers(&l, &three), 0);
	CHECK_EQ_INT(col_list_set_tier_heat(&l, true), 0);
	names_of(&l, s, sizeof(s));
	CHECK_EQ_STR(s, "PID USER HOME CPU% RSS N REMOTE REMOTE% T4 T67 T100 SLOW% HOTSLOW COLDFAST WHY COMMAND");
	/* A T entry (every tier) already there: no single ones beside it. */
	char err[256];
	CHECK_EQ_INT(col_list_parse(NULL, "pid,t,command", &l, err, sizeof(err)), 0);
	CHECK_EQ_INT(col_list_set_tiers(&l, &three), 0);
	names_of(&l, s, sizeof(s));
	CHECK_EQ_STR(s, "PID T SLOW% COMMAND");
	col_list_free(&l);
	tiers_free(&three);
	tiers_free(&two);
	tiers_free(&one);
}

int main(void)
{
	RUN_TEST(parse_names);
	RUN_TEST(cells);
	RUN_TEST(sort_order);
	RUN_TEST(default_lists);
	return CHECK_DONE();
}
