/* fields_proc.h - the facts of a process as one catalogue: one row per
 * fact with its JSON key, its JSON Schema type and description, the range
 * a recorded value must be in, its getter (the JSON writer) and the setter
 * replay uses, its column (header, width, sort value, cell) and its
 * per-process Prometheus gauge. The JSON writer and reader (output_json.c,
 * snapshot_json.c), the replay's checks, the column table (columns.h), the
 * process series of the exposition and the JSON Schema (tools/genman.c,
 * make docs) walk it: a new process fact is one row in src/fields_proc.c
 * (and, shown as a column, its value in enum snap_col). */
#ifndef NUMATOP_FIELDS_PROC_H
#define NUMATOP_FIELDS_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json.h>

#include "columns.h"
#include "snapshot.h"

/* A process being rebuilt from its recorded object (replay). */
struct fields_proc_read {
	struct snapshot *s;
	struct snap_proc *p;
	json_object *obj;             /* the whole recorded object */
	struct snap_sched ks;         /* the kernel's view as read so far */
};

struct proc_field {
	const char *key;              /* the JSON key; NULL: a column only */
	const char *schema;           /* the JSON Schema of its value (a JSON
				       * object's text, without description) */
	const char *desc;             /* its description (the schema's), NULL none */
	bool optional;                /* may be left out of the object */
	bool nm_only;                 /* null unless numa_maps is ok */
	int64_t lo, hi;               /* a recorded integer's range (lo < hi),
				       * else not checked here */
	/* The value to write: *v (NULL for null); false leaves the key out. */
	bool (*get)(const struct snapshot *s, const struct snap_proc *p, json_object **v);
	/* Replay: the fact from its recorded value v (NULL: missing); 0 or
	 * -ENOMEM. */
	int (*set)(struct fields_proc_read *r, json_object *v);
	/* Its column (col.name NULL: none) and that column's enum value. */
	enum snap_col col_id;
	struct col_def col;
	/* A per-process gauge (--metrics-by pid), NULL none: its name, help,
	 * when it is there, per node (a "node" label); its value in bytes or
	 * as it is, false when the process has none. */
	const char *prom, *prom_help, *prom_when;
	bool prom_node;
	bool (*prom_val)(const struct snapshot *s, const struct snap_proc *p, size_t node, double *v);
};

extern const struct proc_field proc_fields[];
extern const size_t proc_nfields;

/* The row of column c (every enum snap_col has one). */
const struct proc_field *fields_proc_col(enum snap_col c);

/* The process's JSON object (output_json.c): every row's key in order. */
json_object *fields_proc_json(const struct snapshot *s, const struct snap_proc *p);
/* Rebuild p from its recorded object o (p's kB arrays at kb): 0, -EINVAL
 * or -ENOMEM. */
int fields_proc_read(struct snapshot *s, json_object *o, struct snap_proc *p, int64_t *kb);

#endif
