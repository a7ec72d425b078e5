/* genschema.c - the JSON Schema of the program's output
 * (docs/numatop-tui.schema.json) from its template
 * (doc/numatop-tui.schema.json.in) and the process facts' catalogue
 * (fields_proc.h): a process's properties, which of them are required
 * and which are null unless numa_maps is ok come from the catalogue's
 * rows, a node's metrics from the node fields' (node_fields.h), a
 * cgroup's from the cgroup facts' (fields_cgroup.h), a process's heat
 * and its regions from theirs (access_json.h), a memory tier's from the
 * tier facts' (fields_tier.h); the rest of the schema is the template's.
 *
 *     genschema TEMPLATE > SCHEMA      (make docs)
 */
#include <stdio.h>
#include <string.h>

#include <json.h>

#include "access_json.h"
#include "fields_cgroup.h"
#include "fields_proc.h"
#include "fields_tier.h"
#include "node_fields.h"
#include "jsonget.h"

static json_object *property(const char *key, const char *schema, const char *desc);

/* Each row's property: its schema text with its description first. */
static int properties(json_object *process)
{
	json_object *props = json_object_new_object(), *req = json_object_new_array();
	json_object *nulls = json_object_new_object();
	for (size_t i = 0; i < proc_nfields; i++) {
		const struct proc_field *f = &proc_fields[i];
		if (!f->key)
			continue;
		json_object *prop = property(f->key, f->schema, f->desc);
		if (!prop)
			return -1;
		json_object_object_add(props, f->key, prop);
		if (!f->optional)
			json_object_array_add(req, json_object_new_string(f->key));
		if (f->nm_only) {
			json_object *null = json_object_new_object();
			json_object_object_add(null, "type", json_object_new_string("null"));
			json_object_object_add(nulls, f->key, null);
		}
	}
	json_object_object_add(process, "required", req);
	json_object_object_add(process, "properties", props);
	/* allOf[1]: numa_maps not ok: these are null */
	json_object *then = jget(json_object_array_get_idx(jget(process, "allOf"), 1), "then");
	if (!then) {
		fprintf(stderr, "genschema: the template's process has no allOf[1].then\n");
		return -1;
	}
	json_object_object_add(then, "properties", nulls);
	return 0;
}

/* The node fields' properties, required, after the template's own. */
static void node_properties(json_object *node)
{
	json_object *props = jget(node, "properties"), *req = jget(node, "required");
	for (size_t i = 0; i < node_nfields; i++) {
		const struct node_field *f = &node_fields[i];
		json_object *prop = json_object_new_object();
		json_object_object_add(prop, "description", json_object_new_string(f->desc));
		json_object_object_add(prop, "$ref", json_object_new_string(f->unit == NF_KB ? "#/$defs/kb"
											  : "#/$defs/pct"));
		json_object_object_add(props, f->key, prop);
		json_object_array_add(req, json_object_new_string(f->key));
	}
}

/* A schema's text as an object with the description first; NULL (said)
 * when the text is not a JSON object. */
static json_object *property(const char *key, const char *schema, const char *desc)
{
	json_object *type = json_tokener_parse(schema);
	if (!type || !json_object_is_type(type, json_type_object)) {
		fprintf(stderr, "genschema: the schema of '%s' is not a JSON object: %s\n", key, schema);
		json_object_put(type);
		return NULL;
	}
	json_object *prop = json_object_new_object();
	if (desc)
		json_object_object_add(prop, "description", json_object_new_string(desc));
	json_object_object_foreach(type, k, v)
		json_object_object_add(prop, k, json_object_get(v));
	json_object_put(type);
	return prop;
}

/* Rows of key, schema and description into an object's properties (and
 * its required list, req NULL: none). */
#define ADD_ROWS(props, req, rows, n)                                                   \
	do {                                                                            \
		for (size_t i_ = 0; i_ < (n); i_++) {                                   \
			json_object *p_ = property((rows)[i_].key, (rows)[i_].schema,   \
						   (rows)[i_].desc);                    \
			if (!p_ || !(props))                                            \
				return -1;                                              \
			json_object_object_add((props), (rows)[i_].key, p_);            \
			if (req)                                                        \
				json_object_array_add((req), json_object_new_string((rows)[i_].key)); \
		}                                                                       \
	} while (0)

/* A process's heat (its keys after source and reason are present with
 * DAMON's numbers only: not required) and a region's (every one). */
static int access_properties(json_object *defs)
{
	json_object *ap = jget(jget(defs, "access_proc"), "properties");
	json_object *ar = jget(defs, "access_region");
	json_object *none = NULL, *rp = jget(ar, "properties"), *rr = jget(ar, "required");
	if (!rr)
		return -1;
	ADD_ROWS(ap, none, access_proc_fields, access_proc_nfields);
	ADD_ROWS(rp, rr, access_region_fields, access_region_nfields);
	return 0;
}

/* The cgroup facts' properties, every one required. */
static int cgroup_properties(json_object *cgroup)
{
	json_object *props = jget(cgroup, "properties"), *req = jget(cgroup, "required");
	if (!req)
		return -1;
	ADD_ROWS(props, req, cgroup_fields, cgroup_nfields);
	return 0;
}

/* A memory tier's properties (numa_balancing's memory_tiers[]), every
 * one required. */
static int tier_properties(json_object *defs)
{
	json_object *it = jget(jget(jget(jget(defs, "numa_balancing"), "properties"), "memory_tiers"), "items");
	json_object *props = jget(it, "properties"), *req = jget(it, "required");
	if (!req)
		return -1;
	ADD_ROWS(props, req, tier_fields, tier_nfields);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: genschema TEMPLATE\n");
		return 2;
	}
	json_object *root = json_object_from_file(argv[1]);
	json_object *process = jget(jget(root, "$defs"), "process");
	if (!process) {
		fprintf(stderr, "genschema: %s: no $defs.process (%s)\n", argv[1], json_util_get_last_err());
		return 1;
	}
	json_object *node = jget(jget(root, "$defs"), "node");
	if (properties(process) || !jget(node, "properties") || !jget(node, "required") ||
	    cgroup_properties(jget(jget(root, "$defs"), "cgroup")) ||
	    access_properties(jget(root, "$defs")) || tier_properties(jget(root, "$defs")))
		return 1;
	node_properties(node);
	const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_SPACED |
							  JSON_C_TO_STRING_NOSLASHESCAPE);
	puts(text);
	json_object_put(root);
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
