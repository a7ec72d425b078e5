/* fleet_parse.c - the answer of a Prometheus server's /api/v1/query (and
 * query_range) as a pure function over a buffer: vector, matrix, scalar
 * and string results, an error answer, and anything else refused. A
 * value that is not a number ("NaN", garbage) is NAN: unknown, never 0. */
#include "fleet.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "jsonget.h"

void fleet_answer_free(struct fleet_answer *a)
{
	for (size_t i = 0; i < a->nseries; i++) {
		struct fleet_series *s = &a->series[i];
		for (size_t k = 0; k < s->nlabels; k++) {
			free(s->names[k]);
			free(s->values[k]);
		}
		free(s->names);
		free(s->values);
		free(s->points);
	}
	free(a->series);
	a->series = NULL;
	a->nseries = 0;
}

const char *fleet_series_label(const struct fleet_series *s, const char *name)
{
	for (size_t k = 0; k < s->nlabels; k++)
		if (strcmp(s->names[k], name) == 0)
			return s->values[k];
	return NULL;
}

/* [t, "v"]: 0, or -EINVAL. */
static int point(json_object *o, struct fleet_point *p)
{
	if (!json_object_is_type(o, json_type_array) || json_object_array_length(o) != 2)
		return -EINVAL;
	json_object *t = json_object_array_get_idx(o, 0), *v = json_object_array_get_idx(o, 1);
	if (!json_object_is_type(t, json_type_double) && !json_object_is_type(t, json_type_int))
		return -EINVAL;
	p->t = json_object_get_double(t);
	if (!json_object_is_type(v, json_type_string))
		return -EINVAL;
	const char *s = json_object_get_string(v);
	char *end;
	errno = 0;
	double d = strtod(s, &end);
	p->v = end != s && *end == '\0' ? d : NAN;
	return 0;
}

static int labels(json_object *m, struct fleet_series *s)
{
	if (!json_object_is_type(m, json_type_object))
		return -EINVAL;
	size_t n = (size_t)json_object_object_length(m);
	s->names = calloc(n ? n : 1, sizeof(*s->names));
	s->values = calloc(n ? n : 1, sizeof(*s->values));
	if (!s->names || !s->values)
		return -ENOMEM;
	json_object_object_foreach(m, k, v) {
		if (!json_object_is_type(v, json_type_string))
			return -EINVAL;
		s->names[s->nlabels] = strdup(k);
		s->values[s->nlabels] = strdup(json_object_get_string(v));
		s->nlabels++;
		if (!s->names[s->nlabels - 1] || !s->values[s->nlabels - 1])
			return -ENOMEM;
	}
	return 0;
}

static int series(json_object *o, bool matrix, struct fleet_series *s)
{
	if (!json_object_is_type(o, json_type_object))
		return -EINVAL;
	int rc = labels(jget(o, "metric"), s);
	if (rc)
		return rc;
	json_object *pts = jget(o, matrix ? "values" : "value");
	if (!matrix) {
		s->points = malloc(sizeof(*s->points));
		if (!s->points)
			return -ENOMEM;
		s->npoints = 1;
		return pts ? point(pts, s->points) : -EINVAL;
	}
	if (!json_object_is_type(pts, json_type_array))
		return -EINVAL;
	size_t n = json_object_array_length(pts);
	s->points = malloc((n ? n : 1) * sizeof(*s->points));
	if (!s->points)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		rc = point(json_object_array_get_idx(pts, i), &s->points[i]);
		if (rc)
			return rc;
		s->npoints++;
	}
	return 0;
}

static int result(json_object *data, struct fleet_answer *a)
{
	const char *type = jget_str(data, "resultType");
	json_object *r = jget(data, "result");
	if (!type || !r)
		return -EINVAL;
	if (strcmp(type, "scalar") == 0 || strcmp(type, "string") == 0) {
		a->type = type[1] == 'c' ? FR_SCALAR : FR_STRING;
		if (a->type == FR_STRING) {
			if (!json_object_is_type(r, json_type_array) || json_object_array_length(r) != 2)
				return -EINVAL;
			return 0;
		}
		return point(r, &a->scalar);
	}
	bool matrix = strcmp(type, "matrix") == 0;
	if (!matrix && strcmp(type, "vector") != 0)
		return -EINVAL;
	a->type = matrix ? FR_MATRIX : FR_VECTOR;
	if (!json_object_is_type(r, json_type_array))
		return -EINVAL;
	size_t n = json_object_array_length(r);
	a->series = calloc(n ? n : 1, sizeof(*a->series));
	if (!a->series)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		a->nseries++;
		int rc = series(json_object_array_get_idx(r, i), matrix, &a->series[i]);
		if (rc)
			return rc;
	}
	return 0;
}

int fleet_answer_parse(const char *buf, size_t len, struct fleet_answer *a)
{
	memset(a, 0, sizeof(*a));
	a->scalar.v = NAN;
	if (len > (size_t)INT32_MAX)
		return -EINVAL;
	json_tokener *tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	json_object *o = json_tokener_parse_ex(tok, buf, (int)len);
	size_t end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!o)
		return -EINVAL;
	for (; end < len; end++)
		if (!strchr(" \t\r\n", buf[end]) || buf[end] == '\0') {
			json_object_put(o);
			return -EINVAL;
		}
	int rc = -EINVAL;
	const char *status = jget_str(o, "status");
	a->nwarnings = jget_len(jget(o, "warnings"));
	if (status && strcmp(status, "error") == 0) {
		const char *et = jget_str(o, "errorType"), *e = jget_str(o, "error");
		snprintf(a->error, sizeof(a->error), "%s%s%s", et ? et : "", et && e ? ": " : "",
			 e ? e : et ? "" : "an error without a message");
		rc = -EPROTO;
	} else if (status && strcmp(status, "success") == 0) {
		rc = result(jget(o, "data"), a);
	}
	json_object_put(o);
	return rc;
}
