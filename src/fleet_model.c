/* fleet_model.c - the hosts table of the fleet: each query's answer folded
 * into it (a host is its instance and job labels; the series name which
 * number it is, by the exposition's family table), and its order. No I/O:
 * the answers come parsed (fleet_parse.c). */
#include "fleet.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fields_proc.h"
#include "output_prom_fam.h"

static void host_free(struct fleet_host *h)
{
	free(h->instance);
	free(h->job);
	for (size_t k = 0; k < h->nlabels; k++) {
		free(h->lnames[k]);
		free(h->lvalues[k]);
	}
	free(h->lnames);
	free(h->lvalues);
	free(h->nodes);
}

void fleet_free(struct fleet *f)
{
	for (size_t i = 0; i < f->nhosts; i++)
		host_free(&f->hosts[i]);
	free(f->hosts);
	memset(f, 0, sizeof(*f));
}

static bool is(const char *name, enum fam f)
{
	return name && strcmp(name, output_prom_fam(f)->name) == 0;
}

/* The per-process gauge of the fact shown as column c. */
static bool is_proc(const char *name, enum snap_col c)
{
	return name && strcmp(name, fields_proc_col(c)->prom) == 0;
}

/* A number as the model keeps it: -1 for not a number or below 0. */
static double known(double v)
{
	return isnan(v) || v < 0 ? -1 : v;
}

static void copy(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "");
}

/* The other target labels of up's series: all but __name__, instance, job. */
static int host_labels(struct fleet_host *h, const struct fleet_series *s)
{
	if (h->lnames)          /* the first up series of the host gave them */
		return 0;
	h->lnames = calloc(s->nlabels ? s->nlabels : 1, sizeof(char *));
	h->lvalues = calloc(s->nlabels ? s->nlabels : 1, sizeof(char *));
	if (!h->lnames || !h->lvalues)
		return -ENOMEM;
	for (size_t k = 0; k < s->nlabels; k++) {
		const char *n = s->names[k];
		if (!strcmp(n, "__name__") || !strcmp(n, "instance") || !strcmp(n, "job"))
			continue;
		h->lnames[h->nlabels] = strdup(n);
		h->lvalues[h->nlabels] = strdup(s->values[k]);
		h->nlabels++;
		if (!h->lnames[h->nlabels - 1] || !h->lvalues[h->nlabels - 1])
			return -ENOMEM;
	}
	return 0;
}

/* The host of series s (added when new), or NULL: no instance label, or
 * out of memory (*rc). */
static struct fleet_host *host_of(struct fleet *f, const struct fleet_series *s, size_t *cap, int *rc)
{
	const char *inst = fleet_series_label(s, "instance"), *job = fleet_series_label(s, "job");
	if (!inst)
		return NULL;
	if (!job)
		job = "";
	for (size_t i = 0; i < f->nhosts; i++)
		if (!strcmp(f->hosts[i].instance, inst) && !strcmp(f->hosts[i].job, job))
			return &f->hosts[i];
	struct fleet_host *v = buf_grow_array(f->hosts, cap, f->nhosts + 1, sizeof(*v));
	if (!v) {
		*rc = -ENOMEM;
		return NULL;
	}
	f->hosts = v;
	struct fleet_host *h = &v[f->nhosts];
	memset(h, 0, sizeof(*h));
	h->instance = strdup(inst);
	h->job = strdup(job);
	if (!h->instance || !h->job) {
		host_free(h);
		*rc = -ENOMEM;
		return NULL;
	}
	h->up = -1;
	h->age_s = h->remote_bytes = h->hot_remote_bytes = h->hot_slow_bytes = -1;
	h->promote_pps = h->demote_pps = -1;
	f->nhosts++;
	return h;
}

static int add_node(struct fleet_host *h, const struct fleet_series *s, double v)
{
	const char *id = fleet_series_label(s, "node");
	char *end;
	long n = id ? strtol(id, &end, 10) : -1;
	if (!id || *end || n < 0)
		return 0;
	for (size_t j = 0; j < h->nnodes; j++)
		if (h->nodes[j].id == n) {
			h->nodes[j].used_bytes = known(v);
			return 0;
		}
	struct fleet_node *nv = realloc(h->nodes, (h->nnodes + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	h->nodes = nv;
	size_t j = h->nnodes++;
	while (j > 0 && h->nodes[j - 1].id > n) {     /* by id */
		h->nodes[j] = h->nodes[j - 1];
		j--;
	}
	h->nodes[j] = (struct fleet_node){ n, known(v) };
	return 0;
}

/* A process (pid) or a command's sum (no pid) of FQ_TOP. */
static void add_top(struct fleet_host *h, const struct fleet_series *s, const char *name, double v)
{
	bool hot = is_proc(name, COL_HOTREM) || is(name, F_COMM_HOT_REMOTE);
	if (!hot && !is_proc(name, COL_REMOTE) && !is(name, F_COMM_REMOTE))
		return;
	const char *pid = fleet_series_label(s, "pid"), *comm = fleet_series_label(s, "comm"),
		   *user = fleet_series_label(s, "user");
	char *end;
	long p = pid ? strtol(pid, &end, 10) : -1;
	if (pid && (*end || p < 0))
		return;
	struct fleet_proc *t = NULL;
	for (size_t k = 0; k < h->ntop && !t; k++)
		if (h->top[k].pid == p && (p >= 0 || (!strcmp(h->top[k].comm, comm ? comm : "") &&
						      !strcmp(h->top[k].user, user ? user : ""))))
			t = &h->top[k];
	if (!t) {
		if (h->ntop >= sizeof(h->top) / sizeof(h->top[0]))
			return;
		t = &h->top[h->ntop++];
		t->pid = p;
		copy(t->comm, sizeof(t->comm), comm);
		copy(t->user, sizeof(t->user), user);
		t->remote_bytes = t->hot_remote_bytes = -1;
	}
	if (hot)
		t->hot_remote_bytes = known(v);
	else
		t->remote_bytes = known(v);
}

static int merge_one(struct fleet *f, enum fleet_query q, const struct fleet_series *s,
		     struct fleet_host *h)
{
	double v = s->npoints ? s->points[s->npoints - 1].v : NAN;
	const char *name = fleet_series_label(s, "__name__");
	switch (q) {
	case FQ_UP:
		h->up = isnan(v) ? -1 : v > 0;
		return host_labels(h, s);
	case FQ_INFO:
		copy(h->version, sizeof(h->version), fleet_series_label(s, "version"));
		h->age_s = known(v);
		return 0;
	case FQ_NODES:
		return add_node(h, s, v);
	case FQ_HOST:
		if (is(name, F_HOST_REMOTE))
			h->remote_bytes = known(v);
		else if (is(name, F_HOST_HOT_REMOTE))
			h->hot_remote_bytes = known(v);
		else if (is(name, F_HOST_HOT_SLOW))
			h->hot_slow_bytes = known(v);
		else if (is(name, F_ACC_SOURCE)) {
			copy(h->heat_source, sizeof(h->heat_source), fleet_series_label(s, "source"));
			copy(h->heat_reason, sizeof(h->heat_reason), fleet_series_label(s, "reason"));
		}
		return 0;
	case FQ_TOP:
	case FQ_TOP_RAW: {
		/* A recording rule's series: instance:<family>:topk<N>. */
		char fam_name[128];
		const char *colon = name ? strrchr(name, ':') : NULL;
		if (name && !strncmp(name, "instance:", 9) && colon && colon > name + 9 &&
		    (size_t)(colon - name - 9) < sizeof(fam_name)) {
			snprintf(fam_name, sizeof(fam_name), "%.*s", (int)(colon - name - 9), name + 9);
			add_top(h, s, fam_name, v);
			f->top_recorded = true;
		} else {
			add_top(h, s, name, v);
		}
		return 0;
	}
	case FQ_RATES: {
		const char *dir = fleet_series_label(s, "numatop_fleet");
		if (dir && !strcmp(dir, "promote"))
			h->promote_pps = known(v);
		else if (dir && !strcmp(dir, "demote"))
			h->demote_pps = known(v);
		if (name)             /* a recording rule's series */
			f->recorded = true;
		return 0;
	}
	default:
		return 0;
	}
}

int fleet_merge(struct fleet *f, enum fleet_query q, const struct fleet_answer *a)
{
	size_t cap = f->nhosts;
	for (size_t i = 0; i < a->nseries; i++) {
		int rc = 0;
		struct fleet_host *h = host_of(f, &a->series[i], &cap, &rc);
		if (rc)
			return rc;
		if (h && (rc = merge_one(f, q, &a->series[i], h)))
			return rc;
	}
	return 0;
}

/* Larger first, unknown (-1) last. */
static int desc(double a, double b)
{
	return a > b ? -1 : a < b ? 1 : 0;
}

static int by_heat(const void *x, const void *y)
{
	const struct fleet_proc *a = x, *b = y;
	int c = desc(a->hot_remote_bytes, b->hot_remote_bytes);
	c = c ? c : desc(a->remote_bytes, b->remote_bytes);
	return c ? c : (a->pid > b->pid) - (a->pid < b->pid);
}

static int by_host(const void *x, const void *y)
{
	const struct fleet_host *a = x, *b = y;
	int c = desc(a->hot_remote_bytes, b->hot_remote_bytes);
	c = c ? c : desc(a->remote_bytes, b->remote_bytes);
	c = c ? c : strcmp(a->instance, b->instance);
	return c ? c : strcmp(a->job, b->job);
}

void fleet_sort(struct fleet *f)
{
	for (size_t i = 0; i < f->nhosts; i++)
		qsort(f->hosts[i].top, f->hosts[i].ntop, sizeof(f->hosts[i].top[0]), by_heat);
	if (f->nhosts)
		qsort(f->hosts, f->nhosts, sizeof(*f->hosts), by_host);
}
