/* history.c - rings of the last samples per node and per displayed
 * process, and sparklines of them. */
#include "history.h"
#include "snapshot_tiers.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int ring_init(struct hist_ring *r, size_t cap)
{
	r->v = malloc(cap * sizeof(float));
	r->cap = cap;
	r->n = r->head = 0;
	return r->v ? 0 : -ENOMEM;
}

static void ring_push(struct hist_ring *r, double v)
{
	r->v[r->head] = v < 0 ? NAN : (float)v;
	r->head = (r->head + 1) % r->cap;
	if (r->n < r->cap)
		r->n++;
}

float hist_at(const struct hist_ring *r, size_t i)
{
	size_t start = (r->head + r->cap - r->n) % r->cap;
	return r->v[(start + i) % r->cap];
}

bool hist_range(const struct hist_ring *r, double *lo, double *hi)
{
	bool any = false;
	for (size_t i = 0; r && i < r->n; i++) {
		float v = hist_at(r, i);
		if (isnan(v))
			continue;
		if (!any || v < *lo)
			*lo = v;
		if (!any || v > *hi)
			*hi = v;
		any = true;
	}
	return any;
}

size_t hist_spark(const struct hist_ring *r, size_t width, bool ascii, double lo, double hi,
		  char *out, size_t n)
{
	static const char *const blocks[8] = { "\u2581", "\u2582", "\u2583", "\u2584",
						"\u2585", "\u2586", "\u2587", "\u2588" };
	static const char asc[8] = { '_', '.', ':', '-', '=', '+', '*', '#' };
	size_t o = 0, cols = 0;
	if (n)
		out[0] = '\0';
	if (!r || !n)
		return 0;
	if (hi <= lo && !hist_range(r, &lo, &hi))
		lo = 0, hi = 1;
	size_t count = r->n < width ? r->n : width;
	for (size_t i = r->n - count; i < r->n; i++) {
		float v = hist_at(r, i);
		int level = -1;
		if (!isnan(v))
			level = hi > lo ? (int)((v - lo) / (hi - lo) * 7.0 + 0.5) : 0;
		if (level > 7)
			level = 7;
		if (level < -1)
			level = 0;
		const char *c = level < 0 ? " " : ascii ? (char[]){ asc[level], 0 } : blocks[level];
		size_t cl = strlen(c);
		if (o + cl + 1 > n)
			break;
		memcpy(out + o, c, cl);
		o += cl;
		cols++;
	}
	out[o] = '\0';
	return cols;
}

static void proc_free(struct hist_proc *p, size_t nnodes)
{
	free(p->remote_pct.v);
	for (size_t j = 0; p->node_kb && j < nnodes; j++)
		free(p->node_kb[j].v);
	free(p->node_kb);
	memset(p, 0, sizeof(*p));
}

int history_init(struct history *h, size_t cap, size_t nnodes)
{
	memset(h, 0, sizeof(*h));
	h->cap = cap ? cap : 1;
	h->nnodes = nnodes;
	h->node = calloc(nnodes * HIST_NODE_KEYS + 1, sizeof(*h->node));
	h->procs = calloc(HIST_MAX_PROCS, sizeof(*h->procs));
	if (!h->node || !h->procs) {
		history_free(h);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nnodes * HIST_NODE_KEYS; i++)
		if (ring_init(&h->node[i], h->cap)) {
			history_free(h);
			return -ENOMEM;
		}
	return 0;
}

void history_free(struct history *h)
{
	free(h->want);
	for (size_t i = 0; h->node && i < h->nnodes * HIST_NODE_KEYS; i++)
		free(h->node[i].v);
	free(h->node);
	for (size_t i = 0; i < h->nprocs; i++)
		proc_free(&h->procs[i], h->nnodes);
	free(h->procs);
	memset(h, 0, sizeof(*h));
}

void history_reset(struct history *h)
{
	for (size_t i = 0; i < h->nnodes * HIST_NODE_KEYS; i++)
		h->node[i].n = h->node[i].head = 0;
	for (size_t i = 0; i < h->nprocs; i++)
		proc_free(&h->procs[i], h->nnodes);
	h->nprocs = 0;
	h->samples = 0;
}

const struct hist_ring *history_node(const struct history *h, size_t node, enum hist_node_key k)
{
	return node < h->nnodes ? &h->node[node * HIST_NODE_KEYS + k] : NULL;
}

void hist_ring_free(struct hist_ring *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

int history_tier(const struct history *h, const struct tier_model *m, size_t j,
		 enum hist_node_key k, struct hist_ring *out)
{
	memset(out, 0, sizeof(*out));
	if (!m || j >= m->ntiers || m->nnodes != h->nnodes || !h->node)
		return -ENOENT;
	if (ring_init(out, h->cap))
		return -ENOMEM;
	size_t n = SIZE_MAX;
	for (size_t i = 0; i < h->nnodes; i++)
		if (m->node[i].tier == m->tier[j].id && h->node[i * HIST_NODE_KEYS + k].n < n)
			n = h->node[i * HIST_NODE_KEYS + k].n;
	if (n == SIZE_MAX)
		return 0;     /* a tier without nodes here: nothing known */
	/* The rings are pushed together: their newest n line up. */
	for (size_t t = 0; t < n; t++) {
		double sum = 0;
		for (size_t i = 0; i < h->nnodes && !isnan(sum); i++) {
			if (m->node[i].tier != m->tier[j].id)
				continue;
			const struct hist_ring *r = &h->node[i * HIST_NODE_KEYS + k];
			float v = hist_at(r, r->n - n + t);
			sum = isnan(v) ? NAN : sum + v;
		}
		ring_push(out, isnan(sum) ? -1 : sum);
	}
	return 0;
}

const struct hist_proc *history_proc(const struct history *h, int pid, uint64_t starttime)
{
	for (size_t i = 0; i < h->nprocs; i++)
		if (h->procs[i].pid == pid && h->procs[i].starttime == starttime)
			return &h->procs[i];
	return NULL;
}

size_t history_bytes(const struct history *h)
{
	size_t b = sizeof(*h) + h->nnodes * HIST_NODE_KEYS * (sizeof(struct hist_ring) + h->cap * sizeof(float));
	b += HIST_MAX_PROCS * sizeof(struct hist_proc);
	b += h->nprocs * ((1 + h->nnodes) * (sizeof(struct hist_ring) + h->cap * sizeof(float)));
	return b;
}

/* A new entry for p: a free slot, else the least recently displayed. */
static struct hist_proc *proc_new(struct history *h, const struct snap_proc *p)
{
	struct hist_proc *e;
	if (h->nprocs < HIST_MAX_PROCS) {
		e = &h->procs[h->nprocs];
	} else {
		e = &h->procs[0];
		for (size_t i = 1; i < h->nprocs; i++)
			if (h->procs[i].seen < e->seen)
				e = &h->procs[i];
		proc_free(e, h->nnodes);
	}
	e->node_kb = calloc(h->nnodes ? h->nnodes : 1, sizeof(*e->node_kb));
	int rc = e->node_kb ? ring_init(&e->remote_pct, h->cap) : -ENOMEM;
	for (size_t j = 0; !rc && j < h->nnodes; j++)
		rc = ring_init(&e->node_kb[j], h->cap);
	if (rc) {
		proc_free(e, h->nnodes);
		return NULL;
	}
	e->pid = p->info.pid;
	e->starttime = p->info.starttime;
	if (e == &h->procs[h->nprocs])
		h->nprocs++;
	return e;
}

static void proc_push(struct history *h, struct hist_proc *e, const struct snap_proc *p)
{
	bool ok = p && p->nm == NMS_OK;
	ring_push(&e->remote_pct, ok ? snap_remote_pct(p) : -1);
	for (size_t j = 0; j < h->nnodes; j++)
		ring_push(&e->node_kb[j], ok ? (double)p->node_kb[j] : -1);
}

/* The snapshot's processes by PID: (pid, index) pairs, sorted. */
struct pid_idx { int pid; size_t idx; };

static int cmp_pid_idx(const void *a, const void *b)
{
	const struct pid_idx *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The wanted PIDs (kept and displayed, sorted, idx set to SIZE_MAX) get
 * their index in s from one pass over it: O(N log k), k <= 256 + shown. */
static void locate(const struct snapshot *s, struct pid_idx *want, size_t k)
{
	for (size_t i = 0; i < s->nprocs && k; i++) {
		struct pid_idx key = { s->procs[i].info.pid, 0 };
		struct pid_idx *f = bsearch(&key, want, k, sizeof(*want), cmp_pid_idx);
		if (f)
			f->idx = i;
	}
}

static const struct snap_proc *find(const struct snapshot *s, const struct pid_idx *want,
				    size_t k, int pid)
{
	struct pid_idx key = { pid, 0 };
	const struct pid_idx *f = k ? bsearch(&key, want, k, sizeof(*want), cmp_pid_idx) : NULL;
	return f && f->idx != SIZE_MAX ? &s->procs[f->idx] : NULL;
}

int history_add(struct history *h, const struct snapshot *s, const int *pids, size_t n)
{
	size_t nn = s->topo && s->topo->nnodes == h->nnodes ? h->nnodes : 0;
	h->samples++;
	/* A sample without its nodes (one that could not be read) has
	 * them unknown. */
	for (size_t i = 0; i < nn; i++) {
		const struct node_sample *ns = s->nodes ? &s->nodes[i] : NULL;
		ring_push(&h->node[i * HIST_NODE_KEYS + HIST_CPU], s->node_load ? s->node_load[i].busy : -1);
		ring_push(&h->node[i * HIST_NODE_KEYS + HIST_FREE_KB], ns ? (double)ns->mem.mem_free_kb : -1);
		double miss = s->ns_rate ? s->ns_rate[i][NUMASTAT_MISS] : -1;
		double other = s->ns_rate ? s->ns_rate[i][NUMASTAT_OTHER_NODE] : -1;
		ring_push(&h->node[i * HIST_NODE_KEYS + HIST_MISS], miss >= 0 && other >= 0 ? miss + other : -1);
		ring_push(&h->node[i * HIST_NODE_KEYS + HIST_PROMOTE], snapshot_node_promote_rate(s, i));
		ring_push(&h->node[i * HIST_NODE_KEYS + HIST_DEMOTE], snapshot_node_demote_rate(s, i));
	}
	if (!h->nprocs && !n)
		return 0;
	/* Only the kept and displayed PIDs are looked up: a small sorted
	 * array (reused), located in one pass over the sample. */
	size_t k = h->nprocs + n;
	if (k > h->wantcap) {
		struct pid_idx *w = realloc(h->want, k * sizeof(*w));
		if (!w)
			return -ENOMEM;
		h->want = w;
		h->wantcap = k;
	}
	struct pid_idx *by = h->want;
	for (size_t i = 0; i < h->nprocs; i++)
		by[i] = (struct pid_idx){ h->procs[i].pid, SIZE_MAX };
	for (size_t i = 0; i < n; i++)
		by[h->nprocs + i] = (struct pid_idx){ pids[i], SIZE_MAX };
	qsort(by, k, sizeof(*by), cmp_pid_idx);
	size_t u = 0;                 /* kept and displayed: once */
	for (size_t i = 0; i < k; i++)
		if (!u || by[u - 1].pid != by[i].pid)
			by[u++] = by[i];
	k = u;
	locate(s, by, k);
	/* The kept processes: their value now, or unknown when gone. */
	for (size_t i = 0; i < h->nprocs; i++) {
		struct hist_proc *e = &h->procs[i];
		const struct snap_proc *p = find(s, by, k, e->pid);
		proc_push(h, e, p && p->info.starttime == e->starttime ? p : NULL);
	}
	/* The displayed ones: remembered as seen now, new ones added. */
	int rc = 0;
	for (size_t j = 0; j < n && !rc; j++) {
		const struct snap_proc *p = find(s, by, k, pids[j]);
		if (!p)
			continue;
		struct hist_proc *e = (struct hist_proc *)history_proc(h, p->info.pid, p->info.starttime);
		if (!e) {
			if (!(e = proc_new(h, p))) {
				rc = -ENOMEM;
				break;
			}
			proc_push(h, e, p);
		}
		e->seen = h->samples;
	}
	return rc;
}
