/* fields_cgroup.h - the facts of a cgroup as one catalogue, as
 * fields_proc.h is a process's: one row per fact with its JSON key, its
 * schema and description, its getter (the JSON writer) and the setter
 * replay uses. The JSON writer and reader (output_json.c,
 * snapshot_json.c) and the JSON Schema (tools/genschema.c) walk it: a new
 * cgroup fact is one row in src/fields_cgroup.c. */
#ifndef NUMATOP_FIELDS_CGROUP_H
#define NUMATOP_FIELDS_CGROUP_H

#include <stdbool.h>
#include <stddef.h>

#include <json.h>

#include "snapshot.h"

struct cgroup_field {
	const char *key;              /* the JSON key in cgroups[] */
	const char *schema;           /* the JSON Schema of its value */
	const char *desc;             /* its description */
	/* The value to write (*v NULL: null). */
	void (*get)(const struct snapshot *s, const struct cgroup_info *c, json_object **v);
	/* Replay: the fact from its recorded value v (NULL: missing or
	 * null): 0, -EINVAL or -ENOMEM. */
	int (*set)(const struct snapshot *s, struct cgroup_info *c, json_object *v);
};

extern const struct cgroup_field cgroup_fields[];
extern const size_t cgroup_nfields;

/* The cgroup's JSON object: every row's key in order. */
json_object *fields_cgroup_json(const struct snapshot *s, const struct cgroup_info *c);
/* Rebuild c (index i of s->cgroups; its kB arrays set, bitmaps
 * initialised) from its recorded object o: 0, -EINVAL or -ENOMEM. */
int fields_cgroup_read(const struct snapshot *s, json_object *o, struct cgroup_info *c);

#endif
