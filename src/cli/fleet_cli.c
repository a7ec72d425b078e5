/* fleet_cli.c - --fleet URL with -b or --json: the fleet's hosts table
 * (fleet.h) printed for scripts, as text or as one JSON object
 * (docs/fleet.schema.json); what could not be read said one line each on
 * stderr. Exit 1 when nothing could be read (the server unreachable, not
 * Prometheus, no numatop series), 0 else, a partial answer too. */
#include "fleet_cli.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include <json.h>

#include "fleet.h"
#include "format.h"
#include "sanitize.h"
#include "settings.h"

/* Bytes as the monitor shows them (fmt_human_kb), "-" unknown. */
static void bytes(char *out, size_t n, double b)
{
	if (b < 0)
		snprintf(out, n, "-");
	else
		fmt_human_kb(out, n, (int64_t)(b / 1024));
}


/* The hosts table: the columns of fleet_cols[] up to WORST, the instance
 * as wide as the widest; each host's memory used per node on a line
 * after it. */
static void text(FILE *out, const struct fleet *f)
{
	int iw = 8;
	for (size_t i = 0; i < f->nhosts; i++) {
		char v[256];
		fleet_cols[0].cell(&f->hosts[i], v, sizeof(v));
		iw = (int)strlen(v) > iw ? (int)strlen(v) : iw;
	}
	for (size_t c = 0; c < FLEET_COL_WORST; c++)
		fprintf(out, "%*s ", c == 0 ? -iw : fleet_cols[c].w, fleet_cols[c].hdr);
	fprintf(out, "%s\n", fleet_cols[FLEET_COL_WORST].hdr);
	for (size_t i = 0; i < f->nhosts; i++)
		for (size_t c = 0; c <= FLEET_COL_WORST; c++) {
			char v[1100];
			int w = c == 0 ? -iw : fleet_cols[c].w;
			fleet_cols[c].cell(&f->hosts[i], v, sizeof(v));
			if (c == FLEET_COL_WORST)
				fprintf(out, "%s\n", v);
			else
				fprintf(out, "%*s ", w, v);
		}
	/* Memory used per node, one line per host. */
	for (size_t i = 0; i < f->nhosts; i++) {
		const struct fleet_host *h = &f->hosts[i];
		if (!h->nnodes)
			continue;
		char inst[128];
		sanitize_term(h->instance, inst, sizeof(inst));
		fprintf(out, "%s%s used:", i ? "" : "\n", inst);
		for (size_t j = 0; j < h->nnodes; j++) {
			char b[16];
			bytes(b, sizeof(b), h->nodes[j].used_bytes);
			fprintf(out, " N%ld %s", h->nodes[j].id, b);
		}
		fputc('\n', out);
	}
}

static json_object *num(double v)
{
	if (v < 0 || !isfinite(v))
		return NULL;
	if (v == floor(v) && v < 9e15)
		return json_object_new_int64((int64_t)v);
	return json_object_new_double(v);
}

static json_object *str(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

static json_object *host_json(const struct fleet_host *h)
{
	json_object *o = json_object_new_object(), *l = json_object_new_object(),
		    *nodes = json_object_new_object(), *top = json_object_new_array();
	json_object_object_add(o, "instance", json_object_new_string(h->instance));
	json_object_object_add(o, "job", json_object_new_string(h->job));
	for (size_t k = 0; k < h->nlabels; k++)
		json_object_object_add(l, h->lnames[k], json_object_new_string(h->lvalues[k]));
	json_object_object_add(o, "labels", l);
	json_object_object_add(o, "up", h->up < 0 ? NULL : json_object_new_int(h->up));
	json_object_object_add(o, "age_s", h->age_s < 0 ? NULL : json_object_new_double(h->age_s));
	json_object_object_add(o, "version", str(h->version));
	json_object_object_add(o, "nodes", json_object_new_int64((int64_t)h->nnodes));
	for (size_t j = 0; j < h->nnodes; j++) {
		char id[24];
		snprintf(id, sizeof(id), "%ld", h->nodes[j].id);
		json_object_object_add(nodes, id, num(h->nodes[j].used_bytes));
	}
	json_object_object_add(o, "node_used_bytes", nodes);
	json_object_object_add(o, "remote_bytes", num(h->remote_bytes));
	json_object_object_add(o, "hot_remote_bytes", num(h->hot_remote_bytes));
	json_object_object_add(o, "hot_slow_tier_bytes", num(h->hot_slow_bytes));
	json_object_object_add(o, "promote_pages_per_second",
			       h->promote_pps < 0 ? NULL : json_object_new_double(h->promote_pps));
	json_object_object_add(o, "demote_pages_per_second",
			       h->demote_pps < 0 ? NULL : json_object_new_double(h->demote_pps));
	json_object_object_add(o, "heat_source", str(h->heat_source));
	json_object_object_add(o, "heat_reason", str(h->heat_reason));
	for (size_t k = 0; k < h->ntop; k++) {
		const struct fleet_proc *p = &h->top[k];
		json_object *t = json_object_new_object();
		json_object_object_add(t, "comm", json_object_new_string(p->comm));
		json_object_object_add(t, "user", str(p->user));
		json_object_object_add(t, "pid", p->pid < 0 ? NULL : json_object_new_int64(p->pid));
		json_object_object_add(t, "remote_bytes", num(p->remote_bytes));
		json_object_object_add(t, "hot_remote_bytes", num(p->hot_remote_bytes));
		json_object_array_add(top, t);
	}
	json_object_object_add(o, "top", top);
	return o;
}

static void put(FILE *out, json_object *o)
{
	fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
	      out);
	json_object_put(o);
}

/* One line of JSON, written a host at a time (a thousand hosts' objects
 * are never all in memory): the bytes json-c would write for the whole. */
static void json(FILE *out, const struct fleet *f, const char *url)
{
	fprintf(out, "{\"server\":");
	put(out, json_object_new_string(url));
	fprintf(out, ",\"time\":%lld,\"queries\":%zu,\"recording_rules\":%s,\"hosts\":[",
		(long long)time(NULL), f->nqueries, f->recorded ? "true" : "false");
	for (size_t i = 0; i < f->nhosts; i++) {
		if (i)
			fputc(',', out);
		put(out, host_json(&f->hosts[i]));
	}
	json_object *errs = json_object_new_array();
	for (size_t i = 0; i < f->nerrors; i++) {
		json_object *e = json_object_new_object();
		json_object_object_add(e, "query", json_object_new_string(fleet_query_name(f->errors[i].q)));
		json_object_object_add(e, "error", json_object_new_string(f->errors[i].msg));
		json_object_array_add(errs, e);
	}
	fprintf(out, "],\"errors\":");
	put(out, errs);
	fprintf(out, "}\n");
}

/* What failed, and each host whose scrapes fail: one line each. */
static void problems(FILE *err, const struct fleet *f)
{
	for (size_t i = 0; i < f->nerrors; i++) {
		char m[400];
		sanitize_term(f->errors[i].msg, m, sizeof(m));
		fprintf(err, "numatop-tui: --fleet: query %s: %s\n", fleet_query_name(f->errors[i].q), m);
	}
	for (size_t i = 0; i < f->nhosts; i++) {
		const struct fleet_host *h = &f->hosts[i];
		char inst[128], job[128], age[32] = "none for 5 min or more";
		if (h->up > 0 || (h->up < 0 && h->age_s < 0))
			continue;
		sanitize_term(h->instance, inst, sizeof(inst));
		sanitize_term(h->job, job, sizeof(job));
		if (h->age_s >= 0)
			fmt_age(age, sizeof(age), h->age_s);
		if (h->up < 0)      /* seen in the last hour, no up now */
			fprintf(err, "numatop-tui: --fleet: host %s (job %s): no longer scraped (last "
				"sample %s ago)\n", inst, job, age);
		else
			fprintf(err, "numatop-tui: --fleet: host %s (job %s): its scrapes fail (up 0; "
				"last sample %s%s)\n", inst, job, age, h->age_s >= 0 ? " ago" : "");
	}
}

int fleet_cli_run(const struct options *o, FILE *out, FILE *err)
{
	struct settings st;
	char path[1024], msg[512], said[600];
	settings_init(&st);
	if (settings_path(path, sizeof(path)) == 0) {
		int rc = settings_load(path, &st, msg, sizeof(msg));
		if (rc && rc != -ENOENT) {
			sanitize_term(msg, said, sizeof(said));
			fprintf(err, "numatop-tui: settings file %s: %s\n", path, said);
			return 1;
		}
	}
	struct fleet_config c;
	fleet_config_from(&c, o->fleet, o->fleet_match, &st);
	struct fleet_client *cl;
	char probe[16384];
	/* A matcher that is not one: a usage error (2); the rest is input
	 * that could not be read (1). */
	bool usage = fleet_query_build(FQ_UP, c.match, false, probe, sizeof(probe)) == -EINVAL;
	int rc = fleet_open(&c, &cl, msg, sizeof(msg));
	if (rc) {
		sanitize_term(msg[0] ? msg : strerror(-rc), said, sizeof(said));
		fprintf(err, "numatop-tui: --fleet: %s\n", said);
		return usage ? 2 : 1;
	}
	if (o->fleet_host) {
		rc = fleet_host_cli(cl, o, out, err);
		fleet_close(cl);
		return rc;
	}
	long n = o->iterations > 0 ? o->iterations : 1;
	int status = 0;
	struct fleet f = { 0 };
	for (long i = 0; i < n; i++) {
		if (i) {
			struct timespec d = { (time_t)o->delay,
					      (long)((o->delay - (double)(time_t)o->delay) * 1e9) };
			nanosleep(&d, NULL);
		}
		rc = fleet_refresh(cl, &f);
		problems(err, &f);
		if (rc == -ENOENT) {
			char u[512], m[600];
			sanitize_term(c.url, u, sizeof(u));
			sanitize_term(c.match ? c.match : "", m, sizeof(m));
			fprintf(err, "numatop-tui: --fleet: no numatop series on %s%s%s: no numatop-tui "
				"--serve exporter is scraped there%s\n", u, c.match ? " matching " : "", m,
				c.match ? " with these labels" : "");
		}
		if (rc) {
			status = 1;
			continue;
		}
		status = 0;
		if (o->json)
			json(out, &f, c.url);
		else
			text(out, &f);
		fflush(out);
	}
	fleet_free(&f);
	fleet_close(cl);
	return status;
}
