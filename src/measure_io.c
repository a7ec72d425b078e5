/* measure_io.c - the measured matrix on disk, its key, what it says
 * against the SLIT, and whether we run under a hypervisor. */
#include "measure_io.h"
#include "safefile.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int measure_alloc(struct measure_result *res, const struct topology *t)
{
	memset(res, 0, sizeof(*res));
	size_t n = t->nnodes;
	res->n = n;
	res->node_ids = calloc(n ? n : 1, sizeof(int));
	res->cell = calloc(n ? n * n : 1, sizeof(*res->cell));
	if (!res->node_ids || !res->cell) {
		measure_free(res);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		res->node_ids[i] = t->nodes[i].id;
	for (size_t k = 0; k < n * n; k++)
		res->cell[k] = (struct measure_cell){ -1, -1, -1, -1, 0 };
	res->l2_ns = -1;
	measure_key(t, res->key, sizeof(res->key));
	return 0;
}

void measure_free(struct measure_result *res)
{
	free(res->node_ids);
	free(res->cell);
	memset(res, 0, sizeof(*res));
}

struct measure_cell *measure_at(const struct measure_result *res, size_t cpu, size_t mem)
{
	return &res->cell[cpu * res->n + mem];
}

void measure_key(const struct topology *t, char *out, size_t n)
{
	/* FNV-1a over node ids, their CPUs and whether they have memory:
	 * a different machine shape never reuses a measurement. */
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < t->nnodes; i++) {
		char cpus[4096];
		bitmap_format_list(&t->nodes[i].cpus, cpus, sizeof(cpus));
		char part[4200];
		int l = snprintf(part, sizeof(part), "%d:%s:%d;", t->nodes[i].id, cpus,
				 t->nodes[i].has_memory);
		for (int k = 0; k < l && k < (int)sizeof(part); k++) {
			h ^= (unsigned char)part[k];
			h *= 0x100000001b3ull;
		}
	}
	snprintf(out, n, "%zun-%016llx", t->nnodes, (unsigned long long)h);
}

int measure_cache_path(const struct measure_result *res, char *out, size_t n)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char dir[512];
	if (x && *x == '/')
		snprintf(dir, sizeof(dir), "%s/numatop-tui", x);
	else if (home && *home)
		snprintf(dir, sizeof(dir), "%s/.cache/numatop-tui", home);
	else
		return -ENOENT;
	char host[64];
	size_t k = 0;
	/* The host name as a file name: nothing but [A-Za-z0-9._-]. */
	for (const char *p = res->host[0] ? res->host : "localhost"; *p && k + 1 < sizeof(host); p++)
		host[k++] = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			    (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' ? *p : '_';
	host[k] = '\0';
	int l = snprintf(out, n, "%s/measure-%s-%s.json", dir, host, res->key);
	return l > 0 && (size_t)l < n ? 0 : -ENAMETOOLONG;
}

static json_object *num_or_null(double v, int digits)
{
	if (v < 0)
		return NULL;
	char b[32];
	snprintf(b, sizeof(b), "%.*f", digits, v);
	return json_object_new_double_s(v, b);
}

static json_object *matrix(const struct measure_result *res, size_t field)
{
	json_object *m = json_object_new_array();
	for (size_t i = 0; i < res->n; i++) {
		json_object *row = json_object_new_array();
		for (size_t j = 0; j < res->n; j++) {
			const struct measure_cell *c = measure_at(res, i, j);
			double v = field == 0 ? c->lat_ns : field == 1 ? c->bw1_gbs :
				   field == 2 ? c->bwall_gbs : c->on_node_pct;
			json_object_array_add(row, num_or_null(v, field == 0 ? 1 : 2));
		}
		json_object_array_add(m, row);
	}
	return m;
}

json_object *measure_to_json(const struct measure_result *res)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "format", json_object_new_int(1));
	json_object_object_add(o, "host", json_object_new_string(res->host));
	json_object_object_add(o, "key", json_object_new_string(res->key));
	json_object_object_add(o, "when", json_object_new_int64((int64_t)res->when));
	json_object_object_add(o, "seconds", num_or_null(res->seconds, 1));
	json_object_object_add(o, "quick", json_object_new_boolean(res->quick));
	json_object_object_add(o, "hypervisor", res->hypervisor[0] ?
			       json_object_new_string(res->hypervisor) : NULL);
	json_object_object_add(o, "buffer_kb", json_object_new_int64(res->buf_kb));
	json_object *l2 = json_object_new_object();
	json_object_object_add(l2, "kb", json_object_new_int64(res->l2_kb));
	json_object_object_add(l2, "latency_ns", num_or_null(res->l2_ns, 1));
	json_object_object_add(o, "l2", l2);
	json_object *ids = json_object_new_array();
	for (size_t i = 0; i < res->n; i++)
		json_object_array_add(ids, json_object_new_int(res->node_ids[i]));
	json_object_object_add(o, "nodes", ids);
	json_object_object_add(o, "latency_ns", matrix(res, 0));
	json_object_object_add(o, "bandwidth_1t_gbs", matrix(res, 1));
	json_object_object_add(o, "bandwidth_all_gbs", matrix(res, 2));
	json_object_object_add(o, "on_node_pct", matrix(res, 3));
	return o;
}

int measure_save(const struct measure_result *res, const char *path, char *why, size_t whysz)
{
	json_object *o = measure_to_json(res);
	size_t len = 0;
	const char *text = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN |
							   JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	int rc = text ? safefile_save_path(path, text, len, why, whysz) : -ENOMEM;
	json_object_put(o);
	return rc;
}

/* A measured value: null is "not measured" (-1); anything else must be a
 * finite number in (lo, hi] (pct: [0, 100]), or the file is rejected. */
static int get_num(json_object *v, double lo, double hi, double *out)
{
	if (!v || json_object_is_type(v, json_type_null)) {
		*out = -1;
		return 0;
	}
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return -EINVAL;
	double d = json_object_get_double(v);
	if (!isfinite(d) || d > hi || (lo < 0 ? d < 0 : d <= lo))
		return -EINVAL;
	*out = d;
	return 0;
}

/* Plausible bounds: no memory is slower than 10 ms per access or faster
 * than 100 TB/s. */
#define LAT_MAX_NS 1e7
#define BW_MAX_GBS 1e5

static int load_matrix(json_object *o, const char *name, struct measure_result *res,
		       size_t field)
{
	json_object *m;
	if (!json_object_object_get_ex(o, name, &m) || !json_object_is_type(m, json_type_array) ||
	    json_object_array_length(m) != res->n)
		return -EINVAL;
	for (size_t i = 0; i < res->n; i++) {
		json_object *row = json_object_array_get_idx(m, i);
		if (!json_object_is_type(row, json_type_array) || json_object_array_length(row) != res->n)
			return -EINVAL;
		for (size_t j = 0; j < res->n; j++) {
			struct measure_cell *c = measure_at(res, i, j);
			json_object *v = json_object_array_get_idx(row, j);
			int rc = field == 0 ? get_num(v, 0, LAT_MAX_NS, &c->lat_ns)
			       : field == 1 ? get_num(v, 0, BW_MAX_GBS, &c->bw1_gbs)
			       : field == 2 ? get_num(v, 0, BW_MAX_GBS, &c->bwall_gbs)
			       : get_num(v, -1, 100, &c->on_node_pct);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int parse_object(json_object *o, const struct topology *t, struct measure_result *res)
{
	json_object *v, *ids;
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "nodes", &ids) || !json_object_is_type(ids, json_type_array))
		return -EINVAL;
	if (json_object_array_length(ids) != t->nnodes)
		return -ESTALE;
	for (size_t i = 0; i < t->nnodes; i++) {
		json_object *id = json_object_array_get_idx(ids, i);
		if (!json_object_is_type(id, json_type_int))
			return -EINVAL;
		if (json_object_get_int64(id) != t->nodes[i].id)
			return -ESTALE;
	}
	if (!json_object_object_get_ex(o, "key", &v) || !json_object_is_type(v, json_type_string))
		return -EINVAL;
	if (strcmp(json_object_get_string(v), res->key) != 0)
		return -ESTALE;
	if (json_object_object_get_ex(o, "host", &v) && json_object_is_type(v, json_type_string))
		snprintf(res->host, sizeof(res->host), "%s", json_object_get_string(v));
	if (json_object_object_get_ex(o, "hypervisor", &v) && json_object_is_type(v, json_type_string))
		snprintf(res->hypervisor, sizeof(res->hypervisor), "%s", json_object_get_string(v));
	/* When it was measured: a whole number of seconds after 2000 and
	 * not in the future (a day of clock skew allowed), else unknown (0). */
	res->when = 0;
	if (json_object_object_get_ex(o, "when", &v) && json_object_is_type(v, json_type_int)) {
		int64_t w = json_object_get_int64(v);
		if (w >= 946684800 && w <= (int64_t)time(NULL) + 86400)
			res->when = (time_t)w;
	}
	if (json_object_object_get_ex(o, "seconds", &v) && get_num(v, -1, 1e9, &res->seconds))
		return -EINVAL;
	if (json_object_object_get_ex(o, "quick", &v))
		res->quick = json_object_get_boolean(v);
	if (json_object_object_get_ex(o, "buffer_kb", &v))
		res->buf_kb = json_object_get_int64(v);
	json_object *l2;
	if (json_object_object_get_ex(o, "l2", &l2)) {
		if (json_object_object_get_ex(l2, "kb", &v))
			res->l2_kb = json_object_get_int64(v);
		if (json_object_object_get_ex(l2, "latency_ns", &v) && get_num(v, 0, LAT_MAX_NS, &res->l2_ns))
			return -EINVAL;
	}
	int rc;
	if ((rc = load_matrix(o, "latency_ns", res, 0)) == 0 &&
	    (rc = load_matrix(o, "bandwidth_1t_gbs", res, 1)) == 0 &&
	    (rc = load_matrix(o, "bandwidth_all_gbs", res, 2)) == 0)
		rc = load_matrix(o, "on_node_pct", res, 3);
	return rc;
}

int measure_parse(const char *buf, size_t len, const struct topology *t,
		  struct measure_result *res)
{
	if (len > MEASURE_FILE_MAX || len > INT32_MAX)
		return -EFBIG;
	json_tokener *tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	json_object *o = json_tokener_parse_ex(tok, buf, (int)len);
	/* One whole document: a cut file (continue) or trailing bytes are
	 * not a measurement. */
	bool whole = o && json_tokener_get_error(tok) == json_tokener_success &&
		     (size_t)json_tokener_get_parse_end(tok) == len;
	json_tokener_free(tok);
	if (!whole) {
		json_object_put(o);
		return -EINVAL;
	}
	int rc = measure_alloc(res, t);
	if (rc == 0 && (rc = parse_object(o, t, res)) != 0)
		measure_free(res);
	json_object_put(o);
	return rc;
}

int measure_load(const char *path, const struct topology *t, struct measure_result *res)
{
	struct buf b = { 0 };
	int rc = safefile_load_path(path, &b, MEASURE_FILE_MAX, NULL, 0);
	if (rc == 0)
		rc = measure_parse(b.data ? b.data : "", b.len, t, res);
	buf_free(&b);
	return rc;
}

int measure_load_cached(const struct topology *t, struct measure_result *res)
{
	struct measure_result probe;
	memset(&probe, 0, sizeof(probe));
	gethostname(probe.host, sizeof(probe.host) - 1);
	measure_key(t, probe.key, sizeof(probe.key));
	char path[1024];
	int rc = measure_cache_path(&probe, path, sizeof(path));
	return rc ? rc : measure_load(path, t, res);
}

int measure_disagreement(const struct topology *t, const struct measure_result *res,
			 char *out, size_t n, bool *marks)
{
	size_t nn = res->n;
	if (marks)
		memset(marks, 0, nn * nn * sizeof(bool));
	int found = 0;
	for (size_t i = 0; i < nn; i++)
		for (size_t a = 0; a < nn; a++)
			for (size_t b = 0; b < nn; b++) {
				if (a == i || b == i || a == b)
					continue;
				int da = topology_distance(t, i, a), db = topology_distance(t, i, b);
				double la = measure_at(res, i, a)->lat_ns, lb = measure_at(res, i, b)->lat_ns;
				/* The firmware puts b at least as close as a, yet b
				 * measures more than 10 % slower. */
				if (da < 0 || db < 0 || la <= 0 || lb <= 0 || db > da || lb <= la * 1.10)
					continue;
				if (marks) {
					marks[i * nn + a] = true;
					marks[i * nn + b] = true;
				}
				if (!found && out)
					snprintf(out, n, "firmware says node %d is %s node %d (from node %d); "
						 "measured %.0f %% slower", t->nodes[b].id,
						 db == da ? "as close as" : "closer than", t->nodes[a].id,
						 t->nodes[i].id, 100.0 * (lb / la - 1.0));
				found = 1;
			}
	return found;
}

void measure_detect_hypervisor(const struct fsroot *r, char *out, size_t n)
{
	out[0] = '\0';
	char v[128];
	if (fsroot_read_small(r, "/sys/hypervisor/type", v, sizeof(v)) > 0) {
		snprintf(out, n, "%s (/sys/hypervisor)", v);
		return;
	}
	static const struct { const char *needle, *name; } dmi[] = {
		{ "QEMU", "QEMU/KVM" }, { "KVM", "KVM" }, { "VMware", "VMware" },
		{ "VirtualBox", "VirtualBox" }, { "innotek", "VirtualBox" }, { "Xen", "Xen" },
		{ "Microsoft Corporation", "Hyper-V" }, { "Amazon EC2", "Amazon EC2" },
		{ "Google", "Google Compute Engine" }, { "Firecracker", "Firecracker" },
		{ "Cloud Hypervisor", "Cloud Hypervisor" },
	};
	static const char *const files[] = { "/sys/class/dmi/id/sys_vendor",
					     "/sys/class/dmi/id/product_name",
					     "/sys/class/dmi/id/bios_vendor" };
	for (size_t f = 0; f < sizeof(files) / sizeof(*files); f++) {
		if (fsroot_read_small(r, files[f], v, sizeof(v)) <= 0)
			continue;
		for (size_t k = 0; k < sizeof(dmi) / sizeof(*dmi); k++)
			if (strstr(v, dmi[k].needle)) {
				snprintf(out, n, "%s (DMI: %s)", dmi[k].name, v);
				return;
			}
	}
	/* The CPU flag a hypervisor sets for its guests. */
	struct buf b = { 0 };
	if (fsroot_read_file(r, "/proc/cpuinfo", &b, 8u << 20) == 0 && b.data) {
		for (const char *p = b.data; (p = strstr(p, "flags")) != NULL; p++) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			if (memmem(p, len, " hypervisor", 11)) {
				snprintf(out, n, "a hypervisor (cpuinfo flag)");
				break;
			}
			if (!nl)
				break;
			p = nl;
		}
	}
	buf_free(&b);
}
