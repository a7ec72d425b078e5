/* fleet_view.c - one host of the fleet, drilled into: its nodes and its
 * processes as its exporter's series carry them, at the client's time,
 * and the hour before (range queries). The columns are the catalogues'
 * rows that have a gauge: a process fact of fields_proc.h with its
 * column, a node fact of node_fields.h; none is named here by its text. */
#include "fleet_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "fields_proc.h"
#include "format.h"
#include "node_fields.h"
#include "output_prom_fam.h"

enum view_query { VQ_NOW, VQ_HOST_HOUR, VQ_PROC_HOUR, VQ_N };
static const char *const vq_names[VQ_N] = { "host", "host history", "process history" };

static void free_proc(struct fleet_view_proc *p)
{
	free(p->v);
	free(p->hist);
}

void fleet_view_free(struct fleet_view *v)
{
	free(v->instance);
	free(v->cols);
	free(v->nodecols);
	for (size_t i = 0; i < v->nnodes; i++) {
		free(v->nodes[i].v);
		free(v->nodes[i].used_hist);
	}
	free(v->nodes);
	for (size_t i = 0; i < v->nprocs; i++)
		free_proc(&v->procs[i]);
	free(v->procs);
	free(v->remote_hist);
	free(v->hot_remote_hist);
	memset(v, 0, sizeof(*v));
}

void fleet_view_col_name(const struct fleet_view *v, size_t k, char *out, size_t n)
{
	const struct fleet_view_col *c = &v->cols[k];
	if (c->node >= 0)
		snprintf(out, n, "N%ld", c->node);
	else
		snprintf(out, n, "%s", c->f->col.name);
}

void fleet_view_value(char *out, size_t n, double v, enum fleet_unit unit)
{
	if (isnan(v))
		snprintf(out, n, "-");
	else if (unit == FU_BYTES)
		fmt_kb(out, n, (int64_t)(v / 1024));
	else if (unit == FU_RATIO)
		fmt_pct(out, n, v * 100);
	else
		snprintf(out, n, "%.0f", v);
}

static enum fleet_unit unit_of(const char *name)
{
	size_t l = strlen(name);
	if (l > 6 && strcmp(name + l - 6, "_bytes") == 0)
		return FU_BYTES;
	if (l > 6 && strcmp(name + l - 6, "_ratio") == 0)
		return FU_RATIO;
	return FU_NUMBER;
}

/* The process rows that the exporter writes as a gauge, shown as a column. */
static bool proc_row(const struct proc_field *f)
{
	return f->prom && f->col.name;
}

static const char *fam(enum fam f)
{
	return output_prom_fam(f)->name;
}

/* The host's sums and counts that the view reads. */
static const enum fam host_fams[] = { F_HOST_REMOTE, F_HOST_HOT_REMOTE, F_HOST_HOT_SLOW, F_PROCESSES,
				      F_BELOW_MIN };
#define NHOST_FAMS (sizeof(host_fams) / sizeof(host_fams[0]))

static const char *used_fam(void)
{
	const struct node_field *f = node_field_find("mem_used_kb");
	return f ? f->prom : "numatop_unknown_node_field";
}

struct sb {
	char *p;
	size_t n, len;
	int err;
};

static void sb_add(struct sb *b, const char *s)
{
	size_t l = strlen(s);
	if (b->err || b->len + l >= b->n) {
		b->err = -ENOSPC;
		return;
	}
	memcpy(b->p + b->len, s, l + 1);
	b->len += l;
}

/* instance="<the value, escaped as a PromQL string>" and the matcher. */
static void sb_where(struct sb *b, const char *instance, const char *m)
{
	sb_add(b, "instance=\"");
	for (const char *c = instance; *c; c++) {
		char e[8];
		if (*c == '"' || *c == '\\')
			snprintf(e, sizeof(e), "\\%c", *c);
		else if (*c == '\n')
			snprintf(e, sizeof(e), "\\n");
		else
			snprintf(e, sizeof(e), "%c", *c);
		sb_add(b, e);
	}
	sb_add(b, "\"");
	if (*m) {
		sb_add(b, ",");
		sb_add(b, m);
	}
}

/* {__name__=~"a|b|...",instance="...",M} */
static void sb_names(struct sb *b, const char *const *names, size_t n, const char *instance,
		     const char *m)
{
	sb_add(b, "{__name__=~\"");
	for (size_t i = 0; i < n; i++) {
		if (i)
			sb_add(b, "|");
		sb_add(b, names[i]);
	}
	sb_add(b, "\",");
	sb_where(b, instance, m);
	sb_add(b, "}");
}

static int build(enum view_query q, const char *instance, const char *m, char *out, size_t n)
{
	struct sb b = { out, n, 0, 0 };
	const char *names[64 + NHOST_FAMS];
	size_t k = 0;
	out[0] = '\0';
	switch (q) {
	case VQ_NOW:
		for (size_t i = 0; i < proc_nfields && k < 32; i++)
			if (proc_row(&proc_fields[i]))
				names[k++] = proc_fields[i].prom;
		for (size_t i = 0; i < node_nfields && k < 56; i++)
			if (node_fields[i].prom)
				names[k++] = node_fields[i].prom;
		for (size_t i = 0; i < NHOST_FAMS; i++)
			names[k++] = fam(host_fams[i]);
		sb_names(&b, names, k, instance, m);
		break;
	case VQ_HOST_HOUR:
		names[k++] = fam(F_HOST_REMOTE);
		names[k++] = fam(F_HOST_HOT_REMOTE);
		names[k++] = used_fam();
		sb_names(&b, names, k, instance, m);
		break;
	default:
		names[k++] = fields_proc_col(COL_REMOTE)->prom;
		sb_names(&b, names, k, instance, m);
		break;
	}
	return b.err;
}

/* "<query>: <what>" into v->errors. */
static void say(struct fleet_view *v, int err, enum view_query q, const char *msg)
{
	if (v->nerrors >= sizeof(v->errors) / sizeof(v->errors[0]))
		return;
	struct fleet_error *e = &v->errors[v->nerrors++];
	e->q = FQ_N;
	e->err = err;
	snprintf(e->msg, sizeof(e->msg), "%s: %.280s", vq_names[q], msg);
}

static const char *label(const struct fleet_series *s, const char *name)
{
	return fleet_series_label(s, name);
}

/* A label's value as an id: >= 0, or -1 when it is not one. */
static long id_of(const char *s)
{
	if (!s || !*s)
		return -1;
	char *end;
	long v = strtol(s, &end, 10);
	return *end || v < 0 ? -1 : v;
}

static const struct proc_field *proc_row_named(const char *name)
{
	for (size_t i = 0; i < proc_nfields; i++)
		if (proc_row(&proc_fields[i]) && strcmp(proc_fields[i].prom, name) == 0)
			return &proc_fields[i];
	return NULL;
}

static size_t col_find(const struct fleet_view *v, const struct proc_field *f, long node)
{
	for (size_t k = 0; k < v->ncols; k++)
		if (v->cols[k].f == f && v->cols[k].node == node)
			return k;
	return (size_t)-1;
}

static long proc_find(const struct fleet_view *v, const struct fleet_series *s)
{
	const char *pid = label(s, "pid"), *comm = label(s, "comm");
	long id = id_of(pid);
	for (size_t i = 0; i < v->nprocs; i++)
		if (v->procs[i].pid == id && strcmp(v->procs[i].comm, comm ? comm : "") == 0)
			return (long)i;
	return -1;
}

static long node_find(const struct fleet_view *v, long id)
{
	for (size_t i = 0; i < v->nnodes; i++)
		if (v->nodes[i].id == id)
			return (long)i;
	return -1;
}

static int col_cmp(const void *a, const void *b)
{
	const struct fleet_view_col *x = a, *y = b;
	if (x->f != y->f)
		return x->f < y->f ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

static int node_cmp(const void *a, const void *b)
{
	const struct fleet_view_node *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

static double *nans(size_t n)
{
	double *d = malloc((n ? n : 1) * sizeof(*d));
	for (size_t i = 0; d && i < n; i++)
		d[i] = NAN;
	return d;
}

static float *fnans(size_t n)
{
	float *d = malloc((n ? n : 1) * sizeof(*d));
	for (size_t i = 0; d && i < n; i++)
		d[i] = NAN;
	return d;
}

/* The first pass: which columns, processes and nodes there are. */
static int shape(struct fleet_view *v, const struct fleet_answer *a)
{
	size_t capc = 0, capp = 0, capn = 0;
	for (size_t i = 0; i < a->nseries; i++) {
		const struct fleet_series *s = &a->series[i];
		const char *name = label(s, "__name__");
		if (!name)
			continue;
		const struct proc_field *f = proc_row_named(name);
		long node = f && f->prom_node ? id_of(label(s, "node")) : -1;
		if (f && (!f->prom_node || node >= 0) && col_find(v, f, node) == (size_t)-1) {
			void *g = buf_grow_array(v->cols, &capc, v->ncols + 1, sizeof(*v->cols));
			if (!g)
				return -ENOMEM;
			v->cols = g;
			v->cols[v->ncols++] = (struct fleet_view_col){ f, node, unit_of(name) };
		}
		if (f && proc_find(v, s) < 0) {
			void *g = buf_grow_array(v->procs, &capp, v->nprocs + 1, sizeof(*v->procs));
			if (!g)
				return -ENOMEM;
			v->procs = g;
			struct fleet_view_proc *p = &v->procs[v->nprocs++];
			memset(p, 0, sizeof(*p));
			p->pid = id_of(label(s, "pid"));
			snprintf(p->comm, sizeof(p->comm), "%s", label(s, "comm") ? label(s, "comm") : "");
			snprintf(p->user, sizeof(p->user), "%s", label(s, "user") ? label(s, "user") : "");
		}
		long nid = id_of(label(s, "node"));
		bool node_series = false;
		for (size_t k = 0; k < node_nfields && !f; k++)
			node_series |= node_fields[k].prom && strcmp(node_fields[k].prom, name) == 0;
		if (node_series && nid >= 0 && node_find(v, nid) < 0) {
			void *g = buf_grow_array(v->nodes, &capn, v->nnodes + 1, sizeof(*v->nodes));
			if (!g)
				return -ENOMEM;
			v->nodes = g;
			v->nodes[v->nnodes++] = (struct fleet_view_node){ nid, NULL, NULL };
		}
	}
	if (v->ncols)
		qsort(v->cols, v->ncols, sizeof(*v->cols), col_cmp);
	if (v->nnodes)
		qsort(v->nodes, v->nnodes, sizeof(*v->nodes), node_cmp);
	v->nodecols = calloc(node_nfields ? node_nfields : 1, sizeof(*v->nodecols));
	if (!v->nodecols)
		return -ENOMEM;
	for (size_t k = 0; k < node_nfields; k++)
		if (node_fields[k].prom)
			v->nodecols[v->nnodecols++] = &node_fields[k];
	for (size_t i = 0; i < v->nprocs; i++)
		if (!(v->procs[i].v = nans(v->ncols)) || !(v->procs[i].hist = fnans(v->nhist)))
			return -ENOMEM;
	for (size_t i = 0; i < v->nnodes; i++)
		if (!(v->nodes[i].v = nans(v->nnodecols)) || !(v->nodes[i].used_hist = fnans(v->nhist)))
			return -ENOMEM;
	return 0;
}

static double value(const struct fleet_series *s)
{
	return s->npoints ? s->points[s->npoints - 1].v : NAN;
}

/* The second pass: the values. */
static void fill(struct fleet_view *v, const struct fleet_answer *a)
{
	for (size_t i = 0; i < a->nseries; i++) {
		const struct fleet_series *s = &a->series[i];
		const char *name = label(s, "__name__");
		if (!name)
			continue;
		const struct proc_field *f = proc_row_named(name);
		if (f) {
			long node = f->prom_node ? id_of(label(s, "node")) : -1;
			size_t k = col_find(v, f, node);
			long p = proc_find(v, s);
			if (k != (size_t)-1 && p >= 0)
				v->procs[p].v[k] = value(s);
			continue;
		}
		for (size_t k = 0; k < NHOST_FAMS; k++) {
			if (strcmp(name, fam(host_fams[k])) != 0)
				continue;
			double *to[] = { &v->remote_bytes, &v->hot_remote_bytes, &v->hot_slow_bytes,
					 &v->processes, &v->below_min };
			*to[k] = value(s);
		}
		long n = node_find(v, id_of(label(s, "node")));
		for (size_t k = 0; k < v->nnodecols && n >= 0; k++)
			if (strcmp(v->nodecols[k]->prom, name) == 0)
				v->nodes[n].v[k] = value(s);
	}
}

/* By remote bytes (unknown last), then PID. */
static int proc_cmp(const void *a, const void *b)
{
	const struct fleet_view_proc *x = a, *y = b;
	double vx = isnan(x->remote_bytes) ? -1 : x->remote_bytes;
	double vy = isnan(y->remote_bytes) ? -1 : y->remote_bytes;
	if (vx != vy)
		return vx > vy ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* A range answer's points into the hour's slots. */
static void slots(const struct fleet_view *v, const struct fleet_series *s, float *out)
{
	double start = v->hist_end - FLEET_VIEW_STEP_S * (double)(v->nhist - 1);
	for (size_t k = 0; k < s->npoints; k++) {
		double i = round((s->points[k].t - start) / FLEET_VIEW_STEP_S);
		if (i >= 0 && i < (double)v->nhist)
			out[(size_t)i] = (float)s->points[k].v;
	}
}

static void hour(struct fleet_view *v, enum view_query q, const struct fleet_answer *a)
{
	for (size_t i = 0; i < a->nseries; i++) {
		const struct fleet_series *s = &a->series[i];
		const char *name = label(s, "__name__");
		if (q == VQ_PROC_HOUR) {
			long p = proc_find(v, s);
			if (p >= 0)
				slots(v, s, v->procs[p].hist);
		} else if (name && strcmp(name, fam(F_HOST_REMOTE)) == 0) {
			slots(v, s, v->remote_hist);
		} else if (name && strcmp(name, fam(F_HOST_HOT_REMOTE)) == 0) {
			slots(v, s, v->hot_remote_hist);
		} else if (name && strcmp(name, used_fam()) == 0) {
			long n = node_find(v, id_of(label(s, "node")));
			if (n >= 0)
				slots(v, s, v->nodes[n].used_hist);
		}
	}
}

/* One query of the view: its answer in a, or its error said. */
static int ask(struct fleet_client *cl, struct fleet_view *v, enum view_query q, const char *m,
	       struct fleet_answer *a)
{
	char msg[320], params[160];
	int rc = build(q, v->instance, m, cl->promql[0], FLEET_PROMQL_MAX);
	memset(a, 0, sizeof(*a));
	if (rc) {
		say(v, rc, q, "the query is too long");
		return rc;
	}
	v->nqueries++;
	if (q == VQ_NOW)
		fleet_time_param(cl, params, sizeof(params));
	else
		snprintf(params, sizeof(params), "&start=%.0f&end=%.0f&step=%.0f",
			 v->hist_end - FLEET_VIEW_RANGE_S, v->hist_end, FLEET_VIEW_STEP_S);
	rc = fleet_ask(cl, q == VQ_NOW ? "query" : "query_range", cl->promql[0], params, a, msg,
		       sizeof(msg));
	if (!rc && a->type != (q == VQ_NOW ? FR_VECTOR : FR_MATRIX)) {
		rc = -EINVAL;
		snprintf(msg, sizeof(msg), "an answer of another type than asked");
	}
	if (rc)
		say(v, rc, q, msg);
	return rc;
}

int fleet_view_read(struct fleet_client *cl, const char *instance, struct fleet_view *v)
{
	fleet_view_free(v);
	char m[1024];
	if (fleet_matcher(cl->match, m, sizeof(m)))
		return -EINVAL;
	if (!(v->instance = strdup(instance)))
		return -ENOMEM;
	v->at = cl->at;
	v->remote_bytes = v->hot_remote_bytes = v->hot_slow_bytes = NAN;
	v->processes = v->below_min = NAN;
	v->nhist = (size_t)(FLEET_VIEW_RANGE_S / FLEET_VIEW_STEP_S) + 1;
	double end = v->at > 0 ? v->at : (double)time(NULL);
	v->hist_end = floor(end / FLEET_VIEW_STEP_S) * FLEET_VIEW_STEP_S;
	if (!(v->remote_hist = fnans(v->nhist)) || !(v->hot_remote_hist = fnans(v->nhist)))
		return -ENOMEM;
	struct fleet_answer a;
	int rc = ask(cl, v, VQ_NOW, m, &a);
	if (!rc) {
		rc = shape(v, &a);
		if (!rc)
			fill(v, &a);
		else
			say(v, rc, VQ_NOW, "out of memory");
	}
	fleet_answer_free(&a);
	if (rc)
		return rc;
	if (v->nprocs == 0 && v->nnodes == 0 && isnan(v->processes))
		return -ENOENT;
	for (enum view_query q = VQ_HOST_HOUR; q < VQ_N; q++) {
		if (ask(cl, v, q, m, &a) == 0)
			hour(v, q, &a);
		fleet_answer_free(&a);
	}
	size_t kr = (size_t)-1;
	for (size_t k = 0; k < v->ncols; k++)
		if (v->cols[k].f == fields_proc_col(COL_REMOTE))
			kr = k;
	for (size_t i = 0; i < v->nprocs; i++)
		v->procs[i].remote_bytes = kr != (size_t)-1 ? v->procs[i].v[kr] : NAN;
	if (v->nprocs)
		qsort(v->procs, v->nprocs, sizeof(*v->procs), proc_cmp);
	return 0;
}
