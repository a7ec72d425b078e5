/* fields_tier.h - the facts of a memory tier as one catalogue (as
 * fields_proc.h is a process's): its JSON key in numa_balancing's
 * memory_tiers[], its schema and description, its getter. The JSON writer
 * (output_json.c) and the JSON Schema (tools/genschema.c) walk it; replay
 * rebuilds the tiers from the nodes' memory_tier and HMAT figures. */
#ifndef NUMATOP_FIELDS_TIER_H
#define NUMATOP_FIELDS_TIER_H

#include <stddef.h>

#include <json.h>

#include "snapshot.h"

struct tier_field {
	const char *key, *schema, *desc;
	/* The value of the j-th tier of s's model (fast to slow), NULL null. */
	json_object *(*get)(const struct snapshot *s, size_t j);
};

extern const struct tier_field tier_fields[];
extern const size_t tier_nfields;

/* The j-th tier's JSON object: every row's key in order. */
json_object *fields_tier_json(const struct snapshot *s, size_t j);

#endif
