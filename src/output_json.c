/* output_json.c - one JSON object per sample (NDJSON), built with json-c.
 * Unknown values are null, never 0. */
#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <json.h>

#include "sanitize.h"
#include "snapshot_json.h"
#include "access_json.h"
#include "format.h"
#include "node_fields.h"
#include "fields_cgroup.h"
#include "fields_proc.h"
#include "fields_tier.h"
#include "jsonput.h"

static json_object *nvm_obj(const int64_t *v, const double *rate)
{
	json_object *o = json_object_new_object();
	for (int k = 0; k < NVM_NKEYS; k++)
		json_object_object_add(o, nvm_names[k], v ? jnum(v[k]) : jreal(rate[k], 1));
	return o;
}

/* The node's tier order (0 fastest), or null. */
static json_object *tier_order(const struct snapshot *s, size_t i)
{
	int o = tiers_node_order(&s->nk.tiers, i);
	return o >= 0 ? json_object_new_int(o) : NULL;
}

/* The node's HMAT figures from its initiators, or null. */
static json_object *node_hmat(const struct snapshot *s, size_t i)
{
	const struct tier_model *m = &s->nk.tiers;
	if (i >= m->nnodes || m->node[i].access < 0)
		return NULL;
	const struct tier_node *n = &m->node[i];
	json_object *o = json_object_new_object();
	json_object_object_add(o, "access_class", json_object_new_int(n->access));
	json_object_object_add(o, "read_latency_ns", jnum(n->read_lat_ns));
	json_object_object_add(o, "write_latency_ns", jnum(n->write_lat_ns));
	json_object_object_add(o, "read_bandwidth_mbs", jnum(n->read_bw_mbs));
	json_object_object_add(o, "write_bandwidth_mbs", jnum(n->write_bw_mbs));
	return o;
}

static json_object *node_obj(const struct snapshot *s, size_t i)
{
	const struct topology *t = s->topo;
	const struct topo_node *nd = &t->nodes[i];
	const struct node_sample *ns = &s->nodes[i];
	json_object *o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int(nd->id));
	json_object_object_add(o, "cpus", jput_ids(&nd->cpus));
	json_object_object_add(o, "cpus_online", json_object_new_int((int)nd->ncpus_online));
	const char *kind = fmt_node_kind(t, i, ns);
	json_object_object_add(o, "kind", json_object_new_string(kind[0] ? kind : "normal"));
	for (size_t k = 0; k < node_nfields; k++) {
		const struct node_field *nf = &node_fields[k];
		double v = nf->get(s, i);
		json_object_object_add(o, nf->key, nf->unit == NF_KB ? jnum(v < 0 ? -1 : (int64_t)v)
								       : jreal(v, 1));
	}
	json_object *st = json_object_new_object(), *rt = json_object_new_object();
	for (int k = 0; k < NUMASTAT_NKEYS; k++) {
		json_object_object_add(st, numastat_names[k], jnum(ns->ns.v[k]));
		json_object_object_add(rt, numastat_names[k], jreal(s->ns_rate[i][k], 1));
	}
	json_object_object_add(o, "numastat", st);
	json_object_object_add(o, "numastat_per_s", rt);
	json_object *hp = json_object_new_array();
	for (size_t k = 0; k < ns->npools; k++) {
		json_object *h = json_object_new_object();
		json_object_object_add(h, "size_kb", jnum(ns->pools[k].size_kb));
		json_object_object_add(h, "total", jnum(ns->pools[k].nr));
		json_object_object_add(h, "free", jnum(ns->pools[k].free));
		json_object_array_add(hp, h);
	}
	json_object_object_add(o, "hugepages", hp);
	if (s->nk.node) {
		json_object_object_add(o, "numa_balancing_per_s", nvm_obj(NULL, s->nk.node_rate[i]));
		json_object_object_add(o, "memory_tier", s->nk.tier[i] >= 0 ?
				       json_object_new_int(s->nk.tier[i]) : NULL);
		json_object_object_add(o, "memory_tier_order", tier_order(s, i));
		json_object_object_add(o, "hmat", node_hmat(s, i));
	}
	return o;
}

/* The kernel's NUMA balancing: mode, counters, rates, memory tiers. */
static json_object *balancing_obj(const struct snapshot *s)
{
	const struct snap_numa_kernel *nk = &s->nk;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "mode", nk->balancing >= 0 ? json_object_new_int(nk->balancing) : NULL);
	json_object_object_add(o, "mode_name", json_object_new_string(snapshot_balancing_name(nk->balancing)));
	json_object_object_add(o, "counters", nvm_obj(nk->sys.v, NULL));
	json_object_object_add(o, "per_s", nvm_obj(NULL, nk->sys_rate));
	double lp = snapshot_hint_local_pct(nk);
	json_object_object_add(o, "hint_faults_local_pct", lp >= 0 ? jreal(lp, 1) : NULL);
	/* Fast -> slow, each with its nodes and its slowest node's HMAT
	 * figures. */
	json_object *tiers = json_object_new_array();
	const struct tier_model *m = &nk->tiers;
	for (size_t j = 0; j < m->ntiers; j++)
		json_object_array_add(tiers, fields_tier_json(s, j));
	json_object_object_add(o, "memory_tiers", tiers);
	json_object_object_add(o, "demotion_enabled", m->demotion >= 0 ?
			       json_object_new_boolean(m->demotion) : NULL);
	json_object_object_add(o, "promote_rate_limit_mbps", jnum(m->promote_limit_mbps));
	json_object_object_add(o, "processes_sched_read", json_object_new_int64((int64_t)nk->sched_read));
	return o;
}

static json_object *distances_obj(const struct topology *t)
{
	json_object *o = json_object_new_object(), *ids = json_object_new_array();
	json_object *m = json_object_new_array();
	for (size_t i = 0; i < t->nnodes; i++) {
		json_object_array_add(ids, json_object_new_int(t->nodes[i].id));
		json_object *row = json_object_new_array();
		for (size_t j = 0; j < t->nnodes; j++)
			json_object_array_add(row, jnum(topology_distance(t, i, j)));
		json_object_array_add(m, row);
	}
	json_object_object_add(o, "nodes", ids);
	json_object_object_add(o, "matrix", m);
	return o;
}

static void add_warning(void *ctx, const char *line)
{
	json_object_array_add(ctx, json_object_new_string(line));
}

int output_json_write(FILE *f, const struct snapshot *s,
		      const struct output_opts *o)
{
	const struct topology *t = s->topo;
	json_object *root = json_object_new_object();
	char when[64];
	struct tm tm;
	gmtime_r(&s->wall.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_object_add(root, "timestamp", json_object_new_string(when));
	json_object_object_add(root, "version", json_object_new_string(NUMATOP_VERSION));
	json_object_object_add(root, "schema_version", json_object_new_int(SNAPSHOT_JSON_SCHEMA_VERSION));
	json_object_object_add(root, "sample", json_object_new_int((int)s->seq));
	json_object_object_add(root, "interval_s", jreal(s->interval_s, 3));
	json_object_object_add(root, "root", json_object_new_string(o->root_label ? o->root_label : "/"));
	json_object_object_add(root, "numa", json_object_new_boolean(!t->synthetic));
	/* The tool's CPU includes its kdamond's (access heat). */
	double tool = s->self_cpu_pct;
	if (tool >= 0 && s->access.kdamond_cpu_pct >= 0)
		tool += s->access.kdamond_cpu_pct;
	json_object_object_add(root, "tool_cpu_pct", jreal(tool, 1));
	const struct snap_nm_stats *ns = &s->nm_stats;
	json_object *nb = json_object_new_object();
	json_object_object_add(nb, "full", json_object_new_boolean(ns->full));
	json_object_object_add(nb, "budget_ms", ns->full ? NULL : jreal(ns->budget_ms, 1));
	json_object_object_add(nb, "read", json_object_new_int64((int64_t)ns->read));
	json_object_object_add(nb, "sampled", json_object_new_int64((int64_t)ns->sampled));
	json_object_object_add(nb, "kept", json_object_new_int64((int64_t)ns->kept));
	json_object_object_add(nb, "over_budget", json_object_new_int64((int64_t)ns->skipped));
	json_object_object_add(nb, "spent_ms", jreal(ns->spent_ms, 2));
	json_object_object_add(nb, "known", json_object_new_int64((int64_t)ns->known));
	json_object_object_add(nb, "processes", json_object_new_int64((int64_t)s->nprocs));
	json_object_object_add(nb, "warmup", json_object_new_boolean(ns->warmup));
	json_object_object_add(root, "numa_maps_budget", nb);
	json_object_object_add(root, "kernel_threads_hidden",
			       json_object_new_int64((int64_t)s->kthreads_hidden));
	json_object *w = json_object_new_array();
	for (size_t i = 0; i < t->nwarnings; i++)
		json_object_array_add(w, json_object_new_string(t->warnings[i]));
	snapshot_warnings(s, add_warning, w);
	json_object_object_add(root, "warnings", w);
	json_object_object_add(root, "access", access_json_status(s));
	json_object *nodes = json_object_new_array();
	for (size_t i = 0; i < t->nnodes; i++)
		json_object_array_add(nodes, node_obj(s, i));
	json_object_object_add(root, "nodes", nodes);
	json_object_object_add(root, "distances", distances_obj(t));
	if (s->nk.node)
		json_object_object_add(root, "numa_balancing", balancing_obj(s));
	if (s->have_cgroups) {
		json_object_object_add(root, "cgroup_layout",
				       json_object_new_string(cgroup_layout_names[s->cgroups.layout]));
		json_object *cg = json_object_new_array();
		for (size_t i = 0; i < s->cgroups.n; i++)
			json_object_array_add(cg, fields_cgroup_json(s, &s->cgroups.v[i]));
		json_object_object_add(root, "cgroups", cg);
		json_object_object_add(root, "cgroups_read_ms", jreal(s->cgroups_ms, 2));
	}
	/* "processes" is the last member: the rest of the object is written
	 * first (without its closing brace), then one process at a time, so
	 * memory does not grow with the number of processes. */
	const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN);
	size_t tl = strlen(text);
	int bad = tl < 2 || fwrite(text, 1, tl - 1, f) != tl - 1 ||
		  fputs(tl > 2 ? ",\"processes\":[" : "\"processes\":[", f) == EOF;
	json_object_put(root);
	size_t rows = o->max_rows && o->max_rows < s->nprocs ? o->max_rows : s->nprocs;
	for (size_t i = 0; i < rows && !bad; i++) {
		json_object *p = fields_proc_json(s, snapshot_row(s, i));
		const char *pt = json_object_to_json_string_ext(p, JSON_C_TO_STRING_PLAIN);
		bad = (i > 0 && fputc(',', f) == EOF) || fputs(pt, f) == EOF;
		json_object_put(p);
	}
	int rc = 0;
	if (bad || fputs("]}\n", f) == EOF || fflush(f) != 0)
		rc = errno ? -errno : -EIO;
	return rc;
}
