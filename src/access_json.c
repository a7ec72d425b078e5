/* access_json.c - access heat in the JSON sample: written by output_json.c
 * and read back by snapshot_json.c (a replay shows the heat, and the
 * source, it had).
 *
 * Top level "access": {source, reason, text, monitored, max_targets,
 * window_s, kdamond_pid, kdamond_cpu_pct, request_ms}. Per process
 * "access": {source, reason} and, when DAMON covered it: window_s, age_s,
 * monitored_s, hot_kb/warm_kb/cold_kb by node id, hot_total_kb,
 * warm_total_kb, cold_total_kb, hot_remote_kb, hot_remote_pct,
 * cold_remote_idle_s and its hot and warm regions (start and end as hex
 * strings: addresses do not fit a JSON number's exact range). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access_json.h"
#include "buf.h"
#include "jsonget.h"

static json_object *num(int64_t v)
{
	return v >= 0 ? json_object_new_int64(v) : NULL;
}

static json_object *real(double v, int decimals)
{
	if (v < 0)
		return NULL;
	char b[48];
	snprintf(b, sizeof(b), "%.*f", decimals, v);
	return json_object_new_double_s(v, b);
}

static json_object *by_node(const struct topology *t, const int64_t *kb)
{
	if (!kb)
		return NULL;
	json_object *o = json_object_new_object();
	for (size_t j = 0; j < t->nnodes; j++) {
		char id[16];
		snprintf(id, sizeof(id), "%d", t->nodes[j].id);
		json_object_object_add(o, id, num(kb[j]));
	}
	return o;
}

json_object *access_json_status(const struct snapshot *s)
{
	const struct access_status *a = &s->access;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "source", json_object_new_string(access_source_names[a->source]));
	json_object_object_add(o, "reason", json_object_new_string(access_why_names[a->why]));
	json_object_object_add(o, "text", json_object_new_string(a->msg[0] ? a->msg :
								   access_why_text(a->why)));
	json_object_object_add(o, "monitored", json_object_new_int64((int64_t)a->monitored));
	json_object_object_add(o, "max_targets", json_object_new_int64((int64_t)a->max_targets));
	json_object_object_add(o, "window_s", real(a->window_s, 3));
	json_object_object_add(o, "kdamond_pid", num(a->kdamond_pid));
	json_object_object_add(o, "kdamond_cpu_pct", real(a->kdamond_cpu_pct, 2));
	json_object_object_add(o, "request_ms", a->monitored ? real(a->request_ms, 1) : NULL);
	return o;
}

/* The source of a process without DAMON numbers: NUMA balancing's
 * faults where read, else none; and why DAMON does not cover it. */
enum access_source access_proc_source(const struct snapshot *s, const struct snap_proc *p)
{
	(void)s;
	if (p->acc)
		return p->acc->source;
	return snap_sched(p)->racc_pct >= 0 ? ACCESS_SRC_NUMAB : ACCESS_SRC_NONE;
}

enum access_why access_proc_why(const struct snapshot *s, const struct snap_proc *p)
{
	if (p->acc)
		return access_trust_why(access_proc_trust(p->acc));
	return s->access.why == ACCESS_ON ? ACCESS_NOT_YET : s->access.why;
}

json_object *access_json_proc(const struct snapshot *s, const struct snap_proc *p)
{
	const struct topology *t = s->topo;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "source",
			       json_object_new_string(access_source_names[access_proc_source(s, p)]));
	json_object_object_add(o, "reason", json_object_new_string(access_why_names[access_proc_why(s, p)]));
	const struct access_proc *a = p->acc;
	if (!a)
		return o;
	json_object_object_add(o, "window_s", real(a->window_s, 3));
	json_object_object_add(o, "age_s", real(a->age_s, 1));
	json_object_object_add(o, "monitored_s", real(a->monitored_s, 1));
	json_object_object_add(o, "hot_kb", a->hot_kb >= 0 ? by_node(t, a->hot_node_kb) : NULL);
	json_object_object_add(o, "warm_kb", a->warm_kb >= 0 ? by_node(t, a->warm_node_kb) : NULL);
	json_object_object_add(o, "cold_kb", a->cold_kb >= 0 ? by_node(t, a->cold_node_kb) : NULL);
	json_object_object_add(o, "hot_total_kb", num(a->hot_kb));
	json_object_object_add(o, "warm_total_kb", num(a->warm_kb));
	json_object_object_add(o, "cold_total_kb", num(a->cold_kb));
	json_object_object_add(o, "hot_remote_kb", num(a->hot_remote_kb));
	json_object_object_add(o, "hot_remote_pct", real(a->hot_remote_pct, 1));
	json_object_object_add(o, "cold_remote_idle_s", real(a->cold_remote_idle_s, 1));
	json_object *rs = json_object_new_array();
	for (size_t i = 0; i < a->nregions; i++) {
		const struct access_region *r = &a->regions[i];
		json_object *ro = json_object_new_object();
		char hex[24];
		snprintf(hex, sizeof(hex), "0x%" PRIx64, r->start);
		json_object_object_add(ro, "start", json_object_new_string(hex));
		snprintf(hex, sizeof(hex), "0x%" PRIx64, r->end);
		json_object_object_add(ro, "end", json_object_new_string(hex));
		json_object_object_add(ro, "heat", json_object_new_string(access_heat_names[r->heat]));
		json_object_object_add(ro, "nr_accesses", num(r->nr_accesses));
		json_object_object_add(ro, "max_accesses", r->max_accesses > 0 ?
				       json_object_new_int(r->max_accesses) : NULL);
		json_object_object_add(ro, "age_s", real(r->age_s, 1));
		json_object_object_add(ro, "resident_kb", num(r->resident_kb));
		json_object_object_add(ro, "node_kb", by_node(t, s->acc_kb + r->kb_off));
		json_object_array_add(rs, ro);
	}
	json_object_object_add(o, "regions", rs);
	return o;
}

/* ---- reading back ---- */

static void read_by_node(const struct topology *t, json_object *o, int64_t *kb)
{
	for (size_t j = 0; j < t->nnodes; j++) {
		char id[16];
		snprintf(id, sizeof(id), "%d", t->nodes[j].id);
		kb[j] = o ? jget_i64(o, id) : -1;
	}
}

static uint64_t hex(const char *v, bool *ok)
{
	char *end;
	if (!v || strncmp(v, "0x", 2) != 0) {
		*ok = false;
		return 0;
	}
	errno = 0;
	unsigned long long x = strtoull(v + 2, &end, 16);
	if (errno || end == v + 2 || *end)
		*ok = false;
	return (uint64_t)x;
}

int access_json_read(struct snapshot *s, json_object *root)
{
	json_object *st = jget(root, "access");
	const struct topology *t = s->topo;
	size_t nn = t->nnodes ? t->nnodes : 1;
	memset(&s->access, 0, sizeof(s->access));
	s->access.window_s = s->access.kdamond_cpu_pct = -1;
	s->access.kdamond_pid = -1;
	s->nacc = 0;
	if (!st) {
		s->access.why = ACCESS_OFF;   /* recorded before access heat */
		return 0;
	}
	int v = access_source_parse(jget_str(st, "source"));
	s->access.source = v >= 0 ? (enum access_source)v : ACCESS_SRC_NONE;
	v = access_why_parse(jget_str(st, "reason"));
	s->access.why = v >= 0 ? (enum access_why)v : ACCESS_ERROR;
	const char *text = jget_str(st, "text");
	if (text && strcmp(text, access_why_text(s->access.why)) != 0)
		snprintf(s->access.msg, sizeof(s->access.msg), "%s", text);
	int64_t m = jget_i64(st, "monitored");
	s->access.monitored = m > 0 ? (size_t)m : 0;
	m = jget_i64(st, "max_targets");
	s->access.max_targets = m > 0 ? (size_t)m : 0;
	s->access.window_s = jget_dbl(st, "window_s");
	s->access.kdamond_pid = jget_i64(st, "kdamond_pid");
	s->access.kdamond_cpu_pct = jget_dbl(st, "kdamond_cpu_pct");
	s->access.request_ms = jget_dbl(st, "request_ms");
	/* tool_cpu_pct was written with the kdamond's CPU in it. */
	if (s->self_cpu_pct >= 0 && s->access.kdamond_cpu_pct >= 0)
		s->self_cpu_pct = s->self_cpu_pct > s->access.kdamond_cpu_pct ?
				  s->self_cpu_pct - s->access.kdamond_cpu_pct : 0;

	json_object *procs = jget(root, "processes");
	size_t n = jget_len(procs), np = 0, nr = 0;
	for (size_t i = 0; i < n && i < s->nprocs; i++) {
		json_object *a = jget(json_object_array_get_idx(procs, i), "access");
		if (a && jget_str(a, "source") && strcmp(jget_str(a, "source"), "damon") == 0) {
			np++;
			size_t k = jget_len(jget(a, "regions"));
			nr += k < ACCESS_MAX_REGIONS ? k : ACCESS_MAX_REGIONS;
		}
	}
	if (!np)
		return 0;
	s->acc = calloc(np, sizeof(*s->acc));
	s->acc_reg = calloc(nr ? nr : 1, sizeof(*s->acc_reg));
	s->acc_kb = calloc((np * 3 + nr) * nn, sizeof(*s->acc_kb));
	if (!s->acc || !s->acc_reg || !s->acc_kb)
		return -ENOMEM;
	s->acccap = np;
	s->acc_regcap = nr;
	s->acc_kbcap = (np * 3 + nr) * nn;
	size_t ro = 0, ko = 0;
	for (size_t i = 0; i < n && i < s->nprocs; i++) {
		json_object *a = jget(json_object_array_get_idx(procs, i), "access");
		if (!a || !jget_str(a, "source") || strcmp(jget_str(a, "source"), "damon") != 0)
			continue;
		struct access_proc *o = &s->acc[s->nacc++];
		o->hot_slow_kb = o->cold_fast_kb = -1;
		o->pid = s->procs[i].info.pid;
		o->source = ACCESS_SRC_DAMON;
		o->window_s = jget_dbl(a, "window_s");
		o->age_s = jget_dbl(a, "age_s");
		o->monitored_s = jget_dbl(a, "monitored_s");
		o->hot_node_kb = s->acc_kb + ko;
		o->warm_node_kb = s->acc_kb + ko + nn;
		o->cold_node_kb = s->acc_kb + ko + 2 * nn;
		read_by_node(t, jget(a, "hot_kb"), o->hot_node_kb);
		read_by_node(t, jget(a, "warm_kb"), o->warm_node_kb);
		read_by_node(t, jget(a, "cold_kb"), o->cold_node_kb);
		ko += 3 * nn;
		o->hot_kb = jget_i64(a, "hot_total_kb");
		o->warm_kb = jget_i64(a, "warm_total_kb");
		o->cold_kb = jget_i64(a, "cold_total_kb");
		o->hot_remote_kb = jget_i64(a, "hot_remote_kb");
		o->hot_remote_pct = jget_dbl(a, "hot_remote_pct");
		/* The share as the sampler has it, not as rounded (the check
		 * kept it within the rounding). */
		if (o->hot_kb >= 0 && o->hot_remote_kb >= 0)
			o->hot_remote_pct = o->hot_kb > 0 ? 100.0 * (double)o->hot_remote_kb /
							     (double)o->hot_kb : -1;
		o->cold_remote_idle_s = jget_dbl(a, "cold_remote_idle_s");
		/* The one trust the numbers do not carry. */
		o->unseen = jget_str(a, "reason") && strcmp(jget_str(a, "reason"), "unseen") == 0;
		o->regions = s->acc_reg + ro;
		json_object *rs = jget(a, "regions");
		for (size_t k = 0; k < jget_len(rs) && o->nregions < ACCESS_MAX_REGIONS; k++) {
			json_object *r = json_object_array_get_idx(rs, k);
			struct access_region *g = &s->acc_reg[ro];
			bool ok = true;
			g->start = hex(jget_str(r, "start"), &ok);
			g->end = hex(jget_str(r, "end"), &ok);
			int h = -1;
			for (int j = 0; j < 3; j++)
				if (jget_str(r, "heat") && strcmp(jget_str(r, "heat"), access_heat_names[j]) == 0)
					h = j;
			if (!ok || g->start >= g->end || h < 0)
				return -EINVAL;
			g->heat = (enum access_heat)h;
			g->nr_accesses = jget_i64(r, "nr_accesses");   /* null: -1 */
			g->max_accesses = (int)jget_i64(r, "max_accesses");
			g->age_s = jget_dbl(r, "age_s");
			g->resident_kb = jget_i64(r, "resident_kb");
			g->kb_off = ko;
			read_by_node(t, jget(r, "node_kb"), s->acc_kb + ko);
			ko += nn;
			ro++;
			o->nregions++;
		}
		s->procs[i].acc = o;
	}
	return 0;
}
