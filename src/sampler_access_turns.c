/* sampler_access_turns.c - whose heat is kept and whose turn it is: the
 * entries of the processes watched (each one's last heat, kept
 * ACCESS_KEEP_S after its turn), the choice of the processes to watch
 * (the selected and tagged, those whose turn of ACCESS_TURN_S goes on,
 * then the most remote watched longest ago) and their slots among the
 * kdamond's targets. */
#include <stdlib.h>
#include <string.h>

#include "access_pick.h"
#include "buf.h"
#include "sampler_access_int.h"
#include "tiers.h"

void acc_entry_free(struct acc_entry *e)
{
	free(e->kb);
	free(e->reg_kb);
}

struct acc_entry *acc_entry_find(struct access_state *a, int pid, uint64_t st)
{
	for (size_t i = 0; i < a->ne; i++)
		if (a->e[i].pid == pid && a->e[i].starttime == st)
			return &a->e[i];
	return NULL;
}

struct acc_entry *acc_entry_get(struct access_state *a, size_t nn, int pid, uint64_t st)
{
	struct acc_entry *e = acc_entry_find(a, pid, st);
	if (e)
		return e;
	if (a->ne == a->ecap) {
		size_t cap = a->ecap ? a->ecap * 2 : 32;
		struct acc_entry *v = realloc(a->e, cap * sizeof(*v));
		if (!v)
			return NULL;
		a->e = v;
		a->ecap = cap;
	}
	e = &a->e[a->ne];
	memset(e, 0, sizeof(*e));
	e->kb = calloc(3 * (nn ? nn : 1), sizeof(*e->kb));
	e->reg_kb = calloc(ACCESS_MAX_REGIONS * (nn ? nn : 1), sizeof(*e->reg_kb));
	if (!e->kb || !e->reg_kb) {
		acc_entry_free(e);
		return NULL;
	}
	e->pid = pid;
	e->starttime = st;
	e->turn_start = e->last_on = -1;
	a->ne++;
	return e;
}

/* Index of pid in snap (sorted by PID during the tick), or -1. */
long acc_find_proc(const struct snapshot *snap, int pid)
{
	size_t lo = 0, hi = snap->nprocs;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int p = snap->procs[mid].info.pid;
		if (p == pid)
			return (long)mid;
		if (p < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Drop what is too old or belongs to a process that is gone. */
void acc_entries_expire(struct access_state *a, const struct snapshot *snap, double now)
{
	size_t k = 0;
	for (size_t i = 0; i < a->ne; i++) {
		struct acc_entry *e = &a->e[i];
		long j = acc_find_proc(snap, e->pid);
		bool alive = j >= 0 && snap->procs[j].info.starttime == e->starttime;
		bool keep = alive && (e->turn_start >= 0 || (e->last_on >= 0 && now - e->last_on <= ACCESS_KEEP_S));
		if (keep)
			a->e[k++] = *e;
		else
			acc_entry_free(e);
	}
	a->ne = k;
}

/* May process p be watched: a user process with memory. */
static bool watchable(const struct snap_proc *p)
{
	return !p->info.kthread && p->info.pid > 0 && p->total_kb > 0;
}

bool acc_in_set(const int *v, size_t n, int pid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == pid)
			return true;
	return false;
}

/* p's kB on the fastest memory tier when the sample has several, else 0
 * (access_pick.h: worth watching for its cold part). */
static int64_t fast_kb(const struct snapshot *snap, const struct snap_proc *p)
{
	const struct tier_model *m = &snap->nk.tiers;
	if (!tiers_multi(m) || !p->node_kb || p->total_kb <= 0)
		return 0;
	int64_t kb = 0;
	for (size_t i = 0; i < m->nnodes && i < snap->topo->nnodes; i++)
		if (tiers_node_order(m, i) == 0 && p->node_kb[i] > 0)
			kb += p->node_kb[i];
	return kb;
}

/* The processes to watch: the selected and tagged, then whose turn it is
 * (access_pick.h): those whose turn goes on, then the remote and, with
 * tiers, the fast-tier ones, watched longest ago first. */
size_t acc_choose(struct sampler *s, const struct snapshot *snap, double now, int *out)
{
	struct access_state *a = s->access;
	size_t n = 0;
	for (size_t i = 0; i < s->nprio && n < ACCESS_MAX_TARGETS; i++) {
		long j = acc_find_proc(snap, s->prio[i]);
		if (j >= 0 && watchable(&snap->procs[j]) && !acc_in_set(out, n, s->prio[i]))
			out[n++] = s->prio[i];
	}
	struct access_cand *c = buf_grow_array(a->cand, &a->cand_cap, snap->nprocs ? snap->nprocs : 1,
					       sizeof(*c));
	if (!c)
		return n;
	a->cand = c;
	size_t nc = 0;
	for (size_t j = 0; j < snap->nprocs; j++) {
		const struct snap_proc *p = &snap->procs[j];
		if (!watchable(p))
			continue;
		struct access_cand *k = &c[nc];
		k->pid = p->info.pid;
		k->remote_kb = p->remote_kb;
		k->fast_kb = fast_kb(snap, p);
		if (!access_pick_worth(k))
			continue;
		const struct acc_entry *e = acc_entry_find(a, p->info.pid, p->info.starttime);
		k->last_on = e ? e->last_on : -1;
		k->turn_start = e ? e->turn_start : -1;
		nc++;
	}
	return access_pick(c, nc, now, ACCESS_TURN_S, out, n, ACCESS_MAX_TARGETS);
}

/* The kdamond's targets for the wanted set: a process kept stays in its
 * slot (the kernel commits targets by position and keeps a slot's
 * regions, and their ages, when its pid changes), a new one takes a free
 * slot; a slot whose pid changed is dated, so that ages from before are
 * not taken for the new process's. Returns the count in order[]. */
size_t acc_arrange(struct access_state *a, const int *want, size_t n, int *order,
		      double *since, double now)
{
	size_t k = 0;
	bool used[ACCESS_MAX_TARGETS] = { false };
	for (size_t i = 0; i < a->npids; i++) {
		order[k] = -1;
		for (size_t j = 0; j < n; j++)
			if (want[j] == a->pids[i]) {
				order[k] = want[j];
				used[j] = true;
			}
		since[k] = a->slot_since[i];
		k++;
	}
	/* New processes into the free slots, then after them. */
	for (size_t j = 0; j < n; j++) {
		if (used[j])
			continue;
		size_t at = k;
		for (size_t i = 0; i < k; i++)
			if (order[i] < 0) {
				at = i;
				break;
			}
		if (at == k)
			k++;
		order[at] = want[j];
		since[at] = now;
	}
	/* Holes left: the last slot moves in (it changes position). */
	for (size_t i = 0; i < k;) {
		if (order[i] >= 0) {
			i++;
			continue;
		}
		order[i] = order[k - 1];
		since[i] = now;
		k--;
	}
	return k;
}

