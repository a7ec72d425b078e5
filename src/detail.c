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
			d->threads[0] = (struct proc_thread){ d->pid, st.processor };
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
		d->threads[d->nthreads++] = (struct proc_thread){ tids[i], st.processor };
	}
	free(tids);
}

int detail_read(const struct fsroot *r, const struct topology *t, int pid,
		struct proc_detail *d)
{
	detail_free(d);
	d->pid = pid;
	struct buf b = { 0 };
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	int rc = fsroot_read_file(r, path, &b, 1 << 16);
	if (rc) {
		buf_free(&b);
		return rc == -ENOENT ? -ESRCH : rc;
	}
	struct pid_status ps;
	if (parse_pid_status(b.data, b.len, &ps) == 0) {
		snprintf(d->cpus_allowed, sizeof(d->cpus_allowed), "%s", ps.cpus_allowed_list);
		snprintf(d->mems_allowed, sizeof(d->mems_allowed), "%s", ps.mems_allowed_list);
	}
	read_threads(r, d, &b);
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", pid);
	d->nm_rc = fsroot_read_file(r, path, &b, 0);
	if (d->nm_rc == 0) {
		size_t lines = 0;
		for (size_t i = 0; i < b.len; i++)
			lines += b.data[i] == '\n';
		lines++;
		size_t n = t->nnodes ? t->nnodes : 1;
		d->maps = calloc(lines, sizeof(*d->maps));
		d->kb_pool = calloc(lines * n, sizeof(int64_t));
		if (!d->maps || !d->kb_pool) {
			buf_free(&b);
			detail_free(d);
			return -ENOMEM;
		}
		struct nm_params np;
		topology_nm_params(t, &np);
		int64_t huge_kb = np.default_huge_kb, base_kb = np.base_page_kb;
		struct nm_mapping m;
		nm_mapping_init(&m);
		const char *p = b.data, *end = b.data + b.len;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *le = nl ? nl : end;
			if (le > p && nl && numa_maps_parse_line(p, (size_t)(le - p), &m) == 0) {
				struct detail_mapping *dm = &d->maps[d->nmaps];
				dm->node_kb = d->kb_pool + d->nmaps * n;
				dm->start = m.start;
				dm->huge = m.huge;
				snprintf(dm->policy, sizeof(dm->policy), "%.79s", m.policy);
				const char *what = m.kind == NM_KIND_FILE ? m.file :
						   m.kind == NM_KIND_HEAP ? "[heap]" :
						   m.kind == NM_KIND_STACK ? "[stack]" : "[anon]";
				snprintf(dm->what, sizeof(dm->what), "%.95s", what);
				int64_t pkb = nm_mapping_page_kb(&m, base_kb, huge_kb);
				for (size_t k = 0; k < m.nnodes && pkb > 0; k++) {
					int idx = topology_node_index(t, m.nodes[k].node);
					int64_t kb = (int64_t)m.nodes[k].pages * pkb;
					if (idx >= 0)
						dm->node_kb[idx] += kb;
					dm->total_kb += kb;
				}
				d->nmaps++;
			}
			p = nl ? nl + 1 : end;
		}
		nm_mapping_free(&m);
	}
	buf_free(&b);
	return 0;
}
