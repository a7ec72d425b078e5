/* replay_json.c - a recorded sample line printed again as NDJSON: never
 * copied as it is (a recording is a file anyone may have written), but
 * parsed and written by the JSON library as --json writes it live, with
 * every string valid UTF-8 (an invalid byte becomes U+FFFD, control
 * characters are escaped) and the processes the filter leaves out taken
 * out. A line the program wrote comes out byte for byte the same; one
 * recorded before samples said their schema_version gains it. */
#include "replay_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "sanitize.h"
#include "snapshot_json.h"
#include "jsonget.h"

/* A string that is not valid UTF-8 (or holds a NUL) made so. */
static json_object *clean_string(json_object *v)
{
	const char *s = json_object_get_string(v);
	size_t len = (size_t)json_object_get_string_len(v);
	if (strlen(s) == len && utf8_valid(s))
		return NULL;
	size_t n = 3 * strlen(s) + 1;
	char *c = malloc(n);
	if (!c)
		return NULL;
	sanitize_utf8(s, c, n);
	json_object *o = json_object_new_string(c);
	free(c);
	return o;
}

static int clean(json_object *v)
{
	if (json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			json_object *e = json_object_array_get_idx(v, i), *c;
			if (json_object_is_type(e, json_type_string)) {
				if ((c = clean_string(e)) != NULL && json_object_array_put_idx(v, i, c) != 0)
					return -ENOMEM;
			} else if (clean(e)) {
				return -ENOMEM;
			}
		}
	} else if (json_object_is_type(v, json_type_object)) {
		json_object_object_foreach(v, key, val) {
			json_object *c;
			if (json_object_is_type(val, json_type_string)) {
				/* Replacing a member's value keeps its place. */
				if ((c = clean_string(val)) != NULL && json_object_object_add(v, key, c) != 0)
					return -ENOMEM;
			} else if (clean(val)) {
				return -ENOMEM;
			}
		}
	}
	return 0;
}

/* The filter on the processes: those it leaves out are taken out, the
 * counts that say how many there are follow. */
static int filter(json_object *root, const struct sampler_filter *f)
{
	json_object *procs = jget(root, "processes");
	if (!json_object_is_type(procs, json_type_array))
		return 0;
	size_t n = json_object_array_length(procs), hidden = 0, known = 0;
	json_object *kept = json_object_new_array();
	if (!kept)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(procs, i), *v;
		json_object *uid = jget(p, "uid"), *kt = jget(p, "kernel_thread");
		const char *user = (v = jget(p, "user")) ? json_object_get_string(v) : NULL;
		struct proc_info in = {
			.pid = (int)json_object_get_int64(jget(p, "pid")),
			.uid = uid ? json_object_get_int64(uid) : -1,
			.user = user ? user : "",
			.kthread = kt && json_object_get_boolean(kt),
		};
		bool k;
		if (!sampler_filter_keeps(f, &in, &k)) {
			hidden += k;
			continue;
		}
		const char *nm = (v = jget(p, "numa_maps")) ? json_object_get_string(v) : NULL;
		known += !nm || strcmp(nm, "not_read") != 0;
		if (json_object_array_add(kept, json_object_get(p)) != 0) {
			json_object_put(p);
			json_object_put(kept);
			return -ENOMEM;
		}
	}
	if (json_object_array_length(kept) == n) {
		json_object_put(kept);
		return 0;               /* as recorded */
	}
	json_object *kh = jget(root, "kernel_threads_hidden");
	json_object *nb = jget(root, "numa_maps_budget");
	if (kh)
		json_object_object_add(root, "kernel_threads_hidden",
				       json_object_new_int64(json_object_get_int64(kh) + (int64_t)hidden));
	if (jget(nb, "processes"))
		json_object_object_add(nb, "processes",
				       json_object_new_int64((int64_t)json_object_array_length(kept)));
	if (jget(nb, "known"))
		json_object_object_add(nb, "known", json_object_new_int64((int64_t)known));
	json_object_object_add(root, "processes", kept);
	return 0;
}

/* A sample recorded before "schema_version" existed: the same members
 * with schema_version after "version", where --json writes it (first
 * when there is no "version"). NULL when it has one (or no memory). */
static json_object *with_schema_version(json_object *root)
{
	if (jget(root, "schema_version"))
		return NULL;
	json_object *o = json_object_new_object();
	bool done = false, after = jget(root, "version") != NULL;
	if (!o)
		return NULL;
	json_object_object_foreach(root, key, val) {
		if (!done && !after) {
			json_object_object_add(o, "schema_version",
					       json_object_new_int(SNAPSHOT_JSON_SCHEMA_VERSION));
			done = true;
		}
		if (json_object_object_add(o, key, json_object_get(val)) != 0) {
			json_object_put(val);
			json_object_put(o);
			return NULL;
		}
		if (!done && strcmp(key, "version") == 0) {
			json_object_object_add(o, "schema_version",
					       json_object_new_int(SNAPSHOT_JSON_SCHEMA_VERSION));
			done = true;
		}
	}
	if (!done)
		json_object_object_add(o, "schema_version", json_object_new_int(SNAPSHOT_JSON_SCHEMA_VERSION));
	return o;
}

int replay_json_clean(const char *line, size_t len, const struct sampler_filter *f, char **out,
		      size_t *olen)
{
	*out = NULL;
	json_tokener *tok = json_tokener_new_ex(64);
	json_object *root = tok ? json_tokener_parse_ex(tok, line, (int)len) : NULL;
	if (tok)
		json_tokener_free(tok);
	if (!root || !json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		return -EBADMSG;
	}
	json_object *sv = with_schema_version(root);
	if (sv) {
		json_object_put(root);
		root = sv;
	}
	int rc = clean(root);
	if (!rc)
		rc = filter(root, f);
	size_t l = 0;
	const char *text = rc ? NULL : json_object_to_json_string_length(root, JSON_C_TO_STRING_PLAIN, &l);
	if (!rc && (!text || !(*out = strndup(text, l))))
		rc = -ENOMEM;
	*olen = *out ? l : 0;
	json_object_put(root);
	return rc;
}
