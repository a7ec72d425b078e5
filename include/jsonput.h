/* jsonput.h - writing the model's numbers and strings as JSON values:
 * unknown (< 0) as null, never 0; reals rounded for reading; strings as
 * valid UTF-8. The JSON writers share them (output_json.c, the fields_*.c
 * catalogues, access_json.c). */
#ifndef NUMATOP_JSONPUT_H
#define NUMATOP_JSONPUT_H

#include <stdint.h>
#include <stdio.h>

#include <json.h>

#include "bitmap.h"
#include "sanitize.h"

static inline json_object *jnum(int64_t v)
{
	return v < 0 ? NULL : json_object_new_int64(v);
}

/* A percentage or rate rounded for reading, or null. */
static inline json_object *jreal(double v, int decimals)
{
	if (v < 0)
		return NULL;
	char s[48];
	snprintf(s, sizeof(s), "%.*f", decimals, v);
	return json_object_new_double_s(v, s);
}

static inline json_object *jstr(const char *raw)
{
	char clean[1024];
	sanitize_utf8(raw, clean, sizeof(clean));
	return json_object_new_string(clean);
}

/* The ids of a set, ascending: [0, 2, 3]. */
static inline json_object *jput_ids(const struct bitmap *b)
{
	json_object *a = json_object_new_array();
	for (int c = bitmap_next(b, 0); c >= 0; c = bitmap_next(b, c + 1))
		json_object_array_add(a, json_object_new_int(c));
	return a;
}

#endif
