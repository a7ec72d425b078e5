/* sampler_warm.c - the warm-up: every process's placement read once,
 * soon after start, on its own bounded budget (see sampler.h). Reading
 * numa_maps is the kernel's work (its page walk and text), so the
 * warm-up's reads go on up to WARMUP_THREADS_MAX threads beside the
 * caller's, one per CPU it may run on besides its own; the tick's
 * budgeted reads stay in the caller's thread. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "sampler_int.h"

bool sampler_warming(const struct sampler *s)
{
	/* Not after a tick that failed: its snapshot's records are not
	 * whole, so there is nothing to warm up until the next one. */
	return s->warm && s->kept_ok;
}

/* This sample's count of processes with a result; the warm-up ends when
 * all have one or its reads reached WARMUP_MAX_S. */
void sampler_warm_count(struct sampler *s, struct snapshot *snap)
{
	size_t known = 0;
	for (size_t i = 0; i < snap->nprocs; i++)
		known += snap->procs[i].nm != NMS_NOT_READ;
	snap->nm_stats.known = known;
	if (s->warm && (known == snap->nprocs || s->warm_spent >= WARMUP_MAX_S || s->cfg.full))
		s->warm = false;
	snap->nm_stats.warmup = s->warm;
}

static int by_rss(const void *a, const void *b, void *ctx)
{
	const struct snapshot *snap = ctx;
	const struct snap_proc *x = &snap->procs[*(const uint32_t *)a];
	const struct snap_proc *y = &snap->procs[*(const uint32_t *)b];
	if (x->info.rss_kb != y->info.rss_kb)
		return x->info.rss_kb > y->info.rss_kb ? -1 : 1;
	return (x->info.pid > y->info.pid) - (x->info.pid < y->info.pid);
}

unsigned sampler_warm_threads_default(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 0;
	int n = CPU_COUNT(&set) - 1;
	return n <= 0 ? 0 : n > WARMUP_THREADS_MAX ? WARMUP_THREADS_MAX : (unsigned)n;
}

void sampler_set_warm_threads(struct sampler *s, unsigned n)
{
	s->warm_threads = n > WARMUP_THREADS_MAX ? WARMUP_THREADS_MAX : n;
}

/* One warm-up step, shared by its readers: warm_order[0..n) to read,
 * each taken once by whichever reader is free (largest first, as one
 * reader would). */
struct warm_run {
	struct sampler *s;
	struct snapshot *snap;
	size_t n;
	atomic_size_t next;           /* the first not taken */
	double start, budget_s;
};

/* A reader: its scratch (a thread's own, or the sampler's) and counts. */
struct warm_reader {
	struct warm_run *run;
	struct nm_reader rd;
	struct buf nmbuf;
	struct nm_mapping map;
	struct nm_summary sum;
	struct placement_scratch psc;
	size_t read, sampled;
	pthread_t tid;
};

/* Read until the step's budget is spent or nothing is left to take. */
static void warm_reads(struct warm_reader *w)
{
	struct warm_run *run = w->run;
	struct sampler *s = run->s;
	struct snapshot *snap = run->snap;
	for (;;) {
		double t0 = s->clock(s->clock_ctx);
		if (t0 - run->start >= run->budget_s)
			break;
		size_t j = atomic_fetch_add(&run->next, 1);
		if (j >= run->n)
			break;
		uint32_t i = s->warm_order[j];
		struct snap_proc *sp = &snap->procs[i];
		struct sampler_kept *k = sampler_kept_at(s, i);
		/* Sampled only where the walk would be long (a small
		 * process's walk is cheaper than its sampled read). */
		struct nmsched_proc q = { .rss_kb = sp->info.rss_kb, .last_cost = -1,
					  .cost_rss_kb = -1 };
		bool sample = s->cfg.can_sample &&
			      nmsched_predict_read(&q) > s->cfg.sample_over_s;
		if (sample)
			sampler_read_sampled(s, &w->rd, sp, k);
		else
			sampler_read_numa_maps(s, &w->rd, sp);
		sp->nm_fresh = true;
		double dt = s->clock(s->clock_ctx) - t0;
		sampler_keep_result(s, sp, k, sample ? -1 : dt, sample ? -1 : sp->info.rss_kb);
		k->read_at = s->clock(s->clock_ctx);      /* now, not the tick's time */
		sampler_set_remote(sp);
		if (sample)
			w->sampled++;
		else
			w->read++;
	}
}

static void *warm_thread(void *arg)
{
	warm_reads(arg);
	return NULL;
}

static void reader_free(struct warm_reader *w)
{
	buf_free(&w->nmbuf);
	nm_mapping_free(&w->map);
	nm_summary_free(&w->sum);
	placement_scratch_free(&w->psc);
}

/* Start up to nt readers' threads (none started is no error: the
 * caller's thread reads alone). Signals stay with the caller's thread. */
static size_t start_readers(struct warm_run *run, struct warm_reader *w, size_t nt,
			    pthread_mutex_t *pool)
{
	size_t nn = run->s->topo->nnodes, started = 0;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (size_t t = 0; t < nt; t++) {
		w[t].run = run;
		nm_mapping_init(&w[t].map);
		/* Its read buffer made here: no arena of its own for it. */
		if (nm_summary_init(&w[t].sum, nn) != 0 || buf_reserve(&w[t].nmbuf, 65536) != 0) {
			reader_free(&w[t]);
			break;
		}
		w[t].rd = (struct nm_reader){ &w[t].nmbuf, &w[t].map, &w[t].sum, &w[t].psc, pool };
		if (pthread_create(&w[t].tid, NULL, warm_thread, &w[t]) != 0) {
			reader_free(&w[t]);
			break;
		}
		started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return started;
}

int sampler_warmup(struct sampler *s, struct snapshot *snap, double budget_s)
{
	/* Only the snapshot this sampler ticked last: its records hold what
	 * the sampler keeps of them. */
	if (!s->warm || snap->replayed || snap->proc_rc || snap->kept_by != s ||
	    snap->kept_seq != s->kept_seq)
		return 0;
	size_t n = 0;
	if (snap->nprocs > s->warm_cap) {
		uint32_t *o = realloc(s->warm_order, snap->nprocs * sizeof(*o));
		if (!o)
			return -ENOMEM;
		s->warm_order = o;
		s->warm_cap = snap->nprocs;
	}
	for (size_t i = 0; i < snap->nprocs; i++)
		if (snap->procs[i].nm == NMS_NOT_READ)
			s->warm_order[n++] = (uint32_t)i;
	qsort_r(s->warm_order, n, sizeof(*s->warm_order), by_rss, snap);
	struct warm_run run = { .s = s, .snap = snap, .n = n, .budget_s = budget_s };
	atomic_init(&run.next, 0);
	run.start = s->clock(s->clock_ctx);
	/* The readers beside this thread: while more than one is left. */
	struct warm_reader w[WARMUP_THREADS_MAX + 1];
	memset(w, 0, sizeof(w));
	pthread_mutex_t pool = PTHREAD_MUTEX_INITIALIZER;
	size_t nt = n > 1 ? (s->warm_threads < n - 1 ? s->warm_threads : n - 1) : 0;
	size_t started = nt ? start_readers(&run, w, nt, &pool) : 0;
	struct warm_reader *me = &w[started];
	me->run = &run;
	me->rd = s->rd;
	me->rd.pool_lock = started ? &pool : NULL;
	warm_reads(me);
	for (size_t t = 0; t < started; t++) {
		pthread_join(w[t].tid, NULL);
		reader_free(&w[t]);
	}
	pthread_mutex_destroy(&pool);
	size_t done = atomic_load(&run.next);
	if (done > n)
		done = n;
	for (size_t t = 0; t <= started; t++) {
		snap->nm_stats.read += w[t].read;
		snap->nm_stats.sampled += w[t].sampled;
		size_t r = w[t].read + w[t].sampled;
		snap->nm_stats.kept -= r < snap->nm_stats.kept ? r : snap->nm_stats.kept;
	}
	double spent = s->clock(s->clock_ctx) - run.start;
	s->warm_spent += spent;
	snap->nm_stats.spent_ms += spent * 1000.0;
	sampler_warm_count(s, snap);
	return s->warm ? (int)(n - done) : 0;
}
