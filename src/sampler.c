/* sampler.c - one refresh: nodes, CPU load, the process scan and the
 * numa_maps budget (the per-process reads are in sampler_nm.c). */
#include "sampler.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "numa_maps.h"
#include "sampler_int.h"
#include "monotime.h"
#include "snapshot_tiers.h"

static double mono_now(void *ctx)
{
	(void)ctx;
	return monotime_now();
}

static double self_cpu_seconds(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return -1;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int sampler_new(const struct fsroot *r, const struct topology *t,
		enum proc_backend be, struct sampler **out)
{
	*out = NULL;
	struct sampler *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->root = r;
	s->topo = t;
	int rc = proc_source_open(r, be, &s->src);
	if (rc)
		goto fail;
	if ((rc = strpool_new(&s->pol)) != 0)
		goto fail;
	nm_mapping_init(&s->map);
	if ((rc = nm_summary_init(&s->sum, t->nnodes)) != 0)
		goto fail;
	topology_nm_params(t, &s->params);
	s->rd = (struct nm_reader){ &s->nmbuf, &s->map, &s->sum, &s->psc, NULL };
	size_t nc = t->ncpu_ids ? t->ncpu_ids : 1;
	s->ticks[0] = calloc(nc, sizeof(struct cpu_ticks));
	s->ticks[1] = calloc(nc, sizeof(struct cpu_ticks));
	s->prev_ns = calloc(t->nnodes ? t->nnodes : 1, sizeof(struct numastat));
	s->node_counts = calloc(t->nnodes ? t->nnodes : 1, sizeof(size_t));
	s->node_ids = calloc(t->nnodes ? t->nnodes : 1, sizeof(int));
	if (!s->ticks[0] || !s->ticks[1] || !s->prev_ns || !s->node_counts || !s->node_ids) {
		rc = -ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < t->nnodes; i++)
		s->node_ids[i] = t->nodes[i].id;
	s->pagesize = sysconf(_SC_PAGESIZE);
	nmsched_config_default(&s->cfg);
	s->cfg.can_sample = fsroot_is_live(r);
	s->warm = true;
	/* Ticks counted from a start no other sampler shares (kept_seq). */
	s->kept_seq = (uint64_t)(mono_now(NULL) * 1e9);
	s->clock = mono_now;
	s->pops = placement_kernel_ops;
	s->warm_threads = sampler_warm_threads_default();
	*out = s;
	return 0;
fail:
	sampler_free(s);
	return rc;
}

void sampler_free(struct sampler *s)
{
	if (!s)
		return;
	proc_source_close(s->src);
	buf_free(&s->scratch);
	buf_free(&s->nmbuf);
	nm_mapping_free(&s->map);
	nm_summary_free(&s->sum);
	free(s->ticks[0]);
	free(s->ticks[1]);
	free(s->prev_ns);
	free(s->node_counts);
	free(s->node_ids);
	sampler_why_free(s);
	sampler_access_free(s);
	sampler_kernel_free(s);
	sampler_thread_free(s);
	free(s->kept.v);
	free(s->kept.kb);
	free(s->sched);
	free(s->order);
	free(s->prio);
	free(s->warm_order);
	strpool_free(s->pol);
	placement_scratch_free(&s->psc);
	cgroup_pidmap_free(s->cgmap);
	free(s->cg_paths);
	free(s->cg_order);
	free(s);
}

void sampler_set_budget(struct sampler *s, const struct nmsched_config *c)
{
	bool can = s->cfg.can_sample;   /* a property of the root, not asked */
	s->cfg = *c;
	s->cfg.can_sample = can;
}

int sampler_set_priority(struct sampler *s, const int *pids, size_t n)
{
	if (n > s->priocap) {
		int *p = realloc(s->prio, n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		s->prio = p;
		s->priocap = n;
	}
	if (n)
		memcpy(s->prio, pids, n * sizeof(*pids));
	s->nprio = n;
	return 0;
}

void sampler_set_clock(struct sampler *s, double (*now)(void *ctx), void *ctx)
{
	s->clock = now ? now : mono_now;
	s->clock_ctx = ctx;
	if (now)
		s->warm_threads = 0;    /* a test's clock: called from one thread */
}

void sampler_set_placement_ops(struct sampler *s, const struct placement_ops *ops)
{
	s->pops = ops ? *ops : placement_kernel_ops;
	if (ops)
		s->warm_threads = 0;    /* a test's move_pages: from one thread */
	s->cfg.can_sample = ops != NULL || fsroot_is_live(s->root);
}

void sampler_set_filter(struct sampler *s, const struct sampler_filter *f)
{
	if (!s)
		return;       /* no sampler (a replayed recording) */
	if (f)
		s->filter = *f;
	else
		memset(&s->filter, 0, sizeof(s->filter));
}

static void node_loads(struct sampler *s, struct snapshot *snap)
{
	const struct topology *t = s->topo;
	const struct cpu_ticks *a = s->ticks[!s->cur], *b = s->ticks[s->cur];
	for (size_t i = 0; i < t->nnodes; i++) {
		struct cpu_ticks sa = { .nfields = 0 }, sb = { .nfields = 0 };
		int nf = TICK_NFIELDS;
		const struct bitmap *cpus = &t->nodes[i].cpus;
		unsigned used = 0;
		for (int c = bitmap_next(cpus, 0); c >= 0; c = bitmap_next(cpus, c + 1)) {
			if ((size_t)c >= t->ncpu_ids || a[c].nfields < 4 || b[c].nfields < 4)
				continue;
			int f = a[c].nfields < b[c].nfields ? a[c].nfields : b[c].nfields;
			if (f < nf)
				nf = f;
			for (int k = 0; k < TICK_NFIELDS; k++) {
				sa.t[k] += a[c].t[k];
				sb.t[k] += b[c].t[k];
			}
			used++;
		}
		sa.nfields = sb.nfields = used ? nf : 0;
		/* Since boot, from this sample alone: counters for exporters. */
		struct cpu_ticks now = { .nfields = 0 };
		int nnow = TICK_NFIELDS;
		for (int c = bitmap_next(cpus, 0); c >= 0; c = bitmap_next(cpus, c + 1)) {
			if ((size_t)c >= t->ncpu_ids || b[c].nfields < 4)
				continue;
			if (b[c].nfields < nnow)
				nnow = b[c].nfields;
			for (int k = 0; k < TICK_NFIELDS; k++)
				now.t[k] += b[c].t[k];
			now.nfields = nnow;
		}
		snap->node_ticks[i] = now;
		if (s->seq <= 1)
			sa.nfields = 0;
		cpustat_delta(&sa, &sb, &snap->node_load[i]);
	}
}

static void numastat_rates(struct sampler *s, struct snapshot *snap)
{
	for (size_t i = 0; i < s->topo->nnodes; i++) {
		const struct numastat *now = &snap->nodes[i].ns;
		for (int k = 0; k < NUMASTAT_NKEYS; k++) {
			int64_t a = s->prev_ns[i].v[k], b = now->v[k];
			snap->ns_rate[i][k] = (s->seq > 1 && snap->interval_s > 0 &&
					       a >= 0 && b >= a) ?
					      (double)(b - a) / snap->interval_s : -1;
		}
		s->prev_ns[i] = *now;
	}
}

bool sampler_filter_keeps(const struct sampler_filter *f, const struct proc_info *p,
			  bool *kthread_hidden)
{
	*kthread_hidden = false;
	if (f->npids) {
		bool hit = false;
		for (size_t i = 0; i < f->npids && !hit; i++)
			hit = f->pids[i] == p->pid;
		if (!hit)
			return false;
	}
	if (f->user) {
		char uid[24];
		snprintf(uid, sizeof(uid), "%lld", (long long)p->uid);
		if (strcmp(f->user, p->user ? p->user : "") != 0 && (p->uid < 0 || strcmp(f->user, uid) != 0))
			return false;
	}
	/* A PID asked for by name is shown, kernel thread or not. */
	if (p->kthread && !f->kernel_threads && !f->npids) {
		*kthread_hidden = true;
		return false;
	}
	return true;
}

static int ensure_snapshot(struct sampler *s, struct snapshot *snap)
{
	size_t n = s->topo->nnodes;
	if (!snap->nodes) {
		snap->nodes = calloc(n ? n : 1, sizeof(*snap->nodes));
		snap->node_load = calloc(n ? n : 1, sizeof(*snap->node_load));
		snap->ns_rate = calloc(n ? n : 1, sizeof(*snap->ns_rate));
		snap->node_ticks = calloc(n ? n : 1, sizeof(*snap->node_ticks));
		if (!snap->nodes || !snap->node_load || !snap->ns_rate || !snap->node_ticks)
			return -ENOMEM;
	}
	snap->topo = s->topo;
	return 0;
}

static int grow_procs(struct snapshot *snap, size_t want)
{
	struct snap_proc *p = buf_grow_array(snap->procs, &snap->proccap, want, sizeof(*p));
	if (!p)
		return -ENOMEM;
	snap->procs = p;
	return 0;
}

/* Two arrays of one length (schedcap). */
static int grow_sched(struct sampler *s, size_t n)
{
	if (n <= s->schedcap)
		return 0;
	size_t c1 = s->schedcap, c2 = s->schedcap;
	struct nmsched_proc *v = buf_grow_array(s->sched, &c1, n, sizeof(*v));
	if (v)
		s->sched = v;
	uint32_t *o = buf_grow_array(s->order, &c2, n, sizeof(*o));
	if (o)
		s->order = o;
	if (!v || !o)
		return -ENOMEM;
	s->schedcap = c1;
	return 0;
}

static int visit_proc(void *ctx, size_t i, enum nmsched_how how)
{
	struct sampler *s = ctx;
	struct snap_proc *sp = &s->cur_snap->procs[i];
	if (how == NMSCHED_SAMPLE)
		sampler_read_sampled(s, &s->rd, sp, sampler_kept_at(s, i));
	else
		sampler_read_numa_maps(s, &s->rd, sp);
	sp->nm_fresh = true;
	return 0;
}

static double clock_cb(void *ctx)
{
	struct sampler *s = ctx;
	return s->clock(s->clock_ctx);
}

static int by_info_pid(const void *a, const void *b)
{
	int x = ((const struct proc_info *)a)->pid, y = ((const struct proc_info *)b)->pid;
	return (x > y) - (x < y);
}

static bool filter_keeps(void *ctx, const struct proc_info *p)
{
	struct sampler *s = ctx;
	bool kt;
	bool keep = sampler_filter_keeps(&s->filter, p, &kt);
	s->kt_hidden += kt;
	return keep;
}

/* The records as the last tick of this sampler left them, in PID order
 * (the views sort an index, snapshot.order), for the scan to keep
 * (proc_list); a snapshot this sampler did not tick last starts afresh. */
static void take_back(struct sampler *s, struct snapshot *snap)
{
	struct proc_list *pl = &snap->plist;
	if (snap->kept_by != s || snap->kept_seq != s->kept_seq || snap->proc_rc) {
		pl->n = 0;
		return;
	}
	pl->n = snap->nprocs;
}

/* The last tick's record of process i (what it kept) before this tick's
 * values: per tick ones reset, the kept result as it was. */
static void renew_proc(struct sampler *s, struct snapshot *snap, size_t i,
		       struct snap_proc *old)
{
	struct snap_proc *sp = &snap->procs[i];
	*old = *sp;
	memset(sp, 0, sizeof(*sp));
	sp->info = old->info;
	sp->kept_slot = old->kept_slot;
	/* The kB arrays are the kept row (aligned to the list): the last
	 * result, which a read this tick replaces. */
	int64_t *base = sampler_kb_row(s, i);
	sp->node_kb = base;
	sp->total_kb = sp->remote_kb = -1;
	sp->unknown_node_id = -1;
	sp->cpu_pct = -1;
	sp->nm_age_s = -1;
	sp->cgroup_idx = -1;
	sp->policy = sp->pol_top = "";
	const struct sampler_kept *k = sampler_kept_at(s, i);
	if (k->valid && k->have)
		sampler_result_restore(sp, old);
}

static int scan_procs(struct sampler *s, struct snapshot *snap)
{
	take_back(s, snap);
	snap->kept_by = NULL;          /* until this tick's records are whole */
	s->kept_ok = false;
	snap->nprocs = 0;
	snap->norder = 0;             /* the views' order is of the last tick */
	memset(&snap->nm_stats, 0, sizeof(snap->nm_stats));
	/* Warming up: never-read processes first, on the warm-up budget. */
	struct nmsched_config cfg = s->cfg;
	if (s->warm && !cfg.full) {
		cfg.warmup = true;
		if (cfg.budget_s < WARMUP_TICK_S)
			cfg.budget_s = WARMUP_TICK_S;
	}
	snap->nm_stats.full = cfg.full;
	snap->nm_stats.budget_ms = cfg.budget_s * 1000.0;
	/* The scan writes into the snapshot's processes (each begins with
	 * its proc_info): one record per process, not a list and a copy. */
	struct proc_list *pl = &snap->plist;
	pl->v = (struct proc_info *)snap->procs;
	pl->cap = snap->proccap;
	pl->elem = sizeof(struct snap_proc);
	/* Only wanted processes are listed (the source keeps what it needs
	 * of the others); then their threads are read. */
	pl->keep = filter_keeps;
	pl->keep_ctx = s;
	s->kt_hidden = 0;
	snap->proc_rc = proc_source_scan(s->src, pl);
	snap->kthreads_hidden = s->kt_hidden;
	snap->procs = (struct snap_proc *)pl->v;
	snap->proccap = pl->cap;
	if (snap->proc_rc)
		return 0;
	int rc = grow_procs(snap, pl->n);
	if (rc)
		return rc;
	/* Both backends list by PID; the kept records rely on it. */
	for (size_t i = 1; i < pl->n; i++)
		if (snap->procs[i].info.pid <= snap->procs[i - 1].info.pid) {
			qsort(snap->procs, pl->n, sizeof(*snap->procs), by_info_pid);
			break;
		}
	pl->nthr = 0;
	for (size_t i = 0; i < pl->n; i++)
		if ((rc = proc_source_threads(s->src, pl, &snap->procs[i].info, &s->scratch)) != 0)
			return rc;
	if ((rc = grow_sched(s, pl->n)) != 0 || (rc = sampler_align_kept(s, snap)) != 0 ||
	    (rc = sampler_thread_rates(s, pl)) != 0)
		return rc;
	if ((snap->vmstat_rc = vmstat_read(s->root, &s->vm, &s->scratch)) != 0)
		s->vm = (struct vmstat_migrate){ -1, -1 };
	/* Unknown counters cannot prove that nothing moved. */
	if (s->vm.pgmigrate_success < 0 || s->vm.numa_pages_migrated < 0 ||
	    s->vm.pgmigrate_success != s->vm_last.pgmigrate_success ||
	    s->vm.numa_pages_migrated != s->vm_last.numa_pages_migrated)
		s->vm_gen++;
	s->vm_last = s->vm;
	for (size_t i = 0; i < pl->n; i++) {
		struct snap_proc old;
		renew_proc(s, snap, snap->nprocs++, &old);
		sampler_prepare_proc(s, snap, i, &old);
	}
	/* numa_maps on the budget. */
	size_t norder = nmsched_plan(&cfg, s->sched, snap->nprocs, s->tick_now, s->order);
	struct nmsched_stats st;
	s->cur_snap = snap;
	nmsched_run(&cfg, s->sched, s->order, norder, s->tick_now, clock_cb,
		    visit_proc, s, &st);
	s->cur_snap = NULL;
	snap->nm_stats.read = st.read;
	snap->nm_stats.sampled = st.sampled;
	snap->nm_stats.skipped = st.skipped;
	snap->nm_stats.spent_ms = st.spent_s * 1000.0;
	snap->nm_stats.kept = snap->nprocs - st.read - st.sampled;
	for (size_t i = 0; i < snap->nprocs; i++)
		sampler_finish_proc(s, snap, i);
	snap->kept_by = s;
	snap->kept_seq = ++s->kept_seq;
	s->kept_ok = true;
	if (s->warm)
		s->warm_spent += st.spent_s;
	sampler_warm_count(s, snap);
	return 0;
}

void sampler_set_cgroups(struct sampler *s, enum sampler_cgroups mode)
{
	s->cg_mode = mode;
}

#define CG_REFRESH_S 10.0

static int by_pid(const void *a, const void *b, void *ctx)
{
	const struct snapshot *snap = ctx;
	int x = snap->procs[*(const size_t *)a].info.pid, y = snap->procs[*(const size_t *)b].info.pid;
	return (x > y) - (x < y);
}

static const struct snap_proc *find_pid(const struct snapshot *snap, const size_t *byp, int pid)
{
	size_t lo = 0, hi = snap->nprocs;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int p = snap->procs[byp[mid]].info.pid;
		if (p == pid)
			return &snap->procs[byp[mid]];
		if (p < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Each process's cgroup, then (SAMPLER_CG_ALL) every cgroup with the
 * nodes its processes' threads run on. */
static int read_cgroups(struct sampler *s, struct snapshot *snap)
{
	snap->have_cgroups = false;
	snap->cg_layout = CGROUP_NONE;
	if (s->cg_mode == SAMPLER_CG_OFF)
		return 0;
	double t0 = mono_now(NULL);
	if (!s->cgmap) {
		int rc = cgroup_pidmap_new(&s->cgmap);
		if (rc)
			return rc;
	}
	if (s->cg_pathcap < snap->nprocs) {
		const char **p = realloc(s->cg_paths, snap->nprocs * sizeof(*p));
		if (!p)
			return -ENOMEM;
		s->cg_paths = p;
		size_t *o = realloc(s->cg_order, snap->nprocs * sizeof(*o));
		if (!o)
			return -ENOMEM;
		s->cg_order = o;
		s->cg_pathcap = snap->nprocs;
	}
	snap->cg_layout = cgroup_detect(s->root);
	long rc = cgroup_pidmap_update(s->cgmap, s->root, snap->cg_layout, &snap->procs[0].info,
				       sizeof(*snap->procs),
				       snap->nprocs, s->tick_now, CG_REFRESH_S, s->cg_paths);
	if (rc < 0)
		return (int)rc;
	for (size_t i = 0; i < snap->nprocs; i++)
		snap->procs[i].cgroup = s->cg_paths[i];
	if (s->cg_mode == SAMPLER_CG_ALL) {
		int r = cgroup_read_all(s->root, s->topo, &snap->cgroups);
		if (r)
			return r;
		for (size_t i = 0; i < snap->nprocs; i++) {
			struct snap_proc *sp = &snap->procs[i];
			sp->cgroup_idx = sp->cgroup ? cgroup_find(&snap->cgroups, sp->cgroup) : -1;
		}
		/* Where each cgroup's members run, from cgroup.procs. */
		size_t *byp = s->cg_order;
		for (size_t i = 0; i < snap->nprocs; i++)
			byp[i] = i;
		if (snap->nprocs > 1)
			qsort_r(byp, snap->nprocs, sizeof(*byp), by_pid, snap);
		for (size_t c = 0; c < snap->cgroups.n; c++) {
			struct cgroup_info *cg = &snap->cgroups.v[c];
			for (size_t m = 0; m < cg->npids; m++) {
				const struct snap_proc *sp = find_pid(snap, byp, cg->pids[m]);
				if (!sp) {
					cg->unseen += cg->parent >= 0;
					continue;
				}
				size_t nt = sp->info.thr_n ? sp->info.thr_n : 1;
				for (size_t k = 0; k < nt; k++) {
					int ni = topology_cpu_node(s->topo, sp->info.thr_n ?
								   snap_threads(snap, sp)[k].last_cpu :
								   sp->info.last_cpu);
					if (ni >= 0)
						cgroup_add_run_node(&snap->cgroups, (long)c,
								    s->topo->nodes[ni].id);
				}
			}
		}
		cgroup_finish(&snap->cgroups, s->topo);
		snap->have_cgroups = true;
	}
	snap->cgroups_ms = (mono_now(NULL) - t0) * 1000.0;
	return 0;
}

int sampler_tick(struct sampler *s, struct snapshot *snap)
{
	int rc = ensure_snapshot(s, snap);
	if (rc)
		return rc;
	double now = s->clock(s->clock_ctx), self = self_cpu_seconds();
	s->tick_now = now;
	s->seq++;
	snap->seq = s->seq;
	clock_gettime(CLOCK_REALTIME, &snap->wall);
	snap->interval_s = s->seq > 1 ? now - s->prev_mono : -1;
	nodestat_read(s->root, s->topo, snap->nodes, &s->scratch);
	s->cur = !s->cur;
	snap->stat_rc = cpustat_read(s->root, s->ticks[s->cur], s->topo->ncpu_ids,
				     &s->total[s->cur], &s->scratch);
	node_loads(s, snap);
	numastat_rates(s, snap);
	rc = scan_procs(s, snap);
	if (rc == 0 && snap->proc_rc == 0)
		rc = sampler_kernel(s, snap);
	if (rc == 0 && snap->proc_rc == 0)
		rc = sampler_access(s, snap);
	if (rc == 0 && snap->proc_rc == 0)
		snapshot_tiers_heat(snap);
	if (rc == 0 && snap->proc_rc == 0)
		rc = sampler_why(s, snap);
	if (rc == 0 && snap->proc_rc == 0)
		rc = read_cgroups(s, snap);
	snap->self_cpu_pct = (s->seq > 1 && snap->interval_s > 0 && self >= 0) ?
			     100.0 * (self - s->prev_self) / snap->interval_s : -1;
	s->prev_mono = now;
	s->prev_self = self;
	return rc;
}
