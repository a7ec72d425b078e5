/* record_header.c - a recording's header line: format version, host,
 * kernel, start time and the topology (nodes, CPUs, distances, caches,
 * the firmware's HMAT, the saved measurement). */
#include "record.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <json.h>

#include "output.h"
#include "sanitize.h"
#include "snapshot_json.h"
#include "session.h"

static json_object *id_list(const struct bitmap *b)
{
	json_object *a = json_object_new_array();
	for (int c = bitmap_next(b, 0); c >= 0; c = bitmap_next(b, c + 1))
		json_object_array_add(a, json_object_new_int(c));
	return a;
}

static json_object *jnum(int64_t v)
{
	return v < 0 ? NULL : json_object_new_int64(v);
}

static json_object *text(const char *raw)
{
	char clean[512];
	sanitize_utf8(raw, clean, sizeof(clean));
	return json_object_new_string(clean);
}

static json_object *cpu_obj(const struct topology *t, const struct topo_cpu *c)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_int(c->id));
	json_object_object_add(o, "node", c->node_index >= 0 ?
			       json_object_new_int(t->nodes[c->node_index].id) : NULL);
	json_object_object_add(o, "online", c->online >= 0 ? json_object_new_boolean(c->online) : NULL);
	json_object_object_add(o, "package", c->package >= 0 ? json_object_new_int(c->package) : NULL);
	json_object_object_add(o, "die", c->die >= 0 ? json_object_new_int(c->die) : NULL);
	json_object_object_add(o, "core", c->core >= 0 ? json_object_new_int(c->core) : NULL);
	json_object_object_add(o, "thread_siblings", id_list(&c->thread_siblings));
	json_object *caches = json_object_new_array();
	for (size_t k = 0; k < c->ncaches; k++) {
		const struct topo_cache *ca = &c->caches[k];
		json_object *co = json_object_new_object();
		json_object_object_add(co, "level", json_object_new_int(ca->level));
		json_object_object_add(co, "type", text(ca->type));
		json_object_object_add(co, "size_kb", jnum(ca->size_kb));
		json_object_object_add(co, "shared_cpus", id_list(&ca->shared));
		json_object_array_add(caches, co);
	}
	json_object_object_add(o, "caches", caches);
	return o;
}

static json_object *matrix64(size_t n, const int64_t *v)
{
	json_object *m = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		json_object *row = json_object_new_array();
		for (size_t j = 0; j < n; j++)
			json_object_array_add(row, jnum(v[i * n + j]));
		json_object_array_add(m, row);
	}
	return m;
}

static json_object *topology_obj(const struct topology *t)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "numa", json_object_new_boolean(!t->synthetic));
	json_object *nodes = json_object_new_array(), *ids = json_object_new_array();
	json_object *dist = json_object_new_array();
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct topo_node *nd = &t->nodes[i];
		json_object *no = json_object_new_object();
		json_object_object_add(no, "id", json_object_new_int(nd->id));
		json_object_object_add(no, "cpus", id_list(&nd->cpus));
		json_object_object_add(no, "has_memory", json_object_new_boolean(nd->has_memory));
		json_object_object_add(no, "mem_total_kb", jnum(nd->mem_total_kb));
		json_object_array_add(nodes, no);
		json_object_array_add(ids, json_object_new_int(nd->id));
		json_object *row = json_object_new_array();
		for (size_t j = 0; j < t->nnodes; j++)
			json_object_array_add(row, jnum(topology_distance(t, i, j)));
		json_object_array_add(dist, row);
	}
	json_object_object_add(o, "nodes", nodes);
	json_object *d = json_object_new_object();
	json_object_object_add(d, "nodes", ids);
	json_object_object_add(d, "matrix", dist);
	json_object_object_add(o, "distances", d);
	json_object_object_add(o, "online_nodes", id_list(&t->online_nodes));
	json_object_object_add(o, "possible_nodes", id_list(&t->possible_nodes));
	json_object_object_add(o, "default_huge_kb", jnum(t->default_huge_kb));
	json_object *cpus = json_object_new_array();
	for (size_t i = 0; i < t->ncpus; i++)
		json_object_array_add(cpus, cpu_obj(t, &t->cpus[i]));
	json_object_object_add(o, "cpus", cpus);
	json_object *w = json_object_new_array();
	for (size_t i = 0; i < t->nwarnings; i++)
		json_object_array_add(w, text(t->warnings[i]));
	json_object_object_add(o, "warnings", w);
	return o;
}

char *rec_header_json(const struct session *se, const char *root_label, double interval_s,
		      time_t start)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "numatop_tui_recording", json_object_new_int(REC_FORMAT_VERSION));
	json_object_object_add(o, "program_version", json_object_new_string(NUMATOP_VERSION));
	json_object_object_add(o, "schema_version", json_object_new_int(SNAPSHOT_JSON_SCHEMA_VERSION));
	struct utsname u;
	char kernel[128] = "";
	/* A recorded tree's kernel is its own, when the tree says. */
	if (fsroot_read_small(se->root, "/proc/sys/kernel/osrelease", kernel, sizeof(kernel)) < 0 &&
	    fsroot_is_live(se->root) && uname(&u) == 0)
		snprintf(kernel, sizeof(kernel), "%s", u.release);
	char host[256] = "";
	if (fsroot_read_small(se->root, "/proc/sys/kernel/hostname", host, sizeof(host)) < 0 &&
	    fsroot_is_live(se->root))
		gethostname(host, sizeof(host) - 1);
	json_object_object_add(o, "host", host[0] ? text(host) : NULL);
	json_object_object_add(o, "kernel", kernel[0] ? text(kernel) : NULL);
	char when[32];
	struct tm tm;
	gmtime_r(&start, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_object_add(o, "start", json_object_new_string(when));
	json_object_object_add(o, "start_epoch", json_object_new_int64((int64_t)start));
	char iv[32];
	snprintf(iv, sizeof(iv), "%.3f", interval_s);
	json_object_object_add(o, "interval_s", json_object_new_double_s(interval_s, iv));
	json_object_object_add(o, "root", text(root_label ? root_label : "/"));
	json_object_object_add(o, "topology", topology_obj(&se->topo));
	if (se->have_hmat) {
		json_object *h = json_object_new_object();
		json_object_object_add(h, "access_class", json_object_new_int(se->hmat.access));
		json_object_object_add(h, "latency_ns", matrix64(se->hmat.n, se->hmat.lat_ns));
		json_object_object_add(h, "read_bandwidth_mbs", matrix64(se->hmat.n, se->hmat.bw_mbs));
		json_object_object_add(o, "hmat", h);
	} else {
		json_object_object_add(o, "hmat", NULL);
	}
	json_object_object_add(o, "measurement", se->have_meas ? measure_to_json(&se->meas) : NULL);
	char *s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}
