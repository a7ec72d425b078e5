/* measure.c - latency and bandwidth between every CPU node and every
 * memory node, measured on the live machine. */
#include "measure.h"
#include "monotime.h"

#include <errno.h>
#include <numaif.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define LINE 64                    /* bytes per chased cache line */
#define HUGE_ALIGN (2u << 20)

/* xorshift64*: a fixed, fast generator (the order only has to defeat the
 * prefetchers, not be secret). */
static uint64_t rnd(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1Dull;
}

void measure_make_cycle(uint32_t *next, size_t n, uint64_t seed)
{
	/* Sattolo: swapping each slot only with an earlier one turns the
	 * identity into a permutation that is a single n-cycle. */
	for (size_t i = 0; i < n; i++)
		next[i] = (uint32_t)i;
	uint64_t s = seed ? seed : 0x9E3779B97F4A7C15ull;
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(rnd(&s) % (i - 1));
		uint32_t tmp = next[i - 1];
		next[i - 1] = next[j];
		next[j] = tmp;
	}
}

bool measure_is_one_cycle(const uint32_t *next, size_t n)
{
	if (n == 0)
		return false;
	size_t steps = 0;
	uint32_t at = 0;
	do {
		if (next[at] >= n)
			return false;
		at = next[at];
		steps++;
	} while (at != 0 && steps <= n);
	return at == 0 && steps == n;
}

double measure_placement_pct(const struct placement_ops *ops, void *buf, size_t len,
			     long pagesize, int node)
{
	enum { BATCH = 256 };
	void *pages[BATCH];
	int status[BATCH];
	size_t step = HUGE_ALIGN, total = 0, on = 0;
	if (pagesize <= 0)
		pagesize = 4096;
	for (size_t off = 0; off < len;) {
		size_t k = 0;
		for (; k < BATCH && off < len; k++, off += step)
			pages[k] = (char *)buf + off;
		long rc = ops->move_pages(ops->ctx, 0, k, pages, NULL, status, 0);
		if (rc < 0)
			return (double)rc;
		for (size_t i = 0; i < k; i++) {
			total++;
			on += status[i] == node;
		}
	}
	return total ? 100.0 * (double)on / (double)total : -ENOENT;
}

/* A buffer bound to one node, backed by huge pages when the kernel gives
 * them, every page touched. */
static void *node_buffer(size_t len, int node, int *err)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		*err = errno;
		return NULL;
	}
	madvise(p, len, MADV_HUGEPAGE);
	size_t bits = (size_t)node + 1;
	size_t words = (bits + 63) / 64;
	unsigned long mask[16] = { 0 };
	if (words > 16) {
		munmap(p, len);
		*err = EINVAL;
		return NULL;
	}
	mask[node / 64] = 1ul << (node % 64);
	if (mbind(p, len, MPOL_BIND, mask, bits + 1, 0) != 0) {
		*err = errno;
		munmap(p, len);
		return NULL;
	}
	memset(p, 1, len);
	return p;
}

static int pin_to(const struct bitmap *cpus)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	for (int c = bitmap_next(cpus, 0); c >= 0; c = bitmap_next(cpus, c + 1))
		if (c < CPU_SETSIZE)
			CPU_SET(c, &set);
	return sched_setaffinity(0, sizeof(set), &set) == 0 ? 0 : -errno;
}

/* Lay the cycle into the buffer: line i holds the address of the next. */
static void build_chain(char *buf, size_t lines, uint32_t *next)
{
	measure_make_cycle(next, lines, 0x5EED0000u + lines);
	for (size_t i = 0; i < lines; i++)
		*(void **)(buf + i * LINE) = buf + (size_t)next[i] * LINE;
}

/* The timed loop: the barriers keep the compiler from moving the loads
 * out from between the two clock reads (the result is only the end). */
__attribute__((noinline)) static double chase(void *start, size_t steps, void **end)
{
	void *p = start;
	double t0 = monotime_now();
	__asm__ volatile("" : "+r"(p) : : "memory");
	for (size_t i = 0; i < steps; i++)
		p = *(void **)p;
	__asm__ volatile("" : "+r"(p) : : "memory");
	double dt = monotime_now() - t0;
	*end = p;
	return dt;
}

/* The readers start together, or not at all when one could not be
 * created (a barrier could not be left then). */
struct gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int state;                 /* 0 wait, 1 go, -1 give up */
};

struct reader {
	const uint64_t *buf;
	size_t words;
	unsigned passes;
	int cpu;
	struct gate *gate;
	double seconds;
	uint64_t sink;
};

static uint64_t read_all(const uint64_t *b, size_t words)
{
	uint64_t a = 0, c = 0, d = 0, e = 0;
	for (size_t i = 0; i + 4 <= words; i += 4) {
		a += b[i];
		c += b[i + 1];
		d += b[i + 2];
		e += b[i + 3];
	}
	return a + c + d + e;
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	if (r->cpu >= 0 && r->cpu < CPU_SETSIZE) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(r->cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	pthread_mutex_lock(&r->gate->mu);
	while (r->gate->state == 0)
		pthread_cond_wait(&r->gate->cv, &r->gate->mu);
	int go = r->gate->state > 0;
	pthread_mutex_unlock(&r->gate->mu);
	if (!go)
		return NULL;
	double t0 = monotime_now();
	uint64_t s = 0;
	for (unsigned k = 0; k < r->passes; k++) {
		s += read_all(r->buf, r->words);
		__asm__ volatile("" : "+r"(s) : : "memory");
	}
	r->seconds = monotime_now() - t0;
	r->sink = s;
	return NULL;
}

/* Streaming read bandwidth of buf by one thread per CPU in cpus (or the
 * calling thread when cpus is NULL), GB/s. */
static double bandwidth(const char *buf, size_t len, const struct bitmap *cpus,
			unsigned passes)
{
	int ids[256];
	size_t nt = 0;
	if (cpus)
		for (int c = bitmap_next(cpus, 0); c >= 0 && nt < 256; c = bitmap_next(cpus, c + 1))
			ids[nt++] = c;
	if (!nt) {
		volatile uint64_t sink = read_all((const uint64_t *)buf, len / 8);   /* warm */
		double t0 = monotime_now();
		uint64_t s = 0;
		for (unsigned k = 0; k < passes; k++) {
			s += read_all((const uint64_t *)buf, len / 8);
			__asm__ volatile("" : "+r"(s) : : "memory");
		}
		double dt = monotime_now() - t0;
		sink += s;
		(void)sink;
		return dt > 0 ? (double)len * passes / dt / 1e9 : -1;
	}
	struct reader *rd = calloc(nt, sizeof(*rd));
	pthread_t *th = calloc(nt, sizeof(*th));
	struct gate g = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
	if (!rd || !th) {
		free(rd);
		free(th);
		return -1;
	}
	size_t slice = len / nt / 64 * 64;
	size_t started = 0;
	for (size_t i = 0; i < nt; i++) {
		rd[i] = (struct reader){ (const uint64_t *)(buf + i * slice), slice / 8, passes,
					 ids[i], &g, 0, 0 };
		if (pthread_create(&th[i], NULL, reader_main, &rd[i]) != 0)
			break;
		started++;
	}
	pthread_mutex_lock(&g.mu);
	g.state = started == nt ? 1 : -1;
	pthread_cond_broadcast(&g.cv);
	pthread_mutex_unlock(&g.mu);
	double worst = 0;
	for (size_t i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
		if (rd[i].seconds > worst)
			worst = rd[i].seconds;
	}
	if (started != nt)
		worst = 0;
	free(rd);
	free(th);
	return worst > 0 ? (double)(slice * nt) * passes / worst / 1e9 : -1;
}

/* The node's last-level cache in all, in kB (-1 unknown): the largest
 * cache level's size times its distinct instances on the node (several
 * L3s on one node are normal), and the smallest L2 in *l2. */
static int64_t llc_kb(const struct topology *t, size_t node, int64_t *l2)
{
	int top = -1;
	int64_t size = -1;
	*l2 = -1;
	for (size_t c = 0; c < t->ncpus; c++) {
		const struct topo_cpu *cp = &t->cpus[c];
		if (cp->node_index != (int)node)
			continue;
		for (size_t k = 0; k < cp->ncaches; k++) {
			const struct topo_cache *ca = &cp->caches[k];
			if (strcmp(ca->type, "Instruction") == 0 || ca->size_kb <= 0)
				continue;
			if (ca->level > top || (ca->level == top && ca->size_kb > size)) {
				top = ca->level;
				size = ca->size_kb;
			}
			if (ca->level == 2 && (*l2 < 0 || ca->size_kb < *l2))
				*l2 = ca->size_kb;
		}
	}
	if (top < 0)
		return -1;
	/* Instances: the distinct sets of CPUs sharing a top-level cache. */
	const struct bitmap *seen[256];
	size_t nseen = 0;
	for (size_t c = 0; c < t->ncpus && nseen < 256; c++) {
		const struct topo_cpu *cp = &t->cpus[c];
		if (cp->node_index != (int)node)
			continue;
		for (size_t k = 0; k < cp->ncaches; k++) {
			const struct topo_cache *ca = &cp->caches[k];
			if (ca->level != top || strcmp(ca->type, "Instruction") == 0)
				continue;
			bool dup = false;
			for (size_t q = 0; q < nseen && !dup; q++)
				dup = bitmap_equal(seen[q], &ca->shared);
			if (!dup && nseen < 256)
				seen[nseen++] = &ca->shared;
			break;
		}
	}
	return size * (int64_t)(nseen ? nseen : 1);
}

static const struct placement_ops *ops_or_kernel(const struct measure_opts *o)
{
	return o->ops ? o->ops : &placement_kernel_ops;
}

int measure_run(const struct fsroot *r, const struct topology *t,
		const struct measure_opts *o, struct measure_result *res)
{
	if (!fsroot_is_live(r))
		return -EINVAL;
	int rc = measure_alloc(res, t);
	if (rc)
		return rc;
	res->quick = o->quick;
	gethostname(res->host, sizeof(res->host) - 1);
	measure_detect_hypervisor(r, res->hypervisor, sizeof(res->hypervisor));
	double t0 = monotime_now();
	size_t n = t->nnodes, ncpu = 0, nmem = 0;
	for (size_t i = 0; i < n; i++) {
		ncpu += t->nodes[i].ncpus_online > 0 || !bitmap_empty(&t->nodes[i].cpus);
		nmem += t->nodes[i].has_memory;
	}
	size_t pairs = ncpu * nmem;
	/* Sizes: well past the last-level cache; fewer steps when there are
	 * many pairs, so a full run stays near 20 s. */
	int64_t l2 = -1, llc = -1;
	for (size_t i = 0; i < n; i++) {
		int64_t a, b = llc_kb(t, i, &a);
		if (b > llc)
			llc = b;
		if (a > 0 && (l2 < 0 || a < l2))
			l2 = a;
	}
	int64_t kb = o->buf_kb > 0 ? o->buf_kb : llc > 0 ? (o->quick ? 2 : 8) * llc : 256 * 1024;
	int64_t floor_kb = o->quick ? 32 * 1024 : 128 * 1024;
	if (kb < floor_kb && o->buf_kb <= 0)
		kb = floor_kb;
	if (kb > (o->quick ? 64 * 1024 : 1024 * 1024))
		kb = o->quick ? 64 * 1024 : 1024 * 1024;
	/* Never more than a quarter of the smallest memory node: a bound
	 * allocation that does not fit would wake the OOM killer. */
	for (size_t j = 0; j < n; j++)
		if (t->nodes[j].has_memory && t->nodes[j].mem_total_kb > 0 &&
		    kb > t->nodes[j].mem_total_kb / 4)
			kb = t->nodes[j].mem_total_kb / 4 / 2048 * 2048;
	if (kb < 2048)
		kb = 2048;
	res->buf_kb = kb;
	size_t len = (size_t)kb * 1024, lines = len / LINE;
	double scale = pairs > 4 ? 4.0 / (double)pairs : 1.0;
	if (scale < 0.1)
		scale = 0.1;
	size_t steps = (size_t)((o->quick ? 500000.0 : 4000000.0) * scale);
	unsigned passes = o->quick ? 1 : 3;
	uint32_t *perm = malloc(lines * sizeof(uint32_t));
	if (!perm) {
		measure_free(res);
		return -ENOMEM;
	}
	cpu_set_t saved;
	sched_getaffinity(0, sizeof(saved), &saved);
	unsigned done = 0, total = (unsigned)(pairs + 1);
	long pagesize = sysconf(_SC_PAGESIZE);
	rc = 0;
	for (size_t j = 0; j < n && rc == 0; j++) {
		if (!t->nodes[j].has_memory)
			continue;
		int err = 0;
		char *buf = node_buffer(len, t->nodes[j].id, &err);
		if (buf) {
			double pct = measure_placement_pct(ops_or_kernel(o), buf, len, pagesize,
							   t->nodes[j].id);
			build_chain(buf, lines, perm);
			for (size_t i = 0; i < n && rc == 0; i++) {
				const struct bitmap *cpus = &t->nodes[i].cpus;
				if (bitmap_empty(cpus))
					continue;
				struct measure_cell *c = measure_at(res, i, j);
				char what[96];
				snprintf(what, sizeof(what), "CPUs of node %d -> memory of node %d",
					 t->nodes[i].id, t->nodes[j].id);
				if (o->progress)
					o->progress(o->ctx, done, total, what);
				if (o->cancel && atomic_load(o->cancel)) {
					rc = -ECANCELED;
					break;
				}
				c->on_node_pct = pct;
				if (pct < 95.0) {
					/* Not where it was asked to be: no number. */
					c->err = pct < 0 ? (int)-pct : ENOMEM;
				} else if ((rc = pin_to(cpus)) != 0) {
					c->err = -rc;
					rc = 0;
				} else {
					void *end;
					chase(buf, steps / 4 + 1, &end);       /* warm-up */
					double dt = chase(end, steps, &end);
					c->lat_ns = dt * 1e9 / (double)steps;
					if (!(o->cancel && atomic_load(o->cancel)))
						c->bw1_gbs = bandwidth(buf, len, NULL, passes);
					if (!(o->cancel && atomic_load(o->cancel)))
						c->bwall_gbs = bandwidth(buf, len, cpus, passes);
					if (o->cancel && atomic_load(o->cancel))
						rc = -ECANCELED;
				}
				done++;
			}
			munmap(buf, len);
		} else {
			for (size_t i = 0; i < n; i++)
				if (!bitmap_empty(&t->nodes[i].cpus)) {
					measure_at(res, i, j)->err = err;
					done++;
				}
		}
	}
	/* A buffer that fits in L2 on the first CPU node, for comparison. */
	if (rc == 0 && o->cancel && atomic_load(o->cancel))
		rc = -ECANCELED;
	if (rc == 0) {
		for (size_t i = 0; i < n; i++) {
			if (bitmap_empty(&t->nodes[i].cpus))
				continue;
			int64_t skb = l2 > 0 ? l2 / 2 : 128;
			size_t slen = (size_t)skb * 1024, slines = slen / LINE;
			char *small = aligned_alloc(4096, slen);
			if (small && pin_to(&t->nodes[i].cpus) == 0) {
				build_chain(small, slines, perm);
				void *end;
				chase(small, steps / 4 + 1, &end);
				res->l2_ns = chase(end, steps, &end) * 1e9 / (double)steps;
				res->l2_kb = skb;
			}
			free(small);
			break;
		}
		if (o->progress)
			o->progress(o->ctx, total, total, "done");
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	free(perm);
	res->seconds = monotime_now() - t0;
	res->when = time(NULL);
	if (rc) {
		measure_free(res);
		return rc;
	}
	return 0;
}
