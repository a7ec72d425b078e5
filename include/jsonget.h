/* jsonget.h - reading parsed JSON back (recordings, replay, the access
 * heat): a member, a number (-1 for null or missing: unknown, never 0), a
 * string (NULL unless a string), an array's length (0 unless an array). */
#ifndef NUMATOP_JSONGET_H
#define NUMATOP_JSONGET_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <json.h>

#include "bitmap.h"

static inline json_object *jget(json_object *o, const char *k)
{
	json_object *v = NULL;
	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* A value already found (a catalogue's setter gets its member's). */
static inline int64_t jval_i64(json_object *v)
{
	return v && !json_object_is_type(v, json_type_null) ? json_object_get_int64(v) : -1;
}

static inline double jval_dbl(json_object *v)
{
	return v && !json_object_is_type(v, json_type_null) ? json_object_get_double(v) : -1;
}

static inline const char *jval_str(json_object *v)
{
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static inline int64_t jget_i64(json_object *o, const char *k)
{
	return jval_i64(jget(o, k));
}

static inline double jget_dbl(json_object *o, const char *k)
{
	return jval_dbl(jget(o, k));
}

static inline const char *jget_str(json_object *o, const char *k)
{
	return jval_str(jget(o, k));
}

static inline size_t jget_len(json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

/* The index of v among names[0..n), -1 none (or v NULL). */
static inline int jget_name(const char *const *names, size_t n, const char *v)
{
	for (size_t i = 0; v && i < n; i++)
		if (names[i] && strcmp(names[i], v) == 0)
			return (int)i;
	return -1;
}

/* A recorded list of ids (CPUs, nodes: 0 .. 2^22) into b: 0, or -EINVAL
 * for an id out of range (or -ENOMEM). */
static inline int jget_ids(json_object *a, struct bitmap *b)
{
	bitmap_init(b);
	for (size_t i = 0; i < jget_len(a); i++) {
		int64_t v = json_object_get_int64(json_object_array_get_idx(a, i));
		if (v < 0 || v > (1 << 22) || bitmap_set(b, (unsigned)v) != 0)
			return -EINVAL;
	}
	return 0;
}

#endif
