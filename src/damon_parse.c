/* damon_parse.c - DAMON's sysfs values, tried regions, the split of the
 * regions among targets, our record file and the settings match: pure
 * functions over buffers (see damon.h). */
#include "damon.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json.h>

#include "parse.h"

const char *const damon_region_files[DAMON_RF_N] = {
	"start", "end", "nr_accesses", "age", "sz_filter_passed",
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0';
}

/* buf[0..len) without surrounding blanks (and NULs) into [*s, *e). */
static void trim(const char *buf, size_t len, const char **s, const char **e)
{
	const char *a = buf, *b = buf + len;
	while (a < b && is_blank(*a))
		a++;
	while (b > a && is_blank(b[-1]))
		b--;
	*s = a;
	*e = b;
}

int damon_parse_u64(const char *buf, size_t len, uint64_t *out)
{
	if (!buf)
		return -EINVAL;
	const char *p, *e;
	trim(buf, len, &p, &e);
	uint64_t v;
	int rc = parse_u64(&p, e, &v);
	if (rc)
		return rc;
	if (p != e)
		return -EINVAL;
	*out = v;
	return 0;
}

int damon_parse_i64(const char *buf, size_t len, int64_t *out)
{
	if (!buf)
		return -EINVAL;
	const char *p, *e;
	trim(buf, len, &p, &e);
	int64_t v;
	int rc = parse_i64(&p, e, &v);
	if (rc)
		return rc;
	if (p != e)
		return -EINVAL;
	*out = v;
	return 0;
}

int damon_parse_state(const char *buf, size_t len, enum damon_kd_state *out)
{
	*out = DAMON_KD_UNKNOWN;
	if (!buf)
		return -EINVAL;
	const char *p, *e;
	trim(buf, len, &p, &e);
	size_t n = (size_t)(e - p);
	if (n == 2 && memcmp(p, "on", 2) == 0)
		*out = DAMON_KD_ON;
	else if (n == 3 && memcmp(p, "off", 3) == 0)
		*out = DAMON_KD_OFF;
	else
		return -EINVAL;
	return 0;
}

/* An optional count, 0..max (max <= INT64_MAX): -1 when absent, not a
 * number (a sign included), or past max (past UINT64_MAX too: parsed in
 * 64 bits, -ERANGE). */
static int64_t opt_count(const struct damon_region_text *t, enum damon_region_field f,
			 uint64_t max)
{
	uint64_t v;
	if (!t->f[f] || damon_parse_u64(t->f[f], t->len[f], &v) != 0 || v > max)
		return -1;
	return (int64_t)v;
}

int damon_parse_region(const struct damon_region_text *t, struct damon_region *out)
{
	uint64_t s, e;
	if (damon_parse_u64(t->f[DAMON_RF_START], t->len[DAMON_RF_START], &s) != 0 ||
	    damon_parse_u64(t->f[DAMON_RF_END], t->len[DAMON_RF_END], &e) != 0 || s >= e)
		return -EINVAL;
	out->start = s;
	out->end = e;
	/* The kernel's unsigned ints: a larger number is not one of its. */
	out->nr_accesses = opt_count(t, DAMON_RF_NR_ACCESSES, DAMON_ANY_U32);
	out->age = opt_count(t, DAMON_RF_AGE, DAMON_ANY_U32);
	out->sz_filter_passed = opt_count(t, DAMON_RF_SZ_FILTER_PASSED, INT64_MAX);
	/* A target's regions do not overlap, so no region passes more bytes
	 * than it has. */
	if (out->sz_filter_passed > 0 && (uint64_t)out->sz_filter_passed > e - s)
		out->sz_filter_passed = -1;
	return 0;
}

int damon_split_targets(const struct damon_region *r, size_t n, size_t ntargets,
			size_t *first)
{
	if (ntargets == 0)
		return n == 0 ? 0 : -EINVAL;
	size_t t = 0;
	first[0] = 0;
	for (size_t i = 1; i < n; i++) {
		if (r[i].start >= r[i - 1].end)
			continue;                 /* rising: the same target */
		if (++t >= ntargets)
			return -EINVAL;           /* more runs than targets */
		first[t] = i;
	}
	if (t + 1 != ntargets || n == 0)
		return -EINVAL;                   /* fewer: a target is missing */
	first[ntargets] = n;
	return 0;
}

/* ---- the record ---- */

static int get_i64(json_object *o, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return -EINVAL;
	errno = 0;
	int64_t x = json_object_get_int64(v);
	/* json-c gives INT64_MAX for any larger number: not a value of ours. */
	if (errno || x < lo || x > hi || x == INT64_MAX)
		return -EINVAL;
	*out = x;
	return 0;
}

static int get_pids(json_object *arr, int *pids, size_t *n)
{
	if (!json_object_is_type(arr, json_type_array))
		return -EINVAL;
	size_t len = json_object_array_length(arr);
	if (len > DAMON_MAX_TARGETS)
		return -E2BIG;
	for (size_t i = 0; i < len; i++) {
		json_object *v = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(v, json_type_int))
			return -EINVAL;
		errno = 0;
		int64_t x = json_object_get_int64(v);
		if (errno || x < 1 || x > INT32_MAX)
			return -EINVAL;
		pids[i] = (int)x;
	}
	*n = len;
	return 0;
}

static int record_from(json_object *o, struct damon_record *rec)
{
	int64_t v[9];
	static const char *const keys[9] = {
		"owner_pid", "owner_starttime", "kdamond", "kdamond_pid",
		"sample_us", "aggr_us", "update_us", "min_nr_regions", "max_nr_regions",
	};
	static const int64_t lo[9] = { 1, 0, 0, -1, 1, 1, 1, 1, 1 };
	static const int64_t hi[9] = { INT32_MAX, INT64_MAX, DAMON_MAX_KDAMONDS - 1, INT32_MAX,
				       INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX };
	if (!json_object_is_type(o, json_type_object))
		return -EINVAL;
	for (int i = 0; i < 9; i++)
		if (get_i64(o, keys[i], lo[i], hi[i], &v[i]) != 0)
			return -EINVAL;
	json_object *ops, *pids, *next;
	if (!json_object_object_get_ex(o, "operations", &ops) ||
	    !json_object_is_type(ops, json_type_string) ||
	    (size_t)json_object_get_string_len(ops) >= sizeof(rec->set.operations) ||
	    !json_object_object_get_ex(o, "pids", &pids))
		return -EINVAL;
	rec->owner.pid = (int)v[0];
	rec->owner.starttime = (uint64_t)v[1];
	rec->kdamond = (int)v[2];
	rec->kdamond_pid = v[3];
	rec->set.sample_us = v[4];
	rec->set.aggr_us = v[5];
	rec->set.update_us = v[6];
	rec->set.min_regions = v[7];
	rec->set.max_regions = v[8];
	snprintf(rec->set.operations, sizeof(rec->set.operations), "%s", json_object_get_string(ops));
	int rc = get_pids(pids, rec->set.pids, &rec->set.npids);
	if (rc)
		return rc;
	rec->have_next = json_object_object_get_ex(o, "next_pids", &next) &&
			 !json_object_is_type(next, json_type_null);
	rec->nnext = 0;
	return rec->have_next ? get_pids(next, rec->next_pids, &rec->nnext) : 0;
}

int damon_record_parse(const char *buf, size_t len, struct damon_record *out)
{
	memset(out, 0, sizeof(*out));
	if (len > DAMON_RECORD_MAX || len > INT32_MAX)
		return -EINVAL;
	json_tokener *tok = json_tokener_new_ex(8);
	if (!tok)
		return -ENOMEM;
	json_object *o = json_tokener_parse_ex(tok, buf, (int)len);
	/* Exactly one value, with nothing but blanks after it. */
	int rc = -EINVAL;
	if (o && json_tokener_get_error(tok) == json_tokener_success) {
		size_t used = json_tokener_get_parse_end(tok);
		const char *s, *e;
		trim(buf + used, len - used, &s, &e);
		if (s == e)
			rc = record_from(o, out);
	}
	json_object_put(o);
	json_tokener_free(tok);
	if (rc)
		memset(out, 0, sizeof(*out));
	return rc;
}

static json_object *pid_array(const int *pids, size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; a && i < n; i++)
		json_object_array_add(a, json_object_new_int(pids[i]));
	return a;
}

int damon_record_format(const struct damon_record *rec, struct buf *out)
{
	json_object *o = json_object_new_object();
	if (!o)
		return -ENOMEM;
	const struct damon_settings *s = &rec->set;
	json_object_object_add(o, "owner_pid", json_object_new_int(rec->owner.pid));
	json_object_object_add(o, "owner_starttime", json_object_new_int64((int64_t)rec->owner.starttime));
	json_object_object_add(o, "kdamond", json_object_new_int(rec->kdamond));
	json_object_object_add(o, "kdamond_pid", json_object_new_int64(rec->kdamond_pid));
	json_object_object_add(o, "operations", json_object_new_string(s->operations));
	json_object_object_add(o, "sample_us", json_object_new_int64(s->sample_us));
	json_object_object_add(o, "aggr_us", json_object_new_int64(s->aggr_us));
	json_object_object_add(o, "update_us", json_object_new_int64(s->update_us));
	json_object_object_add(o, "min_nr_regions", json_object_new_int64(s->min_regions));
	json_object_object_add(o, "max_nr_regions", json_object_new_int64(s->max_regions));
	json_object_object_add(o, "pids", pid_array(s->pids, s->npids));
	if (rec->have_next)
		json_object_object_add(o, "next_pids", pid_array(rec->next_pids, rec->nnext));
	size_t len = 0;
	const char *text = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN, &len);
	buf_clear(out);
	int rc = text ? buf_append(out, text, len) : -ENOMEM;
	if (rc == 0)
		rc = buf_append(out, "\n", 1);
	json_object_put(o);
	return rc;
}

/* ---- the settings ---- */

void damon_settings_default(struct damon_settings *s, const int *pids, size_t n)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->operations, sizeof(s->operations), "vaddr");
	s->sample_us = DAMON_SAMPLE_US;
	s->aggr_us = DAMON_AGGR_US;
	s->update_us = DAMON_UPDATE_US;
	s->min_regions = DAMON_MIN_REGIONS;
	s->max_regions = DAMON_MAX_REGIONS;
	if (n > DAMON_MAX_TARGETS)
		n = DAMON_MAX_TARGETS;
	for (size_t i = 0; i < n; i++)
		s->pids[i] = pids[i];
	s->npids = n;
}

static bool same_pids(const struct damon_context *c, const int *pids, size_t n)
{
	if (c->ntargets != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (c->pids[i] != pids[i])
			return false;
	return true;
}

bool damon_settings_match(const struct damon_kdamond *kd, const struct damon_record *rec)
{
	const struct damon_settings *s = &rec->set;
	if (!kd->complete || kd->index != rec->kdamond || kd->nctxs != 1 ||
	    kd->state == DAMON_KD_UNKNOWN)
		return false;
	/* Running: it must be the thread we started (when we saw it). */
	if (kd->state == DAMON_KD_ON && rec->kdamond_pid >= 0 && kd->pid != rec->kdamond_pid)
		return false;
	const struct damon_context *c = &kd->ctxs[0];
	if (strcmp(c->operations, s->operations) != 0 || c->sample_us != s->sample_us ||
	    c->aggr_us != s->aggr_us || c->update_us != s->update_us ||
	    c->min_regions != s->min_regions || c->max_regions != s->max_regions)
		return false;
	if (!same_pids(c, s->pids, s->npids) &&
	    !(rec->have_next && same_pids(c, rec->next_pids, rec->nnext)))
		return false;
	if (c->nschemes != 1)
		return false;
	const struct damon_scheme *sc = &c->schemes[0];
	return strcmp(sc->action, "stat") == 0 && sc->have_pattern &&
	       sc->sz_min == 0 && sc->sz_max == DAMON_ANY_SZ && sc->acc_min == 0 &&
	       sc->acc_max == DAMON_ANY_U32 && sc->age_min == 0 && sc->age_max == DAMON_ANY_U32;
}
