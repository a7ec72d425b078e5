/* sampler_why.c - the evidence for why each process's memory is remote,
 * gathered after the process scan: threads per node and their CPU time
 * since the last sample, the policy and kind of its pages (numa_maps),
 * HOME's history, the HOME node's free memory, low watermark (zoneinfo,
 * every 10 s) and numa_foreign/miss rates, and for the processes that
 * need it the cpuset from /proc/PID/status (at most WHY_STATUS_READS a
 * sample, largest REMOTE first, kept 10 s). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "sampler_int.h"

#define WHY_STATUS_READS 64
#define WHY_KEEP_S 10.0

struct why_status {
	int pid;
	uint64_t starttime;
	double read_at;
	unsigned seen;               /* the tick that last wanted it */
	int err;                     /* 0: the bitmaps hold */
	struct bitmap mems, cpu_nodes;
};

_Static_assert(offsetof(struct why_status, pid) == 0, "proc_slot_pid needs pid first");

struct why_state {
	struct why_status *v;        /* sorted by pid */
	size_t n, cap;
	double zone_at;              /* when zoneinfo was last read, -1 never */
	int64_t *low_pages;          /* by node id */
	size_t nlow;
	size_t *thr, *work;          /* [nnodes] scratch */
	size_t *order;               /* candidates */
	size_t ordercap;
	char heat_wait[160];         /* why_input.heat_wait */
};

/* kB of one heat class (node_kb: warm or cold by node index) on nodes
 * that are neither HOME nor one its threads worked on: what is remote of
 * it, as HOTREM counts. -1 unknown. */
static int64_t heat_remote_kb(const int64_t *node_kb, size_t nn, int home, const size_t *work)
{
	if (!node_kb)
		return -1;
	int64_t sum = 0;
	for (size_t k = 0; k < nn; k++) {
		if ((int)k == home || (work && work[k] > 0))
			continue;
		if (node_kb[k] < 0)
			return -1;
		sum += node_kb[k];
	}
	return sum;
}

void sampler_why_free(struct sampler *s)
{
	struct why_state *w = s->why;
	if (!w)
		return;
	for (size_t i = 0; i < w->n; i++) {
		bitmap_free(&w->v[i].mems);
		bitmap_free(&w->v[i].cpu_nodes);
	}
	free(w->v);
	free(w->low_pages);
	free(w->thr);
	free(w->work);
	free(w->order);
	free(w);
	s->why = NULL;
}

static struct why_status *status_slot(struct why_state *w, int pid)
{
	bool added;
	void *base = w->v;
	struct why_status *e = proc_slot_pid(&base, &w->n, &w->cap, sizeof(*e), pid, &added);
	w->v = base;
	if (e && added) {
		e->read_at = -1;
		bitmap_init(&e->mems);
		bitmap_init(&e->cpu_nodes);
	}
	return e;
}

/* Read status into e: Mems_allowed_list and the nodes of its CPUs. */
static void read_status(struct sampler *s, const struct snap_proc *sp, struct why_status *e)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", sp->info.pid);
	struct pid_status st;
	int rc = fsroot_read_file(s->root, path, &s->scratch, 1 << 16);
	if (rc == 0)
		rc = parse_pid_status(s->scratch.data, s->scratch.len, &st);
	e->starttime = sp->info.starttime;
	e->read_at = s->tick_now;
	bitmap_clear(&e->mems);
	bitmap_clear(&e->cpu_nodes);
	e->err = rc ? -rc : 0;
	if (rc)
		return;
	/* The texts are cut at 255 bytes: a cut list is not a set. */
	size_t ml = strlen(st.mems_allowed_list), cl = strlen(st.cpus_allowed_list);
	struct bitmap cpus;
	bitmap_init(&cpus);
	if (!ml || ml >= sizeof(st.mems_allowed_list) - 1 || !cl ||
	    cl >= sizeof(st.cpus_allowed_list) - 1 ||
	    bitmap_parse_list(&e->mems, st.mems_allowed_list, ml) != 0 ||
	    bitmap_parse_list(&cpus, st.cpus_allowed_list, cl) != 0) {
		e->err = EINVAL;
	} else {
		for (int c = bitmap_next(&cpus, 0); c >= 0; c = bitmap_next(&cpus, c + 1)) {
			int ni = topology_cpu_node(s->topo, c);
			if (ni >= 0)
				bitmap_set(&e->cpu_nodes, (unsigned)s->topo->nodes[ni].id);
		}
	}
	bitmap_free(&cpus);
}

static void read_watermarks(struct sampler *s, struct snapshot *snap, struct why_state *w)
{
	const struct topology *t = s->topo;
	if (w->zone_at < 0 || s->tick_now - w->zone_at >= WHY_KEEP_S) {
		w->zone_at = s->tick_now;
		size_t n = t->nnodes ? (size_t)t->nodes[t->nnodes - 1].id + 1 : 1;
		if (w->nlow < n) {
			int64_t *l = realloc(w->low_pages, n * sizeof(*l));
			if (!l)
				return;
			w->low_pages = l;
			w->nlow = n;
		}
		if (fsroot_read_file(s->root, "/proc/zoneinfo", &s->scratch, 4 << 20) != 0 ||
		    parse_zoneinfo_low(s->scratch.data, s->scratch.len, w->low_pages, w->nlow) != 0)
			for (size_t i = 0; i < w->nlow; i++)
				w->low_pages[i] = -1;
	}
	for (size_t i = 0; i < t->nnodes; i++) {
		size_t id = (size_t)t->nodes[i].id;
		int64_t p = id < w->nlow && w->low_pages ? w->low_pages[id] : -1;
		snap->low_kb[i] = p >= 0 ? p * (s->pagesize / 1024) : -1;
	}
}

/* The evidence of process sp, status and all. */
static void input_of(struct sampler *s, struct snapshot *snap, struct why_state *w,
		     const struct snap_proc *sp, const struct why_status *st, struct why_input *in)
{
	const struct topology *t = s->topo;
	size_t nn = t->nnodes;
	memset(w->thr, 0, nn * sizeof(*w->thr));
	size_t nt = sp->info.thr_n ? sp->info.thr_n : 1;
	for (size_t k = 0; k < nt; k++) {
		int ni = topology_cpu_node(t, sp->info.thr_n ? snap_threads(snap, sp)[k].last_cpu :
						  sp->info.last_cpu);
		if (ni >= 0)
			w->thr[ni]++;
	}
	/* Their work by CPU time since the last sample, as HOME was chosen;
	 * not known on its first sample: the counts above decide. */
	bool timed = sampler_thread_work(t, snap_threads(snap, sp), sp->info.thr_n, w->work);
	const struct access_proc *hu = access_usable(sp->acc);
	const size_t *worked = timed ? w->work : NULL;
	const struct node_sample *hn = sp->home >= 0 ? &snap->nodes[sp->home] : NULL;
	*in = (struct why_input){
		.nnodes = nn, .node_ids = s->node_ids, .home = sp->home,
		.total_kb = sp->nm == NMS_OK ? sp->total_kb : -1,
		.remote_kb = sp->nm == NMS_OK ? sp->remote_kb : -1,
		.node_kb = sp->node_kb, .anon_kb = snap_kb(sp, nn, SNAP_KB_ANON),
		.file_kb = snap_kb(sp, nn, SNAP_KB_FILE),
		.pol_kb = sp->nm_sampled ? NULL : snap_kb(sp, nn, SNAP_KB_POL),
		.pol_mode = (enum nm_mode)sp->pol_mode, .pol_text = sp->pol_top,
		.threads_on = w->thr, .work_on = timed ? w->work : NULL,
		.home_free_kb = hn ? hn->mem.mem_free_kb : -1,
		.home_total_kb = hn ? hn->mem.mem_total_kb : -1,
		.home_low_kb = sp->home >= 0 ? snap->low_kb[sp->home] : -1,
		.home_foreign_rate = sp->home >= 0 ? snap->ns_rate[sp->home][NUMASTAT_FOREIGN] : -1,
		.home_miss_rate = sp->home >= 0 ? snap->ns_rate[sp->home][NUMASTAT_MISS] : -1,
		.rss_growth_kb = sp->rss_growth_kb,
		.prev_home = sp->moved_from,
		.kernel_migrate_rate = snap_sched(sp)->kmig_rate,
		/* Only usable heat decides (access.h); heat there but not
		 * usable holds a move back, in words (heat_wait). */
		.hot_kb = hu ? hu->hot_kb : -1,
		.hot_remote_kb = hu ? hu->hot_remote_kb : -1,
		.heat_watched_s = hu ? hu->monitored_s : 0,
		.hot_slow_kb = hu ? snap_hot_slow_kb(sp) : -1,
		.cold_idle_s = hu ? hu->cold_remote_idle_s : -1,
		.warm_remote_kb = hu ? heat_remote_kb(hu->warm_node_kb, nn, sp->home, worked) : -1,
		.cold_remote_kb = hu ? heat_remote_kb(hu->cold_node_kb, nn, sp->home, worked) : -1,
		.heat_wait = sp->acc && !hu ? access_trust_text(sp->acc, w->heat_wait,
								 sizeof(w->heat_wait)) : NULL,
		.heat_unseen = sp->acc && access_proc_trust(sp->acc) == ACCESS_TRUST_UNSEEN,
		.tiers = snap->nk.tiers.nnodes == nn ? &snap->nk.tiers : NULL,
	};
	if (st && st->read_at >= 0 && st->err == 0) {
		in->mems_allowed = &st->mems;
		in->cpu_nodes = &st->cpu_nodes;
	} else if (st && st->read_at >= 0) {
		in->status_why = st->err == EACCES || st->err == EPERM ? "status: no permission" :
				 "status could not be read";
	} else {
		in->status_why = "status not read yet (largest REMOTE first)";
	}
}

static int by_remote(const void *a, const void *b, void *ctx)
{
	const struct snapshot *snap = ctx;
	int64_t x = snap->procs[*(const size_t *)a].remote_kb, y = snap->procs[*(const size_t *)b].remote_kb;
	return (x < y) - (x > y);
}

static int keep(struct snapshot *snap, struct snap_proc *sp, const struct why_result *r)
{
	sp->why = r->cause;
	sp->why_idx = -1;
	if (r->cause == WHY_NONE || r->cause == WHY_NOT_READ)
		return 0;
	if (snap->nwhy == snap->whycap) {
		size_t cap = snap->whycap ? snap->whycap * 2 : 16;
		struct why_result *v = realloc(snap->why, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		snap->why = v;
		snap->whycap = cap;
	}
	snap->why[snap->nwhy] = *r;
	sp->why_idx = (long)snap->nwhy++;
	return 0;
}

int sampler_why(struct sampler *s, struct snapshot *snap)
{
	const struct topology *t = s->topo;
	size_t nn = t->nnodes ? t->nnodes : 1;
	if (!s->why) {
		s->why = calloc(1, sizeof(*s->why));
		if (!s->why)
			return -ENOMEM;
		s->why->zone_at = -1;
	}
	struct why_state *w = s->why;
	if (!w->thr && !(w->thr = calloc(nn, sizeof(*w->thr))))
		return -ENOMEM;
	if (!w->work && !(w->work = calloc(nn, sizeof(*w->work))))
		return -ENOMEM;
	if (!snap->low_kb && !(snap->low_kb = calloc(nn, sizeof(int64_t))))
		return -ENOMEM;
	if (w->ordercap < snap->nprocs) {
		size_t *o = realloc(w->order, snap->nprocs * sizeof(*o));
		if (!o)
			return -ENOMEM;
		w->order = o;
		w->ordercap = snap->nprocs;
	}
	snap->nwhy = 0;
	read_watermarks(s, snap, w);
	/* First without the cpuset: those it cannot decide need status. */
	size_t ncand = 0;
	struct why_input in;
	struct why_result r;
	for (size_t i = 0; i < snap->nprocs; i++) {
		struct snap_proc *sp = &snap->procs[i];
		input_of(s, snap, w, sp, NULL, &in);
		/* Most processes: little remote, or not read. Nothing is kept
		 * for them, so no words are written. */
		enum why_cause settled;
		if (why_settled(&in, &settled)) {
			sp->why = settled;
			sp->why_idx = -1;
			continue;
		}
		why_decide(&in, &r);
		sp->why = r.cause;
		sp->why_idx = -1;
		if (r.cause != WHY_NONE && r.cause != WHY_NOT_READ && r.cause != WHY_POLICY)
			w->order[ncand++] = i;
		else if (keep(snap, sp, &r) != 0)
			return -ENOMEM;
	}
	if (ncand > 1)
		qsort_r(w->order, ncand, sizeof(*w->order), by_remote, snap);
	size_t reads = 0;
	unsigned tick = s->seq;
	for (size_t k = 0; k < ncand; k++) {
		struct snap_proc *sp = &snap->procs[w->order[k]];
		struct why_status *st = status_slot(w, sp->info.pid);
		if (st) {
			st->seen = tick;
			bool stale = st->read_at < 0 || st->starttime != sp->info.starttime ||
				     s->tick_now - st->read_at >= WHY_KEEP_S;
			if (stale && reads < WHY_STATUS_READS) {
				read_status(s, sp, st);
				reads++;
			} else if (stale && st->starttime != sp->info.starttime) {
				st->read_at = -1;      /* another process: not its cpuset */
			}
		}
		input_of(s, snap, w, sp, st, &in);
		why_decide(&in, &r);
		if (keep(snap, sp, &r) != 0)
			return -ENOMEM;
	}
	/* Forget the processes that no longer need their status. */
	size_t o = 0;
	for (size_t i = 0; i < w->n; i++) {
		if (w->v[i].seen == tick) {
			w->v[o++] = w->v[i];
		} else {
			bitmap_free(&w->v[i].mems);
			bitmap_free(&w->v[i].cpu_nodes);
		}
	}
	w->n = o;
	return 0;
}
