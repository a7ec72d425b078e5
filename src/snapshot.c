/* snapshot.c - the snapshot model's lifetime and sorting. */
#include "snapshot.h"

#include "columns.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const nm_state_names[] = {
	"not_read", "ok", "no_perm", "gone", "error",
};

void snapshot_free(struct snapshot *s)
{
	if (s->topo)
		nodestat_free(s->nodes, s->topo->nnodes);
	else
		free(s->nodes);
	free(s->node_load);
	free(s->ns_rate);
	free(s->procs);
	free(s->kb_pool);
	proc_list_free(&s->plist);
	memset(s, 0, sizeof(*s));
}

const char *snapshot_nm_mark(const struct snap_proc *p)
{
	switch (p->nm) {
	case NMS_NO_PERM: return "no perm";
	case NMS_GONE: return "gone";
	case NMS_ERROR: return "error";
	default: return "-";
	}
}

static int cmp_proc(const void *va, const void *vb, void *ctx)
{
	return col_compare(va, vb, ctx);
}

void snapshot_sort(struct snapshot *s, const struct sort_key *key)
{
	/* glibc's qsort_r (_GNU_SOURCE): the key goes with the call, no
	 * file-static state. */
	if (s->nprocs < 2)
		return;
	qsort_r(s->procs, s->nprocs, sizeof(*s->procs), cmp_proc, (void *)key);
}

int snapshot_proc_warning(const struct snapshot *s, char *out, size_t n)
{
	if (!s->plist.nbad)
		return 0;
	snprintf(out, n, "%zu process%s skipped: /proc/%d/stat unparsable%s", s->plist.nbad,
		 s->plist.nbad == 1 ? "" : "es", s->plist.first_bad,
		 s->plist.nbad > 1 ? " (and others)" : "");
	return 1;
}
