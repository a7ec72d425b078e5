/* ui_tags.c - tagged processes. A tag names one process, PID and start
 * time: a reused PID is not tagged, and a tag is dropped when its process
 * exits (gone from the snapshot, or a zombie). */
#include <stdlib.h>

#include "ui_int.h"

static bool tag_matches(const struct ui_tag *t, const struct snap_proc *p)
{
	return t->pid == p->info.pid && t->starttime == p->info.starttime;
}

bool ui_is_tagged(const struct ui *u, const struct snap_proc *p)
{
	for (size_t i = 0; i < u->ntagged; i++)
		if (tag_matches(&u->tagged[i], p))
			return true;
	return false;
}

void ui_prune_tags(struct ui *u)
{
	size_t k = 0;
	for (size_t i = 0; i < u->ntagged; i++) {
		const struct ui_tag *t = &u->tagged[i];
		for (size_t j = 0; j < u->snap.nprocs; j++) {
			const struct snap_proc *p = &u->snap.procs[j];
			if (tag_matches(t, p)) {
				if (p->info.state != 'Z')
					u->tagged[k++] = *t;
				break;
			}
		}
	}
	u->ntagged = k;
}

static bool add_tag(struct ui *u, const struct snap_proc *p)
{
	struct ui_tag *t = realloc(u->tagged, (u->ntagged + 1) * sizeof(*t));
	if (!t)
		return false;
	u->tagged = t;
	u->tagged[u->ntagged++] = (struct ui_tag){ p->info.pid, p->info.starttime };
	return true;
}

void ui_toggle_tag(struct ui *u, const struct snap_proc *p)
{
	for (size_t i = 0; i < u->ntagged; i++)
		if (tag_matches(&u->tagged[i], p)) {
			u->tagged[i] = u->tagged[--u->ntagged];
			return;
		}
	add_tag(u, p);
}

void ui_tag_tree(struct ui *u, const struct snap_proc *root)
{
	size_t n = u->snap.nprocs, nlist = 0;
	size_t *list = malloc((n ? n : 1) * sizeof(*list));
	bool *seen = calloc(n ? n : 1, sizeof(*seen));
	if (!list || !seen)
		goto out;
	size_t ri = (size_t)(root - u->snap.procs);
	if (ri >= n)
		goto out;
	list[nlist++] = ri;
	seen[ri] = true;
	/* Breadth first, each process once (a ppid cycle in a recorded tree
	 * ends). A child started after its parent: a PID reused by an older
	 * process is not a child. */
	for (size_t k = 0; k < nlist; k++) {
		const struct proc_info *pa = &u->snap.procs[list[k]].info;
		for (size_t r = 0; r < n; r++) {       /* in display order */
			size_t i = snapshot_row_index(&u->snap, r);
			const struct proc_info *c = &u->snap.procs[i].info;
			if (!seen[i] && c->ppid == pa->pid && c->starttime >= pa->starttime) {
				seen[i] = true;
				list[nlist++] = i;
			}
		}
	}
	for (size_t k = 0; k < nlist; k++)
		if (!ui_is_tagged(u, &u->snap.procs[list[k]]) && !add_tag(u, &u->snap.procs[list[k]]))
			break;
out:
	free(list);
	free(seen);
}

void ui_clear_tags(struct ui *u)
{
	u->ntagged = 0;
}
