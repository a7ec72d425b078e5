/* test_action.c - the migrate preview arithmetic, the batching against a
 * fake kernel, the PID-reuse guard and rebind on a live child. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <numaif.h>

#include "access.h"
#include "action.h"
#include "action_job.h"
#include "action_migrate.h"
#include "monotime.h"
#include "parse.h"
#include "action_rebind.h"
#include "check.h"
#include "spawn.h"

static char tree[64];

static void put(const char *rel, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The Opteron tree's sys/ plus one process, 5151, with hand-made maps. */
static int make_tree(void)
{
	snprintf(tree, sizeof(tree), "/tmp/numatop-action-XXXXXX");
	if (!mkdtemp(tree))
		return -1;
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "cp -r tests/trees/opteron4/sys %s/sys && mkdir -p %s/proc/5151",
		 tree, tree);
	if (system(cmd) != 0)
		return -1;
	put("proc/meminfo", "MemTotal: 1000 kB\nHugepagesize: 2048 kB\n");
	put("proc/5151/stat", "5151 (app) S 1 5151 5151 0 -1 0 0 0 0 0 1 1 0 0 20 0 1 0 777 1000 10 0 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n");
	put("proc/5151/numa_maps",
	    "00400000 default file=/bin/app mapped=10 mapmax=3 N0=6 N2=4 kernelpagesize_kB=4\n"
	    "00600000 default file=/bin/app anon=2 dirty=2 N0=2 kernelpagesize_kB=4\n"
	    "01000000 default heap anon=100 dirty=100 N0=50 N1=30 N2=20 kernelpagesize_kB=4\n"
	    "7f0000000000 default anon=256 dirty=256 mapmax=2 N3=256 kernelpagesize_kB=4\n"
	    "7f1000000000 bind:0 anon=8 dirty=8 N2=8 kernelpagesize_kB=4\n"
	    "7f2000000000 default file=/anon_hugepage\\040(deleted) huge dirty=2 N1=2 kernelpagesize_kB=2048\n");
	put("proc/5151/maps",
	    "00400000-00403000 r-xp 00000000 08:01 11 /bin/app\n"
	    "00600000-00602000 rw-p 00002000 08:01 11 /bin/app\n"
	    "01000000-01064000 rw-p 00000000 00:00 0 [heap]\n"
	    "7f0000000000-7f0000100000 rw-p 00000000 00:00 0\n"
	    "7f1000000000-7f1000008000 rw-p 00000000 00:00 0\n"
	    "7f2000000000-7f2000400000 rw-s 00000000 00:0f 99 /anon_hugepage (deleted)\n");
	return 0;
}

static void maps_ranges(void)
{
	uint64_t s, e;
	const char *l = "7f0000000000-7f0000100000 rw-p 00000000 00:00 0";
	CHECK_EQ_INT(maps_parse_range(l, strlen(l), &s, &e), 0);
	CHECK(s == 0x7f0000000000ull && e == 0x7f0000100000ull);
	l = "00400000-00403000";
	CHECK_EQ_INT(maps_parse_range(l, strlen(l), &s, &e), 0);
	CHECK(e - s == 0x3000);
	const char *bad[] = { "", "-", "400000", "400000-", "500000-400000 r",
			      "x-1 r", "10000000000000000-10000000000000001 r", "1-2x" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ_INT(maps_parse_range(bad[i], strlen(bad[i]), &s, &e), -EINVAL);
}

static int open_tree(struct fsroot **r, struct topology *t)
{
	if (fsroot_open(tree, r) != 0)
		return -1;
	if (topology_read(*r, t) != 0) {
		fsroot_close(*r);
		return -1;
	}
	return 0;
}

static void preview_arithmetic(void)
{
	struct fsroot *r;
	struct topology t;
	if (open_tree(&r, &t) != 0) {
		CHECK(!"tree");
		return;
	}
	struct action_target tg;
	CHECK_EQ_INT(action_target_read(r, 5151, &tg), 0);
	CHECK(tg.starttime == 777);
	CHECK_EQ_STR(tg.comm, "app");
	struct migrate_job j;
	CHECK_EQ_INT(migrate_prepare(r, &t, &tg, 2, &j), 0);
	/* per node: N0 6+2+50 pages, N1 30 pages + 2 huge, N2 4+20+8, N3 256 */
	CHECK_EQ_INT(j.pv.node_kb[0], 232);
	CHECK_EQ_INT(j.pv.node_kb[1], 120 + 4096);
	CHECK_EQ_INT(j.pv.node_kb[2], 128);
	CHECK_EQ_INT(j.pv.node_kb[3], 1024);
	CHECK_EQ_INT(j.pv.total_kb, 5600);
	CHECK_EQ_INT(j.pv.on_target_kb, 128);
	CHECK_EQ_INT(j.pv.move_kb, 320 + 1024);     /* heap + anon off node 2 */
	CHECK_EQ_INT(j.pv.shared_kb, 1024);         /* mapmax=2 */
	CHECK_EQ_INT(j.pv.file_anon_kb, 8);         /* COW copies of /bin/app */
	CHECK_EQ_INT(j.pv.file_kb, 24);             /* page cache off node 2 */
	CHECK_EQ_INT(j.pv.huge_kb, 4096);
	CHECK(strstr(j.pv.policy, "bind") != NULL);
	/* Ranges: the private file copies, the heap, the shared anon. */
	CHECK_EQ_INT(j.nranges, 3);
	CHECK(j.nranges == 3 && j.ranges[0].start == 0x600000 && j.ranges[0].file);
	CHECK(j.nranges == 3 && j.ranges[1].end == 0x1064000 && !j.ranges[1].file);
	CHECK_EQ_INT(j.total_pages, 2 + 100 + 256);
	migrate_free(&j);
	/* A node with no memory, a node that does not exist. */
	CHECK_EQ_INT(migrate_prepare(r, &t, &tg, 9, &j), -EINVAL);
	migrate_free(&j);
	topology_free(&t);
	fsroot_close(r);
}

/* ---- a fake kernel for the walk ---- */

struct fake {
	struct migrate_job *j;
	int calls, queries, moves, after_death, max_batch;
	int die_after;          /* alive() fails from this call on (0 never) */
	int alive_calls;
	int die_in_call;        /* the process exits during this move_pages call */
	bool dead;
	bool cpuset_refuses;    /* moves fail as a whole with EACCES */
	/* The process is killed at this call (0 never): from then on its
	 * memory is gone while its pidfd does not say so yet (alive() is
	 * 0): move_pages says EINVAL, the pagemap reads nothing; recheck
	 * says what /proc says then, recheck_says (-ESRCH exiting,
	 * -ACTION_EEXEC, 0 a real EINVAL of a process that is well). */
	int mm_gone_at;
	bool mm_gone;
	int recheck_says, rechecks;
	uintptr_t nomem_page;   /* this page's move gives -ENOMEM */
	bool no_move_all;       /* MOVE_ALL gives EPERM (no CAP_SYS_NICE) */
	int crossed;            /* batches over a 512-page (2 MiB) boundary */
	uint64_t watch;         /* a page index: the batch that starts there */
	size_t watch_n;         /* ... and how long it was */
	int node_of_heap[100];
	int node_of_shared[256];
	int file_node[2];
};

static int *fake_slot(struct fake *f, uintptr_t a, bool *file, bool *shared)
{
	*file = *shared = false;
	if (a >= 0x600000 && a < 0x602000) {
		*file = true;
		return &f->file_node[(a - 0x600000) / 4096];
	}
	if (a >= 0x1000000 && a < 0x1064000)
		return &f->node_of_heap[(a - 0x1000000) / 4096];
	if (a >= 0x7f0000000000 && a < 0x7f0000100000) {
		*shared = true;
		return &f->node_of_shared[(a - 0x7f0000000000) / 4096];
	}
	return NULL;
}

static long fake_move(void *ctx, int pid, unsigned long count, void **pages,
		      const int *nodes, int *status, int flags)
{
	struct fake *f = ctx;
	(void)pid;
	f->calls++;
	if ((f->die_after && f->alive_calls >= f->die_after) || f->dead)
		f->after_death++;
	if (f->die_in_call && f->calls == f->die_in_call)
		f->dead = true;
	if (f->mm_gone_at && f->calls >= f->mm_gone_at)
		f->mm_gone = true;
	if (f->mm_gone)
		return -EINVAL;   /* find_mm_struct: the task has no mm */
	if (nodes && f->cpuset_refuses)
		return -EACCES;
	if ((int)count > f->max_batch)
		f->max_batch = (int)count;
	if (nodes && (flags & MPOL_MF_MOVE_ALL) && f->no_move_all)
		return -EPERM;
	nodes ? f->moves++ : f->queries++;
	for (unsigned long i = 0; i < count; i++) {
		bool file, shared;
		int *slot = fake_slot(f, (uintptr_t)pages[i], &file, &shared);
		if (!slot || *slot < 0) {
			status[i] = -ENOENT;
		} else if (!nodes) {
			status[i] = *slot;
		} else if (shared && !(flags & MPOL_MF_MOVE_ALL)) {
			status[i] = -EACCES;
		} else if ((uintptr_t)pages[i] == 0x1000000 + 4 * 4096) {
			status[i] = -EBUSY;
		} else if (f->nomem_page && (uintptr_t)pages[i] == f->nomem_page) {
			status[i] = -ENOMEM;
		} else {
			*slot = nodes[i];
			status[i] = nodes[i];
		}
	}
	return 0;
}

static ssize_t fake_pagemap(void *ctx, uint64_t *out, size_t n, uint64_t first)
{
	struct fake *f = ctx;
	if (n && first / 512 != (first + n - 1) / 512)
		f->crossed++;
	if (f->watch && first == f->watch)
		f->watch_n = n;
	if (f->mm_gone)
		return 0;         /* pagemap_read: no mm, nothing read */
	for (size_t i = 0; i < n; i++) {
		uintptr_t a = (uintptr_t)((first + i) * 4096);
		bool file, shared;
		int *slot = fake_slot(f, a, &file, &shared);
		out[i] = slot && *slot >= 0 ? UINT64_C(1) << 63 : 0;
		/* page 1 of the file range is page cache, page 0 a private copy */
		if (file && a == 0x601000)
			out[i] |= UINT64_C(1) << 61;
	}
	return (ssize_t)n;
}

static int fake_alive(void *ctx)
{
	struct fake *f = ctx;
	f->alive_calls++;
	return (f->die_after && f->alive_calls >= f->die_after) || f->dead ? -ESRCH : 0;
}

static int fake_recheck(void *ctx)
{
	struct fake *f = ctx;
	f->rechecks++;
	return f->recheck_says;
}

static void fake_init(struct fake *f, struct migrate_job *j)
{
	memset(f, 0, sizeof(*f));
	f->j = j;
	for (int i = 0; i < 100; i++)
		f->node_of_heap[i] = i % 4 == 3 ? -1 : i % 3;   /* -1: not present */
	for (int i = 0; i < 256; i++)
		f->node_of_shared[i] = 3;
	f->file_node[0] = f->file_node[1] = 0;
	j->ops = (struct migrate_ops){ fake_move, fake_pagemap, fake_alive, f, fake_recheck };
}

/* The ranges migrate hot and migrate cold take from a process's heat:
 * hot its hot regions (in address order), cold everything outside its hot
 * and warm regions; cold refused while it cannot be said (watched under
 * ACCESS_COLD_S, heat unknown) or when the regions were cut. */
static void heat_ranges(void)
{
	struct access_region reg[3] = {
		{ .start = 0x7f0000000000, .end = 0x7f0004000000, .heat = ACCESS_HOT },
		{ .start = 0x1000000, .end = 0x1800000, .heat = ACCESS_WARM },
		{ .start = 0x400000, .end = 0x500000, .heat = ACCESS_HOT },
	};
	/* A one-off watch's 200 ms windows: settled after 3 s. */
	struct access_proc a = { .hot_kb = 66560, .warm_kb = 8192, .cold_kb = 4096,
				 .window_s = 0.2, .monitored_s = 10, .regions = reg, .nregions = 3 };
	struct migrate_range *v;
	size_t n;
	CHECK_EQ_INT(migrate_heat_ranges(&a, false, &v, &n), 0);
	CHECK(n == 2 && v[0].start == 0x400000 && v[0].end == 0x500000 &&
	      v[1].start == 0x7f0000000000 && v[1].end == 0x7f0004000000);
	free(v);
	CHECK_EQ_INT(migrate_heat_ranges(&a, true, &v, &n), 0);
	CHECK_EQ_INT(n, 4);
	CHECK(n == 4 && v[0].start == 0 && v[0].end == 0x400000 &&
	      v[1].start == 0x500000 && v[1].end == 0x1000000 &&
	      v[2].start == 0x1800000 && v[2].end == 0x7f0000000000 &&
	      v[3].start == 0x7f0004000000 && v[3].end == UINT64_MAX);
	free(v);
	a.monitored_s = 3;              /* too soon to say cold */
	CHECK_EQ_INT(migrate_heat_ranges(&a, true, &v, &n), -ENODATA);
	CHECK(!v && !n);
	CHECK_EQ_INT(migrate_heat_ranges(&a, false, &v, &n), 0);
	free(v);
	/* Heat that is not usable moves nothing (access.h): still
	 * settling, older than two windows, or not seen while it ran. */
	a.monitored_s = 2.8;
	CHECK_EQ_INT(migrate_heat_ranges(&a, false, &v, &n), -EINPROGRESS);
	CHECK(!v && !n);
	a.monitored_s = 10;
	a.age_s = 0.5;
	CHECK_EQ_INT(migrate_heat_ranges(&a, false, &v, &n), -ESTALE);
	CHECK_EQ_INT(migrate_heat_ranges(&a, true, &v, &n), -ESTALE);
	a.age_s = 0.4;
	CHECK_EQ_INT(migrate_heat_ranges(&a, false, &v, &n), 0);
	free(v);
	a.age_s = 0;
	a.unseen = true;
	CHECK_EQ_INT(migrate_heat_ranges(&a, false, &v, &n), -ENODATA);
	a.unseen = false;
	a.nregions = ACCESS_MAX_REGIONS;   /* cut: some hot ones not kept */
	CHECK_EQ_INT(migrate_heat_ranges(&a, true, &v, &n), -E2BIG);
	a.nregions = 3;
	a.hot_kb = -1;
	CHECK_EQ_INT(migrate_heat_ranges(&a, false, &v, &n), -ENODATA);
	CHECK_EQ_INT(migrate_heat_ranges(NULL, true, &v, &n), -ENODATA);
}

static void batching_fake_kernel(void)
{
	struct fsroot *r;
	struct topology t;
	if (open_tree(&r, &t) != 0) {
		CHECK(!"tree");
		return;
	}
	struct action_target tg;
	struct migrate_job j;
	action_target_read(r, 5151, &tg);
	CHECK_EQ_INT(migrate_prepare(r, &t, &tg, 2, &j), 0);
	struct fake f;
	fake_init(&f, &j);
	f.no_move_all = true;
	int rc, steps = 0;
	double last = 0;
	while ((rc = migrate_step(&j, 50)) == 1) {
		steps++;
		CHECK(migrate_progress(&j) > last);
		last = migrate_progress(&j);
		CHECK(j.scanned <= (uint64_t)steps * 50);
	}
	CHECK_EQ_INT(rc, 0);
	CHECK(migrate_progress(&j) == 1.0);
	CHECK_EQ_INT(j.scanned, 358);
	CHECK(steps >= 358 / 50);
	CHECK(f.max_batch <= 50);
	/* The oracle: heap pages present and off node 2, minus the busy one;
	 * the private file copy; shared pages refused without MOVE_ALL. */
	int heap_off = 0, heap_on = 0;
	for (int i = 0; i < 100; i++)
		if (i % 4 != 3)
			*(i % 3 == 2 ? &heap_on : &heap_off) += 1;
	CHECK_EQ_INT(j.moved, heap_off - 1 + 1);
	CHECK_EQ_INT(j.already, heap_on);
	CHECK_EQ_INT(j.failed[MIG_BUSY], 1);
	CHECK_EQ_INT(j.failed[MIG_SHARED], 256);
	CHECK_EQ_INT(migrate_not_moved(&j), 257);
	CHECK(!j.move_all);
	CHECK_EQ_INT(f.file_node[0], 2);   /* private copy moved */
	CHECK_EQ_INT(f.file_node[1], 0);   /* page cache left alone */
	CHECK_EQ_INT(f.node_of_heap[4], 1);
	CHECK_EQ_INT(f.node_of_heap[0], 2);
	CHECK_EQ_INT(f.node_of_heap[3], -1);
	CHECK_EQ_INT(f.crossed, 0);
	/* Where the walked pages were and are, as the kernel answered: the
	 * present heap pages by node, the private file copy on 0, the shared
	 * pages on 3 (refused, they stay); after, all on 2 but the busy page
	 * (on 1) and the shared ones. */
	uint64_t before[4] = { 1, 0, 0, 256 }, after[4] = { 0, 0, 0, 256 };
	for (int i = 0; i < 100; i++)
		if (i % 4 != 3) {
			before[i % 3]++;
			after[i == 4 ? 1 : 2]++;
		}
	after[2]++;   /* the file copy */
	for (int id = 0; id < 4; id++) {
		int ix = topology_node_index(&t, id);
		CHECK(ix >= 0);
		CHECK_EQ_INT(j.walk_before[ix], before[id]);
		CHECK_EQ_INT(j.walk_after[ix], after[id]);
	}
	/* A range that starts 10 pages before a 2 MiB boundary: its first batch
	 * ends there (a transparent huge page is never split over two). */
	migrate_free(&j);
	CHECK_EQ_INT(migrate_prepare(r, &t, &tg, 2, &j), 0);
	fake_init(&f, &j);
	CHECK(j.nranges == 3 && j.ranges[1].start == 0x1000000);
	j.ranges[1].start -= 10 * 4096;
	j.total_pages += 10;
	f.watch = 0x1000000 / 4096 - 10;
	while ((rc = migrate_step(&j, 4096)) == 1)
		;
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(f.watch_n, 10);
	CHECK_EQ_INT(f.crossed, 0);
	CHECK(migrate_progress(&j) == 1.0);
	/* Again with CAP_SYS_NICE: the shared pages move too. */
	migrate_free(&j);
	CHECK_EQ_INT(migrate_prepare(r, &t, &tg, 2, &j), 0);
	fake_init(&f, &j);
	while ((rc = migrate_step(&j, 4096)) == 1)
		;
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(j.failed[MIG_SHARED], 0);
	CHECK_EQ_INT(f.node_of_shared[255], 2);
	CHECK(f.max_batch <= 512);
	/* The process exits during the walk: stop, and never call again. */
	migrate_free(&j);
	CHECK_EQ_INT(migrate_prepare(r, &t, &tg, 2, &j), 0);
	fake_init(&f, &j);
	f.die_after = 3;
	int n = 0;
	while ((rc = migrate_step(&j, 20)) == 1)
		n++;
	CHECK_EQ_INT(rc, -ESRCH);
	/* Checked before every batch and after every call: the first batch
	 * (the file range's private copy) is checked, queried (check 2),
	 * moved (check 3: dead): the walk stops in its first step. */
	CHECK_EQ_INT(n, 0);
	CHECK_EQ_INT(f.alive_calls, 3);
	CHECK_EQ_INT(f.calls, 2);
	CHECK_EQ_INT(f.after_death, 0);
	CHECK(migrate_step(&j, 20) == -ESRCH);
	CHECK_EQ_INT(f.calls, 2);
	/* It exits during a call (a PID could be reused from then on): the
	 * check right after that call stops the walk, no further call. */
	migrate_free(&j);
	CHECK_EQ_INT(migrate_prepare(r, &t, &tg, 2, &j), 0);
	fake_init(&f, &j);
	f.die_in_call = 5;
	while ((rc = migrate_step(&j, 64)) == 1)
		;
	CHECK_EQ_INT(rc, -ESRCH);
	CHECK_EQ_INT(f.calls, 5);
	CHECK_EQ_INT(f.after_death, 0);
	/* The node is outside the process's cpuset: the kernel refuses the
	 * whole call with EACCES, which is said as such (not "needs root"). */
	migrate_free(&j);
	CHECK_EQ_INT(migrate_prepare(r, &t, &tg, 2, &j), 0);
	fake_init(&f, &j);
	f.cpuset_refuses = true;
	while ((rc = migrate_step(&j, 64)) == 1)
		;
	CHECK_EQ_INT(rc, -EACCES);
	char msg[256];
	migrate_strerror(rc, 2, msg, sizeof(msg));
	CHECK(strstr(msg, "node 2 is outside the process's cpuset (EACCES)") != NULL);
	action_strerror(-EPERM, msg, sizeof(msg));
	CHECK(strstr(msg, "needs root or CAP_SYS_NICE for another user's process") != NULL);
	/* Per-page ENOMEM and EBUSY are counted and said with their reasons. */
	migrate_free(&j);
	CHECK_EQ_INT(migrate_prepare(r, &t, &tg, 2, &j), 0);
	fake_init(&f, &j);
	f.nomem_page = 0x1000000 + 10 * 4096;   /* present, on N1 */
	while ((rc = migrate_step(&j, 4096)) == 1)
		;
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(j.failed[MIG_NOMEM], 1);
	CHECK_EQ_INT(j.failed[MIG_BUSY], 1);
	CHECK_EQ_INT(f.node_of_heap[10], 1);  /* stayed */
	migrate_format_not_moved(&j, msg, sizeof(msg));
	CHECK_EQ_STR(msg, "1 busy (pinned or under I/O), 1 no free memory on the target node");
	migrate_free(&j);
	topology_free(&t);
	fsroot_close(r);
}

/* ---- live: the PID-reuse guard and rebind ---- */

/* A worker that keeps starting threads that live 200 ms: threads it
 * starts before it is rebound carry the old affinity and appear after the
 * walk has listed the process once. */
static void *short_lived(void *arg)
{
	(void)arg;
	usleep(200000);
	return NULL;
}

static void *spawner(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_t th;
		if (pthread_create(&th, NULL, short_lived, NULL) == 0)
			pthread_detach(th);
		usleep(2000);
	}
	return NULL;
}

/* Four workers, each starting a thread every 2 ms: a steady population of
 * short-lived threads. */
static pid_t spawn_spawners(void)
{
	return spawn_threads(4, spawner, 300000);
}

/* A process killed during the walk loses its memory before its pidfd says
 * it exited (exit_mm long before the zombie): move_pages fails with
 * EINVAL and the pagemap reads nothing while alive() still says 0. That is
 * its exit (ESRCH), never the EINVAL text of a thread that may not move
 * or a cpuset; a real EINVAL of a process that is well stays one; an exec
 * meanwhile is said as one. */
static void exit_during_walk(void)
{
	struct fsroot *r;
	struct topology t;
	if (open_tree(&r, &t) != 0) {
		CHECK(!"tree");
		return;
	}
	struct action_target tg;
	struct migrate_job j;
	action_target_read(r, 5151, &tg);
	struct fake f;
	int rc;
	/* Killed during a move call (call 2: the first batch's move). */
	static const int at[] = { 2, 4, 7 };
	for (size_t k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		CHECK_EQ_INT(migrate_prepare(r, &t, &tg, 2, &j), 0);
		fake_init(&f, &j);
		f.mm_gone_at = at[k];
		f.recheck_says = -ESRCH;
		while ((rc = migrate_step(&j, 64)) == 1)
			;
		CHECK_EQ_INT(rc, -ESRCH);
		CHECK(f.rechecks >= 1);
		migrate_free(&j);
	}
	/* Killed between two batches: the next batch's pagemap reads
	 * nothing; the walk does not go on as if its pages were absent. */
	CHECK_EQ_INT(migrate_prepare(r, &t, &tg, 2, &j), 0);
	fake_init(&f, &j);
	CHECK_EQ_INT(migrate_step(&j, 2), 1);
	int calls = f.calls;
	f.mm_gone = true;
	f.recheck_says = -ESRCH;
	while ((rc = migrate_step(&j, 64)) == 1)
		;
	CHECK_EQ_INT(rc, -ESRCH);
	CHECK_EQ_INT(f.calls, calls);       /* no call after it */
	CHECK(j.scanned < j.total_pages);
	migrate_free(&j);
	/* It ran a new program: said as that. */
	CHECK_EQ_INT(migrate_prepare(r, &t, &tg, 2, &j), 0);
	fake_init(&f, &j);
	f.mm_gone_at = 3;
	f.recheck_says = -ACTION_EEXEC;
	while ((rc = migrate_step(&j, 64)) == 1)
		;
	CHECK_EQ_INT(rc, -ACTION_EEXEC);
	migrate_free(&j);
	/* A process that is well: the kernel's EINVAL stands. */
	CHECK_EQ_INT(migrate_prepare(r, &t, &tg, 2, &j), 0);
	fake_init(&f, &j);
	f.mm_gone_at = 2;
	f.recheck_says = 0;
	while ((rc = migrate_step(&j, 64)) == 1)
		;
	CHECK_EQ_INT(rc, -EINVAL);
	migrate_free(&j);
	topology_free(&t);
	fsroot_close(r);
}

/* A tree whose /proc/PID says what a process being killed shows, the PID
 * that of a live child (its pidfd not readable: it has not exited). */
static void put_stat(const char *rel, int pid, char state, unsigned flags, unsigned long start)
{
	char text[512];
	snprintf(text, sizeof(text), "%d (app) %c 1 %d %d 0 -1 %u 0 0 0 0 1 1 0 0 20 0 1 0 %lu "
		 "1000 10 0 4194304 4200000 140730000000000 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n",
		 pid, state, pid, pid, flags, start);
	put(rel, text);
}

/* action_target_recheck after a failed call: every thread exiting (or a
 * zombie) is an exit, at once; a main thread that exited while another
 * lives is not (after a bounded wait for the rest of the group); a new
 * start time is an exit; a process that is well is 0. */
static void recheck_exiting(void)
{
	pid_t pid = spawn_child(0);
	CHECK(pid > 0);
	char d[512], rel[128];
	snprintf(d, sizeof(d), "mkdir -p %s/proc/%d/task/%d %s/proc/%d/task/%d", tree, pid, pid,
		 tree, pid, pid + 1);
	CHECK_EQ_INT(system(d), 0);
	char self[64], task[64], other[64];
	snprintf(self, sizeof(self), "proc/%d/stat", pid);
	snprintf(task, sizeof(task), "proc/%d/task/%d/stat", pid, pid);
	snprintf(other, sizeof(other), "proc/%d/task/%d/stat", pid, pid + 1);
	put_stat(self, pid, 'S', 0, 4242);
	put_stat(task, pid, 'S', 0, 4242);
	put_stat(other, pid + 1, 'S', 0, 4242);
	struct fsroot *r;
	CHECK_EQ_INT(fsroot_open(tree, &r), 0);
	struct action_target t;
	CHECK_EQ_INT(action_target_read(r, pid, &t), 0);
	CHECK(t.image_known && t.start_stack == 140730000000000ULL);
	CHECK_EQ_INT(action_target_lock(r, &t), 0);
	CHECK_EQ_INT(action_target_recheck(r, &t), 0);
	/* Killed: every thread past PF_EXITING (0x4), or a zombie. */
	put_stat(self, pid, 'R', 0x4, 4242);
	put_stat(task, pid, 'R', 0x4, 4242);
	put_stat(other, pid + 1, 'Z', 0x4, 4242);
	double t0 = monotime_now();
	CHECK_EQ_INT(action_target_recheck(r, &t), -ESRCH);
	CHECK(monotime_now() - t0 < ACTION_EXIT_WAIT_S);   /* no wait for it */
	put_stat(self, pid, 'Z', 0x4, 4242);
	CHECK_EQ_INT(action_target_recheck(r, &t), -ESRCH);
	/* Its main thread exited, another runs on: not an exit. */
	put_stat(task, pid, 'Z', 0x4, 4242);
	put_stat(other, pid + 1, 'S', 0, 4242);
	CHECK_EQ_INT(action_target_recheck(r, &t), 0);
	/* Another process under that PID now. */
	put_stat(self, pid, 'S', 0, 4243);
	CHECK_EQ_INT(action_target_recheck(r, &t), -ESRCH);
	/* Gone from /proc. */
	snprintf(rel, sizeof(rel), "%s/%s", tree, self);
	unlink(rel);
	CHECK_EQ_INT(action_target_recheck(r, &t), -ESRCH);
	action_target_unlock(&t);
	fsroot_close(r);
	reap(pid);
}

/* A process that runs its own program again (exec of the same file: the
 * same PID, start time, comm and executable) since it was read: its
 * memory image is another (/proc/PID/stat's startcode, endcode,
 * startstack), so the lock and the check refuse it, also through a job
 * given the target as read (actjob_add_target). */
static void exec_same_program(void)
{
	struct fsroot *r;
	CHECK_EQ_INT(fsroot_open("/", &r), 0);
	int p[2];
	CHECK_EQ_INT(pipe(p), 0);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[0], 0);
		close(p[0]);
		close(p[1]);
		execl("/bin/sh", "sh", "-c", "read x; exec /bin/sh -c 'read y; :'", (char *)NULL);
		_exit(127);
	}
	close(p[0]);
	CHECK(pid > 0);
	/* Read once the first shell is in its read. */
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	struct action_target t, held;
	int rc = -1;
	for (int i = 0; i < 3000; i++) {
		int fd = open(path, O_RDONLY);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		if (fd >= 0)
			close(fd);
		if (n > 0 && memmem(buf, (size_t)n, "read x", 6) &&
		    (rc = action_target_read(r, pid, &t)) == 0 && strcmp(t.comm, "sh") == 0)
			break;
		usleep(10000);
	}
	CHECK_EQ_INT(rc, 0);
	CHECK(t.exe_known && t.image_known);
	held = t;
	CHECK_EQ_INT(action_target_lock(r, &held), 0);
	/* The exec, waited for (its new command line, without "read x"). */
	CHECK_EQ_INT(write(p[1], "go\n", 3), 3);
	bool done = false;
	for (int i = 0; i < 3000 && !done; i++) {
		int fd = open(path, O_RDONLY);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		if (fd >= 0)
			close(fd);
		done = n > 0 && !memmem(buf, (size_t)n, "read x", 6);
		if (!done)
			usleep(10000);
	}
	CHECK(done);
	struct action_target now;
	CHECK_EQ_INT(action_target_read(r, pid, &now), 0);
	CHECK_EQ_STR(now.comm, t.comm);
	CHECK(now.starttime == t.starttime);
	CHECK(now.exe_dev == t.exe_dev && now.exe_ino == t.exe_ino);
	CHECK_EQ_INT(action_target_lock(r, &t), -ACTION_EEXEC);
	CHECK_EQ_INT(action_target_check(r, &held), -ACTION_EEXEC);
	CHECK_EQ_INT(action_target_recheck(r, &held), -ACTION_EEXEC);
	action_target_unlock(&held);
	struct topology topo;
	if (topology_read(r, &topo) == 0) {
		struct actjob job;
		actjob_init(&job, r, &topo);
		job.migrate = true;
		CHECK_EQ_INT(actjob_add_target(&job, &held), 0);
		CHECK_EQ_INT(job.items[0].tg.pidfd, -1);
		actjob_lock(&job);
		CHECK_EQ_INT(job.items[0].lock_rc, -ACTION_EEXEC);
		actjob_free(&job);
		topology_free(&topo);
	} else {
		CHECK(!"topology");
	}
	kill(pid, SIGKILL);
	close(p[1]);
	reap(pid);
	fsroot_close(r);
}

/* The --hot / --cold watch on a fake clock: a sample a second, the whole
 * watch (its session's opening too) within its limit however long the
 * samples take, and not cut short by much. */
static void watch_schedule(void)
{
	static const double took[][3] = {
		/* opening, a sample, every fifth (at most twice as long) */
		{ 0.0, 0.0, 0.0 }, { 0.7, 0.3, 0.3 }, { 1.5, 0.2, 0.4 }, { 0.2, 1.2, 1.2 },
	};
	for (size_t k = 0; k < sizeof(took) / sizeof(took[0]); k++) {
		double now = 0, t0 = 0, last = -1, next;
		int n = 0;
		now += took[k][0];
		next = now;
		while (next >= 0) {
			CHECK(next >= now);
			now = next;
			CHECK(last < 0 || now - last >= 1.0 - 1e-9);
			last = now;
			double start = now;
			now += ++n % 5 ? took[k][1] : took[k][2];
			CHECK(now <= t0 + 15 + 1e-9);
			next = migrate_watch_next(t0, 15, start, now - start, now);
		}
		CHECK(now <= 15);
		CHECK(now >= 15 - 1 - 3 * took[k][2] - 1e-9);
		CHECK(n >= (int)(13 - took[k][0] - 2 * took[k][2]));
	}
}

static void pid_reuse_guard(void)
{
	struct fsroot *r;
	CHECK_EQ_INT(fsroot_open("/", &r), 0);
	pid_t pid = spawn_child(0);
	CHECK(pid > 0);
	struct action_target t;
	CHECK_EQ_INT(action_target_read(r, pid, &t), 0);
	CHECK_EQ_INT(action_target_lock(r, &t), 0);
	CHECK_EQ_INT(action_target_alive(&t), 0);
	/* Same PID, another start time: a reused PID is refused. */
	struct action_target other = t;
	other.pidfd = -1;
	other.starttime++;
	CHECK_EQ_INT(action_target_lock(r, &other), -ESRCH);
	CHECK_EQ_INT(other.pidfd, -1);
	/* Killed but not reaped: a zombie has exited, whatever signal 0 says. */
	kill(pid, SIGKILL);
	siginfo_t si;
	CHECK_EQ_INT(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT), 0);
	CHECK_EQ_INT(kill(pid, 0), 0);
	CHECK_EQ_INT(action_target_alive(&t), -ESRCH);
	reap(pid);
	CHECK_EQ_INT(action_target_alive(&t), -ESRCH);
	action_target_unlock(&t);
	CHECK_EQ_INT(action_target_lock(r, &t), -ESRCH);
	CHECK_EQ_INT(action_target_read(r, pid, &t), -ESRCH);
	char e[256];
	CHECK(strstr(action_strerror(-ESRCH, e, sizeof(e)), "process exited"));
	CHECK(strstr(action_strerror(EPERM, e, sizeof(e)), "needs root or CAP_SYS_NICE"));
	CHECK(strstr(action_refusal(true, r), "--readonly"));
	CHECK(action_refusal(false, r) == NULL);
	fsroot_close(r);
	struct fsroot *tr;
	if (fsroot_open(tree, &tr) == 0) {
		CHECK(strstr(action_refusal(false, tr), "--root"));
		fsroot_close(tr);
	}
}

/* EINVAL from a rebind is most often one thread that may not move (a
 * per-CPU kernel thread, an io_uring worker: PF_NO_SETAFFINITY) while the
 * others moved: the text names that first and does not lead with the
 * cpuset. */
static void strerror_einval(void)
{
	char e[512];
	const char *s = action_strerror(-EINVAL, e, sizeof(e));
	CHECK(s == e);
	CHECK(strstr(s, "(EINVAL)") != NULL);
	const char *thread = strstr(s, "may not move"), *cpuset = strstr(s, "cpuset");
	CHECK(thread != NULL);
	CHECK(strstr(s, "per-CPU") != NULL);
	CHECK(strstr(s, "io_uring") != NULL);
	CHECK(strstr(s, "PF_NO_SETAFFINITY") != NULL);
	/* Both causes, the thread first. */
	CHECK(cpuset != NULL);
	CHECK(thread && cpuset && thread < cpuset);
	CHECK(strstr(s, "outside what the process's cpuset allows, or") == NULL);
	/* Cut to a small buffer: terminated, no overrun. */
	char small[16];
	memset(small, 'x', sizeof(small));
	action_strerror(EINVAL, small, sizeof(small));
	CHECK(memchr(small, '\0', sizeof(small)) != NULL);
}

static int allowed_list(pid_t pid, int tid, char *out, size_t n)
{
	char path[96], line[512];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	out[0] = '\0';
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Cpus_allowed_list: %255s", out) == 1)
			break;
	fclose(f);
	(void)n;
	return 0;
}

static void rebind_live(void)
{
	struct fsroot *r;
	CHECK_EQ_INT(fsroot_open("/", &r), 0);
	pid_t pid = spawn_child(3);
	CHECK(pid > 0);
	struct action_target t;
	CHECK_EQ_INT(action_target_read(r, pid, &t), 0);
	CHECK_EQ_INT(action_target_lock(r, &t), 0);
	struct bitmap cpus;
	bitmap_init(&cpus);
	bitmap_set(&cpus, 0);
	struct rebind_result res;
	CHECK_EQ_INT(rebind_threads(r, &t, &cpus, &res), 0);
	CHECK_EQ_INT(res.nthreads, 4);
	CHECK_EQ_INT(res.changed, 4);
	int *tids = NULL;
	size_t n = 0;
	char dir[64], cl[256];
	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	CHECK_EQ_INT(fsroot_list_ids(r, dir, "", FSROOT_DIRS, &tids, &n), 0);
	CHECK_EQ_INT(n, 4);
	for (size_t i = 0; i < n; i++) {
		CHECK_EQ_INT(allowed_list(pid, tids[i], cl, sizeof(cl)), 0);
		CHECK_EQ_STR(cl, "0");
	}
	free(tids);
	/* Threads that come and go while the walk runs: when it returns, every
	 * thread there is has the new affinity (one pass would leave the
	 * threads started by a worker before it was rebound). */
	pid_t sp = spawn_spawners();
	CHECK(sp > 0);
	struct action_target st;
	CHECK_EQ_INT(action_target_read(r, sp, &st), 0);
	CHECK_EQ_INT(action_target_lock(r, &st), 0);
	int src = rebind_threads(r, &st, &cpus, &res);
	CHECK(src == 0 || src == -EAGAIN);
	snprintf(dir, sizeof(dir), "/proc/%d/task", sp);
	if (src == 0 && fsroot_list_ids(r, dir, "", FSROOT_DIRS, &tids, &n) == 0) {
		size_t wrong = 0, seen = 0;
		for (size_t i = 0; i < n; i++)
			if (allowed_list(sp, tids[i], cl, sizeof(cl)) == 0) {
				seen++;
				wrong += strcmp(cl, "0") != 0;
			}
		CHECK(seen > 5);
		CHECK_EQ_INT(wrong, 0);
		free(tids);
	}
	CHECK(res.nthreads > 5);
	action_target_unlock(&st);
	reap(sp);
	/* A CPU that does not exist: EINVAL, reported per thread. */
	bitmap_clear(&cpus);
	bitmap_set(&cpus, 4000);
	CHECK_EQ_INT(rebind_threads(r, &t, &cpus, &res), -EINVAL);
	CHECK(res.failed > 0 && res.first_error == EINVAL);
	reap(pid);
	bitmap_clear(&cpus);
	bitmap_set(&cpus, 0);
	CHECK_EQ_INT(rebind_threads(r, &t, &cpus, &res), -ESRCH);
	action_target_unlock(&t);
	bitmap_free(&cpus);
	fsroot_close(r);
}

int main(void)
{
	if (make_tree() != 0) {
		printf("FAIL test_action: cannot build the test tree\n");
		return 1;
	}
	RUN_TEST(maps_ranges);
	RUN_TEST(preview_arithmetic);
	RUN_TEST(heat_ranges);
	RUN_TEST(batching_fake_kernel);
	RUN_TEST(exit_during_walk);
	RUN_TEST(recheck_exiting);
	RUN_TEST(exec_same_program);
	RUN_TEST(watch_schedule);
	RUN_TEST(pid_reuse_guard);
	RUN_TEST(strerror_einval);
	RUN_TEST(rebind_live);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tree);
	if (system(cmd) != 0)
		printf("  (could not remove %s)\n", tree);
	return CHECK_DONE();
}
