/* test_fleet.c - the fleet client's pure parts: the answer of Prometheus's
 * query API parsed (vector, matrix, scalar, string, an error answer,
 * garbage, truncated JSON, values that are not numbers); the queries
 * (built from the family table, the label matcher put in every selector
 * and refused when it is not one, at most 10, the recording rules' names
 * those of contrib/prometheus/numatop-rules.yml); and the hosts table
 * folded from hand-written answers (labels, nodes, sums, unknown heat,
 * the top processes, rates) and its order. The HTTP side and a real
 * server: tests/sh/test_fleet.sh. */
#include <math.h>

#include "check.h"
#include "fleet.h"

static int parse(const char *s, struct fleet_answer *a)
{
	return fleet_answer_parse(s, strlen(s), a);
}

static void test_parse_vector(void)
{
	struct fleet_answer a;
	const char *s = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
			"{\"metric\":{\"__name__\":\"up\",\"instance\":\"h:1\",\"job\":\"j\"},"
			"\"value\":[1700000000.5,\"1\"]},"
			"{\"metric\":{},\"value\":[1700000000,\"NaN\"]}]}}";
	CHECK_EQ_INT(parse(s, &a), 0);
	CHECK_EQ_INT(a.type, FR_VECTOR);
	CHECK_EQ_INT(a.nseries, 2);
	if (a.nseries == 2) {
		CHECK_EQ_STR(fleet_series_label(&a.series[0], "instance"), "h:1");
		CHECK(fleet_series_label(&a.series[0], "node") == NULL);
		CHECK(a.series[0].points[0].t == 1700000000.5 && a.series[0].points[0].v == 1);
		CHECK(isnan(a.series[1].points[0].v));
		CHECK_EQ_INT(a.series[1].nlabels, 0);
	}
	fleet_answer_free(&a);
	/* Trailing blanks are fine; not a byte more is read than given. */
	const char *e = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}  \n";
	CHECK_EQ_INT(parse(e, &a), 0);
	CHECK_EQ_INT(a.nseries, 0);
	fleet_answer_free(&a);
	CHECK_EQ_INT(fleet_answer_parse(e, strlen(e) - 5, &a), -EINVAL);
	fleet_answer_free(&a);
}

static void test_parse_matrix_scalar(void)
{
	struct fleet_answer a;
	const char *m = "{\"status\":\"success\",\"warnings\":[\"w\"],\"data\":{\"resultType\":\"matrix\","
			"\"result\":[{\"metric\":{\"instance\":\"a\"},\"values\":[[1,\"2\"],[2,\"+Inf\"],[3,\"x\"]]}]}}";
	CHECK_EQ_INT(parse(m, &a), 0);
	CHECK_EQ_INT(a.type, FR_MATRIX);
	CHECK_EQ_INT(a.nwarnings, 1);
	if (a.nseries == 1) {
		CHECK_EQ_INT(a.series[0].npoints, 3);
		CHECK(a.series[0].points[0].v == 2 && isinf(a.series[0].points[1].v));
		CHECK(isnan(a.series[0].points[2].v));
	}
	fleet_answer_free(&a);
	CHECK_EQ_INT(parse("{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[5,\"42\"]}}", &a), 0);
	CHECK(a.type == FR_SCALAR && a.scalar.v == 42);
	fleet_answer_free(&a);
	CHECK_EQ_INT(parse("{\"status\":\"success\",\"data\":{\"resultType\":\"string\",\"result\":[5,\"x\"]}}", &a), 0);
	CHECK_EQ_INT(a.type, FR_STRING);
	fleet_answer_free(&a);
}

static void test_parse_errors(void)
{
	struct fleet_answer a;
	CHECK_EQ_INT(parse("{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error at char 3\"}", &a),
		     -EPROTO);
	CHECK_EQ_STR(a.error, "bad_data: parse error at char 3");
	fleet_answer_free(&a);
	static const char *const garbage[] = {
		"", "<html><body>Not Found</body></html>", "{", "[]", "null", "{\"status\":\"success\"}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":{}}}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{\"a\":1},\"value\":[1,\"1\"]}]}}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},\"value\":[1,1]}]}}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},\"value\":[1]}]}}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{}}]}}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":[[\"a\",\"1\"]]}]}}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"histogram\",\"result\":[]}}",
		"{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}} x",
		"{\"status\":\"ok\",\"data\":{}}",
	};
	for (size_t i = 0; i < sizeof(garbage) / sizeof(garbage[0]); i++) {
		int rc = parse(garbage[i], &a);
		if (rc != -EINVAL)
			printf("  garbage %zu: %d\n", i, rc);
		CHECK_EQ_INT(rc, -EINVAL);
		fleet_answer_free(&a);
	}
}

static void test_queries(void)
{
	char q[16384];
	CHECK(FQ_N <= 10);
	for (int rec = 0; rec < 2; rec++)
		for (enum fleet_query i = 0; i < FQ_N; i++) {
			CHECK_EQ_INT(fleet_query_build(i, "{job=\"numa\", dc=\"x\"}", rec, q, sizeof(q)), 0);
			CHECK(strstr(q, "job=\"numa\", dc=\"x\"}") != NULL);
			CHECK(strstr(q, "{{") == NULL);
			CHECK(strlen(fleet_query_name(i)) > 0);
		}
	CHECK_EQ_INT(fleet_query_build(FQ_INFO, NULL, false, q, sizeof(q)), 0);
	CHECK_EQ_STR(q, "time() - timestamp(numatop_build_info{}) or "
		     "time() - max_over_time(timestamp(numatop_build_info{})[1h:30s])");
	CHECK_EQ_INT(fleet_query_build(FQ_INFO, "  job=\"a}b\" ", false, q, sizeof(q)), 0);
	CHECK(strstr(q, "time() - timestamp(numatop_build_info{job=\"a}b\"}) or ") == q);
	CHECK_EQ_INT(fleet_query_build(FQ_HOST, "", false, q, sizeof(q)), 0);
	CHECK(strstr(q, "numatop_remote_bytes|numatop_hot_remote_bytes|numatop_hot_slow_tier_bytes") != NULL);
	CHECK_EQ_INT(fleet_query_build(FQ_NODES, "", false, q, sizeof(q)), 0);
	CHECK_EQ_STR(q, "numatop_node_memory_total_bytes{} - numatop_node_memory_free_bytes{}");
	/* The top processes: the rules' series; worked out without them. */
	CHECK_EQ_INT(fleet_query_build(FQ_TOP, "", false, q, sizeof(q)), 0);
	CHECK(strstr(q, "instance:numatop_process_remote_bytes:topk3|") != NULL && !strstr(q, "topk by"));
	CHECK_EQ_INT(fleet_query_build(FQ_TOP_RAW, "", false, q, sizeof(q)), 0);
	CHECK(strstr(q, "topk by (instance, job) (3, numatop_process_remote_bytes{})") != NULL);
	CHECK(strstr(q, "topk by (instance, job) (3, numatop_process_hot_remote_bytes{})") != NULL);
	CHECK(strstr(q, " or {__name__=~\"instance:numatop_process_remote_bytes:topk3|") != NULL);
	/* The rates: the recorded series, and the sums as well until found. */
	CHECK_EQ_INT(fleet_query_build(FQ_RATES, "", true, q, sizeof(q)), 0);
	CHECK(strstr(q, "instance:numatop_tier_promoted_pages:rate5m{}") && !strstr(q, "rate("));
	CHECK_EQ_INT(fleet_query_build(FQ_RATES, "", false, q, sizeof(q)), 0);
	CHECK(strstr(q, "instance:numatop_tier_demoted_pages:rate5m{}") &&
	      strstr(q, "rate(numatop_tier_demoted_pages_total{}[5m])"));
	static const char *const badm[] = { "{job=\"a\"", "job=\"a\"}", "job=\"a", "x{y}", "a=\"b\"\n",
					    "a=\"1\"} or vector(1) or up{", "(a)" };
	for (size_t i = 0; i < sizeof(badm) / sizeof(badm[0]); i++)
		CHECK_EQ_INT(fleet_query_build(FQ_UP, badm[i], false, q, sizeof(q)), -EINVAL);
	CHECK_EQ_INT(fleet_query_build(FQ_TOP_RAW, "", false, q, 40), -ENOSPC);
}

/* Every recording rule the queries read is one the rules file records. */
static void test_rule_names(void)
{
	FILE *f = fopen("contrib/prometheus/numatop-rules.yml", "r");
	CHECK(f != NULL);
	if (!f)
		return;
	static char text[65536];
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	char name[128], want[160];
	size_t i = 0;
	for (; fleet_rule_name(i, name, sizeof(name)); i++) {
		snprintf(want, sizeof(want), "- record: %s\n", name);
		if (!strstr(text, want))
			printf("  not recorded: %s\n", name);
		CHECK(strstr(text, want) != NULL);
	}
	CHECK_EQ_INT(i, 6);
}

static void merge(struct fleet *f, enum fleet_query q, const char *result)
{
	char s[8192];
	snprintf(s, sizeof(s), "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[%s]}}",
		 result);
	struct fleet_answer a;
	CHECK_EQ_INT(parse(s, &a), 0);
	CHECK_EQ_INT(fleet_merge(f, q, &a), 0);
	fleet_answer_free(&a);
}

#define M(labels, v) "{\"metric\":{" labels "},\"value\":[1,\"" v "\"]}"

static void test_model(void)
{
	struct fleet f = { 0 };
	merge(&f, FQ_UP, M("\"instance\":\"a:1\",\"job\":\"n\",\"dc\":\"x\"", "1") ","
			 M("\"instance\":\"b:1\",\"job\":\"n\",\"dc\":\"y\"", "0") ","
			 M("\"instance\":\"c:1\",\"job\":\"n\"", "1") "," M("\"job\":\"n\"", "1"));
	CHECK_EQ_INT(f.nhosts, 3);
	merge(&f, FQ_INFO, M("\"instance\":\"a:1\",\"job\":\"n\",\"version\":\"0.1.0\"", "2.5"));
	merge(&f, FQ_NODES, M("\"instance\":\"a:1\",\"job\":\"n\",\"node\":\"1\"", "2048") ","
			    M("\"instance\":\"a:1\",\"job\":\"n\",\"node\":\"0\"", "1024") ","
			    M("\"instance\":\"a:1\",\"job\":\"n\",\"node\":\"x\"", "1"));
	merge(&f, FQ_HOST, M("\"__name__\":\"numatop_remote_bytes\",\"instance\":\"a:1\",\"job\":\"n\"", "100") ","
			   M("\"__name__\":\"numatop_remote_bytes\",\"instance\":\"b:1\",\"job\":\"n\"", "900") ","
			   M("\"__name__\":\"numatop_remote_bytes\",\"instance\":\"c:1\",\"job\":\"n\"", "50") ","
			   M("\"__name__\":\"numatop_hot_remote_bytes\",\"instance\":\"c:1\",\"job\":\"n\"", "10") ","
			   M("\"__name__\":\"numatop_access_source_info\",\"instance\":\"c:1\",\"job\":\"n\","
			     "\"source\":\"damon\",\"reason\":\"on\"", "1"));
	merge(&f, FQ_TOP, M("\"__name__\":\"numatop_process_remote_bytes\",\"instance\":\"a:1\",\"job\":\"n\","
			    "\"pid\":\"7\",\"comm\":\"db\",\"user\":\"u\"", "60") ","
			    M("\"__name__\":\"numatop_process_remote_bytes\",\"instance\":\"a:1\",\"job\":\"n\","
			      "\"pid\":\"8\",\"comm\":\"web\",\"user\":\"u\"", "40") ","
			    M("\"__name__\":\"numatop_process_hot_remote_bytes\",\"instance\":\"a:1\",\"job\":\"n\","
			      "\"pid\":\"8\",\"comm\":\"web\",\"user\":\"u\"", "30") ","
			    M("\"__name__\":\"numatop_comm_remote_bytes\",\"instance\":\"b:1\",\"job\":\"n\","
			      "\"comm\":\"java\",\"user\":\"u\"", "800"));
	merge(&f, FQ_RATES, M("\"instance\":\"a:1\",\"job\":\"n\",\"numatop_fleet\":\"promote\"", "3.5") ","
			    M("\"__name__\":\"instance:numatop_tier_demoted_pages:rate5m\",\"instance\":\"a:1\","
			      "\"job\":\"n\",\"numatop_fleet\":\"demote\"", "1"));
	CHECK(f.recorded);
	CHECK(!f.top_recorded);
	/* The rules' top series name the family between "instance:" and ":topk3". */
	merge(&f, FQ_TOP, M("\"__name__\":\"instance:numatop_process_hot_remote_bytes:topk3\",\"instance\":\"c:1\","
			    "\"job\":\"n\",\"pid\":\"9\",\"comm\":\"rec\",\"user\":\"u\"", "5"));
	CHECK(f.top_recorded);
	fleet_sort(&f);
	CHECK_EQ_INT(f.nhosts, 3);
	if (f.nhosts != 3)
		return;
	/* c first (hot remote known), then by remote: b, a. */
	CHECK_EQ_STR(f.hosts[0].instance, "c:1");
	CHECK_EQ_STR(f.hosts[1].instance, "b:1");
	CHECK_EQ_STR(f.hosts[2].instance, "a:1");
	const struct fleet_host *a = &f.hosts[2], *b = &f.hosts[1], *c = &f.hosts[0];
	CHECK(c->hot_remote_bytes == 10 && c->remote_bytes == 50);
	CHECK_EQ_STR(c->heat_source, "damon");
	CHECK(a->hot_remote_bytes == -1 && b->hot_remote_bytes == -1 && a->hot_slow_bytes == -1);
	CHECK(a->up == 1 && b->up == 0 && a->age_s == 2.5 && b->age_s == -1);
	CHECK_EQ_STR(a->version, "0.1.0");
	CHECK_EQ_STR(b->version, "");
	CHECK_EQ_STR(a->job, "n");
	CHECK(a->nlabels == 1 && !strcmp(a->lnames[0], "dc") && !strcmp(a->lvalues[0], "x"));
	CHECK_EQ_INT(c->nlabels, 0);
	CHECK_EQ_INT(a->nnodes, 2);
	if (a->nnodes == 2)
		CHECK(a->nodes[0].id == 0 && a->nodes[0].used_bytes == 1024 && a->nodes[1].id == 1);
	/* The worst process first: web's hot remote bytes before db's remote. */
	CHECK_EQ_INT(a->ntop, 2);
	CHECK(a->top[0].pid == 8 && a->top[0].hot_remote_bytes == 30 && a->top[0].remote_bytes == 40);
	CHECK(a->top[1].pid == 7 && a->top[1].hot_remote_bytes == -1);
	CHECK(b->ntop == 1 && b->top[0].pid == -1 && !strcmp(b->top[0].comm, "java"));
	CHECK(c->ntop == 1 && c->top[0].pid == 9 && c->top[0].hot_remote_bytes == 5 &&
	      !strcmp(c->top[0].comm, "rec"));
	CHECK(a->promote_pps == 3.5 && a->demote_pps == 1 && b->promote_pps == -1);
	fleet_free(&f);
	CHECK_EQ_INT(f.nhosts, 0);
}

/* The hosts table's columns: the default order (hot remote, then remote,
 * unknown last) as fleet_sort's, cells that say unknown as "-", and
 * labels with control characters stripped before a terminal sees them. */
static void test_cols(void)
{
	struct fleet_host h[3];
	memset(h, 0, sizeof(h));
	char *names[] = { "dc" }, *hostile[] = { "x\033[2Jy" };
	for (int i = 0; i < 3; i++) {
		h[i].instance = (char *)(i == 0 ? "a:1" : i == 1 ? "b:1" : "c:1");
		h[i].job = (char *)"numa";
		h[i].up = 1;
		h[i].age_s = -1;
		h[i].hot_slow_bytes = h[i].promote_pps = h[i].demote_pps = -1;
	}
	h[0].remote_bytes = 100 << 20; h[0].hot_remote_bytes = -1;
	h[1].remote_bytes = 50 << 20;  h[1].hot_remote_bytes = 10 << 20;
	h[2].remote_bytes = 900 << 20; h[2].hot_remote_bytes = 10 << 20;
	h[0].lnames = names; h[0].lvalues = hostile; h[0].nlabels = 1;
	/* HOTREM: c (same hot, more remote) before b; a (unknown) last. */
	CHECK(fleet_col_cmp(FLEET_COL_HOTREM, &h[2], &h[1]) < 0);
	CHECK(fleet_col_cmp(FLEET_COL_HOTREM, &h[1], &h[0]) < 0);
	CHECK(fleet_col_cmp(FLEET_COL_HOTREM, &h[0], &h[2]) > 0);
	CHECK(fleet_col_cmp(FLEET_COL_REMOTE, &h[2], &h[0]) < 0);
	CHECK(fleet_col_cmp(0, &h[0], &h[1]) < 0);     /* INSTANCE: by text */
	char c[256];
	fleet_cols[FLEET_COL_HOTREM].cell(&h[0], c, sizeof(c));
	CHECK_EQ_STR(c, "-");
	fleet_cols[FLEET_COL_REMOTE].cell(&h[2], c, sizeof(c));
	CHECK_EQ_STR(c, "900.0M");
	fleet_cols[FLEET_COL_LABELS].cell(&h[0], c, sizeof(c));
	CHECK(strchr(c, '\033') == NULL && strstr(c, "job=numa dc=x") != NULL);
	fleet_cols[FLEET_COL_USED].cell(&h[0], c, sizeof(c));
	CHECK_EQ_STR(c, "-");
	struct fleet_node nodes[2] = { { 0, 2048.0 * 1024 * 1024 }, { 3, -1 } };
	h[0].nodes = nodes;
	h[0].nnodes = 2;
	fleet_cols[FLEET_COL_USED].cell(&h[0], c, sizeof(c));
	CHECK_EQ_STR(c, "N0 2.0G N3 -");
	for (size_t k = 0; k < fleet_ncols; k++)
		CHECK(fleet_cols[k].hdr && fleet_cols[k].desc && fleet_cols[k].cell);
}

int main(void)
{
	RUN_TEST(test_parse_vector);
	RUN_TEST(test_parse_matrix_scalar);
	RUN_TEST(test_parse_errors);
	RUN_TEST(test_queries);
	RUN_TEST(test_rule_names);
	RUN_TEST(test_model);
	RUN_TEST(test_cols);
	return CHECK_DONE();
}
