/* fields_tier.c - the memory tier facts' catalogue (fields_tier.h), in
 * the order of the JSON object. */
#include "fields_tier.h"

#include "jsonput.h"

#define GET(name) static json_object *get_##name(const struct snapshot *s, size_t j)
#define TIER (&s->nk.tiers.tier[j])

GET(id) { return json_object_new_int(TIER->id); }

/* Its nodes' ids, in the topology's order. */
GET(nodes)
{
	const struct topology *t = s->topo;
	const struct tier_model *m = &s->nk.tiers;
	json_object *ns = json_object_new_array();
	for (size_t i = 0; i < t->nnodes && i < m->nnodes; i++)
		if (m->node[i].order == (int)j)
			json_object_array_add(ns, json_object_new_int(t->nodes[i].id));
	return ns;
}

GET(order) { return json_object_new_int(TIER->order); }
GET(cpus) { return json_object_new_boolean(TIER->cpus); }
GET(read_lat) { return jnum(TIER->read_lat_ns); }
GET(write_lat) { return jnum(TIER->write_lat_ns); }
GET(read_bw) { return jnum(TIER->read_bw_mbs); }
GET(write_bw) { return jnum(TIER->write_bw_mbs); }

#define S_HMAT "{\"type\": [\"integer\", \"null\"], \"minimum\": 1}"

const struct tier_field tier_fields[] = {
	{ "tier", "{\"$ref\": \"#/$defs/id\"}", NULL, get_id },
	{ "nodes", "{\"$ref\": \"#/$defs/id_list\"}", NULL, get_nodes },
	{ "order", "{\"$ref\": \"#/$defs/count\"}", "0 the fastest (the lowest memory_tierN).", get_order },
	{ "has_cpus", "{\"type\": \"boolean\"}",
	  "One of its nodes has CPUs (false: memory only, such as CXL memory).", get_cpus },
	{ "read_latency_ns", S_HMAT, "Its slowest node's HMAT read latency, ns; null when unknown.",
	  get_read_lat },
	{ "write_latency_ns", S_HMAT, "Its slowest node's HMAT write latency, ns; null when unknown.",
	  get_write_lat },
	{ "read_bandwidth_mbs", S_HMAT, "Its slowest node's HMAT read bandwidth, MB/s; null when unknown.",
	  get_read_bw },
	{ "write_bandwidth_mbs", S_HMAT, "Its slowest node's HMAT write bandwidth, MB/s; null when unknown.",
	  get_write_bw },
};
const size_t tier_nfields = sizeof(tier_fields) / sizeof(tier_fields[0]);

json_object *fields_tier_json(const struct snapshot *s, size_t j)
{
	json_object *o = json_object_new_object();
	for (size_t k = 0; k < tier_nfields; k++)
		json_object_object_add(o, tier_fields[k].key, tier_fields[k].get(s, j));
	return o;
}
