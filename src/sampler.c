/* sampler.c - one refresh: nodes, CPU load, processes and their numa_maps. */
#include "sampler.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "numa_maps.h"

struct prev_proc {
	int pid;
	uint64_t starttime, ticks;
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
	struct prev_proc *prev;
	size_t nprev, prevcap;
	double prev_mono, prev_self;
	unsigned seq;
	long hz;
};

static double mono_now(void)
{
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
	topology_nm_params(r, t, &s->params, &s->scratch);
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
	free(s->prev);
	free(s);
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

static const struct prev_proc *find_prev(const struct sampler *s, int pid)
{
	size_t lo = 0, hi = s->nprev;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s->prev[mid].pid == pid)
			return &s->prev[mid];
		if (s->prev[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void read_numa_maps(struct sampler *s, struct snap_proc *sp)
{
	char path[64];
	size_t n = s->topo->nnodes;
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", sp->info.pid);
	int rc = fsroot_read_file(s->root, path, &s->nmbuf, 0);
	if (rc == -EACCES || rc == -EPERM) {
		sp->nm = NMS_NO_PERM;
		return;
	}
	if (rc == -ESRCH || (rc == -ENOENT && (snprintf(path, sizeof(path),
			"/proc/%d", sp->info.pid), fsroot_exists(s->root, path) != 0))) {
		sp->nm = NMS_GONE;
		return;
	}
	/* Empty numa_maps: the process has no mm. A kernel thread (RSS 0)
	 * has 0 kB to show; a zombie, or a process that exited between the
	 * listing (RSS > 0 then) and this read, is gone. */
	if (rc == 0 && s->nmbuf.len == 0 &&
	    (sp->info.state == 'Z' || sp->info.state == 'X' || sp->info.rss_kb > 0)) {
		sp->nm = NMS_GONE;
		return;
	}
	if (rc == 0)
		rc = numa_maps_summarize(s->nmbuf.data ? s->nmbuf.data : "",
					 s->nmbuf.len, &s->params, &s->map, &s->sum);
	if (rc) {
		sp->nm = NMS_ERROR;
		sp->nm_errno = -rc;
		return;
	}
	sp->nm = NMS_OK;
	memcpy(sp->node_kb, s->sum.node_kb, n * sizeof(int64_t));
	memcpy(sp->anon_kb, s->sum.anon_kb, n * sizeof(int64_t));
	memcpy(sp->file_kb, s->sum.file_kb, n * sizeof(int64_t));
	memcpy(sp->huge_kb, s->sum.huge_kb, n * sizeof(int64_t));
	sp->total_kb = s->sum.total_kb;
	sp->nmappings = s->sum.nmappings;
	snprintf(sp->policy, sizeof(sp->policy), "%s", s->sum.policy);
	if (sp->home >= 0) {
		sp->remote_kb = sp->total_kb - sp->node_kb[sp->home];
		sp->remote_pct = sp->total_kb > 0 ?
				 100.0 * (double)sp->remote_kb / (double)sp->total_kb : -1;
	}
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
	if (want > snap->proccap) {
		struct snap_proc *p = realloc(snap->procs, want * sizeof(*p));
		if (!p)
			return -ENOMEM;
		snap->procs = p;
		snap->proccap = want;
	}
	size_t kb = want * 4 * (nnodes ? nnodes : 1);
	if (kb > snap->kb_cap) {
		int64_t *k = realloc(snap->kb_pool, kb * sizeof(*k));
		if (!k)
			return -ENOMEM;
		snap->kb_pool = k;
		snap->kb_cap = kb;
	}
	return 0;
}

static int scan_procs(struct sampler *s, struct snapshot *snap)
{
	size_t n = s->topo->nnodes ? s->topo->nnodes : 1;
	snap->nprocs = 0;
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
	double ticks_per_s = (double)s->hz;
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
		sp->home = sampler_home_node(s->topo, sp->threads, sp->info.thr_n,
					     sp->info.pid, s->node_counts);
		const struct prev_proc *pp = find_prev(s, sp->info.pid);
		uint64_t ticks = sp->info.utime + sp->info.stime;
		if (pp && pp->starttime == sp->info.starttime && snap->interval_s > 0 &&
		    ticks >= pp->ticks)
			sp->cpu_pct = 100.0 * (double)(ticks - pp->ticks) /
				      ticks_per_s / snap->interval_s;
		read_numa_maps(s, sp);
	}
	/* Remember ticks for the next CPU% (sorted by pid). */
	if (snap->nprocs > s->prevcap) {
		struct prev_proc *p = realloc(s->prev, snap->nprocs * sizeof(*p));
		if (!p)
			return -ENOMEM;
		s->prev = p;
		s->prevcap = snap->nprocs;
	}
	s->nprev = snap->nprocs;
	for (size_t i = 0; i < snap->nprocs; i++) {
		const struct proc_info *p = &snap->procs[i].info;
		s->prev[i] = (struct prev_proc){ p->pid, p->starttime, p->utime + p->stime };
	}
	for (size_t i = 1; i < s->nprev; i++)
		for (size_t j = i; j > 0 && s->prev[j].pid < s->prev[j - 1].pid; j--) {
			struct prev_proc tmp = s->prev[j];
			s->prev[j] = s->prev[j - 1];
			s->prev[j - 1] = tmp;
		}
	return 0;
}

int sampler_tick(struct sampler *s, struct snapshot *snap)
{
	int rc = ensure_snapshot(s, snap);
	if (rc)
		return rc;
	double now = mono_now(), self = self_cpu_seconds();
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
