/* output_prom_proc.c - the process series of the Prometheus exposition:
 * only processes with more remote memory than --metrics-min-remote (a
 * shell at 0 would get series of its own for its short life), the top
 * --metrics-top of them by remote bytes, each with its pid; or, with
 * --metrics-by comm, summed per command name and user, without a pid (a
 * fleet's series then stay the same however often processes come and go).
 * The processes left out are counted. Hot remote bytes (access heat) only
 * of the processes whose heat is known, by the same rules. */
#include "output_prom_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fields_proc.h"

/* Its placement is known. */
static bool placed(const struct snap_proc *p)
{
	return p->nm == NMS_OK && p->remote_kb >= 0;
}

/* kb * 1024 > min_bytes, without overflow. */
static bool above(int64_t kb, int64_t min_bytes)
{
	return kb > min_bytes / 1024;
}

/* Its hot kB off the nodes its threads work on (access heat), -1 unknown:
 * only usable heat is a series (a stale or measured number would read as
 * current; access_proc_trust). */
static int64_t hot_remote_kb(const struct snap_proc *p)
{
	const struct access_proc *a = access_usable(p->acc);
	return a && a->hot_remote_kb >= 0 ? a->hot_remote_kb : -1;
}

static int by_remote(const void *a, const void *b)
{
	const struct snap_proc *x = *(const struct snap_proc *const *)a,
			       *y = *(const struct snap_proc *const *)b;
	if (x->remote_kb != y->remote_kb)
		return x->remote_kb > y->remote_kb ? -1 : 1;
	return x->info.pid - y->info.pid;
}

static int per_pid(const struct expo *e, const struct snapshot *s, const struct output_metrics *m,
		   size_t *below)
{
	const struct topology *t = s->topo;
	const struct snap_proc **v = malloc((s->nprocs ? s->nprocs : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct snap_proc *p = snapshot_row(s, i);
		if (placed(p) && above(p->remote_kb, m->min_remote))
			v[n++] = p;
		else if (placed(p))
			(*below)++;
	}
	qsort(v, n, sizeof(*v), by_remote);
	if (n > m->top)
		n = m->top;
	/* The process facts' gauges, each with its HELP and TYPE. */
	for (size_t f = 0; f < proc_nfields; f++) {
		const struct proc_field *pf = &proc_fields[f];
		if (!pf->prom)
			continue;
		struct prom_family fam = prom_proc_family(pf);
		prom_head_row(e, &fam);
		for (size_t k = 0; k < n; k++)
			for (size_t j = 0; j < (pf->prom_node ? t->nnodes : 1); j++) {
				double val;
				if (pf->prom_val(s, v[k], j, &val))
					prom_sample_row(e, &fam,
							(const char *[]){ prom_num(v[k]->info.pid).s, v[k]->info.comm,
									  v[k]->info.user, prom_num(t->nodes[j].id).s },
							val);
			}
	}
	free(v);
	return 0;
}

/* The processes of one command name and user: v[first .. first + n). */
struct group {
	const char *comm, *user;
	size_t first, n;
	int64_t remote_kb, total_kb;
	int64_t hot_remote_kb;       /* of those whose access heat is known, -1 none */
};

static int by_name(const void *a, const void *b)
{
	const struct snap_proc *x = *(const struct snap_proc *const *)a,
			       *y = *(const struct snap_proc *const *)b;
	int c = strcmp(x->info.comm, y->info.comm);
	return c ? c : strcmp(x->info.user, y->info.user);
}

static int group_by_remote(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	if (x->remote_kb != y->remote_kb)
		return x->remote_kb > y->remote_kb ? -1 : 1;
	int c = strcmp(x->comm, y->comm);
	return c ? c : strcmp(x->user, y->user);
}

static void group_write(const struct expo *e, const struct snapshot *s,
			const struct snap_proc *const *v, const struct group *g, size_t ng)
{
	const struct topology *t = s->topo;
	prom_head(e, F_COMM_PROCESSES);
	for (size_t k = 0; k < ng; k++)
		prom_sample(e, F_COMM_PROCESSES, (const char *[]){ g[k].comm, g[k].user }, (double)g[k].n);
	prom_head(e, F_COMM_MEMORY);
	for (size_t k = 0; k < ng; k++)
		for (size_t j = 0; j < t->nnodes; j++) {
			int64_t kb = 0;
			for (size_t i = g[k].first; i < g[k].first + g[k].n; i++)
				kb += v[i]->node_kb[j] > 0 ? v[i]->node_kb[j] : 0;
			prom_sample(e, F_COMM_MEMORY,
				    (const char *[]){ g[k].comm, g[k].user, prom_num(t->nodes[j].id).s },
				    prom_kb_bytes(kb));
		}
	prom_head(e, F_COMM_RESIDENT);
	for (size_t k = 0; k < ng; k++)
		prom_sample(e, F_COMM_RESIDENT, (const char *[]){ g[k].comm, g[k].user },
			    prom_kb_bytes(g[k].total_kb));
	prom_head(e, F_COMM_REMOTE);
	for (size_t k = 0; k < ng; k++)
		prom_sample(e, F_COMM_REMOTE, (const char *[]){ g[k].comm, g[k].user },
			    prom_kb_bytes(g[k].remote_kb));
	prom_head(e, F_COMM_HOT_REMOTE);
	for (size_t k = 0; k < ng; k++)
		if (g[k].hot_remote_kb >= 0)
			prom_sample(e, F_COMM_HOT_REMOTE, (const char *[]){ g[k].comm, g[k].user },
				    prom_kb_bytes(g[k].hot_remote_kb));
}

/* Grouped on the raw names: their label values (sanitize_term's visible
 * escapes) differ when they do, so no two groups share labels. */
static int per_comm(const struct expo *e, const struct snapshot *s, const struct output_metrics *m,
		    size_t *below)
{
	size_t cap = s->nprocs ? s->nprocs : 1;
	const struct snap_proc **v = malloc(cap * sizeof(*v));
	struct group *g = malloc(cap * sizeof(*g));
	if (!v || !g) {
		free(v);
		free(g);
		return -ENOMEM;
	}
	size_t n = 0, ng = 0;
	for (size_t i = 0; i < s->nprocs; i++)
		if (placed(snapshot_row(s, i)))
			v[n++] = snapshot_row(s, i);
	qsort(v, n, sizeof(*v), by_name);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || by_name(&v[i - 1], &v[i]) != 0)
			g[ng++] = (struct group){ v[i]->info.comm, v[i]->info.user, i, 0, 0, 0, -1 };
		struct group *c = &g[ng - 1];
		c->n++;
		if (hot_remote_kb(v[i]) >= 0)
			c->hot_remote_kb = (c->hot_remote_kb > 0 ? c->hot_remote_kb : 0) +
					   hot_remote_kb(v[i]);
		c->remote_kb += v[i]->remote_kb;
		c->total_kb += v[i]->total_kb > 0 ? v[i]->total_kb : 0;
	}
	size_t kept = 0;
	for (size_t k = 0; k < ng; k++) {
		if (above(g[k].remote_kb, m->min_remote))
			g[kept++] = g[k];
		else
			*below += g[k].n;
	}
	qsort(g, kept, sizeof(*g), group_by_remote);
	group_write(e, s, v, g, kept < m->top ? kept : m->top);
	free(g);
	free(v);
	return 0;
}

/* The host's sums over every process whose placement was read, those the
 * process series leave out too: remote bytes; hot remote and hot
 * slow-tier bytes of those whose access heat is known (no sample when
 * none is). */
static void host_sums(const struct expo *e, const struct snapshot *s)
{
	int64_t remote = 0, hot_remote = -1, hot_slow = -1;
	bool multi = tiers_multi(&s->nk.tiers);
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct snap_proc *p = &s->procs[i];
		if (!placed(p))
			continue;
		remote += p->remote_kb;
		if (hot_remote_kb(p) >= 0)
			hot_remote = (hot_remote > 0 ? hot_remote : 0) + hot_remote_kb(p);
		int64_t hs = multi && access_usable(p->acc) ? snap_hot_slow_kb(p) : -1;
		if (hs >= 0)
			hot_slow = (hot_slow > 0 ? hot_slow : 0) + hs;
	}
	prom_head(e, F_HOST_REMOTE);
	prom_sample(e, F_HOST_REMOTE, NULL, prom_kb_bytes(remote));
	prom_head(e, F_HOST_HOT_REMOTE);
	if (hot_remote >= 0)
		prom_sample(e, F_HOST_HOT_REMOTE, NULL, prom_kb_bytes(hot_remote));
	prom_head(e, F_HOST_HOT_SLOW);
	if (hot_slow >= 0)
		prom_sample(e, F_HOST_HOT_SLOW, NULL, prom_kb_bytes(hot_slow));
}

int prom_processes(const struct expo *e, const struct snapshot *s, const struct output_metrics *m)
{
	size_t below = 0;
	int rc = m->by == OUTPUT_BY_COMM ? per_comm(e, s, m, &below) : per_pid(e, s, m, &below);
	if (rc)
		return rc;
	prom_head(e, F_BELOW_MIN);
	prom_sample(e, F_BELOW_MIN, NULL, (double)below);
	host_sums(e, s);
	return 0;
}
