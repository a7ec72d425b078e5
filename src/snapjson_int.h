/* snapjson_int.h - the checks a recorded line passes before snapjson.c
 * reads it (snapjson_check.c). */
#ifndef NUMATOP_SNAPJSON_INT_H
#define NUMATOP_SNAPJSON_INT_H

#include <json.h>

/* 1 EiB in kB: more than any machine's memory, less than int64. */
#define SNAPJSON_KB_MAX ((double)(1LL << 50))

/* 0, or -EINVAL when a sample line or a header is malformed. */
int snapjson_check_sample(json_object *root);
int snapjson_check_header(json_object *header);

#endif
