/* sampler_nm.c - the per-process part of a tick: numa_maps read exactly
 * or estimated from samples, and what is kept of each process between
 * ticks (its CPU ticks, RSS and last result). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "sampler_int.h"

_Static_assert(offsetof(struct nm_cache, pid) == 0, "proc_find_pid needs pid first");

static size_t kb_per(const struct sampler *s)
{
	return NM_KB_ARRAYS * (s->topo->nnodes ? s->topo->nnodes : 1);
}

const struct nm_cache *sampler_prev(const struct sampler *s, size_t i)
{
	return i < s->cache.n && s->cache.v[i].valid ? &s->cache.v[i] : NULL;
}

int64_t *sampler_cache_kb(const struct sampler *s, const struct nm_cache *c)
{
	return s->cache.kb + (size_t)(c - s->cache.v) * kb_per(s);
}

static void move_entry(struct cache_gen *g, size_t to, size_t from, size_t per)
{
	g->v[to] = g->v[from];
	memcpy(g->kb + to * per, g->kb + from * per, per * sizeof(int64_t));
}

#define PL(i) (proc_list_at(pl, (i)))

int sampler_align_cache(struct sampler *s, const struct proc_list *pl)
{
	struct cache_gen *g = &s->cache;
	size_t per = kb_per(s), w = 0, i = 0;
	/* Forward: keep the entries of processes still listed (w <= j). */
	for (size_t j = 0; j < g->n; j++) {
		const struct nm_cache *c = &g->v[j];
		while (i < pl->n && PL(i)->pid < c->pid)
			i++;
		if (i < pl->n && PL(i)->pid == c->pid && PL(i)->starttime == c->starttime) {
			if (w != j)
				move_entry(g, w, j, per);
			w++;
		}
	}
	g->n = w;
	struct nm_cache *v = buf_grow_array(g->v, &g->cap, pl->n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	g->v = v;
	size_t kcap = g->kbcap;
	int64_t *k = buf_grow_array(g->kb, &kcap, pl->n * per, sizeof(*k));
	if (!k)
		return -ENOMEM;
	g->kb = k;
	g->kbcap = kcap;
	/* Backward: each kept entry to its process's index, new ones made.
	 * The kept are a subsequence of the list, so k - 1 <= t. */
	size_t kk = w;
	for (size_t t = pl->n; t-- > 0;) {
		if (kk > 0 && g->v[kk - 1].pid == PL(t)->pid) {
			kk--;
			if (kk != t)
				move_entry(g, t, kk, per);
		} else {
			g->v[t] = (struct nm_cache){ .pid = PL(t)->pid,
						     .starttime = PL(t)->starttime,
						     .r = { .cost = -1, .cost_rss = -1 } };
			memset(g->kb + t * per, 0, per * sizeof(int64_t));
		}
	}
	g->n = pl->n;
	return 0;
}

/* A policy's text kept once; "?" past the pool's limit. */
static const char *pooled(struct sampler *s, const char *text)
{
	const char *p = strpool_get(s->pol, text);
	return p ? p : "?";
}

static void take_summary(struct sampler *s, struct snap_proc *sp)
{
	size_t n = s->topo->nnodes;
	memcpy(sp->node_kb, s->sum.node_kb, n * sizeof(int64_t));
	memcpy(sp->anon_kb, s->sum.anon_kb, n * sizeof(int64_t));
	memcpy(sp->file_kb, s->sum.file_kb, n * sizeof(int64_t));
	memcpy(sp->huge_kb, s->sum.huge_kb, n * sizeof(int64_t));
	memcpy(sp->pol_kb, s->sum.pol_kb, n * sizeof(int64_t));
	sp->pol_top = pooled(s, s->sum.pol_top);
	sp->pol_mode = s->sum.pol_top_mode;
	sp->total_kb = s->sum.total_kb;
	sp->unknown_node_kb = s->sum.other_kb;
	sp->unknown_node_id = s->sum.other_id;
	sp->nm_warnings = s->sum.nbad;
	sp->huge_unknown = s->sum.unknown_size_pages > 0;
	sp->nmappings = s->sum.nmappings;
	sp->policy = pooled(s, s->sum.policy);
	sp->nm = NMS_OK;
}

/* A failed read is the process's exit when it is no longer there as the
 * same process: no stat, another start time (its PID already reused by a
 * new process, as under churn), or a zombie. */
static bool proc_gone(struct sampler *s, int rc, const struct proc_info *p)
{
	if (rc == -ESRCH)
		return true;
	struct pid_stat st;
	return proc_read_stat(s->root, p->pid, &st) != 0 || st.starttime != p->starttime ||
	       st.state == 'Z' || st.state == 'X';
}

static int feed_numa_maps(void *ctx, const char *data, size_t len, size_t *used)
{
	struct sampler *s = ctx;
	return numa_maps_feed(data, len, &s->params, &s->map, &s->sum, used);
}

/* Read and summarize p's numa_maps in chunks: memory stays flat however
 * many mappings a process has. Live, through the process list's kept
 * /proc/PID; else by path. *total: bytes read. */
static int stream_numa_maps(struct sampler *s, const struct proc_info *p, size_t *total)
{
	numa_maps_begin(&s->sum);
	int fd = proc_source_openat(s->src, p, "numa_maps"), rc;
	if (fd >= 0) {
		rc = fsroot_read_fd_chunks(fd, &s->nmbuf, feed_numa_maps, s, total);
	} else if (fd == -EOPNOTSUPP) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/numa_maps", p->pid);
		rc = fsroot_read_chunks(s->root, path, &s->nmbuf, feed_numa_maps, s, total);
	} else {
		*total = 0;
		rc = fd;
	}
	if (rc == 0)
		rc = numa_maps_end(&s->sum, s->nmbuf.len);
	if (s->nmbuf.cap > (1u << 17))
		buf_free(&s->nmbuf);      /* grown by a long line: give it back */
	else
		buf_clear(&s->nmbuf);
	return rc;
}

/* What a read ended in, the same for both kinds: no perm, gone, error,
 * or ok. empty: it found nothing (no numa_maps lines, no mappings), which
 * for a zombie, or a process that exited between the listing (RSS > 0
 * then) and this read, means gone; a kernel thread (RSS 0) has 0 kB. */
static enum nm_state read_state(struct sampler *s, struct snap_proc *sp, int rc, bool empty)
{
	if (rc == -EACCES || rc == -EPERM)
		sp->nm = NMS_NO_PERM;
	else if (rc && proc_gone(s, rc, &sp->info))
		sp->nm = NMS_GONE;
	else if (rc)
		sp->nm = NMS_ERROR, sp->nm_errno = -rc;
	else if (empty && (sp->info.state == 'Z' || sp->info.state == 'X' || sp->info.rss_kb > 0))
		sp->nm = NMS_GONE;
	else
		return NMS_OK;   /* the caller takes the summary */
	/* No placement: none of the last result's kB stay (the arrays are
	 * the cache entry's). */
	memset(sp->node_kb, 0, kb_per(s) * sizeof(int64_t));
	return sp->nm;
}

void sampler_read_numa_maps(struct sampler *s, struct snap_proc *sp)
{
	size_t total = 0;
	int rc = stream_numa_maps(s, &sp->info, &total);
	if (read_state(s, sp, rc, total == 0) == NMS_OK)
		take_summary(s, sp);
}

/* Placement from maps + move_pages queries; the policy stays as last
 * read from numa_maps (the sampled read cannot see it). */
void sampler_read_sampled(struct sampler *s, struct snap_proc *sp, const struct nm_cache *e)
{
	int rc = placement_sample(s->root, sp->info.pid, s->pagesize, &s->params,
				  &s->pops, e && e->r.have ? e->r.nmappings : 0, &s->psc, &s->sum);
	if (read_state(s, sp, rc, rc == 0 && s->sum.nmappings == 0) != NMS_OK)
		return;
	placement_scale_rss(&s->sum, sp->info.rss_kb);
	take_summary(s, sp);
	sp->nm_sampled = true;
	sp->policy = e && e->r.have && e->r.nm == NMS_OK && e->r.policy ? e->r.policy : "";
}


static bool is_priority(const struct sampler *s, int pid)
{
	for (size_t i = 0; i < s->nprio; i++)
		if (s->prio[i] == pid)
			return true;
	return false;
}

/* The cheap part of every process (CPU%, HOME), and what the scheduler
 * needs to know of it. */
void sampler_prepare_proc(struct sampler *s, struct snapshot *snap, size_t i)
{
	struct snap_proc *sp = &snap->procs[i];
	const struct nm_cache *e = sampler_prev(s, i);   /* NULL: new (or its PID reused) */
	sp->home = sampler_home_node(s->topo, sp->threads, sp->info.thr_n,
				     sp->info.pid, s->node_counts);
	/* HOME's history: where it was when it last changed (sticky). */
	sp->moved_from = !e ? -1 : e->home >= 0 && sp->home >= 0 && e->home != sp->home ?
			 e->home : e->moved_from;
	sp->rss_growth_kb = e && sp->info.rss_kb >= 0 && e->rss_prev >= 0 ?
			    sp->info.rss_kb - e->rss_prev : 0;
	uint64_t ticks = sp->info.utime + sp->info.stime;
	if (e && snap->interval_s > 0 && ticks >= e->ticks)
		sp->cpu_pct = 100.0 * parse_ticks_s(ticks - e->ticks) / snap->interval_s;
	uint64_t faults = sp->info.minflt + sp->info.majflt;
	bool have = e && e->r.have;
	s->sched[i] = (struct nmsched_proc){
		.priority = is_priority(s, sp->info.pid),
		.cached = have,
		.sampled = have && e->r.sampled,
		.changed = !have || sp->info.rss_kb != e->r.rss_at ||
			   faults != e->r.faults_at || e->r.vm_gen != s->vm_gen,
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

/* After the reads: the kept results, REMOTE, and this tick's cache entry
 * (the same entry, updated in place). */
void sampler_finish_proc(struct sampler *s, struct snapshot *snap, size_t i)
{
	size_t per = kb_per(s);
	struct snap_proc *sp = &snap->procs[i];
	const struct nmsched_proc *q = &s->sched[i];
	struct nm_cache *c = &s->cache.v[i];
	int64_t *kb = s->cache.kb + i * per;
	bool had = c->valid && c->r.have;
	c->valid = true;
	c->ticks = sp->info.utime + sp->info.stime;
	c->rss_prev = sp->info.rss_kb;
	c->home = sp->home;
	c->moved_from = sp->moved_from;
	if (sp->nm_fresh) {
		/* A sampled read says nothing of the numa_maps cost. */
		bool full = q->how == NMSCHED_READ;
		sampler_keep_result(s, sp, c, kb, full ? q->last_cost : had ? c->r.cost : -1,
				    full ? q->cost_rss_kb : had ? c->r.cost_rss : -1);
	} else if (had) {
		/* Kept: the last result, with its age. */
		const struct nm_result *r = &c->r;
		if (sp->node_kb != kb)   /* the same arrays in a live tick */
			memcpy(sp->node_kb, kb, per * sizeof(int64_t));
		sp->pol_top = r->pol_top ? r->pol_top : "";
		sp->pol_mode = r->pol_mode;
		sp->nm = r->nm;
		sp->nm_errno = r->nm_errno;
		sp->nm_sampled = r->sampled;
		sp->total_kb = r->nm == NMS_OK ? r->total_kb : -1;
		sp->unknown_node_kb = r->other_kb;
		sp->unknown_node_id = r->other_id;
		sp->nm_warnings = r->nbad;
		sp->huge_unknown = r->huge_unknown;
		sp->nmappings = r->nmappings;
		sp->policy = r->policy ? r->policy : "";
		double age = s->tick_now - r->read_at;
		sp->nm_age_s = age > 0 ? age : 0;
	} else {
		c->r = (struct nm_result){ .cost = -1, .cost_rss = -1 };
	}
	sampler_set_remote(sp);
}

void sampler_set_remote(struct snap_proc *sp)
{
	if (sp->nm == NMS_OK && sp->home >= 0) {
		sp->remote_kb = sp->total_kb - sp->node_kb[sp->home];
		sp->remote_pct = sp->total_kb > 0 ?
				 100.0 * (double)sp->remote_kb / (double)sp->total_kb : -1;
	}
}

void sampler_keep_result(struct sampler *s, struct snap_proc *sp, struct nm_cache *c,
			 int64_t *kb, double cost, int64_t cost_rss)
{
	size_t n = s->topo->nnodes ? s->topo->nnodes : 1;
	sp->nm_age_s = 0;
	struct nm_result *r = &c->r;
	r->have = true;
	r->read_at = s->tick_now;
	r->cost = cost;
	r->cost_rss = cost_rss;
	r->rss_at = sp->info.rss_kb;
	r->faults_at = sp->info.minflt + sp->info.majflt;
	r->vm_gen = s->vm_gen;
	r->nm = sp->nm;
	r->nm_errno = sp->nm_errno;
	r->sampled = sp->nm_sampled;
	r->total_kb = sp->total_kb;
	r->other_kb = sp->unknown_node_kb;
	r->other_id = sp->unknown_node_id;
	r->nbad = sp->nm_warnings;
	r->huge_unknown = sp->huge_unknown;
	r->nmappings = sp->nmappings;
	r->policy = sp->policy;
	r->pol_top = sp->pol_top;
	r->pol_mode = sp->pol_mode;
	if (kb != sp->node_kb)
		memcpy(kb, sp->node_kb, NM_KB_ARRAYS * n * sizeof(int64_t));
}
