/* test_action_tier.c - the checks of promote hot and demote cold
 * (src/action_tier.c): demote needs a slower tier, a target in it, no
 * bind policy keeping the memory elsewhere, and room; promote needs room;
 * unknown facts never refuse. */
#include <stdlib.h>
#include <string.h>

#include "action_tier.h"
#include "check.h"

/* Nodes 0 (CPUs) and 2 (CPUs) in memory_tier4, node 5 memory-only in
 * memory_tier67 (sparse ids). */
static void machine(struct topology *t, struct tier_model *m, bool tiered)
{
	memset(t, 0, sizeof(*t));
	t->nnodes = 3;
	t->nodes = calloc(3, sizeof(*t->nodes));
	static const int ids[3] = { 0, 2, 5 };
	CHECK_EQ_INT(tiers_init(m, 3), 0);
	for (size_t i = 0; i < 3; i++) {
		t->nodes[i].id = ids[i];
		m->node[i].id = ids[i];
		m->node[i].tier = tiered ? (i == 2 ? 67 : 4) : 4;
		m->node[i].cpus = i != 2;
	}
	CHECK_EQ_INT(tiers_build(m), 0);
}

static void demote(void)
{
	struct topology t;
	struct tier_model m;
	machine(&t, &m, true);
	char why[512];
	struct tieract_move mv = { &m, &t, 2, true, 64 * 1024, 1024 * 1024, "default" };
	CHECK_EQ_INT(tieract_check(&mv, why, sizeof(why)), TIERACT_OK);
	CHECK_EQ_STR(why, "");
	/* To a node of the fastest tier: which ones are slower said. */
	mv.node = 1;
	CHECK_EQ_INT(tieract_check(&mv, why, sizeof(why)), TIERACT_NOT_SLOWER);
	CHECK(strstr(why, "node 2 is in the fastest tier (memory_tier4)") != NULL);
	CHECK(strstr(why, "slower tier (node 5)") != NULL);
	mv.node = 2;
	/* No room: 64 MiB for 32 MiB free. */
	mv.free_kb = 32 * 1024;
	CHECK_EQ_INT(tieract_check(&mv, why, sizeof(why)), TIERACT_NO_ROOM);
	CHECK(strstr(why, "node 5 has 32.0 MiB free for 64.0 MiB of cold memory") != NULL);
	/* Free memory unknown, or nothing that moves: no refusal. */
	mv.free_kb = -1;
	CHECK_EQ_INT(tieract_check(&mv, why, sizeof(why)), TIERACT_OK);
	mv.free_kb = 0;
	mv.kb = 0;
	CHECK_EQ_INT(tieract_check(&mv, why, sizeof(why)), TIERACT_OK);
	mv.kb = 64 * 1024;
	mv.free_kb = 1024 * 1024;
	/* A bind policy to the fast nodes: demoting goes against it. */
	mv.policy = "bind:0,2";
	CHECK_EQ_INT(tieract_check(&mv, why, sizeof(why)), TIERACT_POLICY);
	CHECK(strstr(why, "(bind:0,2) binds its memory to nodes 0,2") != NULL);
	mv.policy = "bind=static:0";
	CHECK_EQ_INT(tieract_check(&mv, why, sizeof(why)), TIERACT_POLICY);
	CHECK(strstr(why, "to node 0:") != NULL);
	mv.policy = "mixed: default,bind:0";
	CHECK_EQ_INT(tieract_check(&mv, why, sizeof(why)), TIERACT_POLICY);
	/* A bind that includes the slow node, other policies, unknown. */
	static const char *const fine[] = { "bind:0-5", "bind:5", "prefer:0", "interleave:0,2",
					    "mixed: bind:5,default", "", NULL, "bind:", "bind" };
	for (size_t k = 0; k < sizeof(fine) / sizeof(fine[0]); k++) {
		mv.policy = fine[k];
		CHECK_EQ_INT(tieract_check(&mv, why, sizeof(why)), TIERACT_OK);
	}
	tiers_free(&m);
	free(t.nodes);
	/* One tier, or none known: nowhere slower. */
	machine(&t, &m, false);
	mv = (struct tieract_move){ &m, &t, 2, true, 1024, -1, "default" };
	CHECK_EQ_INT(tieract_check(&mv, why, sizeof(why)), TIERACT_NO_SLOW_TIER);
	CHECK(strstr(why, "has one memory tier") != NULL);
	mv.tiers = NULL;
	CHECK_EQ_INT(tieract_check(&mv, why, sizeof(why)), TIERACT_NO_SLOW_TIER);
	CHECK(strstr(why, "has no memory tier") != NULL);
	tiers_free(&m);
	free(t.nodes);
}

static void promote(void)
{
	struct topology t;
	struct tier_model m;
	machine(&t, &m, true);
	char why[512];
	/* Promote hot to node 0: room only; a bind policy is no refusal
	 * (the promoted pages stay, new ones follow the policy). */
	struct tieract_move mv = { &m, &t, 0, false, 64 * 1024, 100 * 1024, "bind:5" };
	CHECK_EQ_INT(tieract_check(&mv, why, sizeof(why)), TIERACT_OK);
	mv.free_kb = 10 * 1024;
	CHECK_EQ_INT(tieract_check(&mv, why, sizeof(why)), TIERACT_NO_ROOM);
	CHECK(strstr(why, "node 0 has 10.0 MiB free for 64.0 MiB of hot memory: free memory there "
			  "first, then promote it") != NULL);
	/* Hot to any node on a one-tier machine: room only as well. */
	tiers_free(&m);
	free(t.nodes);
	machine(&t, &m, false);
	mv.free_kb = -1;
	CHECK_EQ_INT(tieract_check(&mv, why, sizeof(why)), TIERACT_OK);
	tiers_free(&m);
	free(t.nodes);
}

static void policy_text(void)
{
	char list[64];
	CHECK(tieract_policy_excludes("bind:0-1", 3, list, sizeof(list)));
	CHECK_EQ_STR(list, "0-1");
	CHECK(!tieract_policy_excludes("bind:0-1", 1, list, sizeof(list)));
	CHECK_EQ_STR(list, "");
	CHECK(tieract_policy_excludes("mixed: bind:4,bind=relative:1,+", 4, list, sizeof(list)));
	CHECK_EQ_STR(list, "1");
	CHECK(!tieract_policy_excludes("bind:x", 4, list, sizeof(list)));
	CHECK(!tieract_policy_excludes("prefer (many):0", 4, list, sizeof(list)));
}

int main(void)
{
	RUN_TEST(demote);
	RUN_TEST(promote);
	RUN_TEST(policy_text);
	return CHECK_DONE();
}
