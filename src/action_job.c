/* action_job.c - the action engine (see action_job.h): lock, plan, confirm,
 * rebind, migrate in batches, read the result; and its summary. */
#include "action_job.h"

#include "buf.h"
#include "snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The main thread's Cpus_allowed_list, for before/after of a rebind. */
static int cpus_allowed(const struct fsroot *r, int pid, char *out, size_t n)
{
	char path[64], text[8192];
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	int len = fsroot_read_small(r, path, text, sizeof(text));
	if (len < 0)
		return len;
	const char *p = strstr(text, "Cpus_allowed_list:");
	if (!p)
		return -ENOENT;
	p += strlen("Cpus_allowed_list:");
	p += strspn(p, " \t");
	snprintf(out, n, "%.*s", (int)strcspn(p, "\n"), p);
	return 0;
}

void actjob_init(struct actjob *j, const struct fsroot *r, const struct topology *t)
{
	memset(j, 0, sizeof(*j));
	j->root = r;
	j->topo = t;
	j->node = -1;
}

int actjob_add_target(struct actjob *j, const struct action_target *t)
{
	int rc = actjob_add(j, t->pid, t->starttime, t->comm);
	if (rc == 0) {
		struct action_target *tg = &j->items[j->n - 1].tg;
		*tg = *t;
		tg->pidfd = -1;
	}
	return rc;
}

int actjob_add(struct actjob *j, int pid, uint64_t starttime, const char *comm)
{
	struct actjob_item *v = buf_grow_array(j->items, &j->cap, j->n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	j->items = v;
	size_t nn = j->topo->nnodes ? j->topo->nnodes : 1;
	struct actjob_item *it = &j->items[j->n];
	memset(it, 0, sizeof(*it));
	it->tg = (struct action_target){ .pid = pid, .starttime = starttime, .pidfd = -1 };
	snprintf(it->tg.comm, sizeof(it->tg.comm), "%s", comm ? comm : "");
	snprintf(it->cpus_before, sizeof(it->cpus_before), "?");
	snprintf(it->cpus_after, sizeof(it->cpus_after), "?");
	it->job.pagemap_fd = -1;
	it->before = calloc(nn, sizeof(int64_t));
	it->after = calloc(nn, sizeof(int64_t));
	if (!it->before || !it->after) {
		free(it->before);
		free(it->after);
		return -ENOMEM;
	}
	j->n++;
	return 0;
}

void actjob_free(struct actjob *j)
{
	for (size_t i = 0; i < j->n; i++) {
		action_target_unlock(&j->items[i].tg);
		migrate_free(&j->items[i].job);
		free(j->items[i].before);
		free(j->items[i].after);
		free(j->items[i].only);
	}
	free(j->items);
	memset(j, 0, sizeof(*j));
}

int actjob_set_only(struct actjob *j, size_t i, const struct migrate_range *r, size_t n)
{
	struct actjob_item *it = &j->items[i];
	if (!r) {
		free(it->only);
		it->only = NULL;
		it->nonly = 0;
		return 0;
	}
	struct migrate_range *v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (n)
		memcpy(v, r, n * sizeof(*v));
	free(it->only);
	it->only = v;
	it->nonly = n;
	return 0;
}

bool actjob_node_ok(const struct actjob *j, int node)
{
	if (node < 0 || (size_t)node >= j->topo->nnodes)
		return false;
	const struct topo_node *nd = &j->topo->nodes[node];
	if (j->migrate && !nd->has_memory)
		return false;
	if (j->rebind && bitmap_empty(&nd->cpus))
		return false;
	return true;
}

int actjob_default_node(const struct actjob *j, const struct snap_proc *p)
{
	int start = p->home;
	if (!j->migrate && p->nm == NMS_OK && p->total_kb > 0)
		for (int i = 0; i < (int)j->topo->nnodes; i++)
			if (start < 0 || p->node_kb[i] > p->node_kb[start])
				start = i;
	if (actjob_node_ok(j, start))
		return start;
	for (int i = 0; i < (int)j->topo->nnodes; i++)
		if (actjob_node_ok(j, i))
			return i;
	return -1;
}

/* One item's plan (migrate) or placement and policy (rebind only), read
 * while its pidfd is held: the target is locked (start time checked)
 * first, and still alive after the read, so what is shown and done is
 * the confirmed process's and no other's. */
static int plan_item(struct actjob *j, struct actjob_item *it)
{
	migrate_free(&it->job);
	int rc = it->tg.pidfd >= 0 ? action_target_alive(&it->tg)
				   : action_target_lock(j->root, &it->tg);
	if (rc == 0 && it->tg.kthread)
		rc = -ACTION_EKTHREAD;
	if (rc)
		return rc;
	if (!j->migrate)
		return migrate_read_target_placement(j->root, j->topo, &it->tg, it->before,
						     it->policy, sizeof(it->policy));
	rc = migrate_prepare(j->root, j->topo, &it->tg, j->topo->nodes[j->node].id, &it->job);
	if (rc == 0 && it->only)
		rc = migrate_restrict(&it->job, it->only, it->nonly);
	if (rc)
		return rc;
	memcpy(it->before, it->job.pv.node_kb, j->topo->nnodes * sizeof(int64_t));
	snprintf(it->policy, sizeof(it->policy), "%s", it->job.pv.policy);
	/* An exiting process's numa_maps reads empty: a plan of nothing. */
	return action_target_recheck(j->root, &it->tg);
}

void actjob_prepare(struct actjob *j, int node)
{
	j->node = node;
	j->total_pages = 0;
	for (size_t i = 0; i < j->n; i++) {
		struct actjob_item *it = &j->items[i];
		it->planned = true;
		it->prep_rc = plan_item(j, it);
		if (it->prep_rc == 0 && j->migrate)
			j->total_pages += it->job.total_pages;
	}
}

/* The placement afterwards (a migrate's), read while each target is
 * still locked; then the targets are let go. */
static void finish(struct actjob *j)
{
	for (size_t i = 0; i < j->n; i++) {
		struct actjob_item *it = &j->items[i];
		it->after_rc = it->prep_rc || it->lock_rc ? -ESRCH : !j->migrate ? 0 :
			       migrate_read_target_placement(j->root, j->topo, &it->tg, it->after, NULL, 0);
		if (it->after_rc || !j->migrate)
			for (size_t k = 0; k < j->topo->nnodes; k++)
				it->after[k] = -1;
		action_target_unlock(&it->tg);
	}
	j->running = false;
	j->done = true;
}

void actjob_lock(struct actjob *j)
{
	for (size_t i = 0; i < j->n; i++)
		if (j->items[i].tg.pidfd < 0 && !j->items[i].lock_rc) {
			struct action_target *tg = &j->items[i].tg;
			int rc = action_target_lock(j->root, tg);
			j->items[i].lock_rc = rc == 0 && tg->kthread ? -ACTION_EKTHREAD : rc;
		}
}

void actjob_start(struct actjob *j, int node)
{
	j->node = node;
	j->total_pages = 0;
	const struct topo_node *nd = &j->topo->nodes[node];
	for (size_t i = 0; i < j->n; i++) {
		struct actjob_item *it = &j->items[i];
		if (it->prep_rc || it->lock_rc)
			continue;
		/* The preview was of this process, running this program: an
		 * exec since then is refused, as a PID reuse is. */
		it->lock_rc = it->tg.pidfd >= 0 ? action_target_check(j->root, &it->tg)
						: action_target_lock(j->root, &it->tg);
		if (it->lock_rc == 0 && it->tg.kthread)
			it->lock_rc = -ACTION_EKTHREAD;
		if (it->lock_rc == 0 && j->rebind) {
			cpus_allowed(j->root, it->tg.pid, it->cpus_before, sizeof(it->cpus_before));
			it->rb_rc = rebind_threads(j->root, &it->tg, &nd->cpus, &it->rb);
			cpus_allowed(j->root, it->tg.pid, it->cpus_after, sizeof(it->cpus_after));
		}
		/* A failed rebind stops that item's migrate. */
		if (it->lock_rc == 0 && j->migrate && it->rb_rc == 0) {
			it->lock_rc = plan_item(j, it);
			if (it->lock_rc == 0)
				j->total_pages += it->job.total_pages;
		} else if (it->lock_rc == 0 && !j->migrate && !it->planned) {
			plan_item(j, it);   /* the policy, for the note */
		}
	}
	j->cur = 0;
	j->running = true;
	if (!j->migrate)
		finish(j);
}

int actjob_step(struct actjob *j, size_t max_pages)
{
	while (j->running) {
		if (j->cur >= j->n || j->cancelled) {
			finish(j);
			return 0;
		}
		struct actjob_item *it = &j->items[j->cur];
		if (it->prep_rc || it->lock_rc || it->rb_rc) {
			j->cur++;
			continue;
		}
		int rc = migrate_step(&it->job, max_pages);
		if (rc > 0)
			return 1;
		it->mig_rc = rc;
		j->cur++;
	}
	return 0;
}

void actjob_cancel(struct actjob *j)
{
	j->cancelled = true;
}
