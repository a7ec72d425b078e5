/* node_fields.h - the per-node facts of a sample as one table: each row is
 * one metric, and the JSON writer, the Prometheus exposition, the batch
 * text's node table and the replay of a recorded sample read it. A new
 * per-node metric is one row in src/node_fields.c (and, to show it in the
 * text table, its key in that view's list); the JSON Schema's node
 * properties for them are generated from the rows (tools/genschema.c). */
#ifndef NUMATOP_NODE_FIELDS_H
#define NUMATOP_NODE_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "snapshot.h"

enum node_field_unit { NF_KB, NF_PCT };

struct node_field {
	const char *key;            /* JSON nodes[] key: "mem_free_kb" */
	enum node_field_unit unit;  /* kB (an integer) or a percentage */
	const char *text_hdr;       /* the batch text's header ("MEM_FREE_KB") */
	int text_w;                 /* its cell width there */
	const char *prom;           /* Prometheus gauge (bytes for kB), NULL: not exported */
	const char *prom_help;
	const char *desc;           /* the JSON Schema's description */
	/* The value of node index i, < 0 unknown; and the replay's setter. */
	double (*get)(const struct snapshot *s, size_t i);
	void (*set)(struct snapshot *s, size_t i, double v);
};

extern const struct node_field node_fields[];
extern const size_t node_nfields;

/* By JSON key; NULL when there is none. */
const struct node_field *node_field_find(const char *key);

#endif
