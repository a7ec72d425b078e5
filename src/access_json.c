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
#include "jsonput.h"
#include "snapshot.h"
#include "snapshot_json.h"

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
	json_object_object_add(o, "window_s", jreal(a->window_s, 3));
	json_object_object_add(o, "kdamond_pid", jnum(a->kdamond_pid));
	json_object_object_add(o, "kdamond_cpu_pct", jreal(a->kdamond_cpu_pct, 2));
	json_object_object_add(o, "request_ms", a->monitored ? jreal(a->request_ms, 1) : NULL);
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

/* ---- a process's heat and its regions: one row per fact ---- */

#define PGET(name) static json_object *pget_##name(const struct snapshot *s, const struct access_proc *a)
#define PSET(name) static int pset_##name(struct access_read *r, json_object *v)
#define RGET(name) static json_object *rget_##name(const struct snapshot *s, const struct access_region *g)
#define RSET(name) static int rset_##name(struct access_read *r, json_object *v)

static uint64_t hex(const char *v, bool *ok);

PGET(window) { (void)s; return jreal(a->window_s, 3); }
PSET(window) { r->a->window_s = jval_dbl(v); return 0; }
PGET(age) { (void)s; return jreal(a->age_s, 1); }
PSET(age) { r->a->age_s = jval_dbl(v); return 0; }
PGET(monitored) { (void)s; return jreal(a->monitored_s, 1); }
PSET(monitored) { r->a->monitored_s = jval_dbl(v); return 0; }
PGET(hot) { return a->hot_kb >= 0 ? snapshot_json_put_node_kb(s->topo, a->hot_node_kb, true) : NULL; }
PSET(hot) { snapshot_json_node_kb(r->s->topo, v, r->a->hot_node_kb); return 0; }
PGET(warm) { return a->warm_kb >= 0 ? snapshot_json_put_node_kb(s->topo, a->warm_node_kb, true) : NULL; }
PSET(warm) { snapshot_json_node_kb(r->s->topo, v, r->a->warm_node_kb); return 0; }
PGET(cold) { return a->cold_kb >= 0 ? snapshot_json_put_node_kb(s->topo, a->cold_node_kb, true) : NULL; }
PSET(cold) { snapshot_json_node_kb(r->s->topo, v, r->a->cold_node_kb); return 0; }
PGET(hot_total) { (void)s; return jnum(a->hot_kb); }
PSET(hot_total) { r->a->hot_kb = jval_i64(v); return 0; }
PGET(warm_total) { (void)s; return jnum(a->warm_kb); }
PSET(warm_total) { r->a->warm_kb = jval_i64(v); return 0; }
PGET(cold_total) { (void)s; return jnum(a->cold_kb); }
PSET(cold_total) { r->a->cold_kb = jval_i64(v); return 0; }
PGET(hot_remote) { (void)s; return jnum(a->hot_remote_kb); }
PSET(hot_remote) { r->a->hot_remote_kb = jval_i64(v); return 0; }
PGET(hot_remote_pct) { (void)s; return jreal(a->hot_remote_pct, 1); }
/* The share as the sampler has it, not as rounded (the check kept it
 * within the rounding). */
PSET(hot_remote_pct)
{
	struct access_proc *o = r->a;
	o->hot_remote_pct = jval_dbl(v);
	if (o->hot_kb >= 0 && o->hot_remote_kb >= 0)
		o->hot_remote_pct = o->hot_kb > 0 ? 100.0 * (double)o->hot_remote_kb / (double)o->hot_kb : -1;
	return 0;
}
PGET(cold_idle) { (void)s; return jreal(a->cold_remote_idle_s, 1); }
PSET(cold_idle) { r->a->cold_remote_idle_s = jval_dbl(v); return 0; }
PGET(regions)
{
	json_object *rs = json_object_new_array();
	for (size_t i = 0; i < a->nregions; i++) {
		const struct access_region *g = &a->regions[i];
		json_object *ro = json_object_new_object();
		for (size_t k = 0; k < access_region_nfields; k++)
			json_object_object_add(ro, access_region_fields[k].key, access_region_fields[k].get(s, g));
		json_object_array_add(rs, ro);
	}
	return rs;
}
/* At most ACCESS_MAX_REGIONS, each with its kB by node after the
 * process's (the room counted by access_json_read). */
PSET(regions)
{
	struct access_proc *o = r->a;
	o->regions = r->s->acc_reg + r->ro;
	for (size_t k = 0; k < jget_len(v) && o->nregions < ACCESS_MAX_REGIONS; k++) {
		json_object *ro = json_object_array_get_idx(v, k);
		r->g = &r->s->acc_reg[r->ro];
		r->g->kb_off = r->ko;
		for (size_t f = 0; f < access_region_nfields; f++) {
			int rc = access_region_fields[f].set(r, jget(ro, access_region_fields[f].key));
			if (rc)
				return rc;
		}
		if (r->g->start >= r->g->end)
			return -EINVAL;
		r->ko += r->s->topo->nnodes ? r->s->topo->nnodes : 1;
		r->ro++;
		o->nregions++;
	}
	return 0;
}

static json_object *hex_str(uint64_t x)
{
	char b[24];
	snprintf(b, sizeof(b), "0x%" PRIx64, x);
	return json_object_new_string(b);
}

static int rd_hex(json_object *v, uint64_t *out)
{
	bool ok = true;
	*out = hex(v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL, &ok);
	return ok ? 0 : -EINVAL;
}

RGET(start) { (void)s; return hex_str(g->start); }
RSET(start) { return rd_hex(v, &r->g->start); }
RGET(end) { (void)s; return hex_str(g->end); }
RSET(end) { return rd_hex(v, &r->g->end); }
RGET(heat) { (void)s; return json_object_new_string(access_heat_names[g->heat]); }
RSET(heat)
{
	const char *h = v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
	for (int j = 0; j < 3; j++)
		if (h && strcmp(h, access_heat_names[j]) == 0) {
			r->g->heat = (enum access_heat)j;
			return 0;
		}
	return -EINVAL;
}
RGET(nr_accesses) { (void)s; return jnum(g->nr_accesses); }
RSET(nr_accesses) { r->g->nr_accesses = jval_i64(v); return 0; }   /* null: -1 */
RGET(max_accesses) { (void)s; return g->max_accesses > 0 ? json_object_new_int(g->max_accesses) : NULL; }
RSET(max_accesses) { r->g->max_accesses = (int)jval_i64(v); return 0; }
RGET(age) { (void)s; return jreal(g->age_s, 1); }
RSET(age) { r->g->age_s = jval_dbl(v); return 0; }
RGET(resident) { (void)s; return jnum(g->resident_kb); }
RSET(resident) { r->g->resident_kb = jval_i64(v); return 0; }
RGET(node_kb) { return snapshot_json_put_node_kb(s->topo, s->acc_kb + g->kb_off, true); }
RSET(node_kb) { snapshot_json_node_kb(r->s->topo, v, r->s->acc_kb + r->g->kb_off); return 0; }

#define S_SECONDS "{\"$ref\": \"#/$defs/seconds\"}"
#define S_KB "{\"$ref\": \"#/$defs/kb\"}"
#define S_NODE_KB "{\"$ref\": \"#/$defs/per_node_kb_known\"}"
#define S_HEX "{\"type\": \"string\", \"pattern\": \"^0x[0-9a-f]{1,16}$\"}"

const struct access_proc_field access_proc_fields[] = {
	{ "window_s", "{\"$ref\": \"#/$defs/seconds\", \"minimum\": 0.001}",
	  "The aggregation interval counted over, seconds (at least 0.001).", pget_window, pset_window },
	{ "age_s", S_SECONDS, "Age of these numbers (0: read this sample; kept up to 300 s after its turn).",
	  pget_age, pset_age },
	{ "monitored_s", S_SECONDS, "How long its turn lasted.", pget_monitored, pset_monitored },
	{ "hot_kb", S_NODE_KB, NULL, pget_hot, pset_hot },
	{ "warm_kb", S_NODE_KB, NULL, pget_warm, pset_warm },
	{ "cold_kb", S_NODE_KB, "numa_maps by node less hot and warm.", pget_cold, pset_cold },
	{ "hot_total_kb", S_KB, "The sum of hot_kb (when every node is known).", pget_hot_total, pset_hot_total },
	{ "warm_total_kb", S_KB, "The sum of warm_kb (when every node is known).", pget_warm_total,
	  pset_warm_total },
	{ "cold_total_kb", S_KB, "The sum of cold_kb (when every node is known).", pget_cold_total,
	  pset_cold_total },
	{ "hot_remote_kb", S_KB, "Hot kB on nodes where none of its threads works (HOTREM); at most "
	  "hot_total_kb.", pget_hot_remote, pset_hot_remote },
	{ "hot_remote_pct", "{\"$ref\": \"#/$defs/pct\", \"maximum\": 100}", "hot_remote_kb of hot_total_kb, "
	  "% (0 to 100, to 0.1); null when nothing is hot.", pget_hot_remote_pct, pset_hot_remote_pct },
	{ "cold_remote_idle_s", S_SECONDS, "How long its remote cold memory has been untouched (the "
	  "shortest); null when none.", pget_cold_idle, pset_cold_idle },
	{ "regions", "{\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/access_region\"}}",
	  "Hot and warm ranges, hottest first (at most 64).", pget_regions, pset_regions },
};
const size_t access_proc_nfields = sizeof(access_proc_fields) / sizeof(access_proc_fields[0]);

const struct access_region_field access_region_fields[] = {
	{ "start", S_HEX, "Start address, hex.", rget_start, rset_start },
	{ "end", S_HEX, "End address (exclusive), hex.", rget_end, rset_end },
	{ "heat", "{\"enum\": [\"hot\", \"warm\", \"cold\"]}", NULL, rget_heat, rset_heat },
	{ "nr_accesses", "{\"$ref\": \"#/$defs/count_or_null\", \"maximum\": 4294967295}",
	  "DAMON samples of the last window that saw an access (the kernel's unsigned int); null when "
	  "DAMON's file did not hold such a number (the region is then warm: neither hot nor cold).",
	  rget_nr_accesses, rset_nr_accesses },
	{ "max_accesses", "{\"$ref\": \"#/$defs/count_or_null\", \"minimum\": 1}",
	  "Samples per window; null when unknown.", rget_max_accesses, rset_max_accesses },
	{ "age_s", S_SECONDS, "How long the range kept this access rate, seconds.", rget_age, rset_age },
	{ "resident_kb", S_KB, "Resident kB, estimated from sampled pages.", rget_resident, rset_resident },
	{ "node_kb", S_NODE_KB, "The same by node id.", rget_node_kb, rset_node_kb },
};
const size_t access_region_nfields = sizeof(access_region_fields) / sizeof(access_region_fields[0]);

json_object *access_json_proc(const struct snapshot *s, const struct snap_proc *p)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "source",
			       json_object_new_string(access_source_names[access_proc_source(s, p)]));
	json_object_object_add(o, "reason", json_object_new_string(access_why_names[access_proc_why(s, p)]));
	if (p->acc)
		for (size_t k = 0; k < access_proc_nfields; k++)
			json_object_object_add(o, access_proc_fields[k].key, access_proc_fields[k].get(s, p->acc));
	return o;
}

/* ---- reading back ---- */

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
		if (a && access_source_name_measures(jget_str(a, "source"))) {
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
		if (!a || !access_source_name_measures(jget_str(a, "source")))
			continue;
		struct access_proc *o = &s->acc[s->nacc++];
		o->hot_slow_kb = o->cold_fast_kb = -1;
		o->pid = s->procs[i].info.pid;
		o->source = (enum access_source)access_source_parse(jget_str(a, "source"));
		o->hot_node_kb = s->acc_kb + ko;
		o->warm_node_kb = s->acc_kb + ko + nn;
		o->cold_node_kb = s->acc_kb + ko + 2 * nn;
		ko += 3 * nn;
		/* The one trust the numbers do not carry. */
		o->unseen = jget_str(a, "reason") && strcmp(jget_str(a, "reason"), "unseen") == 0;
		struct access_read r = { s, o, NULL, ro, ko };
		for (size_t k = 0; k < access_proc_nfields; k++) {
			int rc = access_proc_fields[k].set(&r, jget(a, access_proc_fields[k].key));
			if (rc)
				return rc;
		}
		ro = r.ro;
		ko = r.ko;
		s->procs[i].acc = o;
	}
	return 0;
}
