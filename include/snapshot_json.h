/* snapshot_json.h - a recording read back into the model: the topology from
 * its header line, a snapshot from each sample line (what --json
 * printed). Numbers the JSON does not carry stay unknown (-1), never 0:
 * thread lists, policy-weighted kB, watermarks, per-CPU ticks. */
#ifndef NUMATOP_SNAPSHOT_JSON_H
#define NUMATOP_SNAPSHOT_JSON_H

/* The version of the JSON's layout (docs/numatop-tui.schema.json):
 * "schema_version" in every --json sample and recording header, written by
 * output_json.c and record_header.c, added by the replay to older lines.
 * Raised when a field changes meaning or type or goes away; new fields
 * do not. */
#define SNAPSHOT_JSON_SCHEMA_VERSION 1

#include <stdbool.h>
#include <stddef.h>

#include <stdio.h>

#include "jsonget.h"
#include "snapshot.h"
#include "topology.h"

/* 0, or -errno with err ("the recording's header has no usable
 * topology (malformed)"); t is freed on failure. */
int snapshot_json_topology(const char *header, struct topology *t, char *err, size_t errsz);

/* The header's firmware HMAT and saved measurement, for topology t (the
 * one snapshot_json_topology built from this header): *have_* false when the
 * header has none (or it does not fit t). Free them with hmat_free and
 * measure_free. */
struct hmat;
struct measure_result;
void snapshot_json_extras(const char *header, const struct topology *t, struct hmat *h, bool *have_hmat,
		     struct measure_result *m, bool *have_meas);

/* Replace *s (freed first; it must be zeroed or a snapshot) with the
 * sample of line, against topology t (which must outlive s). 0, or
 * -errno with err; s is then empty (no processes) and valid. */
int snapshot_json_snapshot(const char *line, size_t len, const struct topology *t, struct snapshot *s,
		      char *err, size_t errsz);

/* The {"<node id>": kB} object of the JSON (a key per node of t, in
 * order: ids may be sparse): kb[nnodes] by node index written, or NULL
 * when kb is; a kB < 0 (unknown) is null when null_unknown, else written
 * as it is. snapshot_json_node_kb reads it back. */
static inline json_object *snapshot_json_put_node_kb(const struct topology *t, const int64_t *kb,
						     bool null_unknown)
{
	if (!kb)
		return NULL;
	json_object *o = json_object_new_object();
	for (size_t j = 0; j < t->nnodes; j++) {
		char id[16];
		snprintf(id, sizeof(id), "%d", t->nodes[j].id);
		json_object_object_add(o, id, kb[j] < 0 && null_unknown ? NULL : json_object_new_int64(kb[j]));
	}
	return o;
}

/* A recorded {"<node id>": kB} object into arr[nnodes] by node index
 * (missing or null: -1). */
static inline void snapshot_json_node_kb(const struct topology *t, json_object *o, int64_t *arr)
{
	for (size_t j = 0; j < t->nnodes; j++) {
		char id[16];
		snprintf(id, sizeof(id), "%d", t->nodes[j].id);
		arr[j] = jget_i64(o, id);
	}
}

#endif
