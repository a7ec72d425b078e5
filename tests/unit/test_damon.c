/* test_damon.c - DAMON's reader, the ownership rule and the controller
 * (src/damon*.c) on synthetic kdamonds trees in a temporary directory.
 * The controller's writes go to a fake kernel (damon_fake.h), never to
 * /sys/kernel/mm/damon. The request for the regions in flight is
 * test_damon_async.c's. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "damon_fake.h"

/* Every file under dir, path and bytes, in order: a fingerprint. */
static void snap_dir(const char *dir, struct buf *out)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		char p[1024];
		fmt(p, sizeof(p), "%s/%s", dir, ents[i]->d_name);
		if (ents[i]->d_name[0] != '.') {
			struct stat st;
			buf_append(out, p, strlen(p));
			buf_append(out, "\n", 1);
			if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
				snap_dir(p, out);
			} else {
				FILE *f = fopen(p, "r");
				char b[256];
				size_t k = f ? fread(b, 1, sizeof(b), f) : 0;
				if (f)
					fclose(f);
				buf_append(out, b, k);
				buf_append(out, "\n", 1);
			}
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

static void snap(const char *rel, struct buf *out)
{
	char p[512];
	fmt(p, sizeof(p), "%s/%s", tree, rel);
	buf_clear(out);
	snap_dir(p, out);
}

/* ---- fixtures ---- */

/* /proc/PID/stat under the tree, start time st (field 22). */
static void put_proc(int pid, uint64_t st)
{
	char rel[64], text[256];
	fmt(rel, sizeof(rel), "proc/%d/stat", pid);
	fmt(text, sizeof(text), "%d (numatop-tui) S 1 %d %d 0 -1 4194560 0 0 0 0 1 1 0 0 20 0 1 0 %llu 1000 10\n",
		 pid, pid, pid, (unsigned long long)st);
	put(rel, text);
}

/* A kdamond someone else made with the fake kernel: paddr, running. */
static void foreign_kdamond(struct fake *fk, int running)
{
	static const char *const w[][2] = {
		{ "nr_kdamonds", "1" }, { "0/contexts/nr_contexts", "1" },
		{ "0/contexts/0/operations", "paddr" },
		{ "0/contexts/0/monitoring_attrs/intervals/aggr_us", "5000000" },
		{ "0/contexts/0/targets/nr_targets", "1" },
		{ "0/contexts/0/schemes/nr_schemes", "1" },
		{ "0/contexts/0/schemes/0/action", "pageout" },
	};
	fk->quiet = 1;
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		char p[256];
		fmt(p, sizeof(p), "/" KD "/%s", w[i][0]);
		fake_write(fk, p, w[i][1]);
	}
	if (running) {
		fk->next_kpid = 107;
		fake_write(fk, "/" KD "/0/state", "on");
		fk->next_kpid = 4001;
	}
	fk->quiet = 0;
}

/* The first kdamond, or one that matches no expectation. */
static const struct damon_kdamond *kd0(const struct damon_status *st)
{
	static const struct damon_kdamond none = { .index = -1, .state = DAMON_KD_UNKNOWN,
						    .pid = -2, .owner = (enum damon_owner)-1 };
	return st->nkd ? &st->kd[0] : &none;
}

/* The writes of a start on 2 pids (101, 202), in order. */
static const char *const start_seq[] = {
	"nr_kdamonds=1", "0/contexts/nr_contexts=1", "0/contexts/0/operations=vaddr",
	"0/contexts/0/monitoring_attrs/intervals/sample_us=50000",
	"0/contexts/0/monitoring_attrs/intervals/aggr_us=1000000",
	"0/contexts/0/monitoring_attrs/intervals/update_us=1000000",
	"0/contexts/0/monitoring_attrs/nr_regions/min=10",
	"0/contexts/0/monitoring_attrs/nr_regions/max=1000",
	"0/contexts/0/targets/nr_targets=2",
	"0/contexts/0/targets/0/pid_target=101", "0/contexts/0/targets/1/pid_target=202",
	"0/contexts/0/schemes/nr_schemes=1", "0/contexts/0/schemes/0/action=stat",
	"0/contexts/0/schemes/0/access_pattern/sz/min=0",
	"0/contexts/0/schemes/0/access_pattern/sz/max=18446744073709551615",
	"0/contexts/0/schemes/0/access_pattern/nr_accesses/min=0",
	"0/contexts/0/schemes/0/access_pattern/nr_accesses/max=4294967295",
	"0/contexts/0/schemes/0/access_pattern/age/min=0",
	"0/contexts/0/schemes/0/access_pattern/age/max=4294967295",
	"0/state=on",
};
#define NSTART (sizeof(start_seq) / sizeof(start_seq[0]))
static const int two[2] = { 101, 202 };

static void check_seq(const struct fake *fk, int from, const char *const *want, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *got = from + (int)i < fk->n ? fk->log[from + i] : "(none)";
		if (strcmp(got, want[i]) != 0) {
			printf("  write %zu: got %s, want %s\n", i, got, want[i]);
			check_failed_in_test = 1;
			return;
		}
	}
}

/* ---- tests ---- */

static void parsers_numbers(void)
{
	uint64_t u = 7;
	int64_t i = 7;
	enum damon_kd_state s;
	CHECK_EQ_INT(damon_parse_u64("140737488355328\n", 16, &u), 0);
	CHECK(u == UINT64_C(140737488355328));
	CHECK_EQ_INT(damon_parse_u64(" 18446744073709551615 \n", 23, &u), 0);
	CHECK(u == UINT64_MAX);
	CHECK_EQ_INT(damon_parse_u64("18446744073709551616", 20, &u), -ERANGE);
	CHECK_EQ_INT(damon_parse_u64("12abc", 5, &u), -EINVAL);
	CHECK_EQ_INT(damon_parse_u64("-1", 2, &u), -EINVAL);
	CHECK_EQ_INT(damon_parse_u64("", 0, &u), -EINVAL);
	CHECK_EQ_INT(damon_parse_u64("1 2", 3, &u), -EINVAL);
	CHECK_EQ_INT(damon_parse_u64("42", 1, &u), 0);        /* length, not NUL */
	CHECK_EQ_INT(u, 4);
	CHECK_EQ_INT(damon_parse_i64("-1\n", 3, &i), 0);
	CHECK_EQ_INT(i, -1);
	CHECK_EQ_INT(damon_parse_state("on\n", 3, &s), 0);
	CHECK_EQ_INT(s, DAMON_KD_ON);
	CHECK_EQ_INT(damon_parse_state("off", 3, &s), 0);
	CHECK_EQ_INT(s, DAMON_KD_OFF);
	CHECK_EQ_INT(damon_parse_state("onn", 3, &s), -EINVAL);
	CHECK_EQ_INT(s, DAMON_KD_UNKNOWN);
}

static int region(const char *st, const char *en, const char *acc, const char *age,
		  const char *szp, struct damon_region *r)
{
	struct damon_region_text t = { { st, en, acc, age, szp }, { 0 } };
	for (int f = 0; f < DAMON_RF_N; f++)
		t.len[f] = t.f[f] ? strlen(t.f[f]) : 0;
	return damon_parse_region(&t, r);
}

static void parsers_region(void)
{
	struct damon_region r;
	CHECK_EQ_INT(region("4096\n", "8192\n", "20\n", "3\n", NULL, &r), 0);
	CHECK(r.start == 4096 && r.end == 8192);
	CHECK_EQ_INT(r.nr_accesses, 20);
	CHECK_EQ_INT(r.age, 3);
	CHECK_EQ_INT(r.sz_filter_passed, -1);                 /* absent */
	/* Unknown, never 0: garbage, negative and too large counts. */
	CHECK_EQ_INT(region("0", "4096", "abc", "-5", "99999", &r), 0);
	CHECK_EQ_INT(r.nr_accesses, -1);
	CHECK_EQ_INT(r.age, -1);
	CHECK_EQ_INT(r.sz_filter_passed, -1);                 /* more than the region */
	CHECK_EQ_INT(region("0", "4096", "18446744073709551615", "", "4096", &r), 0);
	CHECK_EQ_INT(r.nr_accesses, -1);
	CHECK_EQ_INT(r.age, -1);
	CHECK_EQ_INT(r.sz_filter_passed, 4096);
	/* The kernel's counts are unsigned ints: 0..UINT_MAX, past it unknown
	 * (never wrapped, never cut to an int). */
	CHECK_EQ_INT(region("0", "4096", "2147483648", "4294967295\n", NULL, &r), 0);
	CHECK_EQ_INT(r.nr_accesses, 2147483648LL);
	CHECK_EQ_INT(r.age, 4294967295LL);
	CHECK_EQ_INT(region("0", "4096", "4294967296", "9223372036854775807", NULL, &r), 0);
	CHECK_EQ_INT(r.nr_accesses, -1);
	CHECK_EQ_INT(r.age, -1);
	CHECK_EQ_INT(region("0", "4096", "", "18446744073709551616", NULL, &r), 0);
	CHECK_EQ_INT(r.nr_accesses, -1);
	CHECK_EQ_INT(r.age, -1);
	CHECK_EQ_INT(region("0", "4096", "0", "0", NULL, &r), 0);
	CHECK_EQ_INT(r.nr_accesses, 0);                        /* 0 is a count, not unknown */
	CHECK_EQ_INT(r.age, 0);
	/* The range must be a range. */
	CHECK_EQ_INT(region("8192", "4096", "1", "1", NULL, &r), -EINVAL);
	CHECK_EQ_INT(region("4096", "4096", "1", "1", NULL, &r), -EINVAL);
	CHECK_EQ_INT(region("0x1000", "8192", "1", "1", NULL, &r), -EINVAL);
	CHECK_EQ_INT(region(NULL, "8192", "1", "1", NULL, &r), -EINVAL);
	CHECK_EQ_INT(region("1", "99999999999999999999", "1", "1", NULL, &r), -EINVAL);
}

static void split_targets(void)
{
	/* Two processes, each program .. stack. */
	struct damon_region r[6] = {
		{ 0x400000, 0x500000, 1, 1, -1 }, { 0x7f0000000000, 0x7f0000100000, 1, 1, -1 },
		{ 0x7ffc00000000, 0x7ffc00100000, 1, 1, -1 },
		{ 0x550000000000, 0x550000100000, 1, 1, -1 }, { 0x7f1000000000, 0x7f1000100000, 1, 1, -1 },
		{ 0x7ffd00000000, 0x7ffd00100000, 1, 1, -1 },
	};
	size_t first[4];
	CHECK_EQ_INT(damon_split_targets(r, 6, 2, first), 0);
	CHECK(first[0] == 0 && first[1] == 3 && first[2] == 6);
	/* One target's regions missing, or one more than the targets: unknown. */
	CHECK_EQ_INT(damon_split_targets(r, 6, 3, first), -EINVAL);
	CHECK_EQ_INT(damon_split_targets(r, 6, 1, first), -EINVAL);
	CHECK_EQ_INT(damon_split_targets(r, 3, 1, first), 0);
	CHECK(first[0] == 0 && first[1] == 3);
	CHECK_EQ_INT(damon_split_targets(r, 0, 1, first), -EINVAL);
	CHECK_EQ_INT(damon_split_targets(r, 0, 0, first), 0);
}

static void record_round_trip(void)
{
	struct damon_record a, b;
	memset(&a, 0, sizeof(a));
	a.owner.pid = 321;
	a.owner.starttime = UINT64_C(123456789);
	a.kdamond = 0;
	a.kdamond_pid = -1;
	damon_settings_default(&a.set, two, 2);
	struct buf t = { 0 };
	CHECK_EQ_INT(damon_record_format(&a, &t), 0);
	CHECK_EQ_INT(damon_record_parse(t.data, t.len, &b), 0);
	CHECK_EQ_INT(b.owner.pid, 321);
	CHECK(b.owner.starttime == UINT64_C(123456789));
	CHECK_EQ_INT(b.kdamond_pid, -1);
	CHECK_EQ_STR(b.set.operations, "vaddr");
	CHECK_EQ_INT(b.set.aggr_us, DAMON_AGGR_US);
	CHECK(b.set.npids == 2 && b.set.pids[1] == 202 && !b.have_next);
	/* Anything off is no record. */
	static const char *const bad[] = {
		"", "{}", "[]", "null", "{\"owner_pid\":1}",
		"{\"owner_pid\":0,\"owner_starttime\":1,\"kdamond\":0,\"kdamond_pid\":-1,\"sample_us\":1,"
		"\"aggr_us\":1,\"update_us\":1,\"min_nr_regions\":1,\"max_nr_regions\":1,"
		"\"operations\":\"vaddr\",\"pids\":[1]}",
		"{\"owner_pid\":1,\"owner_starttime\":1,\"kdamond\":0,\"kdamond_pid\":-1,\"sample_us\":1,"
		"\"aggr_us\":1,\"update_us\":1,\"min_nr_regions\":1,\"max_nr_regions\":1,"
		"\"operations\":\"vaddr\",\"pids\":[1,\"2\"]}",
		"{\"owner_pid\":1,\"owner_starttime\":1,\"kdamond\":0,\"kdamond_pid\":-1,\"sample_us\":1,"
		"\"aggr_us\":1,\"update_us\":1,\"min_nr_regions\":1,\"max_nr_regions\":1,"
		"\"operations\":\"vaddr\",\"pids\":[1]} x",
		/* past int64: json-c gives INT64_MAX, which is no interval */
		"{\"owner_pid\":1,\"owner_starttime\":1,\"kdamond\":0,\"kdamond_pid\":-1,\"sample_us\":1,"
		"\"aggr_us\":33333333333333333331,\"update_us\":1,\"min_nr_regions\":1,\"max_nr_regions\":1,"
		"\"operations\":\"vaddr\",\"pids\":[1]}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(damon_record_parse(bad[i], strlen(bad[i]), &b) != 0);
	/* The good one of the last two, for the contrast. */
	CHECK_EQ_INT(damon_record_parse(bad[7], strlen(bad[7]) - 2, &b), 0);
	buf_free(&t);
}

static void not_available(void)
{
	sh("rm -rf %s/sys", tree);
	struct damon_status st;
	CHECK_EQ_INT(damon_read(root, &st), 0);
	CHECK_EQ_INT(st.avail, DAMON_UNAVAILABLE);
	struct damon_ctl c;
	struct fake fk;
	fake_init(&fk);
	ctl_init(&c, &fk, 500, 5);
	CHECK_EQ_INT(damon_ctl_start(&c, two, 2), -ENOENT);
	CHECK(strstr(damon_ctl_message(&c), "CONFIG_DAMON_SYSFS") != NULL);
	CHECK_EQ_INT(fk.n, 0);
	/* The directory without nr_kdamonds is broken, not absent. */
	sh("mkdir -p %s/" KD, tree);
	CHECK_EQ_INT(damon_read(root, &st), 0);
	CHECK_EQ_INT(st.avail, DAMON_ERROR);
	damon_status_free(&st);
}

static void not_permitted(void)
{
	fresh_tree();
	char p[256];
	fmt(p, sizeof(p), "%s/" KD "/nr_kdamonds", tree);
	chmod(p, 0600);
	pid_t pid = fork();
	if (pid == 0) {
		/* As nobody, the files (root's, 0600) cannot be read. */
		if (setgid(65534) != 0 || setuid(65534) != 0)
			_exit(2);
		struct damon_status st;
		if (damon_read(root, &st) != 0)
			_exit(3);
		_exit(st.avail == DAMON_NOT_PERMITTED ? 0 : 1);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2) {
		SKIP_TEST("not_permitted", "cannot become nobody (not root)");
		return;
	}
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void free_start_stop(void)
{
	fresh_tree();
	struct fake fk;
	fake_init(&fk);
	struct damon_ctl c;
	ctl_init(&c, &fk, 500, 55);
	struct damon_status st;
	read_status(&st, &c.self);
	CHECK_EQ_INT(st.avail, DAMON_FREE);
	damon_status_free(&st);

	CHECK_EQ_INT(damon_ctl_start(&c, two, 2), 0);
	CHECK_EQ_INT(fk.n, (int)NSTART);
	check_seq(&fk, 0, start_seq, NSTART);
	/* The record: 0600, naming us, the kdamond and its pid. */
	struct stat sb;
	CHECK(stat(recpath, &sb) == 0 && (sb.st_mode & 0777) == 0600);
	struct damon_record rec;
	CHECK_EQ_INT(damon_record_load(recpath, &rec), 0);
	CHECK_EQ_INT(rec.owner.pid, 500);
	CHECK_EQ_INT(rec.kdamond_pid, 4001);
	read_status(&st, &c.self);
	CHECK_EQ_INT(st.avail, DAMON_OURS);
	CHECK_EQ_INT(st.ours, 0);
	CHECK_EQ_INT(kd0(&st)->state, DAMON_KD_ON);
	CHECK_EQ_INT(kd0(&st)->pid, 4001);
	CHECK(kd0(&st)->nctxs == 1 && kd0(&st)->ctxs && kd0(&st)->ctxs[0].ntargets == 2);
	damon_status_free(&st);
	/* Another process reading it: in use, not free, not ours. */
	struct damon_owner_id other = { 600, 66 };
	put_proc(500, 55);
	read_status(&st, &other);
	CHECK_EQ_INT(st.avail, DAMON_IN_USE);
	CHECK_EQ_INT(kd0(&st)->owner, DAMON_OWNER_LIVE_OTHER);
	damon_status_free(&st);

	/* Targets change while it runs: commit. */
	int three[3] = { 101, 303, 404 };
	fk.n = 0;
	CHECK_EQ_INT(damon_ctl_set_targets(&c, three, 3), 0);
	/* The commit is the worker's (the kernel holds it a window). */
	CHECK(damon_ctl_request_was_commit(&c));
	CHECK_EQ_INT(damon_ctl_request_wait(&c, NULL), 1);
	static const char *const upd[] = {
		"0/contexts/0/targets/nr_targets=3", "0/contexts/0/targets/0/pid_target=101",
		"0/contexts/0/targets/1/pid_target=303", "0/contexts/0/targets/2/pid_target=404",
		"0/state=commit",
	};
	CHECK_EQ_INT(fk.n, 5);
	check_seq(&fk, 0, upd, 5);
	read_status(&st, &c.self);
	CHECK_EQ_INT(st.avail, DAMON_OURS);
	damon_status_free(&st);

	/* Regions: asked for, then read (two targets' worth, split). */
	static const char *const regs[] = {
		"4194304 5242880 20 4", "139637976727552 139637977776128 0 12",
		"140720308486144 140720309534720 3 1",
		"93824992231424 93824993280000 1 0", "139637976727552 139637977776128 19 7",
		"140720308486144 140720309534720 garbage 2",
	};
	fk.regions = regs;
	fk.nregions = 6;
	fk.n = 0;
	CHECK_EQ_INT(damon_ctl_request_regions(&c), 0);
	CHECK_EQ_STR(fk.log[0], "0/state=update_schemes_tried_regions");
	struct damon_scheme sc;
	memset(&sc, 0, sizeof(sc));
	CHECK_EQ_INT(damon_ctl_read_regions(&c, &sc), 0);
	CHECK_EQ_INT(sc.nregions, 6);
	CHECK_EQ_INT(sc.bad_regions, 0);
	if (sc.nregions == 6) {
		CHECK(sc.regions[0].start == 4194304 && sc.regions[0].end == 5242880);
		CHECK_EQ_INT(sc.regions[0].nr_accesses, 20);
		CHECK_EQ_INT(sc.regions[1].age, 12);
		CHECK_EQ_INT(sc.regions[5].nr_accesses, -1);
		size_t first[3];
		CHECK_EQ_INT(damon_split_targets(sc.regions, 6, 2, first), 0);
		CHECK_EQ_INT(first[1], 3);
	}
	free(sc.regions);

	/* Stop: off, removed, the record gone. */
	fk.n = 0;
	CHECK_EQ_INT(damon_ctl_stop(&c), 0);
	CHECK_EQ_INT(fk.n, 2);
	CHECK_EQ_STR(fk.log[0], "0/state=off");
	CHECK_EQ_STR(fk.log[1], "nr_kdamonds=0");
	CHECK(access(recpath, F_OK) != 0);
	read_status(&st, &c.self);
	CHECK_EQ_INT(st.avail, DAMON_FREE);
	damon_status_free(&st);
	/* Twice is nothing. */
	fk.n = 0;
	CHECK_EQ_INT(damon_ctl_stop(&c), 0);
	CHECK_EQ_INT(fk.n, 0);
}

/* A foreign kdamond, running or stopped, is left byte for byte. */
static void foreign_untouched(void)
{
	for (int running = 1; running >= 0; running--) {
		fresh_tree();
		struct fake fk;
		fake_init(&fk);
		foreign_kdamond(&fk, running);
		struct buf before = { 0 }, after = { 0 };
		snap("sys", &before);
		struct damon_ctl c;
		ctl_init(&c, &fk, 500, 55);
		CHECK_EQ_INT(damon_ctl_start(&c, two, 2), -EBUSY);
		CHECK(strstr(damon_ctl_message(&c), "in use by someone else") != NULL);
		CHECK_EQ_INT(damon_ctl_stop(&c), 0);
		damon_ctl_stop_signal(&c);
		CHECK_EQ_INT(fk.n, 0);
		snap("sys", &after);
		CHECK(before.len > 200 && before.len == after.len &&
		      memcmp(before.data, after.data, before.len) == 0);
		CHECK(access(recpath, F_OK) != 0);
		struct damon_status st;
		read_status(&st, &c.self);
		CHECK_EQ_INT(st.avail, DAMON_IN_USE);
		CHECK_EQ_INT(kd0(&st)->owner, DAMON_OWNER_FOREIGN);
		CHECK_EQ_INT(kd0(&st)->state, running ? DAMON_KD_ON : DAMON_KD_OFF);
		damon_status_free(&st);
		buf_free(&before);
		buf_free(&after);
	}
}

/* A run killed with SIGKILL leaves its kdamond and record: the next start
 * stops and removes it when its owner is gone or its PID reused. */
/* A new run (PID 5151) finding the kdamond of a gone owner: it is stale,
 * and the start stops and removes it ("off", nr_kdamonds 0) before its
 * own. */
static void start_over_stale(struct fake *fk, struct damon_ctl *c)
{
	ctl_init(c, fk, 5151, 88);
	struct damon_status st;
	read_status(&st, &c->self);
	CHECK_EQ_INT(st.avail, DAMON_STALE);
	CHECK_EQ_INT(kd0(&st)->owner, DAMON_OWNER_STALE);
	damon_status_free(&st);
	fk->n = 0;
	fk->next_kpid = 4002;
	CHECK_EQ_INT(damon_ctl_start(c, two, 2), 0);
	CHECK_EQ_INT(fk->n, 2 + (int)NSTART);
	CHECK_EQ_STR(fk->log[0], "0/state=off");
	CHECK_EQ_STR(fk->log[1], "nr_kdamonds=0");
	check_seq(fk, 2, start_seq, NSTART);
}

static void stale_ours_removed(void)
{
	for (int reused = 0; reused <= 1; reused++) {
		fresh_tree();
		struct fake fk;
		fake_init(&fk);
		struct damon_ctl old;
		ctl_init(&old, &fk, 4242, 77);
		CHECK_EQ_INT(damon_ctl_start(&old, two, 2), 0);
		killed(&old);
		if (reused)
			put_proc(4242, 78);          /* same PID, another process */
		struct damon_ctl c;
		start_over_stale(&fk, &c);
		struct damon_record rec;
		CHECK_EQ_INT(damon_record_load(recpath, &rec), 0);
		CHECK_EQ_INT(rec.owner.pid, 5151);
		CHECK_EQ_INT(rec.kdamond_pid, 4002);
		damon_ctl_stop(&c);
	}
	/* The owner alive (same start time): another run's, left alone. */
	fresh_tree();
	struct fake fk;
	fake_init(&fk);
	struct damon_ctl old, c;
	ctl_init(&old, &fk, 4242, 77);
	CHECK_EQ_INT(damon_ctl_start(&old, two, 2), 0);
	put_proc(4242, 77);
	ctl_init(&c, &fk, 5151, 88);
	fk.n = 0;
	CHECK_EQ_INT(damon_ctl_start(&c, two, 2), -EBUSY);
	CHECK_EQ_INT(fk.n, 0);
}

/* A one-off watch's kdamond (--hot, --cold) aggregates every 200 ms; its
 * record says so, and a run killed during the watch leaves one that the
 * next monitor (1 s windows) still recognises as ours by the record. */
static void watch_window(void)
{
	fresh_tree();
	struct fake fk;
	fake_init(&fk);
	struct damon_ctl old;
	ctl_init(&old, &fk, 4242, 77);
	old.sample_us = DAMON_SAMPLE_WATCH_US;
	old.aggr_us = DAMON_AGGR_WATCH_US;
	CHECK_EQ_INT(damon_ctl_start(&old, two, 2), 0);
	killed(&old);
	CHECK_EQ_INT(fk.n, (int)NSTART);
	check_seq(&fk, 0, start_seq, 3);
	CHECK_EQ_STR(fk.n > 3 ? fk.log[3] : "", "0/contexts/0/monitoring_attrs/intervals/sample_us=20000");
	CHECK_EQ_STR(fk.n > 4 ? fk.log[4] : "", "0/contexts/0/monitoring_attrs/intervals/aggr_us=200000");
	check_seq(&fk, 5, start_seq + 5, NSTART - 5);
	struct damon_record rec;
	CHECK_EQ_INT(damon_record_load(recpath, &rec), 0);
	CHECK_EQ_INT(rec.set.sample_us, DAMON_SAMPLE_WATCH_US);
	CHECK_EQ_INT(rec.set.aggr_us, DAMON_AGGR_WATCH_US);
	/* Its owner gone: the next start (the monitor's window) removes it
	 * and starts its own at 1 s. */
	struct damon_ctl c;
	start_over_stale(&fk, &c);
	CHECK_EQ_INT(damon_record_load(recpath, &rec), 0);
	CHECK_EQ_INT(rec.set.sample_us, DAMON_SAMPLE_US);
	CHECK_EQ_INT(rec.set.aggr_us, DAMON_AGGR_US);
	damon_ctl_stop(&c);
}

/* A stale record whose kdamond's settings differ: not ours for certain. */
static void stale_different_left(void)
{
	static const char *const change[][2] = {
		{ KD "/0/contexts/0/monitoring_attrs/intervals/aggr_us", "100000\n" },
		{ KD "/0/contexts/0/targets/1/pid_target", "999\n" },
		{ KD "/0/contexts/0/schemes/0/action", "pageout\n" },
		{ KD "/0/contexts/0/schemes/0/access_pattern/age/min", "5\n" },
		{ KD "/0/contexts/0/operations", "paddr\n" },
		{ KD "/0/pid", "4999\n" },                 /* another thread runs it */
		{ KD "/0/contexts/0/targets/nr_targets", "x\n" },
	};
	for (size_t i = 0; i < sizeof(change) / sizeof(change[0]); i++) {
		fresh_tree();
		struct fake fk;
		fake_init(&fk);
		struct damon_ctl old, c;
		ctl_init(&old, &fk, 4242, 77);
		CHECK_EQ_INT(damon_ctl_start(&old, two, 2), 0);
		killed(&old);
		put(change[i][0], change[i][1]);
		struct buf before = { 0 }, after = { 0 };
		snap("sys", &before);
		ctl_init(&c, &fk, 5151, 88);
		fk.n = 0;
		int rc = damon_ctl_start(&c, two, 2);
		if (rc != -EBUSY || fk.n != 0)
			printf("  change %zu: start %d, %d writes\n", i, rc, fk.n);
		CHECK_EQ_INT(rc, -EBUSY);
		CHECK_EQ_INT(fk.n, 0);
		snap("sys", &after);
		CHECK(before.len == after.len && memcmp(before.data, after.data, before.len) == 0);
		buf_free(&before);
		buf_free(&after);
	}
	/* The record not ours to trust (readable by others): foreign too. */
	fresh_tree();
	struct fake fk;
	fake_init(&fk);
	struct damon_ctl old, c;
	ctl_init(&old, &fk, 4242, 77);
	CHECK_EQ_INT(damon_ctl_start(&old, two, 2), 0);
	killed(&old);
	chmod(recpath, 0644);
	ctl_init(&c, &fk, 5151, 88);
	fk.n = 0;
	CHECK_EQ_INT(damon_ctl_start(&c, two, 2), -EBUSY);
	CHECK_EQ_INT(fk.n, 0);
}

/* Our kdamond beside a foreign one: ours is never removed with
 * nr_kdamonds (it would rebuild theirs), only stopped. */
static void ours_not_alone(void)
{
	fresh_tree();
	struct fake fk;
	fake_init(&fk);
	struct damon_ctl c;
	ctl_init(&c, &fk, 500, 55);
	CHECK_EQ_INT(damon_ctl_start(&c, two, 2), 0);
	/* Someone else's appears (a recorded tree could show it). */
	put(KD "/nr_kdamonds", "2\n");
	put(KD "/1/state", "on\n");
	put(KD "/1/pid", "107\n");
	put(KD "/1/contexts/nr_contexts", "0\n");
	fk.n = 0;
	CHECK_EQ_INT(damon_ctl_stop(&c), 0);
	CHECK_EQ_INT(fk.n, 1);
	CHECK_EQ_STR(fk.log[0], "0/state=off");
	char v[16];
	CHECK(get(KD "/1/state", v, sizeof(v)) == 0 && strcmp(v, "on") == 0);
}

/* ---- races with other runs and other users (each failed before the
 * record was made exclusively and every write proved) ---- */

/* Two runs starting at once: B starts while A is between its record and
 * nr_kdamonds. B writes nothing and leaves A's record as it is. */
static struct damon_ctl *race_b;
static int race_b_rc = 1, race_b_writes = -1;
static void start_b_now(struct fake *fk, const char *tail, const char *val)
{
	(void)val;
	if (!race_b || strcmp(tail, "nr_kdamonds") != 0)
		return;
	struct damon_ctl *b = race_b;
	race_b = NULL;
	void (*hook)(struct fake *, const char *, const char *) = fk->hook;
	fk->hook = NULL;
	int before = fk->n;
	race_b_rc = damon_ctl_start(b, two, 2);
	race_b_writes = fk->n - before;
	fk->hook = hook;
}

static void two_runs_at_once(void)
{
	fresh_tree();
	struct fake fk;
	fake_init(&fk);
	struct damon_ctl a, b;
	ctl_init(&a, &fk, 500, 55);
	ctl_init(&b, &fk, 600, 66);
	put_proc(500, 55);
	put_proc(600, 66);
	race_b = &b;
	fk.hook = start_b_now;
	CHECK_EQ_INT(damon_ctl_start(&a, two, 2), 0);
	fk.hook = NULL;
	CHECK_EQ_INT(race_b_rc, -EBUSY);
	CHECK_EQ_INT(race_b_writes, 0);
	CHECK(strstr(damon_ctl_message(&b), "another run") != NULL);
	CHECK_EQ_INT(b.rec_fd, -1);
	struct damon_record rec;
	CHECK_EQ_INT(damon_record_load(recpath, &rec), 0);
	CHECK_EQ_INT(rec.owner.pid, 500);
	CHECK_EQ_INT(rec.kdamond_pid, 4001);
	/* B again, A running: in use, nothing written or deleted. */
	fk.n = 0;
	CHECK_EQ_INT(damon_ctl_start(&b, two, 2), -EBUSY);
	CHECK_EQ_INT(damon_ctl_stop(&b), 0);
	CHECK_EQ_INT(fk.n, 0);
	CHECK_EQ_INT(damon_record_load(recpath, &rec), 0);
	CHECK_EQ_INT(rec.owner.pid, 500);
	/* A stops: everything gone, DAMON free for B. */
	CHECK_EQ_INT(damon_ctl_stop(&a), 0);
	CHECK(access(recpath, F_OK) != 0);
	CHECK_EQ_INT(damon_ctl_start(&b, two, 2), 0);
	CHECK_EQ_INT(damon_ctl_stop(&b), 0);
}

/* The record deleted while we run: our kdamond is still ours (proved by
 * what we hold), the file is made again, and the stop removes it all. */
static void record_deleted_midrun(void)
{
	fresh_tree();
	struct fake fk;
	fake_init(&fk);
	struct damon_ctl c;
	ctl_init(&c, &fk, 500, 55);
	CHECK_EQ_INT(damon_ctl_start(&c, two, 2), 0);
	CHECK_EQ_INT(unlink(recpath), 0);
	enum damon_kd_state state;
	CHECK_EQ_INT(damon_ctl_prove(&c, &state), 0);
	CHECK_EQ_INT(state, DAMON_KD_ON);
	struct damon_record rec;
	CHECK_EQ_INT(damon_record_load(recpath, &rec), 0);
	CHECK_EQ_INT(rec.owner.pid, 500);
	CHECK_EQ_INT(rec.kdamond_pid, 4001);
	/* Another run now finds it in use. */
	struct damon_ctl b;
	ctl_init(&b, &fk, 600, 66);
	put_proc(500, 55);
	fk.n = 0;
	CHECK_EQ_INT(damon_ctl_start(&b, two, 2), -EBUSY);
	CHECK_EQ_INT(fk.n, 0);
	/* Deleted again: a change of targets still works. */
	unlink(recpath);
	int three[3] = { 101, 303, 404 };
	CHECK_EQ_INT(damon_ctl_set_targets(&c, three, 3), 0);
	CHECK_EQ_INT(damon_ctl_request_wait(&c, NULL), 1);
	CHECK(access(recpath, F_OK) == 0);
	fk.n = 0;
	CHECK_EQ_INT(damon_ctl_stop(&c), 0);
	CHECK_EQ_INT(fk.n, 2);
	CHECK(access(recpath, F_OK) != 0);
	/* A file someone else put there meanwhile is never deleted. */
	CHECK_EQ_INT(damon_ctl_start(&c, two, 2), 0);
	unlink(recpath);
	put("run/numatop-tui/damon.json", "someone else's\n");
	CHECK_EQ_INT(damon_ctl_stop(&c), 0);
	char v[64];
	CHECK(get("run/numatop-tui/damon.json", v, sizeof(v)) == 0 &&
	      strcmp(v, "someone else's") == 0);
}

/* Someone turns ours off, removes it and makes their own kdamond 0 (a
 * vaddr stat scheme, like ours). Nothing of theirs is written or asked,
 * and the stop leaves it running. */
static void replaced_midrun(void)
{
	fresh_tree();
	struct fake fk;
	fake_init(&fk);
	struct damon_ctl c;
	ctl_init(&c, &fk, 500, 55);
	CHECK_EQ_INT(damon_ctl_start(&c, two, 2), 0);
	static const char *const w[][2] = {
		{ "0/state", "off" }, { "nr_kdamonds", "0" }, { "nr_kdamonds", "1" },
		{ "0/contexts/nr_contexts", "1" }, { "0/contexts/0/operations", "vaddr" },
		{ "0/contexts/0/targets/nr_targets", "1" },
		{ "0/contexts/0/targets/0/pid_target", "777" },
		{ "0/contexts/0/schemes/nr_schemes", "1" },
		{ "0/contexts/0/schemes/0/action", "stat" },
		{ "0/state", "on" },
	};
	fk.quiet = 1;
	fk.next_kpid = 107;
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		char p[256];
		fmt(p, sizeof(p), "/" KD "/%s", w[i][0]);
		CHECK_EQ_INT(fake_write(&fk, p, w[i][1]), 0);
	}
	fk.quiet = 0;
	struct buf before = { 0 }, after = { 0 };
	snap("sys", &before);
	fk.n = 0;
	CHECK_EQ_INT(damon_ctl_request_start(&c), -ESRCH);
	CHECK(strstr(damon_ctl_message(&c), "someone else") != NULL);
	CHECK_EQ_INT(damon_ctl_request_start(&c), -ESRCH);
	CHECK_EQ_INT(damon_ctl_set_targets(&c, two, 2), -ESRCH);
	CHECK_EQ_INT(damon_ctl_stop(&c), 0);
	damon_ctl_stop_signal(&c);
	CHECK_EQ_INT(fk.n, 0);
	snap("sys", &after);
	CHECK(before.len > 200 && before.len == after.len &&
	      memcmp(before.data, after.data, before.len) == 0);
	CHECK(access(recpath, F_OK) != 0);       /* ours, and it names nothing now */
	buf_free(&before);
	buf_free(&after);
	/* Only turned off and removed (nr_kdamonds 0): nothing written either. */
	fresh_tree();
	ctl_init(&c, &fk, 500, 55);
	CHECK_EQ_INT(damon_ctl_start(&c, two, 2), 0);
	fk.quiet = 1;
	fake_write(&fk, "/" KD "/0/state", "off");
	fake_write(&fk, "/" KD "/nr_kdamonds", "0");
	fk.quiet = 0;
	fk.n = 0;
	CHECK_EQ_INT(damon_ctl_request_start(&c), -ESRCH);
	CHECK(strstr(damon_ctl_message(&c), "removed") != NULL);
	CHECK_EQ_INT(damon_ctl_stop(&c), 0);
	CHECK_EQ_INT(fk.n, 0);
}

/* DAMON stops our kdamond by itself (a commit it refused, every target
 * gone): nothing is asked of it, and a change of targets starts it
 * again, a new thread, with the record following. */
static void stopped_restarted(void)
{
	fresh_tree();
	struct fake fk;
	fake_init(&fk);
	struct damon_ctl c;
	ctl_init(&c, &fk, 500, 55);
	CHECK_EQ_INT(damon_ctl_start(&c, two, 2), 0);
	put(KD "/0/state", "off\n");
	put(KD "/0/pid", "-1\n");
	fk.n = 0;
	CHECK_EQ_INT(damon_ctl_request_start(&c), -ESHUTDOWN);
	CHECK_EQ_INT(fk.n, 0);
	enum damon_kd_state state;
	CHECK_EQ_INT(damon_ctl_prove(&c, &state), 0);
	CHECK_EQ_INT(state, DAMON_KD_OFF);
	fk.next_kpid = 4444;
	int one[1] = { 303 };
	CHECK_EQ_INT(damon_ctl_set_targets(&c, one, 1), 1);
	static const char *const seq[] = {
		"0/contexts/0/targets/nr_targets=1", "0/contexts/0/targets/0/pid_target=303",
		"0/state=on",
	};
	CHECK_EQ_INT(fk.n, 3);
	check_seq(&fk, 0, seq, 3);
	CHECK(!damon_ctl_request_pending(&c));
	struct damon_record rec;
	CHECK_EQ_INT(damon_record_load(recpath, &rec), 0);
	CHECK_EQ_INT(rec.kdamond_pid, 4444);
	CHECK(rec.set.npids == 1 && rec.set.pids[0] == 303 && !rec.have_next);
	CHECK_EQ_INT(damon_ctl_request_regions(&c), 0);
	fk.n = 0;
	CHECK_EQ_INT(damon_ctl_stop(&c), 0);
	CHECK_EQ_INT(fk.n, 2);
}

static void signal_stop(void)
{
	fresh_tree();
	struct fake fk;
	fake_init(&fk);
	struct damon_ctl c;
	ctl_init(&c, &fk, 500, 55);
	CHECK_EQ_INT(damon_ctl_start(&c, two, 2), 0);
	fk.n = 0;
	errno = 1234;
	damon_ctl_stop_signal(&c);
	CHECK_EQ_INT(errno, 1234);
	CHECK_EQ_INT(fk.n, 2);
	CHECK_EQ_STR(fk.log[0], "0/state=off");
	CHECK_EQ_STR(fk.log[1], "nr_kdamonds=0");
	CHECK(access(recpath, F_OK) != 0);
	damon_ctl_stop_signal(&c);                    /* once only */
	CHECK_EQ_INT(fk.n, 2);

	/* The pid file shows another thread: nothing written, record kept. */
	fresh_tree();
	ctl_init(&c, &fk, 500, 55);
	CHECK_EQ_INT(damon_ctl_start(&c, two, 2), 0);
	put(KD "/0/pid", "4999\n");
	fk.n = 0;
	damon_ctl_stop_signal(&c);
	CHECK_EQ_INT(fk.n, 0);
	CHECK(access(recpath, F_OK) == 0);
}

static void failures_undone(void)
{
	/* No vaddr in this kernel: undone, and said. */
	fresh_tree();
	struct fake fk;
	fake_init(&fk);
	fk.avail_ops = "paddr\n";
	struct damon_ctl c;
	ctl_init(&c, &fk, 500, 55);
	CHECK_EQ_INT(damon_ctl_start(&c, two, 2), -EOPNOTSUPP);
	CHECK(strstr(damon_ctl_message(&c), "CONFIG_DAMON_VADDR") != NULL);
	CHECK_EQ_INT(fk.n, 3);
	CHECK_EQ_STR(fk.log[2], "nr_kdamonds=0");
	CHECK(access(recpath, F_OK) != 0);
	struct damon_status st;
	read_status(&st, &c.self);
	CHECK_EQ_INT(st.avail, DAMON_FREE);
	damon_status_free(&st);
	/* Bad pid counts write nothing. */
	fk.n = 0;
	CHECK_EQ_INT(damon_ctl_start(&c, two, 0), -EINVAL);
	int many[DAMON_MAX_TARGETS + 1] = { 0 };
	CHECK_EQ_INT(damon_ctl_start(&c, many, DAMON_MAX_TARGETS + 1), -EINVAL);
	CHECK_EQ_INT(fk.n, 0);
	/* A recorded tree is never written: the real ops refuse. */
	damon_ctl_init(&c, root, recpath);
	c.self.pid = 500;
	CHECK_EQ_INT(damon_ctl_start(&c, two, 2), -EROFS);
	read_status(&st, &c.self);
	CHECK_EQ_INT(st.avail, DAMON_FREE);
	damon_status_free(&st);
}

/* tried_regions with odd directories: garbage kept out, not as 0. */
static void tried_regions_odd(void)
{
	fresh_tree();
	const char *tr = KD "/0/contexts/0/schemes/0/tried_regions";
	static const char *const rows[][5] = {
		{ "4096", "8192", "5", "1", NULL },
		{ "zz", "8192", "5", "1", NULL },          /* bad start */
		{ "8192", "8192", "5", "1", NULL },        /* empty */
		{ "8192", "16384", "", "1", "4096" },      /* unknown accesses */
		{ "16384", "20480", "7", "x", "8192" },    /* passed > size: unknown */
		{ NULL, "20480", "7", "1", NULL },         /* no start file */
	};
	char rel[512];
	for (size_t i = 0; i < 6; i++)
		for (int f = 0; f < DAMON_RF_N; f++)
			if (rows[i][f]) {
				fmt(rel, sizeof(rel), "%s/%zu/%s", tr, i, damon_region_files[f]);
				put(rel, rows[i][f]);
			}
	fmt(rel, sizeof(rel), "%s/total_bytes", tr);
	put(rel, "12288\n");
	fmt(rel, sizeof(rel), "%s/notanumber/start", tr);
	put(rel, "1");
	struct damon_scheme s;
	memset(&s, 0, sizeof(s));
	CHECK_EQ_INT(damon_read_regions(root, 0, 0, 0, &s), 0);
	CHECK_EQ_INT(s.nregions, 3);
	CHECK_EQ_INT(s.bad_regions, 3);
	CHECK_EQ_INT(s.total_bytes, 12288);
	if (s.nregions == 3) {
		CHECK(s.regions[0].start == 4096 && s.regions[0].nr_accesses == 5);
		CHECK(s.regions[1].start == 8192 && s.regions[1].nr_accesses == -1 &&
		      s.regions[1].sz_filter_passed == 4096);
		CHECK(s.regions[2].age == -1 && s.regions[2].sz_filter_passed == -1);
	}
	free(s.regions);
	/* No tried_regions directory: an error, not zero regions. */
	memset(&s, 0, sizeof(s));
	CHECK(damon_read_regions(root, 3, 0, 0, &s) != 0);
	free(s.regions);
}

/* This machine's own DAMON, read only (never written by any test). */
static void live_read_only(void)
{
	struct fsroot *live;
	if (fsroot_open("/", &live) != 0)
		return;
	struct damon_status st;
	CHECK_EQ_INT(damon_read(live, &st), 0);
	damon_classify(live, &st, NULL, NULL);
	/* Without a record nothing can be ours. */
	CHECK(st.avail != DAMON_OURS && st.avail != DAMON_STALE);
	for (size_t i = 0; i < st.nkd; i++)
		CHECK_EQ_INT(st.kd[i].owner, DAMON_OWNER_FOREIGN);
	printf("  this machine: DAMON %s (%lld kdamonds)\n", damon_avail_name(st.avail),
	       (long long)st.nr_kdamonds);
	damon_status_free(&st);
	fsroot_close(live);
}

int main(void)
{
	if (fake_setup("test_damon") != 0) {
		printf("FAIL damon: the temporary tree\n");
		return 1;
	}
	RUN_TEST(parsers_numbers);
	RUN_TEST(parsers_region);
	RUN_TEST(split_targets);
	RUN_TEST(record_round_trip);
	RUN_TEST(not_available);
	RUN_TEST(not_permitted);
	RUN_TEST(free_start_stop);
	RUN_TEST(foreign_untouched);
	RUN_TEST(stale_ours_removed);
	RUN_TEST(stale_different_left);
	RUN_TEST(watch_window);
	RUN_TEST(ours_not_alone);
	RUN_TEST(two_runs_at_once);
	RUN_TEST(record_deleted_midrun);
	RUN_TEST(replaced_midrun);
	RUN_TEST(stopped_restarted);
	RUN_TEST(signal_stop);
	RUN_TEST(failures_undone);
	RUN_TEST(tried_regions_odd);
	RUN_TEST(live_read_only);
	fake_teardown();
	return CHECK_DONE();
}
