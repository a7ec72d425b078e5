/* fuzz_damon.c - fuzz targets of DAMON's parsers (damon_parse.c) and of
 * the access heat's JSON reader (access_json.c, through a recorded
 * sample), with their invariants; built with fuzz.c (see there). A broken
 * invariant calls abort(). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access_json.h"
#include "damon.h"
#include "fuzz.h"
#include "output.h"
#include "snapshot_json.h"
#include "topology.h"

/* DAMON's number and state files: what parses is what sysfs prints, so
 * printed again it parses to the same; an unsigned number that fits is
 * the signed one too; a state is on or off, else unknown. */
void t_damon_scalar(const char *s, size_t size)
{
	uint64_t u;
	int64_t i;
	char t[32];
	int ru = damon_parse_u64(s, size, &u), ri = damon_parse_i64(s, size, &i);
	if (ru == 0) {
		uint64_t u2;
		snprintf(t, sizeof(t), "%llu\n", (unsigned long long)u);
		if (damon_parse_u64(t, strlen(t), &u2) != 0 || u2 != u)
			abort();
		if (u <= INT64_MAX && (ri != 0 || i != (int64_t)u))
			abort();
	}
	if (ri == 0) {
		int64_t i2;
		snprintf(t, sizeof(t), "%lld\n", (long long)i);
		if (damon_parse_i64(t, strlen(t), &i2) != 0 || i2 != i)
			abort();
	}
	enum damon_kd_state st;
	int rs = damon_parse_state(s, size, &st);
	if (rs == 0 ? st != DAMON_KD_ON && st != DAMON_KD_OFF : st != DAMON_KD_UNKNOWN)
		abort();
}

/* DAMON's tried regions: records split by newlines, each record's files
 * (start|end|nr_accesses|age|sz_filter_passed, a missing one absent); the
 * first byte picks how many targets to split the regions among. A kept
 * region is a range, its counts are unknown (-1) or real, the bytes that
 * passed no more than its size; a split covers every region in order, each
 * target's rising, and falls between targets. */
void t_damon_region(const char *s, size_t size)
{
	if (size == 0)
		return;
	size_t ntargets = (unsigned char)s[0] % 5;
	struct damon_region r[64];
	size_t n = 0;
	const char *p = s + 1, *end = s + size;
	while (p < end && n < 64) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *rec_end = nl ? nl : end;
		struct damon_region_text t;
		memset(&t, 0, sizeof(t));
		const char *f = p;
		for (int i = 0; i < DAMON_RF_N && f <= rec_end; i++) {
			const char *bar = memchr(f, '|', (size_t)(rec_end - f));
			const char *fe = bar ? bar : rec_end;
			t.f[i] = f;
			t.len[i] = (size_t)(fe - f);
			if (!bar)
				break;
			f = bar + 1;
		}
		struct damon_region x;
		if (damon_parse_region(&t, &x) == 0) {
			if (x.start >= x.end || x.nr_accesses < -1 || x.age < -1 ||
			    x.sz_filter_passed < -1 ||
			    (x.sz_filter_passed > 0 && (uint64_t)x.sz_filter_passed > x.end - x.start))
				abort();
			r[n++] = x;
		}
		p = rec_end + 1;
	}
	size_t first[6];
	if (damon_split_targets(r, n, ntargets, first) == 0 && ntargets > 0) {
		if (first[0] != 0 || first[ntargets] != n)
			abort();
		for (size_t k = 0; k < ntargets; k++) {
			if (first[k] >= first[k + 1])
				abort();                       /* every target has a region */
			for (size_t i = first[k] + 1; i < first[k + 1]; i++)
				if (r[i].start < r[i - 1].end)
					abort();               /* rising inside a target */
			if (k > 0 && r[first[k]].start >= r[first[k] - 1].end)
				abort();                       /* a fall between targets */
		}
	}
}

/* Our DAMON record: what parses formats and parses again to the same; the
 * kdamond it describes, exactly, is ours (damon_settings_match), and one
 * setting other than the record's (its index, its thread, an interval, the
 * scheme's action) makes it not ours. */
void t_damon_record(const char *s, size_t size)
{
	struct damon_record a, b;
	if (damon_record_parse(s, size, &a) != 0)
		return;
	struct buf t = { 0 };
	if (damon_record_format(&a, &t) != 0)
		abort();
	if (damon_record_parse(t.data, t.len, &b) != 0 || memcmp(&a, &b, sizeof(a)) != 0)
		abort();
	buf_free(&t);
	int64_t pids[DAMON_MAX_TARGETS];
	for (size_t i = 0; i < a.set.npids; i++)
		pids[i] = a.set.pids[i];
	struct damon_scheme sc = { .have_pattern = true, .sz_max = DAMON_ANY_SZ,
				   .acc_max = DAMON_ANY_U32, .age_max = DAMON_ANY_U32, .total_bytes = -1 };
	snprintf(sc.action, sizeof(sc.action), "stat");
	struct damon_context c = { .sample_us = a.set.sample_us, .aggr_us = a.set.aggr_us,
				   .update_us = a.set.update_us, .min_regions = a.set.min_regions,
				   .max_regions = a.set.max_regions, .pids = pids,
				   .ntargets = a.set.npids, .schemes = &sc, .nschemes = 1 };
	memcpy(c.operations, a.set.operations, sizeof(c.operations));
	struct damon_kdamond kd = { .index = a.kdamond, .state = DAMON_KD_ON,
				    .pid = a.kdamond_pid, .ctxs = &c, .nctxs = 1, .complete = true };
	if (!damon_settings_match(&kd, &a))
		abort();
	kd.index = (a.kdamond + 1) % DAMON_MAX_KDAMONDS;
	if (damon_settings_match(&kd, &a))
		abort();
	kd.index = a.kdamond;
	if (a.kdamond_pid >= 0) {
		kd.pid = a.kdamond_pid + 1;      /* another thread runs it */
		if (damon_settings_match(&kd, &a))
			abort();
		kd.pid = a.kdamond_pid;
	}
	c.aggr_us ^= 1;
	if (damon_settings_match(&kd, &a))
		abort();
	c.aggr_us ^= 1;
	sc.action[0] = 'p';              /* "ptat": not a stat scheme */
	if (damon_settings_match(&kd, &a))
		abort();
}

/* One process's heat: every pointer inside the snapshot's arrays, the
 * regions ranges, the values in their ranges (never more hot remote than
 * hot, a share past 100, a window of 0). */
static void check_heat(const struct snapshot *s, const struct access_proc *a)
{
	size_t nn = s->topo->nnodes ? s->topo->nnodes : 1;
	if (a < s->acc || a >= s->acc + s->nacc || s->nacc > s->acccap || a->nregions > ACCESS_MAX_REGIONS)
		abort();
	const int64_t *arrs[3] = { a->hot_node_kb, a->warm_node_kb, a->cold_node_kb };
	for (int k = 0; k < 3; k++)
		if (!arrs[k] || arrs[k] < s->acc_kb || arrs[k] + nn > s->acc_kb + s->acc_kbcap)
			abort();
	if (a->nregions && (a->regions < s->acc_reg || a->regions + a->nregions > s->acc_reg + s->acc_regcap))
		abort();
	for (size_t i = 0; i < a->nregions; i++) {
		const struct access_region *r = &a->regions[i];
		if (r->start >= r->end || r->kb_off + nn > s->acc_kbcap || (int)r->heat < 0 ||
		    r->heat > ACCESS_COLD || r->nr_accesses < -1 || r->max_accesses == 0 ||
		    r->max_accesses < -1 || r->resident_kb < -1)
			abort();
	}
	/* The ranges the sample's checks keep (snapshot_json_check.c). */
	if (a->hot_kb < -1 || a->warm_kb < -1 || a->cold_kb < -1 || a->hot_remote_kb < -1 ||
	    (a->hot_remote_kb >= 0 && a->hot_kb >= 0 && a->hot_remote_kb > a->hot_kb) ||
	    (a->hot_remote_pct != -1 && (a->hot_remote_pct < 0 || a->hot_remote_pct > 100)) ||
	    (a->window_s != -1 && a->window_s <= 0) || (a->age_s != -1 && a->age_s < 0))
		abort();
}

/* The access objects of a snapshot as text (its status, each process's). */
static char *access_text(const struct snapshot *s)
{
	json_object *a = json_object_new_array();
	json_object_array_add(a, access_json_status(s));
	for (size_t i = 0; i < s->nprocs; i++)
		json_object_array_add(a, access_json_proc(s, &s->procs[i]));
	char *t = strdup(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN));
	json_object_put(a);
	return t;
}

/* A recording's header line and one sample line with access heat: read
 * into the model (the heat inside its arrays), written as --json writes
 * it and read again, it has the same access objects. */
void t_access_json(const char *s, size_t size)
{
	struct topology t;
	const char *body;
	size_t blen;
	char err[256];
	if (fuzz_recording_header(s, size, &t, &body, &blen) != 0)
		return;
	struct snapshot a, b;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if (snapshot_json_snapshot(body, blen, &t, &a, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < a.nprocs; i++)
			if (a.procs[i].acc)
				check_heat(&a, a.procs[i].acc);
		char *line = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&line, &len);
		struct output_opts oo = { .root_label = "fuzz" };
		if (!f || output_json_write(f, &a, &oo) != 0 || fclose(f) != 0)
			abort();
		if (snapshot_json_snapshot(line, len, &t, &b, err, sizeof(err)) != 0)
			abort();           /* what the program wrote, it reads */
		char *ta = access_text(&a), *tb = access_text(&b);
		if (!ta || !tb || strcmp(ta, tb) != 0)
			abort();
		free(ta);
		free(tb);
		free(line);
	}
	snapshot_free(&a);
	snapshot_free(&b);
	topology_free(&t);
}
