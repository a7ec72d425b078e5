/* proc_list.c - the process list the backends fill: processes, threads,
 * strings in blocks, and the PID-sorted arrays' lookups. */
#include "proc_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

void proc_list_free(struct proc_list *l)
{
	free(l->v);
	free(l->threads);
	for (size_t i = 0; i < l->strs.nblocks; i++)
		free(l->strs.blocks[i]);
	free(l->strs.blocks);
	memset(l, 0, sizeof(*l));
}

#define STR_BLOCK 16384

/* The first block is kept for the next scan; the others are freed. */
void proc_list_clear_strings(struct proc_list *l)
{
	struct proc_strings *st = &l->strs;
	for (size_t i = 1; i < st->nblocks; i++)
		free(st->blocks[i]);
	st->nblocks = st->nblocks ? 1 : 0;
	st->used = 0;
}

const char *proc_list_strdup(struct proc_list *l, const char *s, size_t n)
{
	struct proc_strings *st = &l->strs;
	if (n == 0)
		return "";
	size_t need = n + 1;
	if (!st->nblocks || st->used + need > STR_BLOCK) {
		size_t sz = need > STR_BLOCK ? need : STR_BLOCK;
		char **bl = realloc(st->blocks, (st->nblocks + 1) * sizeof(*bl));
		if (!bl)
			return NULL;
		st->blocks = bl;
		char *b = malloc(sz);
		if (!b)
			return NULL;
		/* A string longer than a block gets its own, before the last
		 * one, so the last block's free space is not lost. */
		if (need > STR_BLOCK && st->nblocks) {
			bl[st->nblocks] = bl[st->nblocks - 1];
			bl[st->nblocks - 1] = b;
			st->nblocks++;
			memcpy(b, s, n);
			b[n] = '\0';
			return b;
		}
		bl[st->nblocks++] = b;
		st->used = 0;
	}
	char *d = st->blocks[st->nblocks - 1] + st->used;
	memcpy(d, s, n);
	d[n] = '\0';
	st->used += need;
	return d;
}

void proc_info_reset(struct proc_info *p)
{
	memset(p, 0, sizeof(*p));
	p->comm = p->cmdline = "";
	p->user = "?";
	p->uid = p->rss_kb = p->nthreads = -1;
	p->last_cpu = -1;
	p->ppid = -1;
}

static size_t elem_size(const struct proc_list *l)
{
	return l->elem ? l->elem : sizeof(struct proc_info);
}

struct proc_info *proc_list_add(struct proc_list *l)
{
	size_t size = elem_size(l);
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		void *v = realloc(l->v, cap * size);
		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	struct proc_info *p = proc_list_at(l, l->n++);
	memset(p, 0, size);
	proc_info_reset(p);
	return p;
}

static void move_rec(struct proc_list *l, size_t to, size_t from)
{
	memcpy(proc_list_at(l, to), proc_list_at(l, from), elem_size(l));
}

int proc_list_align(struct proc_list *l, const int *pids, size_t n)
{
	size_t size = elem_size(l);
	/* Kept entries must be in PID order; any other order (a list the
	 * caller sorted otherwise): nothing is kept. */
	for (size_t j = 1; j < l->n; j++)
		if (proc_list_at(l, j)->pid <= proc_list_at(l, j - 1)->pid) {
			l->n = 0;
			break;
		}
	/* Forward: the entries of PIDs still listed, to the front (w <= j). */
	size_t w = 0, i = 0;
	for (size_t j = 0; j < l->n; j++) {
		int pid = proc_list_at(l, j)->pid;
		while (i < n && pids[i] < pid)
			i++;
		if (i < n && pids[i] == pid) {
			if (w != j)
				move_rec(l, w, j);
			w++;
		}
	}
	if (n > l->cap) {
		size_t cap = l->cap ? l->cap : 256;
		while (cap < n)
			cap *= 2;
		void *v = realloc(l->v, cap * size);
		if (!v) {
			l->n = 0;
			return -ENOMEM;
		}
		l->v = v;
		l->cap = cap;
	}
	/* Backward: each kept entry to its PID's index, new ones made. The
	 * kept are a subsequence of pids, so kk - 1 <= t. */
	size_t kk = w;
	for (size_t t = n; t-- > 0;) {
		struct proc_info *p = proc_list_at(l, t);
		if (kk > 0 && proc_list_at(l, kk - 1)->pid == pids[t]) {
			kk--;
			if (kk != t)
				move_rec(l, t, kk);
		} else {
			memset(p, 0, size);
			proc_info_reset(p);
		}
		p->pid = pids[t];
	}
	l->n = n;
	return 0;
}

void proc_list_renew(struct proc_list *l, size_t i)
{
	size_t size = elem_size(l);
	if (size > sizeof(struct proc_info))
		memset((char *)proc_list_at(l, i) + sizeof(struct proc_info), 0,
		       size - sizeof(struct proc_info));
}

bool proc_list_kept(struct proc_list *l, size_t i)
{
	if (!l->keep || l->keep(l->keep_ctx, proc_list_at(l, i)))
		return true;
	proc_list_drop(l, i);
	return false;
}

void proc_list_drop(struct proc_list *l, size_t i)
{
	proc_list_at(l, i)->pid = 0;
}

void proc_list_compact(struct proc_list *l)
{
	size_t w = 0;
	for (size_t j = 0; j < l->n; j++)
		if (proc_list_at(l, j)->pid > 0) {
			if (w != j)
				move_rec(l, w, j);
			w++;
		}
	l->n = w;
}

int64_t proc_ticks(uint64_t utime, uint64_t stime)
{
	/* The parser saturates each at 2^50: the sum cannot wrap. */
	uint64_t t = utime + stime;
	return t > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)t;
}

int32_t proc_nthreads(int64_t n)
{
	return n < 0 ? -1 : n > INT32_MAX ? INT32_MAX : (int32_t)n;
}

int64_t proc_parse_run_ns(const char *text, size_t len)
{
	const char *q = text, *end = text + len;
	int64_t v;
	if (parse_i64(&q, end, &v) != 0 || v < 0)
		return -1;
	return v;
}

int proc_list_add_thread(struct proc_list *l, struct proc_info *p, int tid,
			 int cpu, int64_t ticks, int64_t run_ns)
{
	if (l->nthr == l->thrcap) {
		size_t cap = l->thrcap ? l->thrcap * 2 : 512;
		struct proc_thread *t = realloc(l->threads, cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		l->threads = t;
		l->thrcap = cap;
	}
	if (p->thr_n == 0)
		p->thr_off = l->nthr;
	l->threads[l->nthr].tid = tid;
	l->threads[l->nthr].last_cpu = cpu;
	l->threads[l->nthr].ticks = ticks;
	l->threads[l->nthr].run_ns = run_ns;
	l->threads[l->nthr].ran = -1;
	l->nthr++;
	p->thr_n++;
	return 0;
}

size_t proc_clean_cmdline(char *dst, size_t dstsz, const char *src, size_t n)
{
	while (n > 0 && src[n - 1] == '\0')
		n--;
	if (n >= dstsz)
		n = dstsz - 1;
	/* Argument separators become blanks; every other byte is kept as the
	 * process wrote it, for the output layers to escape (sanitize_term
	 * for a terminal, sanitize_utf8 + the JSON library's escapes). */
	for (size_t i = 0; i < n; i++)
		dst[i] = src[i] == '\0' ? ' ' : src[i];
	dst[n] = '\0';
	return n;
}

bool proc_threads_still(uint64_t ticks_then, int64_t nthr_then, double read_at,
			uint64_t ticks_now, int64_t nthr_now, double now, double max_age)
{
	return ticks_then == ticks_now && nthr_then == nthr_now && read_at >= 0 &&
	       now >= read_at && now - read_at < max_age;
}

static int cmp_pid(const void *key, const void *elem)
{
	int a = *(const int *)key, b = *(const int *)elem;
	return (a > b) - (a < b);
}

const void *proc_find_pid(const void *base, size_t n, size_t size, int pid)
{
	return n ? bsearch(&pid, base, n, size, cmp_pid) : NULL;
}

void *proc_slot_pid(void **base, size_t *n, size_t *cap, size_t size, int pid, bool *added)
{
	*added = false;
	size_t lo = 0, hi = *n;
	char *v = *base;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int p = *(const int *)(v + mid * size);
		if (p == pid)
			return v + mid * size;
		if (p < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		char *nv = realloc(v, c * size);
		if (!nv)
			return NULL;
		*base = v = nv;
		*cap = c;
	}
	memmove(v + (lo + 1) * size, v + lo * size, (*n - lo) * size);
	(*n)++;
	memset(v + lo * size, 0, size);
	*(int *)(v + lo * size) = pid;
	*added = true;
	return v + lo * size;
}
