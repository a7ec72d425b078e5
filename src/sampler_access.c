/* sampler_access.c - access heat in the sampler (access.h): which
 * processes our kdamond watches (the selected and tagged, then the most
 * remote, in turns of ACCESS_TURN_S), asking it for the regions once a
 * sample, the node of a few pages of each hot or warm region, and each
 * process's last heat kept for ACCESS_KEEP_S. On a recorded tree the
 * kdamonds tree is only read: a kdamond there with a vaddr context and a
 * stat scheme stands in for ours. DAMON is never written unless it is
 * free or ours (damon_ctl.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "damon_ctl.h"
#include "parse.h"
#include "sampler_int.h"

/* What is known of one process's heat, kept between samples. */
struct acc_entry {
	int pid;
	uint64_t starttime;
	double turn_start;            /* -1: not watched now */
	double last_on;               /* when it was last watched, -1 never */
	bool have;
	double at;                    /* when the heat below was read */
	struct access_proc heat;      /* arrays: kb below */
	int64_t *kb;                  /* 3 * nnodes */
	struct access_region reg[ACCESS_MAX_REGIONS];
	int64_t *reg_kb;              /* ACCESS_MAX_REGIONS * nnodes */
};

struct access_state {
	enum sampler_access mode;
	bool started, tried;
	struct damon_ctl ctl;
	bool ctl_ok;
	enum access_why why;
	char msg[160];
	double retry_at, probe_at;
	int pids[ACCESS_MAX_TARGETS];     /* in the kdamond's target order */
	double slot_since[ACCESS_MAX_TARGETS];  /* when each slot got its pid */
	size_t npids;
	struct acc_entry *e;
	size_t ne, ecap;
	struct damon_scheme sch;
	int64_t *reg_node_kb;         /* scratch: nregions * nnodes */
	size_t rnk_cap;
	size_t *first;
	void **pages;
	int *status;
	uint64_t kd_ticks;            /* the kdamond's utime + stime */
	double kd_at;
	int64_t kd_pid;
	double request_ms;
};

static void entry_free(struct acc_entry *e)
{
	free(e->kb);
	free(e->reg_kb);
}

void sampler_access_free(struct sampler *s)
{
	struct access_state *a = s->access;
	if (!a)
		return;
	if (a->ctl_ok)
		damon_ctl_stop(&a->ctl);
	for (size_t i = 0; i < a->ne; i++)
		entry_free(&a->e[i]);
	free(a->e);
	free(a->sch.regions);
	free(a->reg_node_kb);
	free(a->first);
	free(a->pages);
	free(a->status);
	free(a);
	s->access = NULL;
}

int sampler_set_access(struct sampler *s, enum sampler_access mode)
{
	if (!s->access) {
		s->access = calloc(1, sizeof(*s->access));
		if (!s->access)
			return -ENOMEM;
		s->access->pages = calloc(ACCESS_SAMPLE_PAGES, sizeof(void *));
		s->access->status = calloc(ACCESS_SAMPLE_PAGES, sizeof(int));
		if (!s->access->pages || !s->access->status)
			return -ENOMEM;
		s->access->kd_pid = -1;
	}
	s->access->mode = mode;
	return 0;
}

void sampler_access_stop_signal(struct sampler *s)
{
	if (s && s->access && s->access->ctl_ok)
		damon_ctl_stop_signal(&s->access->ctl);
}

static struct acc_entry *entry_find(struct access_state *a, int pid, uint64_t st)
{
	for (size_t i = 0; i < a->ne; i++)
		if (a->e[i].pid == pid && a->e[i].starttime == st)
			return &a->e[i];
	return NULL;
}

static struct acc_entry *entry_get(struct access_state *a, size_t nn, int pid, uint64_t st)
{
	struct acc_entry *e = entry_find(a, pid, st);
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
		entry_free(e);
		return NULL;
	}
	e->pid = pid;
	e->starttime = st;
	e->turn_start = e->last_on = -1;
	a->ne++;
	return e;
}

/* Index of pid in snap (sorted by PID during the tick), or -1. */
static long find_proc(const struct snapshot *snap, int pid)
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
static void entries_expire(struct access_state *a, const struct snapshot *snap, double now)
{
	size_t k = 0;
	for (size_t i = 0; i < a->ne; i++) {
		struct acc_entry *e = &a->e[i];
		long j = find_proc(snap, e->pid);
		bool alive = j >= 0 && snap->procs[j].info.starttime == e->starttime;
		bool keep = alive && (e->turn_start >= 0 || (e->last_on >= 0 && now - e->last_on <= ACCESS_KEEP_S));
		if (keep)
			a->e[k++] = *e;
		else
			entry_free(e);
	}
	a->ne = k;
}

/* May process p be watched: a user process with memory. */
static bool watchable(const struct snap_proc *p)
{
	return !p->info.kthread && p->info.pid > 0 && p->total_kb > 0;
}

static bool in_set(const int *v, size_t n, int pid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == pid)
			return true;
	return false;
}

/* The processes to watch: the selected and tagged, those whose turn goes
 * on, then by remote memory those watched longest ago (never first). */
static size_t choose(struct sampler *s, const struct snapshot *snap, double now, int *out)
{
	struct access_state *a = s->access;
	size_t n = 0;
	for (size_t i = 0; i < s->nprio && n < ACCESS_MAX_TARGETS; i++) {
		long j = find_proc(snap, s->prio[i]);
		if (j >= 0 && watchable(&snap->procs[j]) && !in_set(out, n, s->prio[i]))
			out[n++] = s->prio[i];
	}
	for (size_t i = 0; i < a->ne && n < ACCESS_MAX_TARGETS; i++) {
		const struct acc_entry *e = &a->e[i];
		if (e->turn_start < 0 || now - e->turn_start >= ACCESS_TURN_S || in_set(out, n, e->pid))
			continue;
		long j = find_proc(snap, e->pid);
		if (j >= 0 && watchable(&snap->procs[j]) && snap->procs[j].remote_kb > 0)
			out[n++] = e->pid;
	}
	while (n < ACCESS_MAX_TARGETS) {
		long best = -1;
		double best_last = 0;
		for (size_t j = 0; j < snap->nprocs; j++) {
			const struct snap_proc *p = &snap->procs[j];
			if (!watchable(p) || p->remote_kb <= 0 || in_set(out, n, p->info.pid))
				continue;
			const struct acc_entry *e = entry_find(a, p->info.pid, p->info.starttime);
			double last = e && e->last_on >= 0 ? e->last_on : -1e300;
			if (best < 0 || last < best_last ||
			    (last == best_last && p->remote_kb > snap->procs[best].remote_kb)) {
				best = (long)j;
				best_last = last;
			}
		}
		if (best < 0)
			break;
		out[n++] = snap->procs[best].info.pid;
	}
	return n;
}

static enum access_why why_of(int rc)
{
	switch (rc) {
	case -ENOENT: return ACCESS_NO_DAMON;
	case -EOPNOTSUPP: return ACCESS_NO_VADDR;
	case -EACCES: case -EPERM: return ACCESS_NOT_ROOT;
	case -EBUSY: return ACCESS_IN_USE;
	default: return ACCESS_ERROR;
	}
}

/* The kdamond's targets for the wanted set: a process kept stays in its
 * slot (the kernel commits targets by position and keeps a slot's
 * regions, and their ages, when its pid changes), a new one takes a free
 * slot; a slot whose pid changed is dated, so that ages from before are
 * not taken for the new process's. Returns the count in order[]. */
static size_t arrange(struct access_state *a, const int *want, size_t n, int *order,
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

/* Our kdamond on exactly these pids: started, changed or stopped. */
static int ensure_targets(struct access_state *a, const int *want, size_t nwant, double now)
{
	int pids[ACCESS_MAX_TARGETS];
	double since[ACCESS_MAX_TARGETS];
	size_t n = a->started ? arrange(a, want, nwant, pids, since, now) : nwant;
	if (!a->started) {
		memcpy(pids, want, nwant * sizeof(*want));
		for (size_t i = 0; i < n; i++)
			since[i] = now;
	}
	if (n == 0) {
		if (a->started)
			damon_ctl_stop(&a->ctl);
		a->started = false;
		a->npids = 0;
		return 0;
	}
	bool same = a->started && n == a->npids && memcmp(pids, a->pids, n * sizeof(*pids)) == 0;
	if (same)
		return 0;
	int rc = a->started ? damon_ctl_set_targets(&a->ctl, pids, n) : -ESRCH;
	if (rc && a->started && rc != -ESRCH) {
		/* It stopped by itself (every target exited) or refused the
		 * new ones: make it again. */
		damon_ctl_stop(&a->ctl);
	}
	if (rc) {
		a->started = false;
		if (now < a->retry_at)
			return -EAGAIN;
		memcpy(pids, want, nwant * sizeof(*want));
		n = nwant;
		for (size_t i = 0; i < n; i++)
			since[i] = now;
		rc = damon_ctl_start(&a->ctl, pids, n);
	}
	if (rc) {
		a->why = why_of(rc);
		snprintf(a->msg, sizeof(a->msg), "%s", damon_ctl_message(&a->ctl));
		/* Someone else's kdamond may go; a kernel does not change. */
		a->retry_at = now + (a->why == ACCESS_IN_USE || a->why == ACCESS_ERROR ? 10.0 : 1e300);
		return rc;
	}
	a->started = true;
	memcpy(a->pids, pids, n * sizeof(*pids));
	memcpy(a->slot_since, since, n * sizeof(*since));
	a->npids = n;
	a->why = ACCESS_ON;
	a->msg[0] = '\0';
	return 0;
}

/* Resident kB per node of region r of pid, from ACCESS_SAMPLE_PAGES
 * pages evenly spaced (kb[nnodes]; all -1 when not known). */
static void sample_region(struct sampler *s, int pid, const struct damon_region *r, int64_t *kb)
{
	struct access_state *a = s->access;
	size_t nn = s->topo->nnodes;
	uint64_t ps = (uint64_t)(s->pagesize > 0 ? s->pagesize : 4096);
	uint64_t npages = (r->end - r->start) / ps;
	if (npages == 0)
		npages = 1;
	size_t ns = npages < ACCESS_SAMPLE_PAGES ? (size_t)npages : ACCESS_SAMPLE_PAGES;
	for (size_t i = 0; i < ns; i++) {
		uint64_t pg = npages * i / ns + npages / (2 * ns);
		a->pages[i] = (void *)(uintptr_t)(r->start + pg * ps);
	}
	for (size_t k = 0; k < nn; k++)
		kb[k] = 0;
	long rc = s->pops.move_pages(s->pops.ctx, pid, ns, a->pages, NULL, a->status, 0);
	if (rc < 0) {
		for (size_t k = 0; k < nn; k++)
			kb[k] = -1;
		return;
	}
	double per_kb = (double)(r->end - r->start) / 1024.0 / (double)ns;
	for (size_t i = 0; i < ns; i++) {
		if (a->status[i] < 0)
			continue;         /* not present (or not a page): no memory */
		int k = topology_node_index(s->topo, a->status[i]);
		if (k >= 0)
			kb[k] += (int64_t)(per_kb + 0.5);
	}
}

/* Where no page can be asked (a recorded tree): each region's kB per
 * node from the numa_maps mappings it overlaps, a mapping's pages taken
 * as dense from its start (numa_maps has no end). All -1
 * when numa_maps cannot be read. */
static void regions_from_numa_maps(struct sampler *s, int pid, const struct damon_region *r,
				   size_t n, int64_t *kb)
{
	size_t nn = s->topo->nnodes;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/numa_maps", pid);
	int rc = fsroot_read_file(s->root, path, &s->scratch, 0);
	for (size_t i = 0; i < n * nn; i++)
		kb[i] = rc ? -1 : 0;
	if (rc)
		return;
	const char *p = s->scratch.data, *end = p + s->scratch.len;
	struct nm_mapping *m = &s->map, next;
	nm_mapping_init(&next);
	bool have = false;
	while (p < end || have) {
		/* Parse one line ahead: a mapping ends where the next begins. */
		bool more = false;
		while (p < end && !more) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
			more = numa_maps_parse_line(p, len, have ? &next : m) == 0;
			p += len + (nl != NULL);
		}
		if (!have) {
			have = more;
			if (!have)
				break;
			continue;
		}
		uint64_t mstart = m->start, mend = more ? next.start : UINT64_MAX;
		int64_t pkb = nm_mapping_page_kb(m, s->pagesize / 1024, s->params.default_huge_kb);
		uint64_t total = 0;
		for (size_t k = 0; k < m->nnodes; k++)
			total += m->nodes[k].pages;
		/* Without maps, a mapping's extent is not known: its pages
		 * taken as dense, up to the next mapping. */
		if (pkb > 0 && mstart + total * (uint64_t)pkb * 1024 < mend)
			mend = mstart + total * (uint64_t)pkb * 1024;
		for (size_t i = 0; i < n && pkb > 0 && mend > mstart; i++) {
			uint64_t lo = r[i].start > mstart ? r[i].start : mstart;
			uint64_t hi = r[i].end < mend ? r[i].end : mend;
			if (hi <= lo)
				continue;
			double share = (double)(hi - lo) / (double)(mend - mstart);
			for (size_t k = 0; k < m->nnodes; k++) {
				int ni = topology_node_index(s->topo, m->nodes[k].node);
				if (ni >= 0)
					kb[i * nn + (size_t)ni] += (int64_t)((double)m->nodes[k].pages * (double)pkb * share + 0.5);
			}
		}
		if (!more)
			break;
		/* The next line becomes the current one. */
		struct nm_mapping t = *m;
		*m = next;
		next = t;
	}
	nm_mapping_free(&next);
}

/* The join for one process whose regions are r[0..n). */
static void join_proc(struct sampler *s, struct snapshot *snap, long pi, const struct damon_region *r,
		      size_t n, double aggr_s, double sample_s, double max_age_s, double now)
{
	struct access_state *a = s->access;
	const struct snap_proc *p = &snap->procs[pi];
	size_t nn = s->topo->nnodes;
	struct acc_entry *e = entry_get(a, nn, p->info.pid, p->info.starttime);
	if (!e)
		return;
	if (n * nn > a->rnk_cap) {
		int64_t *v = realloc(a->reg_node_kb, n * nn * sizeof(*v));
		if (!v)
			return;
		a->reg_node_kb = v;
		a->rnk_cap = n * nn;
	}
	if (s->cfg.can_sample) {
		for (size_t i = 0; i < n; i++)
			if (access_region_heat(&r[i], aggr_s) != ACCESS_COLD)
				sample_region(s, p->info.pid, &r[i], a->reg_node_kb + i * nn);
	} else {
		regions_from_numa_maps(s, p->info.pid, r, n, a->reg_node_kb);
	}
	bool *work = calloc(nn ? nn : 1, sizeof(*work));
	size_t *w = calloc(nn ? nn : 1, sizeof(*w));
	if (work && w && p->info.thr_n) {
		sampler_thread_work(s->topo, p->threads, p->info.thr_n, w);
		for (size_t k = 0; k < nn; k++)
			work[k] = w[k] > 0;
	}
	struct access_join_in in = {
		.nnodes = nn, .r = r, .n = n, .aggr_s = aggr_s, .sample_s = sample_s,
		.reg_node_kb = a->reg_node_kb, .node_kb = p->total_kb >= 0 ? p->node_kb : NULL,
		.work = work && p->info.thr_n ? work : NULL, .home = p->home,
		.max_age_s = max_age_s,
	};
	e->heat.hot_node_kb = e->kb;
	e->heat.warm_node_kb = e->kb + nn;
	e->heat.cold_node_kb = e->kb + 2 * nn;
	size_t nreg = 0;
	access_join(&in, &e->heat, e->reg, ACCESS_MAX_REGIONS, &nreg, e->reg_kb);
	e->heat.regions = e->reg;
	e->heat.nregions = nreg;
	e->heat.pid = p->info.pid;
	e->heat.source = ACCESS_SRC_DAMON;
	e->heat.monitored_s = e->turn_start >= 0 ? now - e->turn_start : 0;
	/* A recorded tree: watched at least as long as its oldest region. */
	for (size_t i = 0; !s->cfg.can_sample && !fsroot_is_live(s->root) && i < n; i++)
		if (r[i].age > 0 && (double)r[i].age * aggr_s > e->heat.monitored_s)
			e->heat.monitored_s = (double)r[i].age * aggr_s;
	e->have = true;
	e->at = now;
	free(work);
	free(w);
}

/* Split the scheme's regions among the targets and join each. */
static void join_all(struct sampler *s, struct snapshot *snap, const int *pids,
		     const double *since, size_t n, double aggr_s, double sample_s, double now)
{
	struct access_state *a = s->access;
	size_t *first = realloc(a->first, (n + 1) * sizeof(*first));
	if (!first)
		return;
	a->first = first;
	if (damon_split_targets(a->sch.regions, a->sch.nregions, n, first) != 0)
		return;               /* not certain which regions are whose */
	for (size_t t = 0; t < n; t++) {
		long pi = find_proc(snap, pids[t]);
		if (pi >= 0)
			join_proc(s, snap, pi, a->sch.regions + first[t], first[t + 1] - first[t],
				  aggr_s, sample_s, since ? now - since[t] : 0, now);
	}
}

/* Our kdamond's CPU since the last sample (its thread's utime + stime). */
static void kdamond_cpu(struct sampler *s, struct snapshot *snap, int64_t pid, double now)
{
	struct access_state *a = s->access;
	snap->access.kdamond_pid = pid;
	snap->access.kdamond_cpu_pct = -1;
	if (pid <= 0)
		return;
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%lld/stat", (long long)pid);
	int len = fsroot_read_small(s->root, path, buf, sizeof(buf));
	struct pid_stat ps;
	if (len <= 0 || parse_pid_stat(buf, (size_t)len, &ps) != 0)
		return;
	uint64_t t = ps.utime + ps.stime;
	if (a->kd_pid == pid && a->kd_at > 0 && now > a->kd_at && t >= a->kd_ticks)
		snap->access.kdamond_cpu_pct = 100.0 * parse_ticks_s(t - a->kd_ticks) / (now - a->kd_at);
	a->kd_pid = pid;
	a->kd_ticks = t;
	a->kd_at = now;
}

/* A recorded tree: any kdamond with a vaddr context and a stat scheme
 * whose regions were read stands in for ours. */
static void read_recorded(struct sampler *s, struct snapshot *snap, double now)
{
	struct access_state *a = s->access;
	struct damon_status st;
	a->why = ACCESS_RECORDED;
	if (damon_read(s->root, &st) != 0)
		return;
	if (st.avail == DAMON_UNAVAILABLE)
		a->why = ACCESS_NO_DAMON;
	for (size_t k = 0; k < st.nkd && a->why != ACCESS_ON; k++) {
		const struct damon_kdamond *kd = &st.kd[k];
		if (kd->nctxs != 1 || strcmp(kd->ctxs[0].operations, "vaddr") != 0 ||
		    kd->ctxs[0].nschemes < 1 || kd->ctxs[0].ntargets == 0 ||
		    kd->ctxs[0].ntargets > ACCESS_MAX_TARGETS)
			continue;
		const struct damon_context *c = &kd->ctxs[0];
		if (damon_read_regions(s->root, kd->index, 0, 0, &a->sch) != 0 || a->sch.nregions == 0)
			continue;
		int pids[ACCESS_MAX_TARGETS];
		for (size_t t = 0; t < c->ntargets; t++) {
			pids[t] = (int)c->pids[t];
			struct acc_entry *e;
			long pi = find_proc(snap, pids[t]);
			if (pi >= 0 && (e = entry_get(a, s->topo->nnodes, pids[t],
						      snap->procs[pi].info.starttime)) != NULL) {
				if (e->turn_start < 0)
					e->turn_start = now;
				e->last_on = now;
			}
		}
		join_all(s, snap, pids, NULL, c->ntargets, (double)c->aggr_us / 1e6,
			 (double)c->sample_us / 1e6, now);
		a->why = ACCESS_ON;
		snap->access.window_s = (double)c->aggr_us / 1e6;
		snap->access.monitored = c->ntargets;
		kdamond_cpu(s, snap, kd->pid, now);
	}
	damon_status_free(&st);
}

/* Nothing to watch: what DAMON's state would say (every 10 s). */
static void probe(struct sampler *s, double now)
{
	struct access_state *a = s->access;
	if (now < a->probe_at)
		return;
	a->probe_at = now + 10.0;
	struct damon_status st;
	if (damon_read(s->root, &st) != 0)
		return;
	struct damon_record rec;
	bool have = damon_record_load(a->ctl.record_path, &rec) == 0;
	damon_classify(s->root, &st, have ? &rec : NULL, &a->ctl.self);
	a->msg[0] = '\0';
	switch (st.avail) {
	case DAMON_UNAVAILABLE: a->why = ACCESS_NO_DAMON; break;
	case DAMON_NOT_PERMITTED: a->why = ACCESS_NOT_ROOT; break;
	case DAMON_ERROR: a->why = ACCESS_ERROR; break;
	case DAMON_IN_USE:
		a->why = ACCESS_IN_USE;
		snprintf(a->msg, sizeof(a->msg), "DAMON is in use by someone else (%lld kdamond%s): not used",
			 (long long)st.nr_kdamonds, st.nr_kdamonds == 1 ? "" : "s");
		break;
	default:
		a->why = ACCESS_NOT_YET;
		snprintf(a->msg, sizeof(a->msg), "DAMON is free: no process has remote memory to watch");
	}
	damon_status_free(&st);
}

static void read_live(struct sampler *s, struct snapshot *snap, double now)
{
	struct access_state *a = s->access;
	if (!a->tried) {
		a->tried = true;
		int rc = damon_ctl_init(&a->ctl, s->root, NULL);
		a->ctl_ok = rc == 0;
		if (rc) {
			a->why = ACCESS_ERROR;
			snprintf(a->msg, sizeof(a->msg), "DAMON: cannot tell who we are: %s", strerror(-rc));
			a->retry_at = 1e300;
		}
	}
	if (!a->ctl_ok)
		return;
	int pids[ACCESS_MAX_TARGETS];
	size_t n = choose(s, snap, now, pids);
	if (n == 0 && !a->started) {
		probe(s, now);
		return;
	}
	int oldpids[ACCESS_MAX_TARGETS];
	size_t oldn = a->npids;
	memcpy(oldpids, a->pids, sizeof(oldpids));
	if (ensure_targets(a, pids, n, now) != 0 || !a->started)
		return;
	/* Turns: the start of a new one, the end of those that left. */
	for (size_t i = 0; i < oldn; i++)
		if (!in_set(pids, n, oldpids[i]))
			for (size_t j = 0; j < a->ne; j++)
				if (a->e[j].pid == oldpids[i])
					a->e[j].turn_start = -1;
	for (size_t i = 0; i < n; i++) {
		long pi = find_proc(snap, pids[i]);
		struct acc_entry *e = pi >= 0 ? entry_get(a, s->topo->nnodes, pids[i],
							  snap->procs[pi].info.starttime) : NULL;
		if (e && e->turn_start < 0)
			e->turn_start = now;
		if (e)
			e->last_on = now;
	}
	double t0 = s->clock(s->clock_ctx);
	int rc = damon_ctl_request_regions(&a->ctl);
	if (rc == 0)
		rc = damon_ctl_read_regions(&a->ctl, &a->sch);
	a->request_ms = (s->clock(s->clock_ctx) - t0) * 1000.0;
	if (rc) {
		a->why = ACCESS_ERROR;
		snprintf(a->msg, sizeof(a->msg), "%s", damon_ctl_message(&a->ctl));
		a->started = a->ctl.index >= 0;
		return;
	}
	const struct damon_settings *set = &a->ctl.rec.set;
	join_all(s, snap, a->pids, a->slot_since, a->npids, (double)set->aggr_us / 1e6,
		 (double)set->sample_us / 1e6, now);
	snap->access.window_s = (double)set->aggr_us / 1e6;
	snap->access.monitored = n;
	kdamond_cpu(s, snap, a->ctl.rec.kdamond_pid, now);
}

/* The snapshot's heat: each process's kept numbers, copied. */
static int publish(struct sampler *s, struct snapshot *snap, double now)
{
	struct access_state *a = s->access;
	size_t nn = s->topo->nnodes ? s->topo->nnodes : 1;
	size_t np = 0, nr = 0;
	for (size_t i = 0; i < a->ne; i++)
		if (a->e[i].have) {
			np++;
			nr += a->e[i].heat.nregions;
		}
	struct access_proc *v = buf_grow_array(snap->acc, &snap->acccap, np, sizeof(*v));
	if (np && !v)
		return -ENOMEM;
	snap->acc = v;
	struct access_region *rg = buf_grow_array(snap->acc_reg, &snap->acc_regcap, nr, sizeof(*rg));
	if (nr && !rg)
		return -ENOMEM;
	snap->acc_reg = rg;
	size_t nkb = np * 3 * nn + nr * nn;
	int64_t *kb = buf_grow_array(snap->acc_kb, &snap->acc_kbcap, nkb, sizeof(*kb));
	if (nkb && !kb)
		return -ENOMEM;
	snap->acc_kb = kb;
	snap->nacc = 0;
	size_t ro = 0, ko = 0;
	for (size_t i = 0; i < a->ne; i++) {
		const struct acc_entry *e = &a->e[i];
		if (!e->have)
			continue;
		struct access_proc *o = &snap->acc[snap->nacc++];
		*o = e->heat;
		o->age_s = now - e->at;
		o->hot_node_kb = kb + ko;
		o->warm_node_kb = kb + ko + nn;
		o->cold_node_kb = kb + ko + 2 * nn;
		memcpy(kb + ko, e->kb, 3 * nn * sizeof(*kb));
		ko += 3 * nn;
		o->regions = rg + ro;
		for (size_t j = 0; j < e->heat.nregions; j++) {
			rg[ro + j] = e->reg[j];
			rg[ro + j].kb_off = ko;
			memcpy(kb + ko, e->reg_kb + e->reg[j].kb_off, nn * sizeof(*kb));
			ko += nn;
		}
		ro += e->heat.nregions;
	}
	return 0;
}

int sampler_access(struct sampler *s, struct snapshot *snap)
{
	struct access_state *a = s->access;
	memset(&snap->access, 0, sizeof(snap->access));
	snap->access.window_s = snap->access.kdamond_cpu_pct = -1;
	snap->access.kdamond_pid = -1;
	snap->access.max_targets = ACCESS_MAX_TARGETS;
	snap->nacc = 0;
	if (!a || a->mode == SAMPLER_ACCESS_OFF) {
		snap->access.why = ACCESS_OFF;
		return 0;
	}
	double now = s->tick_now;
	entries_expire(a, snap, now);
	if (fsroot_is_live(s->root))
		read_live(s, snap, now);
	else
		read_recorded(s, snap, now);
	snap->access.why = a->why;
	snap->access.source = snap->access.monitored ? ACCESS_SRC_DAMON : ACCESS_SRC_NONE;
	snap->access.request_ms = a->request_ms;
	snprintf(snap->access.msg, sizeof(snap->access.msg), "%s", a->msg);
	int rc = publish(s, snap, now);
	if (rc)
		return rc;
	/* Each process to its numbers (the snapshot's arrays are final). */
	for (size_t i = 0; i < snap->nacc; i++) {
		long pi = find_proc(snap, snap->acc[i].pid);
		if (pi >= 0)
			snap->procs[pi].acc = &snap->acc[i];
	}
	return 0;
}
