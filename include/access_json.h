/* access_json.h - access heat in the JSON sample (access_json.c):
 * written by output_json.c, read back by snapshot_json.c. */
#ifndef NUMATOP_ACCESS_JSON_H
#define NUMATOP_ACCESS_JSON_H

#include <json.h>

#include "access.h"
#include "snapshot.h"

json_object *access_json_status(const struct snapshot *s);
json_object *access_json_proc(const struct snapshot *s, const struct snap_proc *p);
/* The top level's and each process's "access" of a sample whose
 * processes s already holds (in the sample's order). 0, -EINVAL, -ENOMEM. */
int access_json_read(struct snapshot *s, json_object *root);
/* A process's source (damon, else numa_balancing where its faults were
 * read, else none) and why DAMON does not cover it. */
enum access_source access_proc_source(const struct snapshot *s, const struct snap_proc *p);
enum access_why access_proc_why(const struct snapshot *s, const struct snap_proc *p);

/* A process's heat (beside its source and reason) and each of its
 * regions as catalogues, one row per fact as fields_proc.h's: the JSON
 * key, its schema and description, the writer's getter and the replay's
 * setter; access_json.c writes and reads through them, tools/genschema.c
 * writes their schema. */
struct access_read {                /* a recorded process's heat being rebuilt */
	struct snapshot *s;
	struct access_proc *a;
	struct access_region *g;    /* the region being read */
	size_t ro, ko;              /* next free region, next free kB row */
};
struct access_proc_field {
	const char *key, *schema, *desc;
	json_object *(*get)(const struct snapshot *s, const struct access_proc *a);
	int (*set)(struct access_read *r, json_object *v);
};
struct access_region_field {
	const char *key, *schema, *desc;
	json_object *(*get)(const struct snapshot *s, const struct access_region *g);
	int (*set)(struct access_read *r, json_object *v);
};
extern const struct access_proc_field access_proc_fields[];
extern const size_t access_proc_nfields;
extern const struct access_region_field access_region_fields[];
extern const size_t access_region_nfields;

#endif
