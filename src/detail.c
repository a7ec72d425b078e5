/* detail.c - per-mapping placement of one process. */
#include "detail.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "parse.h"

void detail_free(struct proc_detail *d)
{
	free(d->maps);
	free(d->kb_pool);
	free(d->threads);
	memset(d, 0, sizeof(*d));
}

static void read_threads(const struct fsroot *r, struct proc_detail *d, struct buf *b)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/task", d->pid);
	int *tids = NULL;
	size_t n = 0;
	if (fsroot_list_ids(r, dir, "", FSROOT_DIRS, &tids, &n) != 0 || n == 0) {
		free(tids);
		char path[64];
		struct pid_stat st;
		snprintf(path, sizeof(path), "/proc/%d/stat", d->pid);
		if (fsroot_read_file(r, path, b, 1 << 16) == 0 &&
		    parse_pid_stat(b->data, b->len, &st) == 0 &&
		    (d->threads = malloc(sizeof(*d->threads))) != NULL) {
			d->threads[0] = (struct proc_thread){
				.tid = d->pid, .last_cpu = st.processor,
				.ticks = proc_ticks(st.utime, st.stime), .run_ns = -1, .ran = -1,
			};
			d->nthreads = 1;
		}
		return;
	}
	d->threads = calloc(n, sizeof(*d->threads));
	for (size_t i = 0; d->threads && i < n; i++) {
		char path[96];
		struct pid_stat st;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", d->pid, tids[i]);
		if (fsroot_read_file(r, path, b, 1 << 16) != 0 ||
		    parse_pid_stat(b->data, b->len, &st) != 0)
			continue;
		d->threads[d->nthreads++] = (struct proc_thread){
			.tid = tids[i], .last_cpu = st.processor,
			.ticks = proc_ticks(st.utime, st.stime), .run_ns = -1, .ran = -1,
		};
	}
	free(tids);
}

/* The mappings kept: the DETAIL_MAX_MAPS largest, in a min-heap on
 * total_kb while reading (the smallest kept is at the root). */
struct detail_reader {
	const struct topology *t;
	struct proc_detail *d;
	struct nm_mapping m;
	int64_t base_kb, huge_kb;
	size_t nn;
	int64_t *row;             /* scratch: one mapping's kB per node */
};

static void heap_swap(struct proc_detail *d, size_t a, size_t b)
{
	struct detail_mapping t = d->maps[a];
	d->maps[a] = d->maps[b];
	d->maps[b] = t;
}

static void heap_down(struct proc_detail *d, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < d->nmaps && d->maps[l].total_kb < d->maps[m].total_kb)
			m = l;
		if (r < d->nmaps && d->maps[r].total_kb < d->maps[m].total_kb)
			m = r;
		if (m == i)
			return;
		heap_swap(d, i, m);
		i = m;
	}
}

static void heap_up(struct proc_detail *d, size_t i)
{
	while (i > 0 && d->maps[(i - 1) / 2].total_kb > d->maps[i].total_kb) {
		heap_swap(d, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void keep_mapping(struct detail_reader *rd)
{
	struct proc_detail *d = rd->d;
	const struct nm_mapping *m = &rd->m;
	memset(rd->row, 0, rd->nn * sizeof(int64_t));
	int64_t total = 0;
	int64_t pkb = nm_mapping_page_kb(m, rd->base_kb, rd->huge_kb);
	for (size_t k = 0; k < m->nnodes && pkb > 0; k++) {
		int idx = topology_node_index(rd->t, m->nodes[k].node);
		int64_t kb = (int64_t)m->nodes[k].pages * pkb;
		if (idx >= 0)
			rd->row[idx] += kb;
		total += kb;
	}
	d->nmaps_total++;
	size_t slot;
	if (d->nmaps < DETAIL_MAX_MAPS) {
		slot = d->nmaps++;
	} else if (total > d->maps[0].total_kb) {
		d->rest_kb += d->maps[0].total_kb;
		slot = 0;
	} else {
		d->rest_kb += total;
		return;
	}
	struct detail_mapping *dm = &d->maps[slot];
	int64_t *kb = dm->node_kb;
	memset(dm, 0, sizeof(*dm));
	dm->node_kb = kb;
	memcpy(dm->node_kb, rd->row, rd->nn * sizeof(int64_t));
	dm->total_kb = total;
	dm->start = m->start;
	dm->huge = m->huge;
	snprintf(dm->policy, sizeof(dm->policy), "%.79s", m->policy);
	const char *what = m->kind == NM_KIND_FILE ? m->file :
			   m->kind == NM_KIND_HEAP ? "[heap]" :
			   m->kind == NM_KIND_STACK ? "[stack]" : "[anon]";
	snprintf(dm->what, sizeof(dm->what), "%.95s", what);
	if (slot == 0 && d->nmaps == DETAIL_MAX_MAPS)
		heap_down(d, 0);
	else
		heap_up(d, slot);
}

static int feed_lines(void *ctx, const char *data, size_t len, size_t *used)
{
	struct detail_reader *rd = ctx;
	const char *p = data, *end = data + len;
	for (;;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;
		if (nl > p) {
			if (numa_maps_parse_line(p, (size_t)(nl - p), &rd->m) == 0)
				keep_mapping(rd);
			else
				rd->d->nbad++;
		}
		p = nl + 1;
	}
	*used = (size_t)(p - data);
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const struct detail_mapping *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int read_mappings(const struct fsroot *r, const struct topology *t, int pid,
			 struct proc_detail *d, struct buf *b)
{
	struct detail_reader rd = { .t = t, .d = d, .nn = t->nnodes ? t->nnodes : 1 };
	d->maps = calloc(DETAIL_MAX_MAPS, sizeof(*d->maps));
	d->kb_pool = calloc(DETAIL_MAX_MAPS * rd.nn, sizeof(int64_t));
	rd.row = calloc(rd.nn, sizeof(int64_t));
	if (!d->maps || !d->kb_pool || !rd.row) {
		free(rd.row);
		return -ENOMEM;
	}
	for (size_t i = 0; i < DETAIL_MAX_MAPS; i++)
		d->maps[i].node_kb = d->kb_pool + i * rd.nn;
	struct nm_params np;
	topology_nm_params(t, &np);
	rd.base_kb = np.base_page_kb;
	rd.huge_kb = np.default_huge_kb;
	nm_mapping_init(&rd.m);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", pid);
	size_t total = 0;
	int rc = fsroot_read_chunks(r, path, b, feed_lines, &rd, &total);
	if (rc == 0 && b->len > 0)
		d->nbad++;       /* a cut last line */
	nm_mapping_free(&rd.m);
	free(rd.row);
	qsort(d->maps, d->nmaps, sizeof(*d->maps), by_start);
	return rc;
}

/* pid's start time and state now: 0, or -ESRCH when it exited (zombie)
 * or the PID belongs to another process than the one that started at
 * starttime (0: any). */
static int same_process(const struct fsroot *r, int pid, uint64_t starttime, struct buf *b,
			char *comm, size_t commsz)
{
	char path[64];
	struct pid_stat st;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	int rc = fsroot_read_file(r, path, b, 1 << 16);
	if (rc)
		return rc == -ENOENT ? -ESRCH : rc;
	if (parse_pid_stat(b->data, b->len, &st) != 0)
		return -EINVAL;
	if (st.state == 'Z' || st.state == 'X' || (starttime && st.starttime != starttime))
		return -ESRCH;
	if (comm)
		snprintf(comm, commsz, "%s", st.comm);
	return 0;
}

int detail_read(const struct fsroot *r, const struct topology *t, int pid,
		uint64_t starttime, struct proc_detail *out)
{
	struct proc_detail nd, *d = &nd;
	memset(d, 0, sizeof(*d));
	d->pid = pid;
	d->starttime = starttime;
	struct buf b = { 0 };
	int rc = same_process(r, pid, starttime, &b, d->comm, sizeof(d->comm));
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (rc == 0 && (rc = fsroot_read_file(r, path, &b, 1 << 16)) == -ENOENT)
		rc = -ESRCH;
	if (rc) {
		buf_free(&b);
		return rc;
	}
	struct pid_status ps;
	if (parse_pid_status(b.data, b.len, &ps) == 0) {
		snprintf(d->cpus_allowed, sizeof(d->cpus_allowed), "%s", ps.cpus_allowed_list);
		snprintf(d->mems_allowed, sizeof(d->mems_allowed), "%s", ps.mems_allowed_list);
	}
	read_threads(r, d, &b);
	d->nm_rc = read_mappings(r, t, pid, d, &b);
	/* Read from the same process start to end: not from one whose PID
	 * was reused while reading. */
	rc = d->nm_rc == -ENOMEM ? -ENOMEM : same_process(r, pid, starttime, &b, NULL, 0);
	buf_free(&b);
	if (rc) {
		detail_free(d);
		return rc;
	}
	detail_free(out);
	*out = nd;
	return 0;
}
