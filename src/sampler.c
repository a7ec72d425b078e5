/* sampler.c - one refresh: nodes, CPU load, processes and their numa_maps. */
#include "sampler.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "numa_maps.h"

/* What the sampler remembers of a process between ticks: its CPU ticks
 * and RSS of the previous tick, and its last numa_maps result. */
/* The last numa_maps result of a process and what it was read under. */
struct nm_result {
	bool have;                    /* the fields below are valid */
	bool sampled;
	enum nm_state nm;
	int nm_errno;
	double read_at, cost;         /* monotonic seconds; cost -1 unknown */
	int64_t cost_rss;             /* RSS when cost was measured */
	int64_t rss_at;               /* RSS, faults and migrations at the read */
	uint64_t faults_at;
	struct vmstat_migrate vm_at;
	int64_t total_kb;
	size_t nmappings;
	char policy[64];
};

struct nm_cache {
	int pid;
	uint64_t starttime;
	uint64_t ticks;               /* utime + stime at the previous tick */
	int64_t rss_prev;             /* RSS at the previous tick */
	size_t slot;                  /* its kB arrays: pool + slot * 4 * nnodes */
	struct nm_result r;
};

struct cache_gen {
	struct nm_cache *v;
	size_t n, cap;
	int64_t *kb;
	size_t kbcap;
};

struct sampler {
	const struct fsroot *root;
	const struct topology *topo;
	struct proc_source *src;
	struct sampler_filter filter;
	struct buf scratch, nmbuf;
	struct nm_mapping map;
	struct nm_summary sum;
	struct nm_params params;
	struct cpu_ticks *ticks[2];   /* [ncpu_ids], previous and current */
	struct cpu_ticks total[2];
	int cur;
	struct numastat *prev_ns;     /* [nnodes] */
	size_t *node_counts;          /* [nnodes], scratch for HOME */
	struct cache_gen gen[2];       /* previous tick's and this tick's */
	int g;                        /* gen[g] is the previous tick's */
	struct nmsched_config cfg;
	struct nmsched_proc *sched;
	size_t *order;
	const struct nm_cache **link; /* [nprocs] the previous entry, or NULL */
	size_t schedcap;
	int *prio;
	size_t nprio, priocap;
	double (*clock)(void *ctx);
	void *clock_ctx;
	struct placement_ops pops;
	struct placement_scratch psc;
	long pagesize;
	struct vmstat_migrate vm;     /* this tick's */
	struct snapshot *cur_snap;    /* during a tick, for the visit callback */
	double tick_now;
	double prev_mono, prev_self;
	unsigned seq;
	long hz;
};

static double mono_now(void *ctx)
{
	(void)ctx;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
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
	nm_mapping_init(&s->map);
	if ((rc = nm_summary_init(&s->sum, t->nnodes)) != 0)
		goto fail;
	topology_nm_params(t, &s->params);
	size_t nc = t->ncpu_ids ? t->ncpu_ids : 1;
	s->ticks[0] = calloc(nc, sizeof(struct cpu_ticks));
	s->ticks[1] = calloc(nc, sizeof(struct cpu_ticks));
	s->prev_ns = calloc(t->nnodes ? t->nnodes : 1, sizeof(struct numastat));
	s->node_counts = calloc(t->nnodes ? t->nnodes : 1, sizeof(size_t));
	if (!s->ticks[0] || !s->ticks[1] || !s->prev_ns || !s->node_counts) {
		rc = -ENOMEM;
		goto fail;
	}
	s->hz = sysconf(_SC_CLK_TCK);
	if (s->hz <= 0)
		s->hz = 100;
	s->pagesize = sysconf(_SC_PAGESIZE);
	nmsched_config_default(&s->cfg);
	s->cfg.can_sample = fsroot_is_live(r);
	s->clock = mono_now;
	s->pops = placement_kernel_ops;
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
	for (int k = 0; k < 2; k++) {
		free(s->gen[k].v);
		free(s->gen[k].kb);
	}
	free(s->sched);
	free(s->order);
	free(s->link);
	free(s->prio);
	placement_scratch_free(&s->psc);
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
}

void sampler_set_placement_ops(struct sampler *s, const struct placement_ops *ops)
{
	s->pops = ops ? *ops : placement_kernel_ops;
	s->cfg.can_sample = ops != NULL || fsroot_is_live(s->root);
}

void sampler_set_filter(struct sampler *s, const struct sampler_filter *f)
{
	if (f)
		s->filter = *f;
	else
		memset(&s->filter, 0, sizeof(s->filter));
}

int sampler_home_node(const struct topology *t, const struct proc_thread *thr,
		      size_t n, int main_tid, size_t *counts)
{
	/* One pass to count threads per node (counts[nnodes] is the
	 * caller's scratch), one over the nodes to pick the largest. */
	memset(counts, 0, t->nnodes * sizeof(*counts));
	int main_node = -1;
	for (size_t i = 0; i < n; i++) {
		int node = topology_cpu_node(t, thr[i].last_cpu);
		if (node < 0)
			continue;
		counts[node]++;
		if (thr[i].tid == main_tid)
			main_node = node;
	}
	int best = -1;
	for (size_t k = 0; k < t->nnodes; k++)
		if (counts[k] > 0 && (best < 0 || counts[k] > counts[best]))
			best = (int)k;
	/* The main thread's node wins a tie. */
	if (main_node >= 0 && best >= 0 && counts[main_node] == counts[best])
		best = main_node;
	return best;
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

static bool wanted(const struct sampler *s, const struct proc_info *p)
{
	const struct sampler_filter *f = &s->filter;
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
		if (strcmp(f->user, p->user) != 0 && strcmp(f->user, uid) != 0)
			return false;
	}
	return true;
}

_Static_assert(offsetof(struct nm_cache, pid) == 0, "proc_find_pid needs pid first");

static const struct nm_cache *find_prev(const struct sampler *s, int pid)
{
	const struct cache_gen *g = &s->gen[s->g];
	return proc_find_pid(g->v, g->n, sizeof(*g->v), pid);
}

static void take_summary(struct sampler *s, struct snap_proc *sp)
{
	size_t n = s->topo->nnodes;
	memcpy(sp->node_kb, s->sum.node_kb, n * sizeof(int64_t));
	memcpy(sp->anon_kb, s->sum.anon_kb, n * sizeof(int64_t));
	memcpy(sp->file_kb, s->sum.file_kb, n * sizeof(int64_t));
	memcpy(sp->huge_kb, s->sum.huge_kb, n * sizeof(int64_t));
	sp->total_kb = s->sum.total_kb;
	sp->nmappings = s->sum.nmappings;
	snprintf(sp->policy, sizeof(sp->policy), "%s", s->sum.policy);
	sp->nm = NMS_OK;
}

static bool proc_gone(struct sampler *s, int rc, int pid)
{
	char path[32];
	if (rc == -ESRCH)
		return true;
	snprintf(path, sizeof(path), "/proc/%d", pid);
	return rc == -ENOENT && fsroot_exists(s->root, path) != 0;
}

static int feed_numa_maps(void *ctx, const char *data, size_t len, size_t *used)
{
	struct sampler *s = ctx;
	return numa_maps_feed(data, len, &s->params, &s->map, &s->sum, used);
}

/* Read and summarize a numa_maps file in chunks: memory stays flat
 * however many mappings a process has. *total: bytes read. */
static int stream_numa_maps(struct sampler *s, const char *path, size_t *total)
{
	numa_maps_begin(&s->sum);
	int rc = fsroot_read_chunks(s->root, path, &s->nmbuf, feed_numa_maps, s, total);
	if (rc == 0)
		rc = numa_maps_end(&s->sum, s->nmbuf.len);
	if (s->nmbuf.cap > (1u << 17))
		buf_free(&s->nmbuf);      /* grown by a long line: give it back */
	else
		buf_clear(&s->nmbuf);
	return rc;
}

static void read_numa_maps(struct sampler *s, struct snap_proc *sp)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", sp->info.pid);
	size_t total;
	int rc = stream_numa_maps(s, path, &total);
	if (rc == -EACCES || rc == -EPERM) {
		sp->nm = NMS_NO_PERM;
		return;
	}
	if (proc_gone(s, rc, sp->info.pid)) {
		sp->nm = NMS_GONE;
		return;
	}
	/* Empty numa_maps: the process has no mm. A kernel thread (RSS 0)
	 * has 0 kB to show; a zombie, or a process that exited between the
	 * listing (RSS > 0 then) and this read, is gone. */
	if (rc == 0 && total == 0 &&
	    (sp->info.state == 'Z' || sp->info.state == 'X' || sp->info.rss_kb > 0)) {
		sp->nm = NMS_GONE;
		return;
	}
	if (rc) {
		sp->nm = NMS_ERROR;
		sp->nm_errno = -rc;
		return;
	}
	take_summary(s, sp);
}

/* Placement from maps + move_pages queries; the policy stays as last
 * read from numa_maps (the sampled read cannot see it). */
static void read_sampled(struct sampler *s, struct snap_proc *sp, const struct nm_cache *e)
{
	int rc = placement_sample(s->root, sp->info.pid, s->pagesize, &s->params,
				  &s->pops, e && e->r.have ? e->r.nmappings : 0, &s->psc, &s->sum);
	if (rc == -EACCES || rc == -EPERM) {
		sp->nm = NMS_NO_PERM;
		return;
	}
	if (proc_gone(s, rc, sp->info.pid)) {
		sp->nm = NMS_GONE;
		return;
	}
	if (rc) {
		sp->nm = NMS_ERROR;
		sp->nm_errno = -rc;
		return;
	}
	/* No mapping at all while RSS > 0: the process exited between the
	 * listing and this read (its maps is empty then), as for numa_maps. */
	if (s->sum.nmappings == 0 &&
	    (sp->info.state == 'Z' || sp->info.state == 'X' || sp->info.rss_kb > 0)) {
		sp->nm = NMS_GONE;
		return;
	}
	placement_scale_rss(&s->sum, sp->info.rss_kb);
	take_summary(s, sp);
	sp->nm_sampled = true;
	snprintf(sp->policy, sizeof(sp->policy), "%s",
		 e && e->r.have && e->r.nm == NMS_OK ? e->r.policy : "");
}

static int ensure_snapshot(struct sampler *s, struct snapshot *snap)
{
	size_t n = s->topo->nnodes;
	if (!snap->nodes) {
		snap->nodes = calloc(n ? n : 1, sizeof(*snap->nodes));
		snap->node_load = calloc(n ? n : 1, sizeof(*snap->node_load));
		snap->ns_rate = calloc(n ? n : 1, sizeof(*snap->ns_rate));
		if (!snap->nodes || !snap->node_load || !snap->ns_rate)
			return -ENOMEM;
	}
	snap->topo = s->topo;
	return 0;
}

static int grow_procs(struct snapshot *snap, size_t want, size_t nnodes)
{
	struct snap_proc *p = buf_grow_array(snap->procs, &snap->proccap, want, sizeof(*p));
	if (!p)
		return -ENOMEM;
	snap->procs = p;
	int64_t *k = buf_grow_array(snap->kb_pool, &snap->kb_cap,
				    want * 4 * (nnodes ? nnodes : 1), sizeof(*k));
	if (!k)
		return -ENOMEM;
	snap->kb_pool = k;
	return 0;
}

/* Three arrays of one length (schedcap). */
static int grow_sched(struct sampler *s, size_t n)
{
	if (n <= s->schedcap)
		return 0;
	size_t c1 = s->schedcap, c2 = s->schedcap, c3 = s->schedcap;
	struct nmsched_proc *v = buf_grow_array(s->sched, &c1, n, sizeof(*v));
	if (v)
		s->sched = v;
	size_t *o = buf_grow_array(s->order, &c2, n, sizeof(*o));
	if (o)
		s->order = o;
	const struct nm_cache **l = buf_grow_array(s->link, &c3, n, sizeof(*l));
	if (l)
		s->link = l;
	if (!v || !o || !l)
		return -ENOMEM;
	s->schedcap = c1;
	return 0;
}

static int grow_gen(struct cache_gen *g, size_t n, size_t nnodes)
{
	struct nm_cache *v = buf_grow_array(g->v, &g->cap, n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	g->v = v;
	int64_t *k = buf_grow_array(g->kb, &g->kbcap, n * 4 * nnodes, sizeof(*k));
	if (!k)
		return -ENOMEM;
	g->kb = k;
	return 0;
}

static bool is_priority(const struct sampler *s, int pid)
{
	for (size_t i = 0; i < s->nprio; i++)
		if (s->prio[i] == pid)
			return true;
	return false;
}

static bool vm_same(const struct vmstat_migrate *a, const struct vmstat_migrate *b)
{
	/* Unknown counters (-1) cannot prove that nothing moved. */
	return a->pgmigrate_success >= 0 && a->numa_pages_migrated >= 0 &&
	       a->pgmigrate_success == b->pgmigrate_success &&
	       a->numa_pages_migrated == b->numa_pages_migrated;
}

static int visit_proc(void *ctx, size_t i, enum nmsched_how how)
{
	struct sampler *s = ctx;
	struct snap_proc *sp = &s->cur_snap->procs[i];
	if (how == NMSCHED_SAMPLE)
		read_sampled(s, sp, s->link[i]);
	else
		read_numa_maps(s, sp);
	sp->nm_fresh = true;
	return 0;
}

static double clock_cb(void *ctx)
{
	struct sampler *s = ctx;
	return s->clock(s->clock_ctx);
}

/* The cheap part of every process (CPU%, HOME), and what the scheduler
 * needs to know of it. */
static void prepare_proc(struct sampler *s, struct snapshot *snap, size_t i)
{
	struct snap_proc *sp = &snap->procs[i];
	const struct nm_cache *e = find_prev(s, sp->info.pid);
	if (e && e->starttime != sp->info.starttime)
		e = NULL;     /* the PID was reused */
	s->link[i] = e;
	sp->home = sampler_home_node(s->topo, sp->threads, sp->info.thr_n,
				     sp->info.pid, s->node_counts);
	uint64_t ticks = sp->info.utime + sp->info.stime;
	if (e && snap->interval_s > 0 && ticks >= e->ticks)
		sp->cpu_pct = 100.0 * (double)(ticks - e->ticks) /
			      (double)s->hz / snap->interval_s;
	uint64_t faults = sp->info.minflt + sp->info.majflt;
	bool have = e && e->r.have;
	s->sched[i] = (struct nmsched_proc){
		.priority = is_priority(s, sp->info.pid),
		.cached = have,
		.changed = !have || sp->info.rss_kb != e->r.rss_at ||
			   faults != e->r.faults_at || !vm_same(&s->vm, &e->r.vm_at),
		.last_read = have ? e->r.read_at : -1,
		.last_cost = have ? e->r.cost : -1,
		.cost_rss_kb = have ? e->r.cost_rss : -1,
		.rss_kb = sp->info.rss_kb,
		.rss_delta_kb = e && sp->info.rss_kb >= 0 && e->rss_prev >= 0 ?
				sp->info.rss_kb - e->rss_prev : 0,
		.cpu_pct = sp->cpu_pct,
		.nmappings = have ? e->r.nmappings : 0,
	};
}

/* After the reads: the kept results, REMOTE, and this tick's cache. */
static void finish_proc(struct sampler *s, struct snapshot *snap, size_t i,
			struct cache_gen *ng)
{
	size_t n = s->topo->nnodes ? s->topo->nnodes : 1;
	struct snap_proc *sp = &snap->procs[i];
	const struct nm_cache *e = s->link[i];
	const struct nmsched_proc *q = &s->sched[i];
	struct nm_cache *c = &ng->v[ng->n++];
	int64_t *kb = ng->kb + i * 4 * n;
	*c = (struct nm_cache){
		.pid = sp->info.pid, .starttime = sp->info.starttime,
		.ticks = sp->info.utime + sp->info.stime,
		.rss_prev = sp->info.rss_kb, .slot = i,
		.r = { .cost = -1, .cost_rss = -1 },
	};
	if (sp->nm_fresh) {
		sp->nm_age_s = 0;
		struct nm_result *r = &c->r;
		r->have = true;
		r->read_at = s->tick_now;
		/* A sampled read says nothing of the numa_maps cost. */
		bool full = q->how == NMSCHED_READ;
		r->cost = full ? q->last_cost : e ? e->r.cost : -1;
		r->cost_rss = full ? q->cost_rss_kb : e ? e->r.cost_rss : -1;
		r->rss_at = sp->info.rss_kb;
		r->faults_at = sp->info.minflt + sp->info.majflt;
		r->vm_at = s->vm;
		r->nm = sp->nm;
		r->nm_errno = sp->nm_errno;
		r->sampled = sp->nm_sampled;
		r->total_kb = sp->total_kb;
		r->nmappings = sp->nmappings;
		snprintf(r->policy, sizeof(r->policy), "%s", sp->policy);
		memcpy(kb, sp->node_kb, 4 * n * sizeof(int64_t));
	} else if (e && e->r.have) {
		/* Kept: the last result, with its age. */
		const int64_t *okb = s->gen[s->g].kb + e->slot * 4 * n;
		c->r = e->r;
		memcpy(kb, okb, 4 * n * sizeof(int64_t));
		memcpy(sp->node_kb, okb, 4 * n * sizeof(int64_t));
		sp->nm = e->r.nm;
		sp->nm_errno = e->r.nm_errno;
		sp->nm_sampled = e->r.sampled;
		sp->total_kb = e->r.nm == NMS_OK ? e->r.total_kb : -1;
		sp->nmappings = e->r.nmappings;
		snprintf(sp->policy, sizeof(sp->policy), "%s", e->r.policy);
		double age = s->tick_now - e->r.read_at;
		sp->nm_age_s = age > 0 ? age : 0;
	}
	if (sp->nm == NMS_OK && sp->home >= 0) {
		sp->remote_kb = sp->total_kb - sp->node_kb[sp->home];
		sp->remote_pct = sp->total_kb > 0 ?
				 100.0 * (double)sp->remote_kb / (double)sp->total_kb : -1;
	}
}

static void sort_gen(struct cache_gen *g)
{
	/* The listing is nearly sorted by PID: insertion sort is linear. */
	for (size_t i = 1; i < g->n; i++)
		for (size_t j = i; j > 0 && g->v[j].pid < g->v[j - 1].pid; j--) {
			struct nm_cache tmp = g->v[j];
			g->v[j] = g->v[j - 1];
			g->v[j - 1] = tmp;
		}
}

static int scan_procs(struct sampler *s, struct snapshot *snap)
{
	size_t n = s->topo->nnodes ? s->topo->nnodes : 1;
	snap->nprocs = 0;
	memset(&snap->nm_stats, 0, sizeof(snap->nm_stats));
	snap->nm_stats.full = s->cfg.full;
	snap->nm_stats.budget_ms = s->cfg.budget_s * 1000.0;
	snap->proc_rc = proc_source_scan(s->src, &snap->plist);
	if (snap->proc_rc)
		return 0;
	struct proc_list *pl = &snap->plist;
	int rc = grow_procs(snap, pl->n, n);
	if (rc)
		return rc;
	/* Keep wanted processes, then read their threads. */
	size_t keep = 0;
	for (size_t i = 0; i < pl->n; i++)
		if (wanted(s, &pl->v[i]))
			pl->v[keep++] = pl->v[i];
	pl->n = keep;
	pl->nthr = 0;
	for (size_t i = 0; i < pl->n; i++)
		if ((rc = proc_read_threads(s->root, pl, &pl->v[i], &s->scratch)) != 0)
			return rc;
	struct cache_gen *ng = &s->gen[!s->g];
	if ((rc = grow_sched(s, pl->n)) != 0 || (rc = grow_gen(ng, pl->n, n)) != 0)
		return rc;
	if (vmstat_read(s->root, &s->vm, &s->scratch) != 0)
		s->vm = (struct vmstat_migrate){ -1, -1 };
	for (size_t i = 0; i < pl->n; i++) {
		struct snap_proc *sp = &snap->procs[snap->nprocs++];
		memset(sp, 0, sizeof(*sp));
		sp->info = pl->v[i];
		sp->threads = pl->threads + sp->info.thr_off;
		int64_t *base = snap->kb_pool + i * 4 * n;
		memset(base, 0, 4 * n * sizeof(int64_t));
		sp->node_kb = base;
		sp->anon_kb = base + n;
		sp->file_kb = base + 2 * n;
		sp->huge_kb = base + 3 * n;
		sp->total_kb = sp->remote_kb = -1;
		sp->remote_pct = -1;
		sp->cpu_pct = -1;
		sp->nm_age_s = -1;
		prepare_proc(s, snap, i);
	}
	/* numa_maps on the budget. */
	size_t norder = nmsched_plan(&s->cfg, s->sched, snap->nprocs, s->tick_now, s->order);
	struct nmsched_stats st;
	s->cur_snap = snap;
	nmsched_run(&s->cfg, s->sched, s->order, norder, s->tick_now, clock_cb,
		    visit_proc, s, &st);
	s->cur_snap = NULL;
	snap->nm_stats.read = st.read;
	snap->nm_stats.sampled = st.sampled;
	snap->nm_stats.skipped = st.skipped;
	snap->nm_stats.spent_ms = st.spent_s * 1000.0;
	snap->nm_stats.kept = snap->nprocs - st.read - st.sampled;
	ng->n = 0;
	for (size_t i = 0; i < snap->nprocs; i++)
		finish_proc(s, snap, i, ng);
	sort_gen(ng);
	s->g = !s->g;
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
	cpustat_read(s->root, s->ticks[s->cur], s->topo->ncpu_ids,
		     &s->total[s->cur], &s->scratch);
	node_loads(s, snap);
	numastat_rates(s, snap);
	rc = scan_procs(s, snap);
	snap->self_cpu_pct = (s->seq > 1 && snap->interval_s > 0 && self >= 0) ?
			     100.0 * (self - s->prev_self) / snap->interval_s : -1;
	s->prev_mono = now;
	s->prev_self = self;
	return rc;
}
