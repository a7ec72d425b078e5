/* snapshot_json_int.h - the checks a recorded line passes before snapshot_json.c
 * reads it (snapshot_json_check.c). */
#ifndef NUMATOP_SNAPSHOT_JSON_INT_H
#define NUMATOP_SNAPSHOT_JSON_INT_H

#include <json.h>

/* 1 EiB in kB: more than any machine's memory, less than int64. */
#define SNAPSHOT_JSON_KB_MAX ((double)(1LL << 50))

/* 0, or -EINVAL when a sample line or a header is malformed. */
int snapshot_json_check_sample(json_object *root);
int snapshot_json_check_header(json_object *header);

#endif
