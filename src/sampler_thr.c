/* sampler_thr.c - what each thread of a process did since the previous
 * tick: its run time in ns (or CPU ticks) then and now (proc_thread.ran),
 * and from them the work of the process per node, which decides HOME and
 * the remote cause (an idle thread must not outvote the working ones).
 *
 * A thread that wakes briefly (a few ms a second) adds a CPU tick only
 * now and then, so by ticks it would work in one sample and be idle in
 * the next, and HOME and the cause with it. Its run time in ns
 * (task/TID/schedstat) says it ran; and a thread that ran in the last
 * THREAD_WORKED_S still counts as working on its node (at least 1 ns):
 * the live backend re-reads a process's threads only when the process
 * used CPU time, and at least every PROC_THREADS_MAX_AGE_S. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sampler_int.h"

/* A thread's CPU ticks at the previous tick. Kept for the threads of
 * multi-threaded processes only: a single-threaded process's one thread
 * is the process, whose ticks then are in its record (at 10 000
 * mostly single-threaded processes, 48 bytes each that need not be). */
struct thr_prev {
	int tid, pid;
	int64_t ticks, run_ns;
	double worked_at;            /* when its run time last grew, -1 never */
	double load;                 /* its ns per tick, smoothed (THREAD_LOAD_NEW) */
};

/* The share of a tick's run time in a thread's smoothed load: a thread
 * that did not get its CPU for one window (a loaded host, a guest's
 * starved vCPU) keeps 70 % of its weight, and HOME does not move for it
 * (sampler_home_node keeps HOME while its node has half the busiest's). */
#define THREAD_LOAD_NEW 0.3

/* How long a thread that ran counts as working (see above). */
#define THREAD_WORKED_S (PROC_THREADS_MAX_AGE_S + 1.0)

struct thr_state {
	struct thr_prev *v[2];       /* [cur] the previous tick's, sorted by tid */
	size_t n[2], cap[2];
	int cur;
};

void sampler_thread_free(struct sampler *s)
{
	if (!s->thr)
		return;
	free(s->thr->v[0]);
	free(s->thr->v[1]);
	free(s->thr);
	s->thr = NULL;
}

static int by_tid(const void *a, const void *b)
{
	int x = ((const struct thr_prev *)a)->tid, y = ((const struct thr_prev *)b)->tid;
	return (x > y) - (x < y);
}

static const struct thr_prev *find_tid(const struct thr_state *st, int tid)
{
	struct thr_prev key = { .tid = tid };
	if (!st->n[st->cur])
		return NULL;    /* no array to search (bsearch wants one) */
	return bsearch(&key, st->v[st->cur], st->n[st->cur], sizeof(key), by_tid);
}

/* Thread t (ticks known) of process p, which was seen at the previous
 * tick with prev process ticks: its ticks since then, -1 unknown. */
static int64_t thread_ran(const struct thr_state *st, const struct proc_info *p,
			  const struct proc_thread *t, uint64_t prev)
{
	if (p->thr_n > 1) {
		const struct thr_prev *e = find_tid(st, t->tid);
		if (e && e->pid == p->pid)
			return t->ticks >= e->ticks ? t->ticks - e->ticks : -1;
		if (t->tid != p->pid)
			return t->ticks;        /* born since: all its ticks are new */
	}
	/* The process's one thread, or its main thread when the process had
	 * one thread then (not kept): from the process's ticks then (which
	 * count threads already gone too). */
	return (uint64_t)t->ticks >= prev ? t->ticks - (int64_t)prev : -1;
}

/* Thread t of a multi-threaded process p seen at the previous tick: its
 * run time in ns since then (-1 unknown), and when it last worked. */
static int64_t thread_ran_ns(const struct thr_state *st, const struct proc_info *p,
			     const struct proc_thread *t, double now, double *worked_at,
			     double *load)
{
	*worked_at = -1;
	*load = -1;
	if (t->run_ns < 0)
		return -1;
	const struct thr_prev *e = find_tid(st, t->tid);
	int64_t d;
	if (e && e->pid == p->pid) {
		if (e->run_ns < 0 || t->run_ns < e->run_ns)
			return -1;
		d = t->run_ns - e->run_ns;
		*worked_at = e->worked_at;
		*load = e->load >= 0 ? e->load * (1 - THREAD_LOAD_NEW) + (double)d * THREAD_LOAD_NEW :
			(double)d;
	} else if (t->tid != p->pid) {
		d = t->run_ns;          /* born since: all of it is new */
	} else {
		return -1;
	}
	if (d > 0)
		*worked_at = now;
	if (*load < 0)
		*load = (double)d;
	return d;
}

int sampler_thread_rates(struct sampler *s, struct proc_list *pl)
{
	if (!s->thr && !(s->thr = calloc(1, sizeof(*s->thr))))
		return -ENOMEM;
	struct thr_state *st = s->thr;
	int nx = !st->cur;
	double now = s->tick_now;
	size_t want = 0;
	for (size_t i = 0; i < pl->n; i++) {
		const struct proc_info *p = proc_list_at(pl, i);
		if (p->thr_n > 1)
			want += p->thr_n;
	}
	if (st->cap[nx] < want) {
		struct thr_prev *v = realloc(st->v[nx], want * sizeof(*v));
		if (!v)
			return -ENOMEM;
		st->v[nx] = v;
		st->cap[nx] = want;
	}
	size_t o = 0;
	for (size_t i = 0; i < pl->n; i++) {
		const struct proc_info *p = proc_list_at(pl, i);
		/* Seen at the previous tick (its kept entry: the list zeroes
		 * a reused PID's slot, proc_list_renew): a thread not seen
		 * then was born since, and all its ticks are new. */
		const struct sampler_kept *kept = i < s->kept.n ? sampler_kept_at(s, i) : NULL;
		bool seen = kept && kept->valid;
		struct proc_thread *th = &pl->threads[p->thr_off];
		/* In ns when every thread's run time is known since then. */
		bool multi = p->thr_n > 1, by_ns = seen && multi;
		size_t first = o;
		for (size_t k = 0; k < p->thr_n; k++) {
			struct proc_thread *t = &th[k];
			t->ran = t->ticks >= 0 && seen ? thread_ran(st, p, t, kept->ticks) : -1;
			double worked_at = -1, load = -1;
			if (seen && multi && thread_ran_ns(st, p, t, now, &worked_at, &load) < 0)
				by_ns = false;
			if (multi)
				st->v[nx][o++] = (struct thr_prev){ t->tid, p->pid, t->ticks, t->run_ns,
								    worked_at, load };
		}
		for (size_t k = 0; by_ns && k < p->thr_n; k++) {
			const struct thr_prev *e = &st->v[nx][first + k];
			/* Ran lately: working, weighed by its smoothed load and
			 * never 0; not lately: idle. */
			bool lately = e->worked_at >= 0 && now - e->worked_at <= THREAD_WORKED_S;
			th[k].ran = !lately ? 0 : e->load >= 1 ? (int64_t)e->load : 1;
		}
	}
	if (o)      /* no thread at all: no array either (qsort wants one) */
		qsort(st->v[nx], o, sizeof(*st->v[nx]), by_tid);
	st->n[nx] = o;
	st->cur = nx;
	return 0;
}

bool sampler_thread_work(const struct topology *t, const struct proc_thread *thr,
			 size_t n, size_t *w)
{
	memset(w, 0, t->nnodes * sizeof(*w));
	/* By CPU time when every thread's is known and some ran; else (the
	 * first sample of the process: no rate yet) one per thread. */
	bool timed = n > 0;
	size_t ran = 0;
	for (size_t i = 0; i < n && timed; i++) {
		timed = thr[i].ran >= 0;
		if (timed)
			ran += (size_t)thr[i].ran;
	}
	timed = timed && ran > 0;
	for (size_t i = 0; i < n; i++) {
		int node = topology_cpu_node(t, thr[i].last_cpu);
		if (node >= 0)
			w[node] += timed ? (size_t)thr[i].ran : 1;
	}
	return timed;
}

int sampler_home_node(const struct topology *t, const struct proc_thread *thr,
		      size_t n, int main_tid, size_t *w, int prev_home)
{
	sampler_thread_work(t, thr, n, w);
	int main_node = -1;
	for (size_t i = 0; i < n; i++)
		if (thr[i].tid == main_tid)
			main_node = topology_cpu_node(t, thr[i].last_cpu);
	int best = -1;
	for (size_t k = 0; k < t->nnodes; k++)
		if (w[k] > 0 && (best < 0 || w[k] > w[best]))
			best = (int)k;
	/* The main thread's node wins a tie. */
	if (main_node >= 0 && best >= 0 && w[main_node] == w[best])
		best = main_node;
	/* HOME stays while its threads there still do half the work of the
	 * busiest node's: threads working alike on two nodes do not move it
	 * to and fro from one sample to the next. */
	if (best >= 0 && prev_home >= 0 && (size_t)prev_home < t->nnodes && w[prev_home] > 0 &&
	    w[prev_home] * 2 >= w[best])
		best = prev_home;
	return best;
}
