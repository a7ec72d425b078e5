/* fields_cgroup.c - the cgroup facts' catalogue (fields_cgroup.h), in the
 * order of the JSON object. */
#include "fields_cgroup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonget.h"
#include "jsonput.h"
#include "snapshot_json.h"

#define S_KB "{\"$ref\": \"#/$defs/kb\"}"
#define S_COUNT_NULL "{\"$ref\": \"#/$defs/count_or_null\"}"
#define S_NODE_KB "{\"$ref\": \"#/$defs/per_node_kb_known\"}"
#define S_IDS_NULL "{\"anyOf\": [{\"$ref\": \"#/$defs/id_list\"}, {\"type\": \"null\"}]}"

#define GET(name) static void get_##name(const struct snapshot *s, const struct cgroup_info *c, json_object **v)
#define SET(name) static int set_##name(const struct snapshot *s, struct cgroup_info *c, json_object *v)

/* Its depth from the path, its parent the nearest cgroup before it one
 * level up (the list is in preorder). */
GET(path) { (void)s; *v = jstr(c->path); }
SET(path)
{
	const char *path = jval_str(v);
	if (!(c->path = strdup(path ? path : "?")))
		return -ENOMEM;
	c->depth = 0;
	for (const char *p = c->path; *p; p++)
		c->depth += *p == '/' && p[1];
	c->parent = -1;
	for (long k = (long)(c - s->cgroups.v) - 1; k >= 0 && c->depth > 0; k--)
		if (s->cgroups.v[k].depth == c->depth - 1) {
			c->parent = (int)k;
			break;
		}
	return 0;
}

GET(version) { (void)c; *v = json_object_new_int(s->cgroups.layout == CGROUP_V2 ? 2 : 1); }

GET(state) { (void)s; *v = json_object_new_string(cgroup_state_names[c->state]); }
SET(state)
{
	(void)s;
	int st = jget_name(cgroup_state_names, 4, jval_str(v));
	c->state = st >= 0 ? (enum cgroup_state)st : CGS_ERROR;
	return 0;
}

GET(procs_tree) { (void)s; *v = jnum(c->procs_tree); }
SET(procs_tree) { (void)s; c->procs_tree = jval_i64(v); return 0; }
GET(procs) { (void)s; *v = jnum(c->procs); }
SET(procs) { (void)s; c->procs = jval_i64(v); return 0; }

/* The numa_stat numbers: null together when it was not read; a node its
 * file left out, null. */
GET(node_kb) { *v = c->have_numa ? snapshot_json_put_node_kb(s->topo, c->node_kb, true) : NULL; }
SET(node_kb)
{
	c->have_numa = v != NULL;
	snapshot_json_node_kb(s->topo, v, c->node_kb);
	return 0;
}
GET(total_kb) { (void)s; *v = c->have_numa ? jnum(c->total_kb) : NULL; }
SET(total_kb) { (void)s; c->total_kb = jval_i64(v); return 0; }
GET(anon_kb) { (void)s; *v = c->have_numa ? jnum(c->anon_total_kb) : NULL; }
SET(anon_kb) { (void)s; c->anon_total_kb = jval_i64(v); return 0; }
GET(file_kb) { (void)s; *v = c->have_numa ? jnum(c->file_total_kb) : NULL; }
SET(file_kb) { (void)s; c->file_total_kb = jval_i64(v); return 0; }
GET(anon_node_kb) { *v = c->have_numa ? snapshot_json_put_node_kb(s->topo, c->anon_kb, true) : NULL; }
SET(anon_node_kb) { snapshot_json_node_kb(s->topo, v, c->anon_kb); return 0; }
GET(file_node_kb) { *v = c->have_numa ? snapshot_json_put_node_kb(s->topo, c->file_kb, true) : NULL; }
SET(file_node_kb) { snapshot_json_node_kb(s->topo, v, c->file_kb); return 0; }
GET(unknown_kb) { (void)s; *v = c->have_numa ? jnum(c->unknown_node_kb) : NULL; }
SET(unknown_kb) { (void)s; c->unknown_node_kb = jval_i64(v); return 0; }
GET(current_kb) { (void)s; *v = jnum(c->current_kb); }
SET(current_kb) { (void)s; c->current_kb = jval_i64(v); return 0; }

GET(cpus) { (void)s; *v = c->have_cpus ? jput_ids(&c->cpus) : NULL; }
SET(cpus) { (void)s; c->have_cpus = v != NULL; return jget_ids(v, &c->cpus); }
GET(mems) { (void)s; *v = c->have_mems ? jput_ids(&c->mems) : NULL; }
SET(mems) { (void)s; c->have_mems = v != NULL; return jget_ids(v, &c->mems); }
GET(run_nodes) { (void)s; *v = jput_ids(&c->run_nodes); }
SET(run_nodes) { (void)s; return jget_ids(v, &c->run_nodes); }

GET(remote_kb) { (void)s; *v = jnum(c->remote_kb); }
SET(remote_kb) { (void)s; c->remote_kb = jval_i64(v); return 0; }
GET(against)
{
	(void)s;
	*v = c->remote_kb < 0 ? NULL : json_object_new_string(c->remote_by_mems ? "mems_effective" : "run_nodes");
}
SET(against)
{
	(void)s;
	const char *ra = jval_str(v);
	c->remote_by_mems = ra && strcmp(ra, "mems_effective") == 0;
	return 0;
}

const struct cgroup_field cgroup_fields[] = {
	{ "path", "{\"type\": \"string\"}", "The path below the hierarchy's root (\"/\" is the root).",
	  get_path, set_path },
	{ "version", "{\"enum\": [1, 2]}", "The cgroup version of its hierarchy.", get_version, NULL },
	{ "state", "{\"enum\": [\"ok\", \"gone\", \"no_perm\", \"error\"]}",
	  "Whether its files could be read.", get_state, set_state },
	{ "processes", S_COUNT_NULL, "Processes in it and below it; null when unknown.",
	  get_procs_tree, set_procs_tree },
	{ "processes_own", S_COUNT_NULL, "Processes in it alone; null when unknown.", get_procs, set_procs },
	{ "node_kb", S_NODE_KB, "Memory by node id from memory.numa_stat, kB; null when it has none (the "
	  "controller off, not readable).", get_node_kb, set_node_kb },
	{ "total_kb", S_KB, "The sum of node_kb, kB; null as node_kb.", get_total_kb, set_total_kb },
	{ "anon_kb", S_KB, "Anonymous memory, kB; null as node_kb.", get_anon_kb, set_anon_kb },
	{ "file_kb", S_KB, "File pages, kB; null as node_kb.", get_file_kb, set_file_kb },
	{ "anon_node_kb", S_NODE_KB, "Anonymous memory by node id, kB; null as node_kb.",
	  get_anon_node_kb, set_anon_node_kb },
	{ "file_node_kb", S_NODE_KB, "File pages by node id, kB; null as node_kb.",
	  get_file_node_kb, set_file_node_kb },
	{ "unknown_node_kb", S_KB, "kB on node ids the topology lacks; null as node_kb.",
	  get_unknown_kb, set_unknown_kb },
	{ "memory_current_kb", S_KB, "memory.current (v2) or memory.usage_in_bytes (v1), kB; null when "
	  "unknown.", get_current_kb, set_current_kb },
	{ "cpus_effective", S_IDS_NULL, "cpuset.cpus.effective; null when unknown.", get_cpus, set_cpus },
	{ "mems_effective", S_IDS_NULL, "cpuset.mems.effective; null when unknown.", get_mems, set_mems },
	{ "run_nodes", "{\"$ref\": \"#/$defs/id_list\"}", "Nodes whose CPUs its processes last ran on.",
	  get_run_nodes, set_run_nodes },
	{ "remote_kb", S_KB, "kB outside the nodes of remote_against; null when unknown.",
	  get_remote_kb, set_remote_kb },
	{ "remote_against", "{\"enum\": [\"mems_effective\", \"run_nodes\", null]}",
	  "What remote_kb is counted against; null when remote_kb is.", get_against, set_against },
};
const size_t cgroup_nfields = sizeof(cgroup_fields) / sizeof(cgroup_fields[0]);

json_object *fields_cgroup_json(const struct snapshot *s, const struct cgroup_info *c)
{
	json_object *o = json_object_new_object();
	for (size_t i = 0; i < cgroup_nfields; i++) {
		json_object *v = NULL;
		cgroup_fields[i].get(s, c, &v);
		json_object_object_add(o, cgroup_fields[i].key, v);
	}
	return o;
}

int fields_cgroup_read(const struct snapshot *s, json_object *o, struct cgroup_info *c)
{
	for (size_t i = 0; i < cgroup_nfields; i++) {
		const struct cgroup_field *f = &cgroup_fields[i];
		int rc = f->set ? f->set(s, c, jget(o, f->key)) : 0;
		if (rc)
			return rc;
	}
	return 0;
}
