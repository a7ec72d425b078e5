/* sampler_kernel.c - the kernel's own NUMA view in each sample: NUMA
 * balancing's mode and counters (/proc/vmstat, nodeN/vmstat) as rates,
 * the memory tiers, and per process /proc/PID/sched (its threads' task
 * files) on a budget: the selected and tagged processes and the top
 * SCHED_TOP by REMOTE each sample (while balancing is not known to be
 * off), at most SCHED_MAX_FILES files; the others keep their last
 * numbers with their age. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "sampler_int.h"
#include "tiers.h"

#define SCHED_TOP 16            /* processes by REMOTE a sample */
#define SCHED_MAX_THREADS 64    /* task files read per process */
#define SCHED_MAX_FILES 256     /* task files read per sample */
#define TIERS_EVERY_S 10.0

struct sched_entry {
	int pid;
	uint64_t starttime;
	unsigned seen;
	double read_at, prev_at;     /* -1 never */
	int64_t pages, prev_pages;
	double racc;
};

_Static_assert(offsetof(struct sched_entry, pid) == 0, "proc_slot_pid needs pid first");

struct kernel_state {
	struct numa_vmstat prev_sys, *prev_node;
	double prev_at;              /* -1: no previous */
	double tiers_at;
	int *tier;                   /* [nnodes] */
	struct tier_model model;
	struct sched_entry *v;       /* sorted by pid */
	size_t n, cap;
	int64_t *faults;             /* by node id */
	size_t nfaults;
	uint32_t *order;
	size_t ordercap;
};

void sampler_kernel_free(struct sampler *s)
{
	struct kernel_state *k = s->kernel;
	if (!k)
		return;
	free(k->prev_node);
	free(k->tier);
	tiers_free(&k->model);
	free(k->v);
	free(k->faults);
	free(k->order);
	free(k);
	s->kernel = NULL;
}

static void rates(const struct numa_vmstat *now, const struct numa_vmstat *prev, double dt,
		  double *out)
{
	for (int i = 0; i < NVM_NKEYS; i++)
		out[i] = dt > 0 && now->v[i] >= 0 && prev->v[i] >= 0 && now->v[i] >= prev->v[i] ?
			 (double)(now->v[i] - prev->v[i]) / dt : -1;
}

/* The tier model (tiers.c): which tier each node is in, its order and
 * HMAT figures, the kernel's tiering knobs. */
static void read_tiers(struct sampler *s, struct kernel_state *k)
{
	const struct topology *t = s->topo;
	tiers_free(&k->model);
	if (tiers_read(s->root, t, &k->model) != 0)
		tiers_free(&k->model);
	for (size_t i = 0; i < t->nnodes; i++)
		k->tier[i] = i < k->model.nnodes ? k->model.node[i].tier : -1;
}

static struct sched_entry *entry(struct kernel_state *k, int pid, bool add)
{
	if (!add)
		return (struct sched_entry *)proc_find_pid(k->v, k->n, sizeof(*k->v), pid);
	bool added;
	void *base = k->v;
	struct sched_entry *e = proc_slot_pid(&base, &k->n, &k->cap, sizeof(*e), pid, &added);
	k->v = base;
	if (e && added)
		*e = (struct sched_entry){ .pid = pid, .read_at = -1, .prev_at = -1,
					   .pages = -1, .prev_pages = -1, .racc = -1 };
	return e;
}

/* One process's threads: pages migrated (summed) and the share of NUMA
 * faults on memory of another node than each faulting thread's. */
static int read_sched(struct sampler *s, struct kernel_state *k, const struct snapshot *snap,
		      const struct snap_proc *sp, struct sched_entry *e, size_t *files)
{
	size_t nt = sp->info.thr_n ? sp->info.thr_n : 1;
	if (nt > SCHED_MAX_THREADS)
		nt = SCHED_MAX_THREADS;
	if (*files + nt > SCHED_MAX_FILES)
		return -EAGAIN;
	*files += nt;
	int64_t pages = 0, all = 0, remote = 0;
	size_t ok = 0;
	for (size_t t = 0; t < nt; t++) {
		char path[96];
		if (sp->info.thr_n)
			snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", sp->info.pid,
				 snap_threads(snap, sp)[t].tid);
		else
			snprintf(path, sizeof(path), "/proc/%d/sched", sp->info.pid);
		struct pid_sched ps;
		if (fsroot_read_file(s->root, path, &s->scratch, 1 << 16) != 0 ||
		    parse_pid_sched(s->scratch.data, s->scratch.len, &ps, k->faults, k->nfaults) != 0)
			continue;
		ok++;
		if (ps.pages_migrated > 0)
			pages += ps.pages_migrated;
		for (size_t id = 0; id < k->nfaults; id++) {
			if (k->faults[id] <= 0)
				continue;
			all += k->faults[id];
			if ((int64_t)id != ps.current_node)
				remote += k->faults[id];
		}
	}
	if (!ok)
		return -ENODATA;
	if (e->read_at >= 0 && e->starttime == sp->info.starttime) {
		e->prev_at = e->read_at;
		e->prev_pages = e->pages;
	} else {
		e->prev_at = -1;
		e->prev_pages = -1;
	}
	e->starttime = sp->info.starttime;
	e->read_at = s->tick_now;
	e->pages = pages;
	e->racc = all > 0 ? 100.0 * (double)remote / (double)all : -1;
	return 0;
}

static int by_remote(const void *a, const void *b, void *ctx)
{
	const struct snapshot *snap = ctx;
	int64_t x = snap->procs[*(const uint32_t *)a].remote_kb;
	int64_t y = snap->procs[*(const uint32_t *)b].remote_kb;
	return (x < y) - (x > y);
}

static bool prioritized(const struct sampler *s, int pid)
{
	for (size_t i = 0; i < s->nprio; i++)
		if (s->prio[i] == pid)
			return true;
	return false;
}

int sampler_kernel(struct sampler *s, struct snapshot *snap)
{
	const struct topology *t = s->topo;
	size_t nn = t->nnodes ? t->nnodes : 1;
	struct snap_numa_kernel *nk = &snap->nk;
	if (!s->kernel) {
		struct kernel_state *k = calloc(1, sizeof(*k));
		if (!k)
			return -ENOMEM;
		k->prev_at = k->tiers_at = -1;
		k->nfaults = t->nnodes ? (size_t)t->nodes[t->nnodes - 1].id + 1 : 1;
		k->prev_node = calloc(nn, sizeof(*k->prev_node));
		k->tier = calloc(nn, sizeof(*k->tier));
		k->faults = calloc(k->nfaults, sizeof(*k->faults));
		s->kernel = k;
		if (!k->prev_node || !k->tier || !k->faults)
			return -ENOMEM;
	}
	struct kernel_state *k = s->kernel;
	if (!nk->node) {
		nk->node = calloc(nn, sizeof(*nk->node));
		nk->node_rate = calloc(nn, sizeof(*nk->node_rate));
		nk->tier = calloc(nn, sizeof(*nk->tier));
		if (!nk->node || !nk->node_rate || !nk->tier)
			return -ENOMEM;
	}
	/* Mode and counters. */
	char v[16];
	nk->balancing = fsroot_read_small(s->root, "/proc/sys/kernel/numa_balancing", v, sizeof(v)) > 0 &&
			v[0] >= '0' && v[0] <= '9' ? atoi(v) : -1;
	if (fsroot_read_file(s->root, "/proc/vmstat", &s->scratch, 1 << 20) != 0 ||
	    parse_numa_vmstat(s->scratch.data, s->scratch.len, &nk->sys) != 0)
		for (int i = 0; i < NVM_NKEYS; i++)
			nk->sys.v[i] = -1;
	for (size_t i = 0; i < t->nnodes; i++) {
		char path[96];
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/vmstat", t->nodes[i].id);
		if (fsroot_read_file(s->root, path, &s->scratch, 1 << 20) != 0 ||
		    parse_numa_vmstat(s->scratch.data, s->scratch.len, &nk->node[i]) != 0)
			for (int j = 0; j < NVM_NKEYS; j++)
				nk->node[i].v[j] = -1;
	}
	double dt = k->prev_at >= 0 ? s->tick_now - k->prev_at : -1;
	rates(&nk->sys, &k->prev_sys, dt, nk->sys_rate);
	for (size_t i = 0; i < t->nnodes; i++)
		rates(&nk->node[i], &k->prev_node[i], dt, nk->node_rate[i]);
	k->prev_sys = nk->sys;
	memcpy(k->prev_node, nk->node, t->nnodes * sizeof(*nk->node));
	k->prev_at = s->tick_now;
	if (k->tiers_at < 0 || s->tick_now - k->tiers_at >= TIERS_EVERY_S) {
		read_tiers(s, k);
		k->tiers_at = s->tick_now;
	}
	memcpy(nk->tier, k->tier, t->nnodes * sizeof(*nk->tier));
	if (tiers_copy(&nk->tiers, &k->model) != 0)
		return -ENOMEM;

	/* Per process: the prioritized, then the top by REMOTE. */
	if (k->ordercap < snap->nprocs) {
		uint32_t *o = realloc(k->order, snap->nprocs * sizeof(*o));
		if (!o)
			return -ENOMEM;
		k->order = o;
		k->ordercap = snap->nprocs;
	}
	size_t nc = 0;
	for (size_t i = 0; i < snap->nprocs; i++) {
		struct snap_proc *sp = &snap->procs[i];
		sp->sched = NULL;
		if (!sp->info.kthread)
			k->order[nc++] = (uint32_t)i;
	}
	/* The numbers go to the snapshot's table: one entry per process
	 * with an entry here, or wanted now (prioritized, the top ones). */
	size_t want_max = k->n + s->nprio + SCHED_TOP;
	if (snap->schedcap < want_max) {
		struct snap_sched *tab = realloc(snap->sched, want_max * sizeof(*tab));
		if (!tab)
			return -ENOMEM;
		snap->sched = tab;
		snap->schedcap = want_max;
	}
	snap->nsched = 0;
	if (nc > 1)
		qsort_r(k->order, nc, sizeof(*k->order), by_remote, snap);
	unsigned tick = s->seq;
	size_t top = 0, files = 0;
	nk->sched_read = 0;
	/* Balancing off: its counters do not move; only the chosen ones. */
	size_t top_max = nk->balancing == 0 ? 0 : SCHED_TOP;
	for (size_t j = 0; j < nc; j++) {
		struct snap_proc *sp = &snap->procs[k->order[j]];
		bool want = prioritized(s, sp->info.pid) || (top < top_max && sp->remote_kb > 0);
		struct sched_entry *e = entry(k, sp->info.pid, want);
		if (!e)
			continue;
		e->seen = tick;
		if (e->read_at >= 0 && e->starttime != sp->info.starttime)
			e->read_at = -1;          /* the PID was reused */
		if (want) {
			top += !prioritized(s, sp->info.pid);
			if (read_sched(s, k, snap, sp, e, &files) == 0)
				nk->sched_read++;
		}
		struct snap_sched *ks;
		if (e->read_at < 0 || !(ks = snapshot_sched_add(snap)))
			continue;
		sp->sched = ks;
		ks->racc_pct = e->racc;
		ks->kmig_pages = e->pages;
		ks->sched_age_s = s->tick_now - e->read_at;
		if (e->prev_at >= 0 && e->read_at > e->prev_at && e->pages >= e->prev_pages)
			ks->kmig_rate = (double)(e->pages - e->prev_pages) / (e->read_at - e->prev_at);
	}
	size_t o = 0;
	for (size_t i = 0; i < k->n; i++)
		if (k->v[i].seen == tick)
			k->v[o++] = k->v[i];
	k->n = o;
	return 0;
}
