/* fleet_host_cli.c - --fleet URL --fleet-host INSTANCE with -b or
 * --json: one host of the fleet as the Fleet screen opens it (fleet.h's
 * fleet_view): its nodes and its processes in the catalogues' columns
 * (the batch text's headers), or as JSON the series it carries, named as
 * the exposition names them. */
#include "fleet_cli.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include <json.h>

#include "fields_proc.h"
#include "fleet.h"
#include "format.h"
#include "node_fields.h"
#include "sanitize.h"

static void human(char *out, size_t n, double b)
{
	if (isnan(b) || b < 0)
		snprintf(out, n, "-");
	else
		fmt_human_kb(out, n, (int64_t)(b / 1024));
}


static int width(int w)
{
	return w < 0 ? -w : w;
}

static void text(FILE *out, const struct fleet_view *v)
{
	char inst[300], rem[16], hot[16], slow[16];
	sanitize_term(v->instance, inst, sizeof(inst));
	human(rem, sizeof(rem), v->remote_bytes);
	human(hot, sizeof(hot), v->hot_remote_bytes);
	human(slow, sizeof(slow), v->hot_slow_bytes);
	fprintf(out, "host %s\nremote %s  hot remote %s  hot on slower tiers %s", inst, rem, hot, slow);
	if (!isnan(v->processes))
		fprintf(out, "  processes %.0f, %zu exported", v->processes, v->nprocs);
	if (!isnan(v->below_min))
		fprintf(out, " (%.0f below --metrics-min-remote)", v->below_min);
	fprintf(out, "\n\n%5s", "NODE");
	for (size_t k = 0; k < v->nnodecols; k++)
		fprintf(out, " %*s", width(v->nodecols[k]->text_w), v->nodecols[k]->text_hdr);
	fputc('\n', out);
	for (size_t i = 0; i < v->nnodes; i++) {
		fprintf(out, "%5ld", v->nodes[i].id);
		for (size_t k = 0; k < v->nnodecols; k++) {
			char c[32];
			fleet_view_value(c, sizeof(c), v->nodes[i].v[k],
					 v->nodecols[k]->unit == NF_KB ? FU_BYTES : FU_NUMBER);
			fprintf(out, " %*s", width(v->nodecols[k]->text_w), c);
		}
		fputc('\n', out);
	}
	fprintf(out, "\n%7s %-9s", "PID", "USER");
	for (size_t k = 0; k < v->ncols; k++) {
		char h[32];
		if (v->cols[k].node >= 0)
			snprintf(h, sizeof(h), "N%ld", v->cols[k].node);
		else
			snprintf(h, sizeof(h), "%s", v->cols[k].f->col.text_hdr);
		fprintf(out, " %*s", width(v->cols[k].f->col.text_w), h);
	}
	fprintf(out, " %s\n", "COMMAND");
	for (size_t i = 0; i < v->nprocs; i++) {
		const struct fleet_view_proc *p = &v->procs[i];
		char user[40], comm[96];
		sanitize_term(p->user, user, sizeof(user));
		sanitize_term(p->comm, comm, sizeof(comm));
		fprintf(out, "%7ld %-9s", p->pid, user);
		for (size_t k = 0; k < v->ncols; k++) {
			char c[32];
			fleet_view_value(c, sizeof(c), p->v[k], v->cols[k].unit);
			fprintf(out, " %*s", width(v->cols[k].f->col.text_w), c);
		}
		fprintf(out, " %s\n", comm);
	}
}

static json_object *num(double v)
{
	if (isnan(v) || !isfinite(v))
		return NULL;
	if (v == floor(v) && fabs(v) < 9e15)
		return json_object_new_int64((int64_t)v);
	return json_object_new_double(v);
}

/* The series of one process: {"<gauge>": value, or {"<node>": value}}. */
static json_object *proc_series(const struct fleet_view *v, const struct fleet_view_proc *p)
{
	json_object *s = json_object_new_object();
	for (size_t k = 0; k < v->ncols; k++) {
		const char *name = v->cols[k].f->prom;
		if (isnan(p->v[k]))
			continue;
		if (v->cols[k].node < 0) {
			json_object_object_add(s, name, num(p->v[k]));
			continue;
		}
		json_object *by = NULL;
		if (!json_object_object_get_ex(s, name, &by)) {
			by = json_object_new_object();
			json_object_object_add(s, name, by);
		}
		char id[24];
		snprintf(id, sizeof(id), "%ld", v->cols[k].node);
		json_object_object_add(by, id, num(p->v[k]));
	}
	return s;
}

static void json(FILE *out, const struct fleet_view *v, const char *url)
{
	json_object *o = json_object_new_object(), *nodes = json_object_new_array(),
		    *procs = json_object_new_array(), *errs = json_object_new_array();
	json_object_object_add(o, "server", json_object_new_string(url));
	json_object_object_add(o, "instance", json_object_new_string(v->instance));
	json_object_object_add(o, "time", json_object_new_int64(v->at > 0 ? (int64_t)v->at :
								 (int64_t)time(NULL)));
	json_object_object_add(o, "queries", json_object_new_int64((int64_t)v->nqueries));
	json_object_object_add(o, "remote_bytes", num(v->remote_bytes));
	json_object_object_add(o, "hot_remote_bytes", num(v->hot_remote_bytes));
	json_object_object_add(o, "hot_slow_tier_bytes", num(v->hot_slow_bytes));
	json_object_object_add(o, "processes", num(v->processes));
	json_object_object_add(o, "processes_below_min_remote", num(v->below_min));
	for (size_t i = 0; i < v->nnodes; i++) {
		json_object *n = json_object_new_object(), *s = json_object_new_object();
		json_object_object_add(n, "node", json_object_new_int64(v->nodes[i].id));
		for (size_t k = 0; k < v->nnodecols; k++)
			if (!isnan(v->nodes[i].v[k]))
				json_object_object_add(s, v->nodecols[k]->prom, num(v->nodes[i].v[k]));
		json_object_object_add(n, "series", s);
		json_object_array_add(nodes, n);
	}
	json_object_object_add(o, "nodes", nodes);
	for (size_t i = 0; i < v->nprocs; i++) {
		const struct fleet_view_proc *p = &v->procs[i];
		json_object *j = json_object_new_object();
		json_object_object_add(j, "pid", p->pid >= 0 ? json_object_new_int64(p->pid) : NULL);
		json_object_object_add(j, "comm", json_object_new_string(p->comm));
		json_object_object_add(j, "user", json_object_new_string(p->user));
		json_object_object_add(j, "series", proc_series(v, p));
		json_object_array_add(procs, j);
	}
	json_object_object_add(o, "processes_exported", procs);
	for (size_t i = 0; i < v->nerrors; i++) {
		json_object *e = json_object_new_object();
		json_object_object_add(e, "error", json_object_new_string(v->errors[i].msg));
		json_object_array_add(errs, e);
	}
	json_object_object_add(o, "errors", errs);
	fprintf(out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
							     JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

int fleet_host_cli(struct fleet_client *cl, const struct options *o, FILE *out, FILE *err)
{
	struct fleet_view v = { 0 };
	int rc = fleet_view_read(cl, o->fleet_host, &v);
	char said[600], inst[300];
	for (size_t i = 0; i < v.nerrors; i++) {
		sanitize_term(v.errors[i].msg, said, sizeof(said));
		fprintf(err, "numatop-tui: --fleet-host: %s\n", said);
	}
	if (rc == -ENOENT) {
		sanitize_term(o->fleet_host, inst, sizeof(inst));
		fprintf(err, "numatop-tui: --fleet-host: no numatop series of instance %s\n", inst);
	}
	if (rc == 0) {
		if (o->json)
			json(out, &v, o->fleet && *o->fleet ? o->fleet : "");
		else
			text(out, &v);
		fflush(out);
	}
	fleet_view_free(&v);
	return rc ? 1 : 0;
}
