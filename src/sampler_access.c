/* sampler_access.c - access heat in the sampler (access.h): which
 * processes the access source watches (the selected and tagged, then the
 * most remote, in turns of ACCESS_TURN_S), asking it for the ranges (a
 * request made at one sample, answered at a later one: the sample never
 * waits for the kernel), the node of a few pages of each hot or warm
 * range, and each process's last heat kept for ACCESS_KEEP_S. On a
 * recorded tree the source only reads what it left there. The source is
 * spoken to only through its ops (access_source.h): DAMON by default. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "sampler_access_int.h"

static bool source_open(struct sampler *s);
static void watched(struct sampler *s, struct snapshot *snap, const int *pids, size_t n, double now);

void sampler_access_free(struct sampler *s)
{
	struct access_state *a = s->access;
	if (!a)
		return;
	if (a->src_ok)
		a->src->close(a->src_st);
	for (size_t i = 0; i < a->ne; i++)
		acc_entry_free(&a->e[i]);
	free(a->e);
	free(a->reg_node_kb);
	free(a->cand);
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
		s->access->request_ms = -1;
		s->access->last_answer = -1;
		s->access->src = &access_source_damon;
	}
	s->access->mode = mode;
	return 0;
}

void sampler_access_stop_signal(struct sampler *s)
{
	if (s && s->access && s->access->src_ok)
		s->access->src->stop_signal(s->access->src_st);
}

int sampler_set_access_source(struct sampler *s, const struct access_source_ops *ops)
{
	if (s->access && s->access->tried)
		return -EBUSY;        /* opened already: the sampler's for good */
	int rc = s->access ? 0 : sampler_set_access(s, SAMPLER_ACCESS_OFF);
	if (rc == 0)
		s->access->src = ops;
	return rc;
}

/* A source's error in the reason's words (access_source.h). */
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

/* Keep only the pids still running as the processes the snapshot saw:
 * PID and start time read again now, right before they go to the source
 * (DAMON refuses a commit or a start naming a process that exited, and
 * on kernels before 6.14 a refused commit ends the kdamond). Zombies are
 * left out too (no memory to watch). The count kept. */
static size_t live_only(struct sampler *s, const struct snapshot *snap, int *pids, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		long pi = acc_find_proc(snap, pids[i]);
		char path[64], buf[1024];
		snprintf(path, sizeof(path), "/proc/%d/stat", pids[i]);
		int len = pi >= 0 ? fsroot_read_small(s->root, path, buf, sizeof(buf)) : -1;
		struct pid_stat ps;
		if (len > 0 && parse_pid_stat(buf, (size_t)len, &ps) == 0 &&
		    ps.starttime == snap->procs[pi].info.starttime && ps.state != 'Z' &&
		    ps.state != 'X')
			pids[k++] = pids[i];
	}
	return k;
}

/* Of the pids the source watched, how many exited (not in the snapshot as
 * the same process, or gone now). */
static size_t gone_of(struct sampler *s, const struct snapshot *snap, const int *pids, size_t n)
{
	int v[ACCESS_MAX_TARGETS];
	memcpy(v, pids, n * sizeof(*v));
	return n - live_only(s, snap, v, n);
}

/* The source on exactly these pids: started, changed or stopped. */
static int ensure_targets(struct access_state *a, const int *want, size_t nwant, double now)
{
	int pids[ACCESS_MAX_TARGETS];
	double since[ACCESS_MAX_TARGETS];
	size_t n = a->started ? acc_arrange(a, want, nwant, pids, since, now) : nwant;
	if (!a->started) {
		memcpy(pids, want, nwant * sizeof(*want));
		for (size_t i = 0; i < n; i++)
			since[i] = now;
	}
	if (n == 0) {
		if (a->started)
			a->src->stop(a->src_st);
		a->started = false;
		a->npids = 0;
		return 0;
	}
	bool same = a->started && n == a->npids && memcmp(pids, a->pids, n * sizeof(*pids)) == 0;
	if (same)
		return 0;
	int rc = a->started ? a->src->retarget(a->src_st, pids, n) : -ESRCH;
	if (rc == 1) {
		/* It had stopped: started again on these. */
		rc = 0;
		for (size_t i = 0; i < n; i++)
			since[i] = now;
	}
	if (rc == -EBUSY && a->started)
		return rc;            /* not proved ours this moment: next sample */
	if (rc && a->started && rc != -ESRCH) {
		/* It stopped by itself (every target exited) or refused the
		 * new ones: make it again. */
		a->src->stop(a->src_st);
	}
	if (rc) {
		a->started = false;
		if (now < a->retry_at)
			return -EAGAIN;
		memcpy(pids, want, nwant * sizeof(*want));
		n = nwant;
		for (size_t i = 0; i < n; i++)
			since[i] = now;
		rc = a->src->start(a->src_st, pids, n, a->mode == SAMPLER_ACCESS_WATCH);
	}
	if (rc) {
		a->why = why_of(rc);
		snprintf(a->msg, sizeof(a->msg), "%s", a->src->message(a->src_st));
		/* Someone else's use may end; a kernel does not change. A
		 * start the source refused (a process that exited between the check
		 * and the kernel's look) is tried again at the next samples. */
		a->retry_at = now + (a->why == ACCESS_IN_USE ? 10.0 : a->why == ACCESS_ERROR ? 2.0 :
				     1e300);
		/* EINVAL from "on": most likely a process that exited between
		 * the check and the kernel's look. Tried again at the next
		 * sample, said as stale heat, three times in a row before it
		 * is called an error. */
		if (rc == -EINVAL && a->why == ACCESS_ERROR && ++a->refused < 3) {
			a->why = ACCESS_STALE;
			snprintf(a->msg, sizeof(a->msg), "%s refused to start (%s); restarting",
				 a->src->title, a->src->message(a->src_st));
			a->retry_at = now;
		}
		return rc;
	}
	a->refused = 0;
	a->started = true;
	memcpy(a->pids, pids, n * sizeof(*pids));
	memcpy(a->slot_since, since, n * sizeof(*since));
	a->npids = n;
	a->why = ACCESS_ON;
	a->msg[0] = '\0';
	return 0;
}

/* The join for one process whose regions are r[0..n). */
static void join_proc(struct sampler *s, struct snapshot *snap, long pi, const struct access_range *r,
		      size_t n, double aggr_s, double sample_s, double max_age_s, double now)
{
	struct access_state *a = s->access;
	const struct snap_proc *p = &snap->procs[pi];
	size_t nn = s->topo->nnodes;
	struct acc_entry *e = acc_entry_get(a, nn, p->info.pid, p->info.starttime);
	if (!e)
		return;
	if (n * nn > a->rnk_cap) {
		int64_t *v = realloc(a->reg_node_kb, n * nn * sizeof(*v));
		if (!v)
			return;
		a->reg_node_kb = v;
		a->rnk_cap = n * nn;
	}
	sampler_access_place(s, p->info.pid, r, n, aggr_s, a->reg_node_kb, a->pages, a->status);
	bool *work = calloc(nn ? nn : 1, sizeof(*work));
	size_t *w = calloc(nn ? nn : 1, sizeof(*w));
	if (work && w && p->info.thr_n) {
		sampler_thread_work(s->topo, snap_threads(snap, p), p->info.thr_n, w);
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
	e->heat.source = a->src->id;
	e->heat.monitored_s = e->turn_start >= 0 ? now - e->turn_start : 0;
	/* A recorded tree: watched at least as long as its oldest region. */
	for (size_t i = 0; !s->cfg.can_sample && !fsroot_is_live(s->root) && i < n; i++)
		if (r[i].age > 0 && (double)r[i].age * aggr_s > e->heat.monitored_s)
			e->heat.monitored_s = (double)r[i].age * aggr_s;
	/* The source's blind spot (DAMON's): it ran on its CPU through the
	 * watch and no range of it was seen accessed (access.h: unseen). */
	bool seen = false;
	for (size_t i = 0; i < n && !seen; i++)
		seen = r[i].nr_accesses > 0;
	e->heat.unseen = !seen && p->cpu_pct >= ACCESS_UNSEEN_CPU_PCT;
	e->have = true;
	e->at = now;
	free(work);
	free(w);
}

/* Join each target's ranges of an answer (targets pids[0..ans->ntargets),
 * each in its slot since since[t]; NULL: ages not capped). */
static void join_all(struct sampler *s, struct snapshot *snap, const struct access_answer *ans,
		     const int *pids, const double *since, double now)
{
	if (!ans->first)
		return;               /* not certain which ranges are whose */
	for (size_t t = 0; t < ans->ntargets; t++) {
		long pi = acc_find_proc(snap, pids[t]);
		if (pi >= 0)
			join_proc(s, snap, pi, ans->r + ans->first[t], ans->first[t + 1] - ans->first[t],
				  ans->window_s, ans->sample_s, since ? now - since[t] : 0, now);
	}
}

/* The source's thread's CPU since the last sample (utime + stime). */
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

/* A recorded tree: what the source left there. */
static void read_recorded(struct sampler *s, struct snapshot *snap, double now)
{
	struct access_state *a = s->access;
	struct access_answer ans;
	a->why = source_open(s) ? a->src->recorded(a->src_st, &ans) : ACCESS_RECORDED;
	if (a->why != ACCESS_ON)
		return;
	watched(s, snap, ans.pids, ans.ntargets, now);
	join_all(s, snap, &ans, ans.pids, NULL, now);
	snap->access.window_s = ans.window_s;
	snap->access.monitored = ans.ntargets;
	kdamond_cpu(s, snap, ans.thread_pid, now);
}

/* Nothing to watch: what the source would say (every 10 s). */
static void probe(struct sampler *s, double now)
{
	struct access_state *a = s->access;
	if (now < a->probe_at)
		return;
	a->probe_at = now + 10.0;
	a->src->idle(a->src_st, &a->why, a->msg, sizeof(a->msg));
}

/* The processes the source watches: their turns go on (last_on now),
 * a new one's starts. */
static void watched(struct sampler *s, struct snapshot *snap, const int *pids, size_t n, double now)
{
	struct access_state *a = s->access;
	for (size_t i = 0; i < n; i++) {
		long pi = acc_find_proc(snap, pids[i]);
		struct acc_entry *e = pi >= 0 ? acc_entry_get(a, s->topo->nnodes, pids[i],
							  snap->procs[pi].info.starttime) : NULL;
		if (e && e->turn_start < 0)
			e->turn_start = now;
		if (e)
			e->last_on = now;
	}
}

static void say_error(struct access_state *a)
{
	a->why = ACCESS_ERROR;
	snprintf(a->msg, sizeof(a->msg), "%s", a->src->message(a->src_st));
	struct access_source_state st;
	a->src->state(a->src_st, &st);
	a->started = st.running;
}

/* The request in flight, if it has its answer: the ranges read and
 * joined with the targets the source had when it was asked (they are
 * the answer's, by position). Still waiting: nothing. */
static void collect(struct sampler *s, struct snapshot *snap, double now)
{
	struct access_state *a = s->access;
	double ms = -1;
	struct access_answer ans;
	int rc = a->src->poll(a->src_st, a->req_n, &ms, &ans);
	if (rc == 0)
		return;
	if (ans.targets_only) {
		/* The new targets taken; or not, and then sent again (a
		 * watch the source stopped for it is started again). */
		if (rc < 0) {
			a->npids = 0;
			snprintf(a->msg, sizeof(a->msg), "%s refused the new targets (%s); restarting",
				 a->src->title, strerror(-rc));
		}
		return;
	}
	/* Busy for a moment (DAMON's sysfs lock, taken by the kdamond at the
	 * end of a window or held by another reader): asked again. */
	if (rc == -EBUSY)
		return;
	if (ms >= 0)
		a->request_ms = ms;
	if (rc < 0) {
		say_error(a);
		return;
	}
	join_all(s, snap, &ans, a->req_pids, a->req_since, now);
	a->why = ACCESS_ON;
	a->msg[0] = '\0';
	a->last_answer = now;
}

/* Ask the source for the ranges; the answer is for a later sample.
 * The request proves first that the watch is still ours and on: stopped
 * by itself (a watched process exited, a commit refused), it is said and
 * started again by the caller; someone else's in its place, nothing is
 * asked and the source is in use. */
static int ask(struct sampler *s, struct snapshot *snap, double now)
{
	struct access_state *a = s->access;
	int rc = a->src->ask(a->src_st);
	if (rc == -EBUSY)
		return rc;            /* busy this moment: proved at the next sample */
	if (rc == -ESHUTDOWN) {
		size_t gone = gone_of(s, snap, a->pids, a->npids);
		if (gone)
			snprintf(a->msg, sizeof(a->msg),
				 "%s stopped: %zu watched process%s exited; restarting", a->src->title,
				 gone, gone == 1 ? "" : "es");
		else
			snprintf(a->msg, sizeof(a->msg), "%s stopped our %s by itself; restarting",
				 a->src->title, a->src->thread);
		a->npids = 0;         /* the targets written again, and "on" */
		return rc;
	}
	if (rc == -ESRCH) {
		a->started = false;
		a->npids = 0;
		a->why = ACCESS_IN_USE;
		snprintf(a->msg, sizeof(a->msg), "%s", a->src->message(a->src_st));
		a->retry_at = now + 10.0;
		return rc;
	}
	if (rc) {
		say_error(a);
		return rc;
	}
	memcpy(a->req_pids, a->pids, a->npids * sizeof(*a->pids));
	memcpy(a->req_since, a->slot_since, a->npids * sizeof(*a->slot_since));
	a->req_n = a->npids;
	return 0;
}

/* The status of a sample while the source watches. */
static void report(struct sampler *s, struct snapshot *snap, double now)
{
	struct access_state *a = s->access;
	struct access_source_state st;
	a->src->state(a->src_st, &st);
	snap->access.window_s = st.window_s;
	snap->access.monitored = a->npids;
	kdamond_cpu(s, snap, st.thread_pid, now);
}

/* Each sample: the answer to the request made at an earlier one, when it
 * has come (collect); then, with none in flight, the targets set (the
 * kernel refuses a commit while one is) and the next request made. A
 * sample never waits for the kernel: a request not yet answered leaves
 * the kept heat as it is (published with its age). */
static void read_live(struct sampler *s, struct snapshot *snap, double now)
{
	struct access_state *a = s->access;
	if (!source_open(s))
		return;
	if (a->src->pending(a->src_st)) {
		collect(s, snap, now);
		if (a->src->pending(a->src_st)) {
			watched(s, snap, a->pids, a->npids, now);
			report(s, snap, now);
			return;
		}
	}
	int pids[ACCESS_MAX_TARGETS];
	size_t n = acc_choose(s, snap, now, pids);
	n = live_only(s, snap, pids, n);
	if (n == 0 && !a->started) {
		probe(s, now);
		return;
	}
	int oldpids[ACCESS_MAX_TARGETS];
	size_t oldn = a->npids;
	memcpy(oldpids, a->pids, sizeof(oldpids));
	if (ensure_targets(a, pids, n, now) != 0 || !a->started)
		return;
	/* New targets: their commit is in flight, the regions are asked
	 * for once it is answered. */
	int asked = a->src->pending(a->src_st) ? 0 : ask(s, snap, now);
	if (asked == -ESHUTDOWN) {
		/* Stopped by itself since the last request: started again now
		 * on the live targets. */
		if (ensure_targets(a, pids, n, now) != 0 || !a->started)
			return;
		asked = a->src->pending(a->src_st) ? 0 : ask(s, snap, now);
	}
	/* Turns: the start of a new one, the end of those that left. */
	for (size_t i = 0; i < oldn; i++)
		if (!acc_in_set(pids, n, oldpids[i]))
			for (size_t j = 0; j < a->ne; j++)
				if (a->e[j].pid == oldpids[i])
					a->e[j].turn_start = -1;
	watched(s, snap, pids, n, now);
	if (asked == 0 || asked == -EBUSY)
		report(s, snap, now);
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
		o->hot_slow_kb = o->cold_fast_kb = -1;   /* snapshot_tiers_heat */
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
	acc_entries_expire(a, snap, now);
	if (fsroot_is_live(s->root))
		read_live(s, snap, now);
	else
		read_recorded(s, snap, now);
	snap->access.why = a->why;
	/* Watching, but the source has said nothing new for two windows (it
	 * stopped and is started again, or its answers stopped): stale. */
	struct access_source_state st = { .window_s = 0 };
	if (a->src_ok)
		a->src->state(a->src_st, &st);
	double win = st.window_s > 0 ? st.window_s : 1.0;
	if (fsroot_is_live(s->root) && a->why == ACCESS_ON && a->started && a->last_answer >= 0 &&
	    now - a->last_answer > ACCESS_STALE_WINDOWS * win) {
		snap->access.why = ACCESS_STALE;
	}
	snap->access.source = snap->access.monitored ? a->src->id : ACCESS_SRC_NONE;
	snap->access.request_ms = a->request_ms;
	snprintf(snap->access.msg, sizeof(snap->access.msg), "%s", a->msg);
	if (snap->access.why == ACCESS_STALE && !a->msg[0])
		snprintf(snap->access.msg, sizeof(snap->access.msg),
			 "heat not fresh: %s's last answer came %.0f s ago", a->src->title,
			 now - a->last_answer);
	int rc = publish(s, snap, now);
	if (rc)
		return rc;
	/* Each process to its numbers (the snapshot's arrays are final). */
	for (size_t i = 0; i < snap->nacc; i++) {
		long pi = acc_find_proc(snap, snap->acc[i].pid);
		if (pi >= 0)
			snap->procs[pi].acc = &snap->acc[i];
	}
	return 0;
}

/* The source opened once (read_live, read_recorded): false when it
 * could not be (said, never tried again). */
static bool source_open(struct sampler *s)
{
	struct access_state *a = s->access;
	if (!a->tried) {
		a->tried = true;
		int rc = a->src->open(&a->src_st, s->root, a->msg, sizeof(a->msg));
		a->src_ok = rc == 0;
		if (rc) {
			a->why = ACCESS_ERROR;
			a->retry_at = 1e300;
		}
	}
	return a->src_ok;
}
