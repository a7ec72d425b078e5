/* test_action_table.c - the table of actions (src/action_table.c): each
 * row named, found by its option, with keys; the node checks refuse in the
 * words the command line prints; the actions' --help lines. */
#include <stdlib.h>
#include <string.h>

#include "action_table.h"
#include "check.h"

static void rows(void)
{
	for (size_t i = 0; i < ACTION_N; i++) {
		const struct action_def *d = &action_defs[i];
		CHECK_EQ_INT(d->id, i);
		CHECK(d->name && d->name[0]);
		CHECK(d->keys[0] != 0 && d->key_label);
		CHECK(!d->option || action_by_option(d->option) == d);
		CHECK(!d->option || d->option_help);
		/* An engine's entry points are all there. */
		if (d->engine == ACTION_ENGINE_JOB)
			CHECK(d->job.preview && d->job.run && d->job.step && d->job.verify);
		else
			CHECK(d->cg.preview && d->cg.run && d->cg.verify);
	}
	CHECK(action_by_option("to") == NULL);
	CHECK(action_by_option("migrate-cgroup") == &action_defs[ACTION_CGROUP_MOVE]);
}

/* Node 0: CPUs and memory; node 1: memory only; node 4: CPUs only. */
static void verify(void)
{
	struct topology t;
	memset(&t, 0, sizeof(t));
	t.nnodes = 3;
	t.nodes = calloc(3, sizeof(*t.nodes));
	static const int ids[3] = { 0, 1, 4 };
	for (size_t i = 0; i < 3; i++) {
		t.nodes[i].id = ids[i];
		t.nodes[i].has_memory = i != 2;
		bitmap_init(&t.nodes[i].cpus);
		if (i != 1)
			CHECK_EQ_INT(bitmap_set(&t.nodes[i].cpus, (unsigned)i), 0);
	}
	char why[160];
	struct action_check c = { &t, 0, NULL, NULL };
	for (size_t i = 0; i < ACTION_N; i++)
		CHECK(!action_defs[i].verify || action_defs[i].verify(&c, why, sizeof(why)) == 0);
	c.node = 1;
	CHECK_EQ_INT(action_defs[ACTION_REBIND].verify(&c, why, sizeof(why)), 1);
	CHECK_EQ_STR(why, "node 1 has no CPUs (memory only)");
	CHECK_EQ_INT(action_defs[ACTION_MIGRATE].verify(&c, why, sizeof(why)), 0);
	c.node = 2;
	CHECK_EQ_INT(action_defs[ACTION_MIGRATE].verify(&c, why, sizeof(why)), 1);
	CHECK_EQ_STR(why, "node 4 has no memory");
	CHECK_EQ_INT(action_defs[ACTION_MIGRATE_COLD].verify(&c, why, sizeof(why)), 1);
	CHECK_EQ_INT(action_defs[ACTION_REBIND].verify(&c, why, sizeof(why)), 0);
	c.node = 3;
	CHECK_EQ_INT(action_defs[ACTION_MIGRATE].verify(&c, why, sizeof(why)), 1);
	for (size_t i = 0; i < 3; i++)
		bitmap_free(&t.nodes[i].cpus);
	free(t.nodes);
}

static void usage(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CHECK(f != NULL);
	if (!f)
		return;
	action_usage(f);
	fclose(f);
	CHECK(strstr(text, "      --migrate PID    move PID's memory to --to NODE") == text);
	CHECK(strstr(text, "\n      --to NODE        target node of --migrate / --rebind / "
		     "--migrate-cgroup\n") != NULL);
	CHECK(strstr(text, "      --migrate-cgroup PATH  move a cgroup") != NULL);
	CHECK(strstr(text, "\n                       CPUs of --to NODE") != NULL);
	/* Each option once, the switches after --to. */
	for (size_t i = 0; i < ACTION_N; i++) {
		char opt[64];
		snprintf(opt, sizeof(opt), "\n      --%s ", action_defs[i].option);
		CHECK(strstr(text, opt) != NULL || strstr(text, opt + 1) == text);
	}
	CHECK(strstr(text, "--to NODE") < strstr(text, "      --hot "));
	CHECK(text[len - 1] == '\n');
	free(text);
}

int main(void)
{
	RUN_TEST(rows);
	RUN_TEST(verify);
	RUN_TEST(usage);
	return CHECK_DONE();
}
