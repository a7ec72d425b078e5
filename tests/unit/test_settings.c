/* test_settings.c - the settings file (src/settings.c): the parser on
 * good, bad and foreign input, the text it writes read back, save and
 * load through the safe directory walk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "check.h"
#include "settings.h"

static int parse(const char *text, struct settings *s, char *err)
{
	settings_init(s);
	return settings_parse(text, strlen(text), s, err, 128);
}

static void good(void)
{
	struct settings s;
	char err[128] = "";
	CHECK_EQ_INT(parse("# comment\n\n sort = CPU% \nsort_descending=0\ncolumns=PID,N3,COMMAND\n"
			   "show_nodes=no\nshow_heatmap=1\nheatmap_layer=latency\ndelay=0.5\n"
			   "kernel_threads=true\ntree=1\nfuture_key=whatever\n", &s, err), 0);
	CHECK_EQ_STR(s.sort, "CPU%");
	CHECK_EQ_INT(s.sort_descending, 0);
	CHECK_EQ_STR(s.columns, "PID,N3,COMMAND");
	CHECK_EQ_INT(s.show_nodes, 0);
	CHECK_EQ_INT(s.show_heatmap, 1);
	CHECK_EQ_STR(s.heatmap_layer, "latency");
	CHECK(s.delay == 0.5);
	CHECK_EQ_INT(s.kernel_threads, 1);
	CHECK_EQ_INT(s.tree, 1);
	/* Nothing set: every value unset, not 0. */
	CHECK_EQ_INT(parse("", &s, err), 0);
	CHECK(s.sort[0] == '\0' && s.tree == -1 && s.show_nodes == -1 && s.delay < 0);
}

static void bad(void)
{
	struct settings s;
	char err[128];
	CHECK_EQ_INT(parse("sort=PID\nthis is not key value\n", &s, err), -EINVAL);
	CHECK_EQ_STR(err, "line 2: not key=value");
	CHECK_EQ_INT(parse("tree=maybe\n", &s, err), -EINVAL);
	CHECK(strstr(err, "line 1") && strstr(err, "tree"));
	CHECK_EQ_INT(parse("delay=0\n", &s, err), -EINVAL);
	CHECK_EQ_INT(parse("delay=nan\n", &s, err), -EINVAL);
	CHECK_EQ_INT(parse("heatmap_layer=colours\n", &s, err), -EINVAL);
	CHECK_EQ_INT(parse("columns=PID, USER\n", &s, err), -EINVAL);
	CHECK_EQ_INT(parse("=1\n", &s, err), -EINVAL);
	const char bin[] = "sort=PID\n\x01\x02\0\xff\n";
	settings_init(&s);
	CHECK_EQ_INT(settings_parse(bin, sizeof(bin) - 1, &s, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "line 2") != NULL);
}

/* Long lines are read whole: a long comment is skipped; a value too long
 * or a list too long is said by its size, not as "not text". */
static void long_lines(void)
{
	struct settings s;
	char err[128];
	struct buf t = { 0 };
	buf_append(&t, "# ", 2);
	for (int i = 0; i < 5000; i++)
		buf_append(&t, "x", 1);
	buf_append(&t, "\ntree=1\n", 8);
	settings_init(&s);
	CHECK_EQ_INT(settings_parse(t.data, t.len, &s, err, sizeof(err)), 0);
	CHECK_EQ_INT(s.tree, 1);
	/* 10000 names: too many, said as such (the line is 60 kB). */
	buf_clear(&t);
	buf_append(&t, "tree=1\ncolumns=PID", 18);
	for (int i = 1; i < 10000; i++)
		buf_append(&t, ",RSS", 4);
	settings_init(&s);
	CHECK_EQ_INT(settings_parse(t.data, t.len, &s, err, sizeof(err)), -EINVAL);
	CHECK_EQ_STR(err, "line 2: columns: 10000 names, at most 1040");
	/* The longest list: every column once and N0 to N1023, in the monitor's
	 * spelling: read, and written back the same. */
	buf_clear(&t);
	static const char all[] = "columns=PID,USER,HOME,CPU%,RSS,REMOTE,REMOTE%,WHY,RACC%,TIME,"
				  "THR,AGE,CGROUP,POLICY,COMMAND";
	buf_append(&t, all, sizeof(all) - 1);
	for (int i = 0; i < SETTINGS_MAX_COLUMNS - 15; i++) {
		char n[16];
		int k = snprintf(n, sizeof(n), ",N%d", i);
		buf_append(&t, n, (size_t)k);
	}
	settings_init(&s);
	CHECK_EQ_INT(settings_parse(t.data, t.len, &s, err, sizeof(err)), 0);
	CHECK_EQ_INT(strlen(s.columns), t.len - 8);
	buf_append(&t, ",N9", 3);
	CHECK_EQ_INT(settings_parse(t.data, t.len, &s, err, sizeof(err)), -EINVAL);
	CHECK_EQ_STR(err, "line 1: columns: 1041 names, at most 1040");
	buf_clear(&t);
	buf_append(&t, "sort=", 5);
	for (int i = 0; i < 3000; i++)
		buf_append(&t, "A", 1);
	CHECK_EQ_INT(settings_parse(t.data, t.len, &s, err, sizeof(err)), -EINVAL);
	CHECK_EQ_STR(err, "line 1: sort: 3000 characters, at most 31");
	buf_free(&t);
}

/* A file that is not one: said in words (not "Wrong medium type",
 * "Too many levels of symbolic links"). */
static void not_a_file(void)
{
	char dir[] = "/tmp/numatop-settings-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	chmod(dir, 0755);
	static const struct { const char *make, *say; } cases[] = {
		{ "mkdir rc", "is not a regular file (a directory)" },
		{ "mkfifo rc", "is not a regular file (a FIFO)" },
		{ "echo tree=1 >real && ln -s real rc", "is a symbolic link: not followed" },
		{ "head -c 70000 /dev/zero >rc", "is larger than 65536 bytes" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char cmd[512], path[128], err[256] = "";
		snprintf(cmd, sizeof(cmd), "cd %s && rm -rf rc real && %s", dir, cases[i].make);
		CHECK_EQ_INT(system(cmd), 0);
		snprintf(path, sizeof(path), "%s/rc", dir);
		struct settings s;
		settings_init(&s);
		CHECK(settings_load(path, &s, err, sizeof(err)) < 0);
		CHECK_EQ_STR(err, cases[i].say);
		CHECK_EQ_INT(s.tree, -1);
	}
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_EQ_INT(system(cmd), 0);
}

static void round_trip(void)
{
	struct settings a, b;
	char err[128];
	settings_init(&a);
	snprintf(a.sort, sizeof(a.sort), "REMOTE%%");
	a.sort_descending = 1;
	snprintf(a.columns, sizeof(a.columns), "PID,USER,N,REMOTE");
	a.show_nodes = 0;
	a.tree = 1;
	a.delay = 1.5;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	settings_write(m, &a);
	fclose(m);
	settings_init(&b);
	CHECK_EQ_INT(settings_parse(text, len, &b, err, sizeof(err)), 0);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	free(text);
	/* Save and load in a fresh directory (made 0700), and no temporary
	 * file left. */
	char dir[] = "/tmp/numatop-settings-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	chmod(dir, 0755);
	char path[256], why[256];
	snprintf(path, sizeof(path), "%s/cfg/numatop-tui/numatop-tuirc", dir);
	CHECK_EQ_INT(settings_save(path, &a, why, sizeof(why)), 0);
	settings_init(&b);
	CHECK_EQ_INT(settings_load(path, &b, err, sizeof(err)), 0);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "test \"$(ls -A %s/cfg/numatop-tui)\" = numatop-tuirc", dir);
	CHECK_EQ_INT(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/none/numatop-tuirc", dir);
	CHECK_EQ_INT(settings_load(path, &b, err, sizeof(err)), -ENOENT);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_EQ_INT(system(cmd), 0);
	/* The path: XDG_CONFIG_HOME, else HOME/.config. */
	setenv("XDG_CONFIG_HOME", "/x", 1);
	CHECK_EQ_INT(settings_path(path, sizeof(path)), 0);
	CHECK_EQ_STR(path, "/x/numatop-tui/numatop-tuirc");
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", "/home/u", 1);
	CHECK_EQ_INT(settings_path(path, sizeof(path)), 0);
	CHECK_EQ_STR(path, "/home/u/.config/numatop-tui/numatop-tuirc");
}

int main(void)
{
	RUN_TEST(good);
	RUN_TEST(bad);
	RUN_TEST(long_lines);
	RUN_TEST(not_a_file);
	RUN_TEST(round_trip);
	return CHECK_DONE();
}
