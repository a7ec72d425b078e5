/* snapshot_json.c - a recording back into the model: the topology from its
 * header line, a snapshot from a sample line (what --json printed), so
 * that the text output and the monitor show a recorded sample as they
 * showed it live. What JSON does not carry stays unknown. */
#include "snapshot_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json.h>

#include "buf.h"
#include "hmat.h"
#include "measure_io.h"
#include "snapshot_tiers.h"
#include "node_fields.h"
#include "numa_maps.h"
#include "topology.h"
#include "sanitize.h"
#include "snapshot_json_int.h"
#include "snapshot_tiers.h"
#include "access_json.h"
#include "jsonget.h"
#include "fields_cgroup.h"
#include "fields_proc.h"

/* Text from the file, shown as it is on a terminal: escaped for it
 * (sanitize_term), cut to n bytes. */
static char *dup_clip(const char *s, char *out, size_t n)
{
	sanitize_term(s ? s : "", out, n);
	return out;
}

/* The same, whole (a warning line). */
static char *term_dup(const char *s)
{
	s = s ? s : "";
	size_t n = 4 * strlen(s) + 1;
	char *out = malloc(n);
	if (out)
		sanitize_term(s, out, n);
	return out;
}

/* --- the topology ------------------------------------------------------ */

/* cpu id -> node index, from each CPU's recorded node. */
static int cpu_index(struct topology *t)
{
	int maxcpu = -1;
	for (size_t i = 0; i < t->ncpus; i++)
		if (t->cpus[i].id > maxcpu)
			maxcpu = t->cpus[i].id;
	t->ncpu_ids = (size_t)maxcpu + 1;
	t->cpu_node = malloc((t->ncpu_ids ? t->ncpu_ids : 1) * sizeof(int));
	if (!t->cpu_node)
		return -ENOMEM;
	for (size_t i = 0; i < t->ncpu_ids; i++)
		t->cpu_node[i] = -1;
	for (size_t i = 0; i < t->ncpus; i++)
		t->cpu_node[t->cpus[i].id] = t->cpus[i].node_index;
	return 0;
}

static int topo_cpus(json_object *a, struct topology *t)
{
	t->ncpus = jget_len(a);
	t->cpus = calloc(t->ncpus ? t->ncpus : 1, sizeof(*t->cpus));
	if (!t->cpus)
		return -ENOMEM;
	for (size_t i = 0; i < t->ncpus; i++) {
		json_object *c = json_object_array_get_idx(a, i);
		struct topo_cpu *tc = &t->cpus[i];
		tc->id = (int)jget_i64(c, "id");
		if (tc->id < 0 || tc->id > (1 << 22) || (i && tc->id <= t->cpus[i - 1].id))
			return -EINVAL;
		json_object *on = jget(c, "online");
		tc->online = on && json_object_is_type(on, json_type_boolean) ? json_object_get_boolean(on) : -1;
		tc->package = (int)jget_i64(c, "package");
		tc->die = (int)jget_i64(c, "die");
		tc->core = (int)jget_i64(c, "core");
		tc->cluster = -1;
		tc->has_topology = tc->package >= 0 || tc->core >= 0;
		int64_t node = jget_i64(c, "node");
		tc->node_index = node >= 0 ? topology_node_index(t, (int)node) : -1;
		bitmap_init(&tc->core_siblings);
		if (jget_ids(jget(c, "thread_siblings"), &tc->thread_siblings))
			return -EINVAL;
		json_object *ca = jget(c, "caches");
		tc->ncaches = jget_len(ca);
		tc->caches = calloc(tc->ncaches ? tc->ncaches : 1, sizeof(*tc->caches));
		if (!tc->caches)
			return -ENOMEM;
		for (size_t k = 0; k < tc->ncaches; k++) {
			json_object *co = json_object_array_get_idx(ca, k);
			struct topo_cache *cc = &tc->caches[k];
			cc->level = (int)jget_i64(co, "level");
			dup_clip(jget_str(co, "type"), cc->type, sizeof(cc->type));
			cc->size_kb = jget_i64(co, "size_kb");
			if (jget_ids(jget(co, "shared_cpus"), &cc->shared))
				return -EINVAL;
		}
	}
	return 0;
}

static int topo_build(json_object *h, struct topology *t)
{
	json_object *to = jget(h, "topology");
	json_object *nodes = jget(to, "nodes");
	if (!to || !jget_len(nodes))
		return -EINVAL;
	json_object *numa = jget(to, "numa");
	t->synthetic = numa && !json_object_get_boolean(numa);
	t->nnodes = jget_len(nodes);
	t->nodes = calloc(t->nnodes, sizeof(*t->nodes));
	t->dist = malloc(t->nnodes * t->nnodes * sizeof(int));
	if (!t->nodes || !t->dist)
		return -ENOMEM;
	for (size_t i = 0; i < t->nnodes; i++) {
		json_object *n = json_object_array_get_idx(nodes, i);
		struct topo_node *tn = &t->nodes[i];
		int64_t id = jget_i64(n, "id");
		if (id < 0 || id > TOPO_MAX_NODE_ID || (i && id <= t->nodes[i - 1].id))
			return -EINVAL;
		tn->id = (int)id;
		if (jget_ids(jget(n, "cpus"), &tn->cpus))
			return -EINVAL;
		tn->mem_total_kb = jget_i64(n, "mem_total_kb");
		json_object *hm = jget(n, "has_memory");
		tn->has_memory = hm ? json_object_get_boolean(hm) : tn->mem_total_kb > 0;
	}
	/* Node ids first (CPUs name their node by id). */
	if (topology_build_index(t) != 0)
		return -ENOMEM;
	json_object *m = jget(jget(to, "distances"), "matrix");
	t->dist_known = jget_len(m) == t->nnodes;
	for (size_t i = 0; i < t->nnodes; i++) {
		json_object *row = t->dist_known ? json_object_array_get_idx(m, i) : NULL;
		for (size_t j = 0; j < t->nnodes; j++) {
			json_object *v = jget_len(row) == t->nnodes ? json_object_array_get_idx(row, j) : NULL;
			t->dist[i * t->nnodes + j] = v && !json_object_is_type(v, json_type_null) ?
						     json_object_get_int(v) : -1;
		}
	}
	int rc = topo_cpus(jget(to, "cpus"), t);
	if (rc || (rc = cpu_index(t)) != 0)
		return rc;
	for (size_t i = 0; i < t->nnodes; i++) {
		unsigned on = 0;
		for (int c = bitmap_next(&t->nodes[i].cpus, 0); c >= 0; c = bitmap_next(&t->nodes[i].cpus, c + 1)) {
			const struct topo_cpu *tc = topology_cpu(t, c);
			on += !tc || tc->online != 0;
		}
		t->nodes[i].ncpus_online = on;
	}
	if (jget_ids(jget(to, "online_nodes"), &t->online_nodes) ||
	    jget_ids(jget(to, "possible_nodes"), &t->possible_nodes))
		return -EINVAL;
	t->default_huge_kb = jget_i64(to, "default_huge_kb");
	json_object *w = jget(to, "warnings");
	t->nwarnings = jget_len(w);
	t->warnings = calloc(t->nwarnings ? t->nwarnings : 1, sizeof(char *));
	if (!t->warnings)
		return -ENOMEM;
	for (size_t i = 0; i < t->nwarnings; i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(w, i));
		if (!(t->warnings[i] = term_dup(s)))
			return -ENOMEM;
	}
	return 0;
}

int snapshot_json_topology(const char *header, struct topology *t, char *err, size_t errsz)
{
	memset(t, 0, sizeof(*t));
	json_object *h = json_tokener_parse(header);
	int rc = h && snapshot_json_check_header(h) == 0 ? topo_build(h, t) : -EINVAL;
	json_object_put(h);
	if (rc) {
		snprintf(err, errsz, "the recording's header has no usable topology (%s)",
			 rc == -ENOMEM ? "out of memory" : "malformed");
		topology_free(t);
	}
	return rc;
}

static int64_t *matrix64(json_object *m, size_t n, size_t *known)
{
	if (jget_len(m) != n)
		return NULL;
	int64_t *v = malloc((n ? n * n : 1) * sizeof(int64_t));
	for (size_t i = 0; v && i < n; i++) {
		json_object *row = json_object_array_get_idx(m, i);
		for (size_t j = 0; j < n; j++) {
			json_object *c = jget_len(row) == n ? json_object_array_get_idx(row, j) : NULL;
			v[i * n + j] = c && !json_object_is_type(c, json_type_null) ? json_object_get_int64(c) : -1;
			*known += v[i * n + j] >= 0;
		}
	}
	return v;
}

void snapshot_json_extras(const char *header, const struct topology *t, struct hmat *h, bool *have_hmat,
		     struct measure_result *m, bool *have_meas)
{
	*have_hmat = *have_meas = false;
	json_object *o = json_tokener_parse(header);
	json_object *hm = jget(o, "hmat");
	if (hm && !json_object_is_type(hm, json_type_null)) {
		memset(h, 0, sizeof(*h));
		h->n = t->nnodes;
		h->access = (int)jget_i64(hm, "access_class");
		h->lat_ns = matrix64(jget(hm, "latency_ns"), t->nnodes, &h->ncells);
		h->bw_mbs = matrix64(jget(hm, "read_bandwidth_mbs"), t->nnodes, &h->ncells);
		if (h->lat_ns && h->bw_mbs)
			*have_hmat = true;
		else
			hmat_free(h);
	}
	json_object *me = jget(o, "measurement");
	if (me && !json_object_is_type(me, json_type_null)) {
		const char *txt = json_object_to_json_string_ext(me, JSON_C_TO_STRING_PLAIN);
		*have_meas = measure_parse(txt, strlen(txt), t, m) == 0;
	}
	json_object_put(o);
}

/* --- a sample ---------------------------------------------------------- */

/* A node's tier facts as recorded: its tier (memory_tier), its CPUs
 * from the topology, its HMAT figures (null before they were written). */
static void tier_node_from(const struct topology *t, size_t i, json_object *no, struct tier_node *n,
			   int tier)
{
	n->id = t->nodes[i].id;
	n->tier = tier >= 0 ? tier : -1;
	n->cpus = !bitmap_empty(&t->nodes[i].cpus);
	json_object *h = jget(no, "hmat");
	int64_t ac = jget_i64(h, "access_class");
	n->access = ac == 0 || ac == 1 ? (int)ac : -1;
	int64_t *f[] = { &n->read_lat_ns, &n->write_lat_ns, &n->read_bw_mbs, &n->write_bw_mbs };
	static const char *const k[] = { "read_latency_ns", "write_latency_ns", "read_bandwidth_mbs",
					 "write_bandwidth_mbs" };
	for (size_t j = 0; j < 4; j++)
		*f[j] = jget_i64(h, k[j]) > 0 ? jget_i64(h, k[j]) : -1;
}

static int nodes_from(struct snapshot *s, json_object *root)
{
	const struct topology *t = s->topo;
	size_t n = t->nnodes;
	s->nodes = calloc(n, sizeof(*s->nodes));
	s->node_load = calloc(n, sizeof(*s->node_load));
	s->node_ticks = calloc(n, sizeof(*s->node_ticks));
	s->ns_rate = calloc(n, sizeof(*s->ns_rate));
	s->low_kb = calloc(n, sizeof(*s->low_kb));
	if (!s->nodes || !s->node_load || !s->node_ticks || !s->ns_rate || !s->low_kb)
		return -ENOMEM;
	json_object *nodes = jget(root, "nodes");
	json_object *bal = jget(root, "numa_balancing");
	if (bal) {
		s->nk.node = calloc(n, sizeof(*s->nk.node));
		s->nk.node_rate = calloc(n, sizeof(*s->nk.node_rate));
		s->nk.tier = calloc(n, sizeof(*s->nk.tier));
		if (!s->nk.node || !s->nk.node_rate || !s->nk.tier || tiers_init(&s->nk.tiers, n) != 0)
			return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		/* Nodes come in the topology's order; else found by id. */
		json_object *no = i < jget_len(nodes) ? json_object_array_get_idx(nodes, i) : NULL;
		if (!no || jget_i64(no, "id") != t->nodes[i].id) {
			no = NULL;
			for (size_t k = 0; k < jget_len(nodes) && !no; k++)
				if (jget_i64(json_object_array_get_idx(nodes, k), "id") == t->nodes[i].id)
					no = json_object_array_get_idx(nodes, k);
		}
		struct node_sample *ns = &s->nodes[i];
		mem_info_init(&ns->mem);
		numastat_init(&ns->ns);
		s->low_kb[i] = -1;
		/* The per-node metrics' table: each row's key, through its setter. */
		for (size_t k = 0; k < node_nfields; k++) {
			const struct node_field *f = &node_fields[k];
			f->set(s, i, f->unit == NF_KB ? (double)jget_i64(no, f->key) : jget_dbl(no, f->key));
		}
		if (ns->mem.mem_total_kb >= 0 && ns->mem.mem_free_kb >= 0)
			ns->mem.mem_used_kb = ns->mem.mem_total_kb - ns->mem.mem_free_kb;
		ns->mem_rc = no ? 0 : -ENOENT;
		json_object *st = jget(no, "numastat"), *rt = jget(no, "numastat_per_s");
		for (int k = 0; k < NUMASTAT_NKEYS; k++) {
			ns->ns.v[k] = jget_i64(st, numastat_names[k]);
			s->ns_rate[i][k] = jget_dbl(rt, numastat_names[k]);
		}
		json_object *hp = jget(no, "hugepages");
		size_t np = jget_len(hp);
		if (np) {
			ns->pools = calloc(np, sizeof(*ns->pools));
			if (!ns->pools)
				return -ENOMEM;
			ns->npools = ns->poolcap = np;
			for (size_t k = 0; k < np; k++) {
				json_object *h = json_object_array_get_idx(hp, k);
				ns->pools[k] = (struct hugepool){ jget_i64(h, "size_kb"), jget_i64(h, "total"), jget_i64(h, "free") };
			}
		}
		if (bal) {
			json_object *r = jget(no, "numa_balancing_per_s");
			for (int k = 0; k < NVM_NKEYS; k++) {
				s->nk.node[i].v[k] = -1;
				s->nk.node_rate[i][k] = jget_dbl(r, nvm_names[k]);
			}
			s->nk.tier[i] = (int)jget_i64(no, "memory_tier");
			tier_node_from(t, i, no, &s->nk.tiers.node[i], s->nk.tier[i]);
		}
	}
	if (bal) {
		s->nk.balancing = (int)jget_i64(bal, "mode");
		json_object *c = jget(bal, "counters"), *r = jget(bal, "per_s");
		for (int k = 0; k < NVM_NKEYS; k++) {
			s->nk.sys.v[k] = jget_i64(c, nvm_names[k]);
			s->nk.sys_rate[k] = jget_dbl(r, nvm_names[k]);
		}
		s->nk.sched_read = (size_t)(jget_i64(bal, "processes_sched_read") > 0 ?
					    jget_i64(bal, "processes_sched_read") : 0);
		json_object *de = jget(bal, "demotion_enabled");
		s->nk.tiers.demotion = de && json_object_is_type(de, json_type_boolean) ?
				       json_object_get_boolean(de) : -1;
		s->nk.tiers.promote_limit_mbps = jget_i64(bal, "promote_rate_limit_mbps");
		if (tiers_build(&s->nk.tiers) != 0)
			return -ENOMEM;
	} else {
		s->nk.balancing = -1;
		for (int k = 0; k < NVM_NKEYS; k++)
			s->nk.sys.v[k] = -1, s->nk.sys_rate[k] = -1;
	}
	return 0;
}

static int cgroups_from(struct snapshot *s, json_object *root)
{
	const struct topology *t = s->topo;
	json_object *cg = jget(root, "cgroups");
	if (!cg)
		return 0;
	s->have_cgroups = true;
	int lay = jget_name(cgroup_layout_names, 4, jget_str(root, "cgroup_layout"));
	s->cgroups.layout = lay >= 0 ? (enum cgroup_layout)lay : CGROUP_NONE;
	s->cg_layout = s->cgroups.layout;
	size_t n = jget_len(cg), nn = t->nnodes;
	s->cgroups.v = calloc(n ? n : 1, sizeof(*s->cgroups.v));
	s->cgroups.kb = malloc((n ? n : 1) * 3 * (nn ? nn : 1) * sizeof(int64_t));
	if (!s->cgroups.v || !s->cgroups.kb)
		return -ENOMEM;
	s->cgroups.cap = n;
	s->cgroups.kbcap = n * 3 * nn;
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(cg, i);
		struct cgroup_info *c = &s->cgroups.v[i];
		s->cgroups.n = i + 1;
		bitmap_init(&c->cpus);
		bitmap_init(&c->mems);
		bitmap_init(&c->run_nodes);
		c->node_kb = s->cgroups.kb + i * 3 * nn;
		c->anon_kb = c->node_kb + nn;
		c->file_kb = c->anon_kb + nn;
		int rc = fields_cgroup_read(s, o, c);
		if (rc)
			return rc;
	}
	return 0;
}

static int build(struct snapshot *s, json_object *root)
{
	const char *ts = jget_str(root, "timestamp");
	struct tm tm = { 0 };
	if (!ts || !strptime(ts, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return -EINVAL;
	s->wall.tv_sec = timegm(&tm);
	s->interval_s = jget_dbl(root, "interval_s");
	s->seq = (unsigned)(jget_i64(root, "sample") > 0 ? jget_i64(root, "sample") : 0);
	s->self_cpu_pct = jget_dbl(root, "tool_cpu_pct");
	json_object *nb = jget(root, "numa_maps_budget");
	json_object *full = jget(nb, "full");
	s->nm_stats.full = full && json_object_get_boolean(full);
	s->nm_stats.budget_ms = jget_dbl(nb, "budget_ms");
	s->nm_stats.read = (size_t)(jget_i64(nb, "read") > 0 ? jget_i64(nb, "read") : 0);
	s->nm_stats.sampled = (size_t)(jget_i64(nb, "sampled") > 0 ? jget_i64(nb, "sampled") : 0);
	s->nm_stats.kept = (size_t)(jget_i64(nb, "kept") > 0 ? jget_i64(nb, "kept") : 0);
	s->nm_stats.skipped = (size_t)(jget_i64(nb, "over_budget") > 0 ? jget_i64(nb, "over_budget") : 0);
	s->nm_stats.spent_ms = jget_dbl(nb, "spent_ms");
	int64_t kh = jget_i64(root, "kernel_threads_hidden");
	s->kthreads_hidden = kh > 0 ? (size_t)kh : 0;
	/* The recorded warnings, without the topology's own (the header's). */
	json_object *w = jget(root, "warnings");
	for (size_t i = 0; i < jget_len(w); i++) {
		const char *raw = json_object_get_string(json_object_array_get_idx(w, i));
		char *line = raw ? term_dup(raw) : NULL;
		if (raw && !line)
			return -ENOMEM;
		bool topo = false;
		for (size_t k = 0; line && k < s->topo->nwarnings; k++)
			topo |= strcmp(s->topo->warnings[k], line) == 0;
		int rc = line && !topo ? snapshot_keep_string(s, line, NULL) : 0;
		s->rec_nwarnings += line && !topo && !rc;
		free(line);
		if (rc)
			return rc;
	}
	int rc = nodes_from(s, root);
	if (!rc)
		rc = cgroups_from(s, root);
	s->cgroups_ms = jget_dbl(root, "cgroups_read_ms");
	if (rc)
		return rc;
	json_object *procs = jget(root, "processes");
	size_t n = jget_len(procs), nn = s->topo->nnodes;
	s->procs = calloc(n ? n : 1, sizeof(*s->procs));
	s->kb_pool = malloc((n ? n : 1) * NM_KB_ARRAYS * nn * sizeof(int64_t));
	s->sched = malloc((n ? n : 1) * sizeof(*s->sched));
	if (!s->procs || !s->kb_pool || !s->sched)
		return -ENOMEM;
	s->schedcap = n;
	s->proccap = n;
	s->kb_cap = n * NM_KB_ARRAYS * nn;
	for (size_t i = 0; i < n && !rc; i++) {
		rc = fields_proc_read(s, json_object_array_get_idx(procs, i), &s->procs[i],
			       s->kb_pool + i * NM_KB_ARRAYS * nn);
		s->nprocs = i + 1;
	}
	if (!rc)
		rc = access_json_read(s, root);
	if (!rc)
		snapshot_tiers_heat(s);
	return rc;
}

int snapshot_json_snapshot(const char *line, size_t len, const struct topology *t, struct snapshot *s,
		      char *err, size_t errsz)
{
	snapshot_free(s);
	s->topo = t;
	s->replayed = true;
	json_tokener *tok = json_tokener_new_ex(64);
	json_object *root = tok ? json_tokener_parse_ex(tok, line, (int)len) : NULL;
	if (tok)
		json_tokener_free(tok);
	int rc = root && json_object_is_type(root, json_type_object) &&
		 snapshot_json_check_sample(root) == 0 ? build(s, root) : -EINVAL;
	json_object_put(root);
	if (rc) {
		snprintf(err, errsz, "a recorded sample is %s", rc == -ENOMEM ? "too big for memory" :
			 "malformed");
		snapshot_free(s);
		s->topo = t;
		s->replayed = true;
	}
	return rc;
}
