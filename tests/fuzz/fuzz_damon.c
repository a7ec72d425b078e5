/* fuzz_damon.c - fuzz targets of DAMON's parsers (damon_parse.c) and of
 * the access heat's JSON reader (access_json.c, through a recorded
 * sample), with their invariants; built with fuzz.c (see there). A broken
 * invariant calls abort(). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
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
 * region is a range, its counts are unknown (-1) or real (nr_accesses and
 * age within the kernel's unsigned int), the bytes that
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
			    x.nr_accesses > (int64_t)DAMON_ANY_U32 || x.age > (int64_t)DAMON_ANY_U32 ||
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

/* What a count's file says, read independently of damon_parse.c: blanks
 * (and NULs) around, then decimal digits only, the number at most max;
 * anything else unknown (-1). */
static int64_t ref_count(const char *s, size_t n, uint64_t max)
{
	size_t a = 0, b = n;
	while (a < b && strchr(" \t\n\r", s[a]))      /* strchr finds the NUL too */
		a++;
	while (b > a && strchr(" \t\n\r", s[b - 1]))
		b--;
	if (a == b)
		return -1;
	uint64_t v = 0;
	for (size_t i = a; i < b; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	return (int64_t)v;
}

/* The bytes as each numeric file of a region in turn (nr_accesses, age,
 * sz_filter_passed), the others valid: the region parses (its range is
 * one), the field is what ref_count reads (nr_accesses and age bound to
 * the kernel's unsigned int, DAMON_ANY_U32; the bytes that passed to the
 * region's size), so never negative but the unknown -1 and never past
 * its bound; the other fields are untouched. Its heat: hot exactly when
 * nr_accesses > 0, never cold with an unknown count or age; joined, the
 * region is listed with the same count and its age in seconds (-1
 * unknown). */
void t_damon_numbers(const char *s, size_t size)
{
	static const uint64_t size_b = 4096;
	for (int f = DAMON_RF_NR_ACCESSES; f <= DAMON_RF_SZ_FILTER_PASSED; f++) {
		struct damon_region_text t = { { "4096\n", "8192\n", "3\n", "7\n", "1024\n" },
					       { 5, 5, 2, 2, 5 } };
		t.f[f] = s;
		t.len[f] = size;
		struct damon_region r;
		if (damon_parse_region(&t, &r) != 0 || r.start != 4096 || r.end != 8192)
			abort();
		int64_t want = ref_count(s, size, f == DAMON_RF_SZ_FILTER_PASSED ?
							  (uint64_t)INT64_MAX : DAMON_ANY_U32);
		if (f == DAMON_RF_SZ_FILTER_PASSED && want > (int64_t)size_b)
			want = -1;
		int64_t got[3] = { r.nr_accesses, r.age, r.sz_filter_passed };
		int64_t other[3] = { 3, 7, 1024 };
		for (int k = 0; k < 3; k++) {
			int64_t w = k == f - DAMON_RF_NR_ACCESSES ? want : other[k];
			if (got[k] != w)
				abort();
		}
		if (r.nr_accesses < -1 || r.nr_accesses > (int64_t)DAMON_ANY_U32 ||
		    r.age < -1 || r.age > (int64_t)DAMON_ANY_U32)
			abort();
		/* As the sampler hands DAMON's region to the heat (access.h). */
		struct access_range ar = { r.start, r.end, r.nr_accesses, r.age };
		enum access_heat h = access_region_heat(&ar, 1.0);
		if ((h == ACCESS_HOT) != (r.nr_accesses > 0) ||
		    (h == ACCESS_COLD && (r.nr_accesses < 0 || r.age < 0)))
			abort();
		int64_t kb[3], reg_kb[1], res = 4, total = 8;
		struct access_region reg[1];
		struct access_proc a = { .hot_node_kb = kb, .warm_node_kb = kb + 1,
					 .cold_node_kb = kb + 2 };
		struct access_join_in in = { .nnodes = 1, .r = &ar, .n = 1, .aggr_s = 1.0,
					     .sample_s = 0.05, .reg_node_kb = &res,
					     .node_kb = &total, .home = 0 };
		size_t nreg = 0;
		access_join(&in, &a, reg, 1, &nreg, reg_kb);
		if (nreg != (h == ACCESS_COLD ? 0u : 1u))
			abort();
		if (nreg && (reg[0].nr_accesses != r.nr_accesses || reg[0].heat != h ||
			     (r.age < 0 ? reg[0].age_s != -1 : reg[0].age_s != (double)r.age)))
			abort();
		if (a.hot_kb != (h == ACCESS_HOT ? 4 : 0) || a.warm_kb != (h == ACCESS_WARM ? 4 : 0))
			abort();
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
