/* damon_fake.h - a fake DAMON for the controller's tests (test_damon.c,
 * test_damon_async.c): a kdamonds tree in a temporary directory, read as
 * a --root, and fake_write, which does to it what the kernel's sysfs
 * files do (the directories nr_kdamonds, nr_contexts, nr_targets and
 * nr_schemes make, EBUSY for nr_kdamonds while a kdamond runs, the state
 * keywords). Never /sys/kernel/mm/damon: the real writes are refused on
 * a --root (-EROFS), and the fake writes only below the tree. The tree
 * alone (fake_setup, put, fake_teardown) is test_access_source.c's too:
 * what only the controller's tests call is static inline. */
#ifndef NUMATOP_TEST_DAMON_FAKE_H
#define NUMATOP_TEST_DAMON_FAKE_H

#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "damon.h"
#include "damon_ctl.h"

static char tree[64];
static char recpath[128];
#define KD "sys/kernel/mm/damon/admin/kdamonds"

/* ---- files ---- */

/* snprintf that must fit (the test's paths are short). */
__attribute__((format(printf, 3, 4)))
static void fmt(char *b, size_t n, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	int k = vsnprintf(b, n, f, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= n)
		abort();
}

static void put(const char *rel, const char *text)
{
	char p[1024];
	fmt(p, sizeof(p), "%s/%s", tree, rel);
	for (char *s = p + strlen(tree) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	FILE *f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int get(const char *rel, char *out, size_t n)
{
	char p[1024];
	fmt(p, sizeof(p), "%s/%s", tree, rel);
	FILE *f = fopen(p, "r");
	if (!f)
		return -1;
	size_t k = fread(out, 1, n - 1, f);
	fclose(f);
	out[k] = '\0';
	while (k && out[k - 1] == '\n')
		out[--k] = '\0';
	return 0;
}

__attribute__((format(printf, 1, 2)))
static void sh(const char *f, ...)
{
	char cmd[1024];
	va_list ap;
	va_start(ap, f);
	vsnprintf(cmd, sizeof(cmd), f, ap);
	va_end(ap);
	if (system(cmd) != 0)
		printf("  command failed: %s\n", cmd);
}
/* ---- the fake kernel ---- */

struct fake {
	char log[128][160];
	int n;
	int next_kpid;
	const char *avail_ops;
	const char *const *regions;  /* "start end nr_accesses age" each */
	size_t nregions;
	int quiet;                   /* set-up writes: not logged */
	/* Called before each write is done (a race: another run acting
	 * between two of ours), tail as logged. */
	void (*hook)(struct fake *fk, const char *tail, const char *val);
	void *hook_ctx;
};

static int is_on(int k)
{
	char rel[128], v[16];
	fmt(rel, sizeof(rel), KD "/%d/state", k);
	return get(rel, v, sizeof(v)) == 0 && strcmp(v, "on") == 0;
}

static void make_kdamond(int k)
{
	char rel[128];
	fmt(rel, sizeof(rel), KD "/%d/state", k);
	put(rel, "off\n");
	fmt(rel, sizeof(rel), KD "/%d/pid", k);
	put(rel, "-1\n");
	fmt(rel, sizeof(rel), KD "/%d/contexts/nr_contexts", k);
	put(rel, "0\n");
}

static void make_context(const char *dir, const char *avail)
{
	static const char *const f[][2] = {
		{ "operations", "vaddr\n" },
		{ "monitoring_attrs/intervals/sample_us", "5000\n" },
		{ "monitoring_attrs/intervals/aggr_us", "100000\n" },
		{ "monitoring_attrs/intervals/update_us", "1000000\n" },
		{ "monitoring_attrs/nr_regions/min", "10\n" },
		{ "monitoring_attrs/nr_regions/max", "1000\n" },
		{ "targets/nr_targets", "0\n" },
		{ "schemes/nr_schemes", "0\n" },
	};
	char rel[512];
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		fmt(rel, sizeof(rel), "%s/%s", dir, f[i][0]);
		put(rel, f[i][1]);
	}
	fmt(rel, sizeof(rel), "%s/avail_operations", dir);
	put(rel, avail);
}

static void make_scheme(const char *dir)
{
	static const char *const f[] = {
		"access_pattern/sz/min", "access_pattern/sz/max", "access_pattern/nr_accesses/min",
		"access_pattern/nr_accesses/max", "access_pattern/age/min", "access_pattern/age/max",
	};
	char rel[512];
	fmt(rel, sizeof(rel), "%s/action", dir);
	put(rel, "pageout\n");
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		fmt(rel, sizeof(rel), "%s/%s", dir, f[i]);
		put(rel, "0\n");
	}
	fmt(rel, sizeof(rel), "%s/tried_regions/total_bytes", dir);
	put(rel, "0\n");
}

/* dir/N/ for each of n entries, after removing the old ones. */
static void remake(const char *dir, long n, void (*make)(const char *d, struct fake *), struct fake *fk)
{
	char p[512];
	fmt(p, sizeof(p), "rm -rf %s/%s/[0-9]*", tree, dir);
	sh("%s", p);
	for (long i = 0; i < n; i++) {
		fmt(p, sizeof(p), "%s/%ld", dir, i);
		make(p, fk);
	}
}

static void mk_ctx(const char *d, struct fake *fk) { make_context(d, fk->avail_ops); }
static void mk_target(const char *d, struct fake *fk)
{
	(void)fk;
	char rel[512];
	fmt(rel, sizeof(rel), "%s/pid_target", d);
	put(rel, "0\n");
}
static void mk_scheme(const char *d, struct fake *fk) { (void)fk; make_scheme(d); }

static const char *ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0 ? s : NULL;
}

static int fake_write(void *ctx, const char *path, const char *val)
{
	struct fake *fk = ctx;
	const char *pre = "/" KD "/";
	if (strncmp(path, pre, strlen(pre)) != 0)
		return -EPERM;                   /* only DAMON's files */
	const char *rel = path + 1;
	const char *tail = path + strlen(pre);
	if (fk->hook)
		fk->hook(fk, tail, val);
	if (!fk->quiet && fk->n < 128)
		fmt(fk->log[fk->n++], sizeof(fk->log[0]), "%s=%s", tail, val);
	char full[1024], dir[512];
	fmt(full, sizeof(full), "%s/%s", tree, rel);
	fmt(dir, sizeof(dir), "%s", rel);
	*strrchr(dir, '/') = '\0';
	if (access(full, F_OK) != 0)
		return -ENOENT;
	long n = strtol(val, NULL, 10);
	if (strcmp(tail, "nr_kdamonds") == 0) {
		char p[512];
		for (int k = 0; k < 64; k++)
			if (is_on(k))
				return -EBUSY;
		fmt(p, sizeof(p), "rm -rf %s/" KD "/[0-9]*", tree);
		sh("%s", p);
		for (long k = 0; k < n; k++)
			make_kdamond((int)k);
	} else if (ends_with(tail, "/contexts/nr_contexts")) {
		remake(dir, n, mk_ctx, fk);
	} else if (ends_with(tail, "/targets/nr_targets")) {
		remake(dir, n, mk_target, fk);
	} else if (ends_with(tail, "/schemes/nr_schemes")) {
		remake(dir, n, mk_scheme, fk);
	} else if (ends_with(tail, "/state")) {
		char pidrel[512];
		fmt(pidrel, sizeof(pidrel), "%s/pid", dir);
		int on = get(rel, full, sizeof(full)) == 0 && strcmp(full, "on") == 0;
		if (strcmp(val, "on") == 0) {
			if (on)
				return -EBUSY;
			char v[24];
			fmt(v, sizeof(v), "%d\n", fk->next_kpid);
			put(pidrel, v);
			put(rel, "on\n");
		} else if (strcmp(val, "off") == 0) {
			if (!on)
				return -EINVAL;
			put(pidrel, "-1\n");
			put(rel, "off\n");
		} else if (strcmp(val, "commit") == 0) {
			if (!on)
				return -EINVAL;
		} else if (strcmp(val, "update_schemes_tried_regions") == 0) {
			if (!on)
				return -EINVAL;
			char tr[512];
			fmt(tr, sizeof(tr), "%s/contexts/0/schemes/0/tried_regions", dir);
			for (size_t i = 0; i < fk->nregions; i++) {
				char rr[600], s[4][32];
				sscanf(fk->regions[i], "%31s %31s %31s %31s", s[0], s[1], s[2], s[3]);
				static const char *const nm[4] = { "start", "end", "nr_accesses", "age" };
				for (int j = 0; j < 4; j++) {
					fmt(rr, sizeof(rr), "%s/%zu/%s", tr, i, nm[j]);
					put(rr, s[j]);
				}
			}
			return 0;
		} else {
			return -EINVAL;
		}
		return 0;
	}
	char v[128];
	fmt(v, sizeof(v), "%s\n", val);
	put(rel, v);
	return 0;
}

/* ---- fixtures ---- */

static struct fsroot *root;

static inline void fresh_tree(void)
{
	char cmd[256];
	fmt(cmd, sizeof(cmd), "rm -rf %s/sys %s/proc", tree, tree);
	if (system(cmd) != 0)
		printf("  rm failed\n");
	put(KD "/nr_kdamonds", "0\n");
	unlink(recpath);
}

static inline void fake_init(struct fake *fk)
{
	memset(fk, 0, sizeof(*fk));
	fk->next_kpid = 4001;
	fk->avail_ops = "vaddr\nfvaddr\npaddr\n";
}

static inline void ctl_init(struct damon_ctl *c, struct fake *fk, int pid, uint64_t st)
{
	damon_ctl_init(c, root, recpath);   /* self not under the tree: set below */
	c->ops.write = fake_write;
	c->ops.ctx = fk;
	c->self.pid = pid;
	c->self.starttime = st;
}

/* A run killed (SIGKILL): its files close, and with them the lock on
 * its record; its kdamond and record are left. */
static inline void killed(struct damon_ctl *c)
{
	if (c->rec_fd >= 0)
		close(c->rec_fd);
	c->rec_fd = -1;
}

static inline void read_status(struct damon_status *st, const struct damon_owner_id *self)
{
	CHECK_EQ_INT(damon_read(root, st), 0);
	struct damon_record rec;
	int have = damon_record_load(recpath, &rec) == 0;
	damon_classify(root, st, have ? &rec : NULL, self);
}

/* The tree in a new temporary directory named after the test; 0 or -1. */
static int fake_setup(const char *name)
{
	fmt(tree, sizeof(tree), "/tmp/%s.XXXXXX", name);
	if (!mkdtemp(tree))
		return -1;
	chmod(tree, 0755);
	fmt(recpath, sizeof(recpath), "%s/run/numatop-tui/damon.json", tree);
	put(KD "/nr_kdamonds", "0\n");
	return fsroot_open(tree, &root) == 0 ? 0 : -1;
}

static void fake_teardown(void)
{
	fsroot_close(root);
	sh("rm -rf %s", tree);
}

#endif
