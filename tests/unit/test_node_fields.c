/* test_node_fields.c - the per-node field table: keys and exported names
 * are unique and well formed, every row reads back what its setter wrote
 * (the replay's round trip), and unknown stays unknown. */
#include <stdlib.h>
#include <string.h>

#include "node_fields.h"
#include "check.h"

static bool prom_name_ok(const char *n)
{
	if (strncmp(n, "numatop_node_", 13) != 0)
		return false;
	for (const char *p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}

static void unique_names(void)
{
	CHECK(node_nfields > 0);
	for (size_t i = 0; i < node_nfields; i++) {
		const struct node_field *a = &node_fields[i];
		CHECK(a->key && a->text_hdr && a->text_w >= (int)strlen(a->text_hdr) && a->get && a->set);
		CHECK(node_field_find(a->key) == a);
		if (a->prom)
			CHECK(prom_name_ok(a->prom) && a->prom_help && a->prom_help[0]);
		for (size_t j = i + 1; j < node_nfields; j++) {
			const struct node_field *b = &node_fields[j];
			CHECK(strcmp(a->key, b->key) != 0);
			CHECK(strcmp(a->text_hdr, b->text_hdr) != 0);
			CHECK(!a->prom || !b->prom || strcmp(a->prom, b->prom) != 0);
		}
	}
	CHECK(node_field_find("no_such_field") == NULL);
}

static void round_trip(void)
{
	struct node_sample nodes[2];
	struct cpu_load load[2];
	memset(nodes, 0, sizeof(nodes));
	memset(load, 0, sizeof(load));
	struct snapshot s;
	memset(&s, 0, sizeof(s));
	s.nodes = nodes;
	s.node_load = load;
	/* All set first, each to its own value: two rows on one member show. */
	for (size_t k = 0; k < node_nfields; k++) {
		const struct node_field *nf = &node_fields[k];
		nf->set(&s, 1, nf->unit == NF_KB ? 123456789.0 + (double)k : 12.5 + (double)k);
		nf->set(&s, 0, -1);
	}
	for (size_t k = 0; k < node_nfields; k++) {
		const struct node_field *nf = &node_fields[k];
		CHECK(nf->get(&s, 1) == (nf->unit == NF_KB ? 123456789.0 + (double)k : 12.5 + (double)k));
		CHECK(nf->get(&s, 0) < 0);
	}
	/* No load yet (the first sample): unknown, and the setter leaves it. */
	s.node_load = NULL;
	for (size_t k = 0; k < node_nfields; k++)
		if (node_fields[k].unit == NF_PCT) {
			node_fields[k].set(&s, 0, 50);
			CHECK(node_fields[k].get(&s, 0) < 0);
		}
}

int main(void)
{
	RUN_TEST(unique_names);
	RUN_TEST(round_trip);
	return CHECK_DONE();
}
