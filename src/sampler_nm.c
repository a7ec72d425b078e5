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

static size_t kb_per(const struct sampler *s)
{
	return NM_KB_ARRAYS * (s->topo->nnodes ? s->topo->nnodes : 1);
}

int64_t *sampler_kb_row(const struct sampler *s, size_t i)
{
	return s->kept.kb + i * kb_per(s);
}

static void move_kept(struct sampler *s, size_t to, size_t from)
{
	size_t per = kb_per(s);
	s->kept.v[to] = s->kept.v[from];
	memcpy(s->kept.kb + to * per, s->kept.kb + from * per, per * sizeof(int64_t));
}

int sampler_align_kept(struct sampler *s, struct snapshot *snap)
{
	size_t n = snap->plist.n, per = kb_per(s), had = s->kept.n;
	struct snap_proc *v = snap->procs;
	/* A record keeps an entry of the last tick (the list zeroed the
	 * slot of a PID now another process); the entries' order is the
	 * records' (both by PID), so the kept ones move as a subsequence. */
	for (size_t i = 0; i < n; i++)
		if (v[i].kept_slot > had)
			v[i].kept_slot = 0;
	size_t cap = s->kept.cap, kbcap = s->kept.kbcap;
	struct sampler_kept *e = buf_grow_array(s->kept.v, &cap, n, sizeof(*e));
	if (e) {
		s->kept.v = e;
		s->kept.cap = cap;
	}
	int64_t *kb = buf_grow_array(s->kept.kb, &kbcap, n * per, sizeof(*kb));
	if (kb) {
		s->kept.kb = kb;
		s->kept.kbcap = kbcap;
	}
	if (!e || !kb)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)          /* those going to a lower index */
		if (v[i].kept_slot && v[i].kept_slot - 1 > i)
			move_kept(s, i, v[i].kept_slot - 1);
	for (size_t i = n; i-- > 0;)            /* and to a higher one */
		if (v[i].kept_slot && v[i].kept_slot - 1 < i)
			move_kept(s, i, v[i].kept_slot - 1);
	for (size_t i = 0; i < n; i++) {
		if (!v[i].kept_slot) {
			s->kept.v[i] = (struct sampler_kept){ 0 };
			memset(s->kept.kb + i * per, 0, per * sizeof(int64_t));
		}
		v[i].kept_slot = (uint32_t)i + 1;
	}
	s->kept.n = n;
	return 0;
}

/* A policy's text kept once; "?" past the pool's limit. The pool is
 * the sampler's one, shared by the warm-up's readers under pool_lock. */
static const char *pooled(const struct sampler *s, const struct nm_reader *rd,
			  const char *text)
{
	if (rd->pool_lock)
		pthread_mutex_lock(rd->pool_lock);
	const char *p = strpool_get(s->pol, text);
	if (rd->pool_lock)
		pthread_mutex_unlock(rd->pool_lock);
	return p ? p : "?";
}

static void take_summary(const struct sampler *s, const struct nm_reader *rd,
			 struct snap_proc *sp)
{
	size_t n = s->topo->nnodes;
	const struct nm_summary *sum = rd->sum;
	memcpy(sp->node_kb, sum->node_kb, n * sizeof(int64_t));
	memcpy(snap_kb(sp, n, SNAP_KB_ANON), sum->anon_kb, n * sizeof(int64_t));
	memcpy(snap_kb(sp, n, SNAP_KB_FILE), sum->file_kb, n * sizeof(int64_t));
	memcpy(snap_kb(sp, n, SNAP_KB_HUGE), sum->huge_kb, n * sizeof(int64_t));
	memcpy(snap_kb(sp, n, SNAP_KB_POL), sum->pol_kb, n * sizeof(int64_t));
	sp->pol_top = pooled(s, rd, sum->pol_top);
	sp->pol_mode = sum->pol_top_mode;
	sp->total_kb = sum->total_kb;
	sp->unknown_node_kb = sum->other_kb;
	sp->unknown_node_id = sum->other_id;
	sp->nm_warnings = sum->nbad;
	sp->huge_unknown = sum->unknown_size_pages > 0;
	sp->nmappings = sum->nmappings;
	sp->policy = pooled(s, rd, sum->policy);
	sp->nm = NMS_OK;
}

/* A failed read is the process's exit when it is no longer there as the
 * same process: no stat, another start time (its PID already reused by a
 * new process, as under churn), or a zombie. */
static bool proc_gone(const struct sampler *s, int rc, const struct proc_info *p)
{
	if (rc == -ESRCH)
		return true;
	struct pid_stat st;
	return proc_read_stat(s->root, p->pid, &st) != 0 || st.starttime != p->starttime ||
	       st.state == 'Z' || st.state == 'X';
}

struct feed {
	const struct nm_params *params;
	const struct nm_reader *rd;
};

static int feed_numa_maps(void *ctx, const char *data, size_t len, size_t *used)
{
	const struct feed *f = ctx;
	return numa_maps_feed(data, len, f->params, f->rd->map, f->rd->sum, used);
}

/* Read and summarize p's numa_maps in chunks: memory stays flat however
 * many mappings a process has. Live, through the process list's kept
 * /proc/PID; else by path. *total: bytes read. */
static int stream_numa_maps(const struct sampler *s, const struct nm_reader *rd,
			    const struct proc_info *p, size_t *total)
{
	struct feed f = { &s->params, rd };
	struct buf *b = rd->nmbuf;
	numa_maps_begin(rd->sum);
	int fd = proc_source_openat(s->src, p, "numa_maps"), rc;
	if (fd >= 0) {
		rc = fsroot_read_fd_chunks(fd, b, feed_numa_maps, &f, total);
	} else if (fd == -EOPNOTSUPP) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/numa_maps", p->pid);
		rc = fsroot_read_chunks(s->root, path, b, feed_numa_maps, &f, total);
	} else {
		*total = 0;
		rc = fd;
	}
	if (rc == 0)
		rc = numa_maps_end(rd->sum, b->len);
	if (b->cap > (1u << 17))
		buf_free(b);      /* grown by a long line: give it back */
	else
		buf_clear(b);
	return rc;
}

/* What a read ended in, the same for both kinds: no perm, gone, error,
 * or ok. empty: it found nothing (no numa_maps lines, no mappings), which
 * for a zombie, or a process that exited between the listing (RSS > 0
 * then) and this read, means gone; a kernel thread (RSS 0) has 0 kB. */
static enum nm_state read_state(const struct sampler *s, struct snap_proc *sp, int rc, bool empty)
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
	/* No placement: no kB (the read began without the last result's). */
	memset(sp->node_kb, 0, kb_per(s) * sizeof(int64_t));
	return sp->nm;
}

/* sp's last result gone (a read replaces it): its fields as a record
 * that was never read has them. */
static void result_reset(const struct sampler *s, struct snap_proc *sp)
{
	memset(sp->node_kb, 0, kb_per(s) * sizeof(int64_t));
	sp->nm = NMS_NOT_READ;
	sp->nm_errno = 0;
	sp->nm_sampled = false;
	sp->total_kb = -1;
	sp->unknown_node_kb = 0;
	sp->unknown_node_id = -1;
	sp->nm_warnings = 0;
	sp->huge_unknown = false;
	sp->nmappings = 0;
	sp->policy = sp->pol_top = "";
	sp->pol_mode = 0;
}

/* The same fields as result_reset, as the last tick left them. */
void sampler_result_restore(struct snap_proc *sp, const struct snap_proc *old)
{
	sp->nm = old->nm;
	sp->nm_errno = old->nm_errno;
	sp->nm_sampled = old->nm_sampled;
	sp->total_kb = old->total_kb;
	sp->unknown_node_kb = old->unknown_node_kb;
	sp->unknown_node_id = old->unknown_node_id;
	sp->nm_warnings = old->nm_warnings;
	sp->huge_unknown = old->huge_unknown;
	sp->nmappings = old->nmappings;
	sp->policy = old->policy;
	sp->pol_top = old->pol_top;
	sp->pol_mode = old->pol_mode;
}

void sampler_read_numa_maps(const struct sampler *s, const struct nm_reader *rd,
			    struct snap_proc *sp)
{
	result_reset(s, sp);
	size_t total = 0;
	int rc = stream_numa_maps(s, rd, &sp->info, &total);
	if (read_state(s, sp, rc, total == 0) == NMS_OK)
		take_summary(s, rd, sp);
}

/* Placement from maps + move_pages queries; the policy stays as last
 * read from numa_maps (the sampled read cannot see it). */
void sampler_read_sampled(const struct sampler *s, const struct nm_reader *rd,
			  struct snap_proc *sp, const struct sampler_kept *k)
{
	/* What the last result knew that a sampled read cannot see. */
	bool had = k->have;
	uint32_t nmaps = had ? sp->nmappings : 0;
	const char *policy = had && sp->nm == NMS_OK ? sp->policy : "";
	result_reset(s, sp);
	int rc = placement_sample(s->root, sp->info.pid, s->pagesize, &s->params,
				  &s->pops, nmaps, rd->psc, rd->sum);
	if (read_state(s, sp, rc, rc == 0 && rd->sum->nmappings == 0) != NMS_OK)
		return;
	placement_scale_rss(rd->sum, sp->info.rss_kb);
	take_summary(s, rd, sp);
	sp->nm_sampled = true;
	sp->policy = policy;
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
void sampler_prepare_proc(struct sampler *s, struct snapshot *snap, size_t i,
			  const struct snap_proc *old)
{
	struct snap_proc *sp = &snap->procs[i];
	/* NULL: new (or its PID reused) */
	const struct sampler_kept *e = sampler_kept_at(s, i)->valid ? sampler_kept_at(s, i) : NULL;
	sp->home = sampler_home_node(s->topo, snap_threads(snap, sp), sp->info.thr_n,
				     sp->info.pid, s->node_counts, e ? old->home : -1);
	/* HOME's history: where it was when it last changed (sticky). */
	sp->moved_from = !e ? -1 : old->home >= 0 && sp->home >= 0 && old->home != sp->home ?
			 old->home : old->moved_from;
	sp->rss_growth_kb = e && sp->info.rss_kb >= 0 && e->rss_prev >= 0 ?
			    sp->info.rss_kb - e->rss_prev : 0;
	uint64_t ticks = sp->info.utime + sp->info.stime;
	if (e && snap->interval_s > 0 && ticks >= e->ticks)
		sp->cpu_pct = 100.0 * parse_ticks_s(ticks - e->ticks) / snap->interval_s;
	uint64_t faults = sp->info.faults;
	bool have = e && e->have;
	s->sched[i] = (struct nmsched_proc){
		.priority = is_priority(s, sp->info.pid),
		.cached = have,
		.sampled = have && sp->nm_sampled,
		.changed = !have || sp->info.rss_kb != e->rss_at ||
			   faults != e->faults_at || e->vm_gen != (s->vm_gen & KEPT_GEN_MASK),
		.last_read = have ? e->read_at : -1,
		.last_cost = have ? e->cost : -1,
		.cost_rss_kb = have ? e->cost_rss : -1,
		.rss_kb = sp->info.rss_kb,
		.rss_delta_kb = e && sp->info.rss_kb >= 0 && e->rss_prev >= 0 ?
				sp->info.rss_kb - e->rss_prev : 0,
		.cpu_pct = sp->cpu_pct,
		.nmappings = have ? sp->nmappings : 0,
	};
}

/* After the reads: the kept results' age, REMOTE, and what the next tick
 * finds of this one (its kept entry). */
void sampler_finish_proc(struct sampler *s, struct snapshot *snap, size_t i)
{
	struct snap_proc *sp = &snap->procs[i];
	const struct nmsched_proc *q = &s->sched[i];
	struct sampler_kept *k = sampler_kept_at(s, i);
	bool had = k->valid && k->have;
	k->valid = true;
	k->ticks = sp->info.utime + sp->info.stime;
	k->rss_prev = sp->info.rss_kb;
	if (sp->nm_fresh) {
		/* A sampled read says nothing of the numa_maps cost. */
		bool full = q->how == NMSCHED_READ;
		sampler_keep_result(s, sp, k, full ? q->last_cost : had ? k->cost : -1,
				    full ? q->cost_rss_kb : had ? k->cost_rss : -1);
	} else if (had) {
		/* Kept: the last result (the record's own), with its age. */
		double age = s->tick_now - k->read_at;
		sp->nm_age_s = age > 0 ? age : 0;
	} else {
		k->have = false;
		k->cost = -1;
		k->cost_rss = -1;
	}
	sampler_set_remote(sp);
}

void sampler_set_remote(struct snap_proc *sp)
{
	if (sp->nm == NMS_OK && sp->home >= 0) {
		sp->remote_kb = sp->total_kb - sp->node_kb[sp->home];
	}
}

void sampler_keep_result(const struct sampler *s, struct snap_proc *sp, struct sampler_kept *k,
			 double cost, int64_t cost_rss)
{
	sp->nm_age_s = 0;
	k->have = true;
	k->read_at = s->tick_now;
	k->cost = (float)cost;
	k->cost_rss = cost_rss;
	k->rss_at = sp->info.rss_kb;
	k->faults_at = sp->info.faults;
	k->vm_gen = s->vm_gen & KEPT_GEN_MASK;
}
