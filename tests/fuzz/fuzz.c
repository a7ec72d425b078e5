/* fuzz.c - fuzz targets for every parser, with invariant checks.
 *
 * Built two ways:
 *  - by `make fuzz`: clang -fsanitize=fuzzer -DFUZZ_TARGET=<name>, one
 *    libFuzzer binary per target, run FUZZ_SECONDS on a copy of
 *    tests/fuzz/corpus/<name>;
 * The targets of DAMON's parsers and of the access heat's JSON are
 * fuzz_damon.c's (fuzz.h).
 *  - by `make test` (build/tests/fuzz_replay): every target over its seed
 *    corpus and over tests/fuzz/regressions/<name>-* (inputs that once
 *    crashed), so a fixed crash stays fixed under any compiler, ASan too.
 * A broken invariant calls abort(). */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <json.h>
#include <zstd.h>

#include "bitmap.h"
#include "cgroup.h"
#include "columns.h"
#include "fsroot.h"
#include "fuzz.h"
#include "measure.h"
#include "action_migrate.h"
#include "numa_maps.h"
#include "parse.h"
#include "placement.h"
#include "output.h"
#include "record.h"
#include "replay.h"
#include "sanitize.h"
#include "snapshot_json.h"
#include "topology.h"

static const int ids[] = { 0, 1, -1, 2 };
static const struct nm_params params = { 4, 2048, ids, 4, 3, false };

static void check_sum(const struct nm_summary *s)
{
	int64_t t = 0;
	for (size_t i = 0; i < s->nnodes; i++)
		t += s->node_kb[i];
	/* Per-node kB add up to the total; pages on unknown nodes are apart
	 * (never negative, and then a first such id is known). */
	if (t != s->total_kb || s->other_kb < 0 || (s->other_kb > 0 && s->other_id < 0) ||
	    strlen(s->policy) >= sizeof(s->policy))
		abort();
}

static void t_numa_maps(const char *s, size_t size)
{
	struct nm_mapping m;
	struct nm_summary sum;
	nm_mapping_init(&m);
	if (nm_summary_init(&sum, 3) == 0) {
		if (numa_maps_summarize(s, size, &params, &m, &sum) == 0)
			check_sum(&sum);
		nm_summary_free(&sum);
	}
	nm_mapping_free(&m);
}

/* One line with its path decoded (the detail screen and migrate read
 * paths; the summary skips them). */
static void t_numa_maps_line(const char *s, size_t size)
{
	struct nm_mapping m;
	nm_mapping_init(&m);
	m.skip_path = false;
	if (numa_maps_parse_line(s, size, &m) == 0) {
		if (strnlen(m.file, sizeof(m.file)) >= sizeof(m.file) ||
		    m.policy_len >= sizeof(m.policy) || m.policy[m.policy_len] != '\0' ||
		    m.nnodes > m.cap)
			abort();
		for (size_t i = 0; i < m.nnodes; i++)
			if (m.nodes[i].node < 0 || m.nodes[i].pages > NM_MAX_PAGES)
				abort();
	}
	nm_mapping_free(&m);
}

/* The chunked reader must agree with the whole-buffer parser however the
 * file is cut into reads: the first byte picks the chunk sizes. */
static void t_numa_maps_chunks(const char *s, size_t size)
{
	if (size < 1)
		return;
	unsigned seed = (unsigned char)s[0];
	s++, size--;
	struct nm_mapping m;
	struct nm_summary whole, parts;
	nm_mapping_init(&m);
	if (nm_summary_init(&whole, 3) || nm_summary_init(&parts, 3))
		abort();
	int rw = numa_maps_summarize(s, size, &params, &m, &whole);
	numa_maps_begin(&parts);
	char *buf = malloc(size + 1);
	size_t have = 0, off = 0;
	int rp = 0;
	while (buf && rp == 0 && off < size) {
		seed = seed * 1103515245u + 12345u;
		size_t n = 1 + (seed >> 16) % 97;
		if (n > size - off)
			n = size - off;
		memcpy(buf + have, s + off, n);
		have += n, off += n;
		size_t used = 0;
		rp = numa_maps_feed(buf, have, &params, &m, &parts, &used);
		if (used > have)
			abort();
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	if (rp == 0)
		rp = numa_maps_end(&parts, have);
	if (buf && rp == 0 && rw == 0) {
		check_sum(&parts);
		if (parts.total_kb != whole.total_kb || parts.nmappings != whole.nmappings ||
		    parts.nbad != whole.nbad || strcmp(parts.policy, whole.policy) != 0)
			abort();
		for (size_t i = 0; i < 3; i++)
			if (parts.node_kb[i] != whole.node_kb[i] || parts.anon_kb[i] != whole.anon_kb[i])
				abort();
	} else if (buf && rp != rw) {
		abort();
	}
	free(buf);
	nm_summary_free(&whole);
	nm_summary_free(&parts);
	nm_mapping_free(&m);
}

/* Everything a summary holds is the same whether each line is parsed by
 * the fast path (the kernel's shape, runs of alike lines) or by
 * numa_maps_parse_line alone: the fast path decides nothing itself. */
static bool same_summary(const struct nm_summary *a, const struct nm_summary *b)
{
	size_t n = a->nnodes * NM_KB_ARRAYS * sizeof(int64_t);
	if (a->nnodes != b->nnodes || memcmp(a->node_kb, b->node_kb, n) != 0 ||
	    strcmp(a->pol_top, b->pol_top) != 0 || a->pol_top_mode != b->pol_top_mode ||
	    a->pol_top_kb != b->pol_top_kb || a->npols != b->npols ||
	    a->total_kb != b->total_kb || a->other_kb != b->other_kb ||
	    a->other_id != b->other_id || a->unknown_size_pages != b->unknown_size_pages ||
	    a->nmappings != b->nmappings || a->nbad != b->nbad ||
	    a->npolicies != b->npolicies || strcmp(a->policy, b->policy) != 0)
		return false;
	for (size_t i = 0; i < a->npols; i++)
		if (strcmp(a->pols[i].text, b->pols[i].text) != 0 ||
		    a->pols[i].mode != b->pols[i].mode || a->pols[i].kb != b->pols[i].kb)
			return false;
	return true;
}

static void t_numa_maps_fast(const char *s, size_t size)
{
	struct nm_params ref = params;
	ref.reference = true;
	struct nm_mapping m;
	struct nm_summary fast, slow;
	nm_mapping_init(&m);
	if (nm_summary_init(&fast, 3) || nm_summary_init(&slow, 3))
		abort();
	int rf = numa_maps_summarize(s, size, &params, &m, &fast);
	int rs = numa_maps_summarize(s, size, &ref, &m, &slow);
	if (rf != rs || (rf == 0 && !same_summary(&fast, &slow)))
		abort();
	nm_summary_free(&fast);
	nm_summary_free(&slow);
	nm_mapping_free(&m);
}

static void t_mask(const char *s, size_t size, int list)
{
	struct bitmap b;
	bitmap_init(&b);
	int rc = list ? bitmap_parse_list(&b, s, size) : bitmap_parse_mask(&b, s, size);
	if (rc == 0) {
		char out[256];
		size_t need = bitmap_format_list(&b, out, sizeof(out));
		if (need < sizeof(out)) {
			/* Round trip: the formatted list parses to the same set. */
			struct bitmap c;
			bitmap_init(&c);
			if (bitmap_parse_list(&c, out, strlen(out)) != 0 || !bitmap_equal(&b, &c))
				abort();
			bitmap_free(&c);
		}
	}
	bitmap_free(&b);
}

static void t_cpulist(const char *s, size_t size) { t_mask(s, size, 1); }
static void t_cpumap(const char *s, size_t size) { t_mask(s, size, 0); }

static void t_distance(const char *s, size_t size)
{
	int v[64];
	size_t n = 0;
	if (parse_distance(s, size, v, 64, &n) == 0 && n > 64)
		abort();
}

/* memory.numa_stat: values are kB >= 0 or -1; ids past max_id only in
 * other_kb; the version says which format. */
static void t_cgroup_numa_stat(const char *s, size_t size)
{
	int64_t node[4], anon[4], file[4];
	struct cgroup_numa_stat ns = { .node_kb = node, .anon_kb = anon, .file_kb = file, .max_id = 3 };
	if (cgroup_parse_numa_stat(s, size, 4, &ns) != 0)
		return;
	if (ns.version != 1 && ns.version != 2)
		abort();
	for (int i = 0; i < 4; i++)
		if (node[i] < -1 || anon[i] < -1 || file[i] < -1)
			abort();
	if (ns.other_kb < 0 || (ns.other_kb > 0 && ns.other_id <= 3))
		abort();
}

/* /proc/PID/sched: faults are sums of non-negative counts or unknown. */
static void t_pid_sched(const char *s, size_t size)
{
	struct pid_sched ps;
	int64_t f[4];
	if (parse_pid_sched(s, size, &ps, f, 4) != 0)
		return;
	for (int i = 0; i < 4; i++)
		if (f[i] < -1)
			abort();
	struct numa_vmstat v;
	if (parse_numa_vmstat(s, size, &v) == 0)
		for (int k = 0; k < NVM_NKEYS; k++)
			if (v.v[k] < -1)
				abort();
}

/* /proc/zoneinfo: watermarks are pages >= 0 or unknown. */
static void t_zoneinfo(const char *s, size_t size)
{
	int64_t low[8];
	if (parse_zoneinfo_low(s, size, low, 8) != 0)
		return;
	for (int i = 0; i < 8; i++)
		if (low[i] < -1)
			abort();
}

int fuzz_recording_header(const char *s, size_t size, struct topology *t,
			  const char **body, size_t *blen)
{
	const char *nl = memchr(s, '\n', size);
	if (!nl)
		return -1;
	char *hdr = strndup(s, (size_t)(nl - s));
	char err[256];
	int rc = hdr && snapshot_json_topology(hdr, t, err, sizeof(err)) == 0 ? 0 : -1;
	free(hdr);
	*body = nl + 1;
	*blen = size - (size_t)(nl + 1 - s);
	return rc;
}

/* A recording's header line and one sample line (the text zstdcat
 * prints) rebuilt into the model, sorted and printed as text: the
 * snapshot's arrays agree with its topology. */
static void t_snapshot_json(const char *s, size_t size)
{
	struct topology t;
	const char *body;
	size_t blen;
	char err[256];
	if (fuzz_recording_header(s, size, &t, &body, &blen) != 0)
		return;
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	if (snapshot_json_snapshot(body, blen, &t, &snap, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < snap.nprocs; i++)
			if (snap.procs[i].home >= (int)t.nnodes || (snap.procs[i].why_idx >= 0 &&
			    (size_t)snap.procs[i].why_idx >= snap.nwhy))
				abort();
		struct sort_key key = { COL_REMOTE, -1, true, NULL, false };
		snapshot_sort(&snap, &key);
		FILE *f = fopen("/dev/null", "w");
		struct output_opts oo = { .root_label = "fuzz", .cgroups = true };
		if (f) {
			output_text_write(f, &snap, &oo);
			fclose(f);
		}
	}
	snapshot_free(&snap);
	topology_free(&t);
}

/* A recording file (zstd frames): indexed and read to the end and back;
 * every sample handed out is a whole sample line. */
static void t_recording(const char *s, size_t size)
{
	int fd = memfd_create("fuzz-rec", 0);
	if (fd < 0)
		return;
	if (write(fd, s, size) != (ssize_t)size) {
		close(fd);
		return;
	}
	char path[64], err[512];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct rec_reader *r;
	if (rec_reader_open(&r, path, err, sizeof(err)) == 0) {
		struct rec_sample smp;
		int n = 0;
		for (int rc = rec_reader_first(r, &smp); rc == 0 && n < 1000; rc = rec_reader_next(r, &smp), n++)
			if (smp.len < 14 || memcmp(smp.line, "{\"timestamp\":\"", 14) != 0 || !smp.header)
				abort();
		for (int rc = rec_reader_last(r, &smp); rc == 0 && n > 0; rc = rec_reader_prev(r, &smp), n--)
			if (smp.len < 14 || memcmp(smp.line, "{\"timestamp\":\"", 14) != 0)
				abort();
		rec_reader_seek(r, 1796342400, &smp);
		rec_reader_close(r);
	}
	close(fd);
}

/* Text for a terminal: no control character but the line ends. */
static void check_term(const char *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)t[i] < 0x20 && t[i] != '\n') || t[i] == 0x7f)
			abort();
}

/* What the monitor and the text output show of a replayed sample: the
 * text writer's output, every cell of the monitor's table, the node
 * panels' sparklines. */
static void replay_show(const struct snapshot *snap, const struct history *h)
{
	char *text = NULL;
	size_t tl = 0;
	FILE *f = open_memstream(&text, &tl);
	struct output_opts oo = { .root_label = "fuzz", .cgroups = true };
	if (f) {
		output_text_write(f, snap, &oo);
		fclose(f);
		check_term(text, tl);
	}
	free(text);
	struct col_list l = { 0 };
	struct col_ctx c = { snap->topo, true, 0, true, &snap->nk.tiers, snap };
	if (col_list_default(&l, true, true) == 0 && col_list_set_tiers(&l, &snap->nk.tiers) == 0)
		for (size_t i = 0; i < snap->nprocs; i++)
			for (size_t k = 0; k < l.n; k++)
				for (size_t j = 0; j < (col_get(l.v[k].col)->per_node ? snap->topo->nnodes : 1); j++) {
					char cell[1024];
					int node = col_get(l.v[k].col)->per_node ? (int)j : l.v[k].node;
					col_cell(&c, l.v[k].col, node, &snap->procs[i], cell, sizeof(cell));
					check_term(cell, strlen(cell));
				}
	col_list_free(&l);
	for (size_t i = 0; i < h->nnodes; i++)
		for (int k = 0; k < HIST_NODE_KEYS; k++) {
			const struct hist_ring *r = history_node(h, i, (enum hist_node_key)k);
			char spark[4 * 64 + 1];
			if (!r || r->n > r->cap || hist_spark(r, 64, k == 1, 0, 0, spark, sizeof(spark)) > 64)
				abort();
		}
}

/* The whole replay: NDJSON (a header line, samples; each header starts
 * a zstd frame, as the recorder writes them) -> the reader -> each sample
 * into the model -> the history -> the text the monitor and -b show, and
 * the line --json prints; moved through as the monitor moves, with and
 * without a filter. A move that fails leaves the model as it was. */
static void t_replay(const char *s, size_t size)
{
	int fd = memfd_create("fuzz-replay", 0);
	if (fd < 0)
		return;
	size_t cap = ZSTD_compressBound(size) + 64;
	char *z = malloc(cap);
	for (size_t a = 0; z && a < size;) {
		size_t b = a;
		do {
			const char *nl = memchr(s + b, '\n', size - b);
			b = nl ? (size_t)(nl - s) + 1 : size;
		} while (b < size && (size - b < 24 || memcmp(s + b, "{\"numatop_tui_recording\":", 24) != 0));
		size_t zl = ZSTD_compress(z, cap, s + a, b - a, 1);
		if (ZSTD_isError(zl) || write(fd, z, zl) != (ssize_t)zl)
			break;
		a = b;
	}
	free(z);
	char path[64], err[512];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct replay *rp;
	if (replay_open(&rp, path, err, sizeof(err)) != 0) {
		close(fd);
		return;
	}
	struct session se;
	struct snapshot snap;
	struct history h;
	memset(&se, 0, sizeof(se));
	memset(&snap, 0, sizeof(snap));
	memset(&h, 0, sizeof(h));
	static const int pid1000[] = { 1000 };
	const struct sampler_filter filters[2] = { { NULL, 0, NULL, false }, { pid1000, 1, "root", true } };
	static const enum replay_to moves[] = { REPLAY_FIRST, REPLAY_NEXT, REPLAY_NEXT, REPLAY_NEXT,
						REPLAY_PREV, REPLAY_LAST, REPLAY_NEXT, REPLAY_AT, REPLAY_SAME,
						REPLAY_PREV, REPLAY_PREV };
	bool ok = false;
	for (size_t m = 0; m < 2 * sizeof(moves) / sizeof(moves[0]); m++) {
		const struct sampler_filter *fl = &filters[m / (sizeof(moves) / sizeof(moves[0]))];
		replay_set_filter(rp, fl);
		const struct snap_proc *procs = snap.procs;
		size_t nprocs = snap.nprocs, nnodes = se.topo.nnodes;
		bool new_topo;
		enum replay_to to = moves[m % (sizeof(moves) / sizeof(moves[0]))];
		int rc = replay_move(rp, to, replay_start(rp) + 1, &se, &snap, &new_topo, err, sizeof(err));
		if (rc) {
			if (snap.procs != procs || snap.nprocs != nprocs || se.topo.nnodes != nnodes ||
			    (ok && snap.topo != &se.topo))
				abort();    /* a failed move changed the model */
			continue;
		}
		ok = true;
		if (snap.topo != &se.topo || !se.topo.nnodes || !snap.nodes)
			abort();
		for (size_t i = 0; i < snap.nprocs; i++) {
			const struct snap_proc *p = &snap.procs[i];
			bool kt;
			if (p->home >= (int)se.topo.nnodes || (p->why_idx >= 0 && (size_t)p->why_idx >= snap.nwhy) ||
			    p->info.pid <= 0 || !sampler_filter_keeps(fl, &p->info, &kt) ||
			    p->info.rss_kb > (1LL << 50) || p->total_kb > (1LL << 50))
				abort();
			for (size_t j = 0; j < se.topo.nnodes; j++)
				if (p->node_kb[j] > (1LL << 50))
					abort();   /* never an absurd number shown */
		}
		for (size_t j = 0; j < se.topo.nnodes; j++)
			if (snap.nodes[j].mem.mem_free_kb > (1LL << 50))
				abort();
		if ((new_topo || to != REPLAY_NEXT) && replay_history(rp, &se, &h, 4) != 0)
			continue;
		int pids[8];
		size_t np = 0;
		for (; np < snap.nprocs && np < 8; np++)
			pids[np] = snap.procs[np].info.pid;
		history_add(&h, &snap, pids, np);
		struct sort_key key = { COL_REMOTE, -1, true, NULL, false };
		snapshot_sort(&snap, &key);
		replay_show(&snap, &h);
		char *line;
		size_t len;
		if (replay_json_line(rp, &line, &len) == 0) {
			/* Valid JSON, UTF-8 throughout, no raw control character
			 * (DEL is JSON's: --json live leaves it too). */
			json_tokener *tok = json_tokener_new();
			json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
			json_object *o = json_tokener_parse_ex(tok, line, (int)len);
			if (!o || json_tokener_get_parse_end(tok) != len || memchr(line, '\n', len))
				abort();
			for (size_t i = 0; i < len; i++)
				if ((unsigned char)line[i] < 0x20)
					abort();
			json_object_put(o);
			json_tokener_free(tok);
			free(line);
		}
	}
	history_free(&h);
	snapshot_free(&snap);
	replay_close(rp, &se);
	close(fd);
}

/* /proc/PID/cgroup: paths NUL-terminated inside their arrays, absolute. */
static void t_cgroup_proc(const char *s, size_t size)
{
	struct cgroup_proc_paths p;
	int rc = cgroup_parse_proc(s, size, &p);
	if (rc != 0 && rc != -ENAMETOOLONG)
		return;
	if (strnlen(p.v2, sizeof(p.v2)) >= sizeof(p.v2) ||
	    strnlen(p.memory, sizeof(p.memory)) >= sizeof(p.memory))
		abort();
	if ((p.have_v2 && p.v2[0] != '/') || (p.have_memory && p.memory[0] != '/'))
		abort();
	char shortn[64];
	cgroup_short_name(p.have_v2 ? p.v2 : p.memory, shortn, sizeof(shortn));
	if (strnlen(shortn, sizeof(shortn)) >= sizeof(shortn))
		abort();
}

static void t_meminfo(const char *s, size_t size)
{
	struct mem_info mi;
	parse_meminfo(s, size, &mi);
}

static void t_numastat(const char *s, size_t size)
{
	struct numastat ns;
	parse_numastat(s, size, &ns);
}

static int count_cpu(int cpu, const struct cpu_ticks *t, void *ctx)
{
	(void)cpu;
	*(int *)ctx += t->nfields;
	return 0;
}

static void t_proc_stat(const char *s, size_t size)
{
	int total = 0;
	parse_proc_stat(s, size, count_cpu, &total);
}

static void t_pid_stat(const char *s, size_t size)
{
	struct pid_stat st;
	if (parse_pid_stat(s, size, &st) == 0 && strlen(st.comm) >= sizeof(st.comm))
		abort();
}

static void t_pid_status(const char *s, size_t size)
{
	struct pid_status ps;
	parse_pid_status(s, size, &ps);
}

static void t_vmstat(const char *s, size_t size)
{
	struct vmstat_migrate v;
	parse_vmstat_migrate(s, size, &v);
}

/* /proc/PID/maps lines, as the sampled placement and migrate read them. */
static void t_maps(const char *s, size_t size)
{
	const char *e = s + size;
	while (s < e) {
		const char *nl = memchr(s, '\n', (size_t)(e - s));
		size_t len = (size_t)((nl ? nl : e) - s);
		struct placement_vma v;
		uint64_t a, b;
		if (placement_parse_line(s, len, &v) == 1 && v.start >= v.end)
			abort();
		if (maps_parse_range(s, len, &a, &b) == 0 && placement_parse_line(s, len, &v) == 1 &&
		    (v.start != a || v.end != b))
			abort();
		s += len + (nl != NULL);
	}
}

/* The measurement cache file: anyone can edit it, the monitor loads it
 * at start. Checked against the 4-node synthetic tree's topology. */
static void t_measure_file(const char *s, size_t size)
{
	static struct topology t;
	static int ready;
	if (!ready) {
		struct fsroot *r;
		if (fsroot_open("tests/trees/opteron4", &r) != 0 || topology_read(r, &t) != 0) {
			fprintf(stderr, "fuzz: run from the source tree (tests/trees/opteron4)\n");
			abort();
		}
		fsroot_close(r);
		ready = 1;
	}
	struct measure_result res;
	if (measure_parse(s, size, &t, &res) == 0) {
		if (res.n != t.nnodes)
			abort();
		for (size_t i = 0; i < res.n * res.n; i++) {
			const struct measure_cell *c = &res.cell[i];
			if (!isfinite(c->lat_ns) || c->lat_ns > 1e7 || (c->lat_ns <= 0 && c->lat_ns != -1) ||
			    !isfinite(c->bw1_gbs) || c->bw1_gbs > 1e5 || !isfinite(c->bwall_gbs) ||
			    c->on_node_pct > 100 || (c->on_node_pct < 0 && c->on_node_pct != -1))
				abort();
		}
		measure_free(&res);
	}
}

static void t_sanitize(const char *s, size_t size)
{
	char *in = malloc(size + 1), out[128];
	if (!in)
		return;
	memcpy(in, s, size);
	in[size] = '\0';
	sanitize_term(in, out, sizeof(out));
	for (const unsigned char *q = (const unsigned char *)out; *q; q++)
		if (*q < 0x20 || *q == 0x7f)
			abort();   /* no control character may get through */
	sanitize_utf8(in, out, sizeof(out));
	free(in);
}

struct fuzz_target {
	const char *name;
	void (*fn)(const char *s, size_t size);
};

#ifdef FUZZ_TARGET
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes: reading past it is an ASan error. */
	char *s = malloc(size ? size : 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	CAT(t_, FUZZ_TARGET)(s, size);
	free(s);
	return 0;
}
#else
static const struct fuzz_target targets[] = {
	{ "numa_maps", t_numa_maps }, { "numa_maps_line", t_numa_maps_line },
	{ "numa_maps_chunks", t_numa_maps_chunks }, { "numa_maps_fast", t_numa_maps_fast },
	{ "cpulist", t_cpulist },
	{ "cpumap", t_cpumap }, { "distance", t_distance }, { "meminfo", t_meminfo },
	{ "numastat", t_numastat }, { "proc_stat", t_proc_stat }, { "pid_stat", t_pid_stat },
	{ "pid_status", t_pid_status }, { "vmstat", t_vmstat }, { "maps", t_maps },
	{ "measure_file", t_measure_file }, { "sanitize", t_sanitize },
	{ "cgroup_numa_stat", t_cgroup_numa_stat }, { "cgroup_proc", t_cgroup_proc },
	{ "pid_sched", t_pid_sched }, { "zoneinfo", t_zoneinfo },
	{ "snapshot_json", t_snapshot_json }, { "recording", t_recording }, { "replay", t_replay },
	{ "damon_region", t_damon_region }, { "damon_numbers", t_damon_numbers },
	{ "damon_record", t_damon_record },
	{ "damon_scalar", t_damon_scalar }, { "access_json", t_access_json },
	{ "fleet_answer", t_fleet_answer },
};

static char current[512];

static void on_crash(int sig)
{
	char line[640];
	int n = snprintf(line, sizeof(line), "FAIL fuzz_replay %s (signal %d)\n", current, sig);
	if (write(1, line, (size_t)n) < 0)
		_exit(1);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Run fn over every file in dir whose name starts with prefix. */
static int replay_dir(const struct fuzz_target *t, const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, strlen(prefix)) != 0)
			continue;
		snprintf(current, sizeof(current), "%s: %s/%s", t->name, dir, e->d_name);
		FILE *f = fopen(current + strlen(t->name) + 2, "rb");
		if (!f) {
			closedir(d);
			return -1;
		}
		/* The whole file, in a buffer of exactly its size (as libFuzzer
		 * gives it: a read past the end is an ASan error). */
		fseek(f, 0, SEEK_END);
		long len = ftell(f);
		rewind(f);
		char *s = malloc(len > 0 ? (size_t)len : 1);
		if (!s || len < 0 || fread(s, 1, (size_t)len, f) != (size_t)len)
			abort();
		fclose(f);
		t->fn(s, (size_t)len);
		free(s);
		n++;
	}
	closedir(d);
	return n;
}

int main(void)
{
	signal(SIGABRT, on_crash);
	signal(SIGSEGV, on_crash);
	int fails = 0;
	size_t nt = sizeof(targets) / sizeof(targets[0]);
	for (size_t i = 0; i < nt; i++) {
		char dir[256], prefix[128];
		snprintf(dir, sizeof(dir), "tests/fuzz/corpus/%s", targets[i].name);
		int seeds = replay_dir(&targets[i], dir, "");
		snprintf(prefix, sizeof(prefix), "%s-", targets[i].name);
		int regs = replay_dir(&targets[i], "tests/fuzz/regressions", prefix);
		if (seeds <= 0 || regs < 0) {
			printf("FAIL fuzz_replay_%s: no seed corpus in %s, or no tests/fuzz/regressions\n",
			       targets[i].name, dir);
			fails++;
		} else {
			printf("PASS fuzz_replay_%s (%d seeds, %d regressions)\n", targets[i].name,
			       seeds, regs < 0 ? 0 : regs);
		}
	}
	return fails ? 1 : 0;
}
#endif
