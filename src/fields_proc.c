/* fields_proc.c - the process facts' catalogue (fields_proc.h): each fact's
 * JSON key, schema, range, getter and replay setter, column and
 * per-process gauge in one row; the rows are in the order of the JSON
 * object, and walking them writes it, reads it back and (tools/genman.c)
 * writes its schema. The memory tier columns' values and cells are
 * src/columns_tiers.c's, the kB cell src/columns_cell.c's. */
#include "fields_proc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "columns_cells.h"
#include "format.h"
#include "jsonget.h"
#include "jsonput.h"
#include "access_json.h"
#include "sanitize.h"
#include "snapshot_json.h"
#include "tiers.h"
#include "why.h"

#define PID_LIMIT (1 << 22)            /* the kernel's PID_MAX_LIMIT */
#define S_KB "{\"$ref\": \"#/$defs/kb\"}"
#define S_PCT "{\"$ref\": \"#/$defs/pct\"}"
#define S_SECONDS "{\"$ref\": \"#/$defs/seconds\"}"
#define S_COUNT "{\"$ref\": \"#/$defs/count\"}"
#define S_COUNT_NULL "{\"$ref\": \"#/$defs/count_or_null\"}"
#define S_ID_NULL "{\"$ref\": \"#/$defs/id_or_null\"}"
#define S_NODE_KB "{\"$ref\": \"#/$defs/per_node_kb_or_null\"}"
#define S_STR "{\"type\": \"string\"}"
#define S_STR_NULL "{\"type\": [\"string\", \"null\"]}"
#define W_PID "--metrics-by pid (the default)"
#define W_PID_TIERS "--metrics-by pid, more than one memory tier"
#define W_PID_TIERS_ACC "--metrics-by pid, more than one memory tier, the process's access heat is known"
#define W_PID_ACC "--metrics-by pid, the process's access heat is known"

static bool placed(const struct snap_proc *p)
{
	return p->nm == NMS_OK;
}

/* ---- sort values and cells of the columns ---------------------------- */

static bool v_pid(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = p->info.pid;
	return true;
}

static bool v_home(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = p->home;
	return p->home >= 0;
}

static bool v_cpu(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = p->cpu_pct;
	return p->cpu_pct >= 0;
}

static bool v_rss(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = (double)p->info.rss_kb;
	return p->info.rss_kb >= 0;
}

static bool v_node(const struct snap_proc *p, int node, double *v)
{
	bool ok = p->nm == NMS_OK && node >= 0;
	*v = ok ? (double)p->node_kb[node] : 0;
	return ok;
}

static bool v_remote(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = (double)p->remote_kb;
	return p->remote_kb >= 0;
}

static bool v_remote_pct(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = snap_remote_pct(p);
	return *v >= 0;
}

static bool v_time(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = (double)(p->info.utime + p->info.stime);
	return true;
}

static bool v_threads(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = (double)p->info.nthreads;
	return p->info.nthreads >= 0;
}

static bool v_age(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = p->nm_age_s;
	return p->nm_age_s >= 0;
}

static const char *s_user(const struct snap_proc *p) { return p->info.user; }
static const char *s_comm(const struct snap_proc *p) { return p->info.comm; }

static const char *s_policy(const struct snap_proc *p)
{
	return p->nm == NMS_OK && p->policy[0] ? p->policy : NULL;
}

static void c_pid(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	snprintf(out, n, "%d", p->info.pid);
}

static void c_user(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	sanitize_term(p->info.user, out, n);
}

static void c_home(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	if (p->home >= 0)
		snprintf(out, n, "%d", c->t->nodes[p->home].id);
	else
		snprintf(out, n, "-");
}

static void c_cpu(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	fmt_pct(out, n, p->cpu_pct);
}

static void c_rss(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	col_kb_cell(c, p->info.rss_kb, false, out, n);
}

/* Not read: the reason in every text cell; the monitor says it once. */
static void c_node(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	if (p->nm == NMS_OK)
		col_kb_cell(c, p->node_kb[node], p->nm_sampled, out, n);
	else
		snprintf(out, n, "%s", !c->monitor || node == c->mark_node ? snapshot_nm_mark(p) : "");
}

static void c_remote(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	if (!c->monitor)
		fmt_kb(out, n, p->remote_kb);
	else if (p->nm == NMS_OK)
		col_kb_cell(c, p->remote_kb, p->nm_sampled, out, n);
	else
		snprintf(out, n, "%s", snapshot_nm_mark(p));
}

static void c_remote_pct(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	fmt_pct(out, n, c->monitor && p->nm != NMS_OK ? -1 : snap_remote_pct(p));
}

/* CPU time as htop's TIME+: M:SS.hh, or HhMM:SS from an hour on. */
static void c_time(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	/* hundredths of a second */
	unsigned long long t = (unsigned long long)(parse_ticks_s(p->info.utime + p->info.stime) * 100.0 + 0.5);
	unsigned long long s = t / 100, h = s / 3600;
	if (h)
		snprintf(out, n, "%lluh%02llu:%02llu", h, s / 60 % 60, s % 60);
	else
		snprintf(out, n, "%llu:%02llu.%02llu", s / 60, s % 60, t % 100);
}

static void c_threads(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	fmt_kb(out, n, p->info.nthreads);
}

static void c_age(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	fmt_age(out, n, p->nm_age_s);
}

static void c_policy(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	const char *s = s_policy(p);
	sanitize_term(s ? s : "-", out, n);
}

static const char *s_why(const struct snap_proc *p)
{
	return why_cause_name(p->why);
}

static void c_why(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	const char *s = s_why(p);
	snprintf(out, n, "%s", s ? s : "-");
}

static bool v_racc(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = snap_sched(p)->racc_pct;
	return snap_sched(p)->racc_pct >= 0;
}

static void c_racc(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	fmt_pct(out, n, snap_sched(p)->racc_pct);
}

/* Heat: the process's access numbers (access.h), unknown without. They
 * sort only when usable (a stale or measured HOTREM never puts a process
 * first); otherwise their cells are marked "~" (access_proc_trust). */
static bool v_hot(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	const struct access_proc *a = access_usable(p->acc);
	*v = a ? (double)a->hot_kb : 0;
	return a && a->hot_kb >= 0;
}

static bool v_hotrem(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	const struct access_proc *a = access_usable(p->acc);
	*v = a ? (double)a->hot_remote_kb : 0;
	return a && a->hot_remote_kb >= 0;
}

static bool v_hotrem_pct(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	const struct access_proc *a = access_usable(p->acc);
	*v = a ? a->hot_remote_pct : 0;
	return a && a->hot_remote_pct >= 0;
}

static void c_hot(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	col_kb_cell(c, p->acc ? p->acc->hot_kb : -1, p->acc && !access_usable(p->acc), out, n);
}

static void c_hotrem(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	col_kb_cell(c, p->acc ? p->acc->hot_remote_kb : -1, p->acc && !access_usable(p->acc), out, n);
}

static void c_hotrem_pct(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	fmt_pct(out, n, p->acc ? p->acc->hot_remote_pct : -1);
	size_t l = strlen(out);
	if (p->acc && !access_usable(p->acc) && p->acc->hot_remote_pct >= 0 && l + 1 < n) {
		out[l] = '~';
		out[l + 1] = '\0';
	}
}

static const char *s_cgroup(const struct snap_proc *p)
{
	return p->cgroup;
}

static void c_cgroup(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	char s[256];
	if (!p->cgroup) {
		snprintf(out, n, "-");
		return;
	}
	cgroup_short_name(p->cgroup, s, sizeof(s));
	sanitize_term(s, out, n);
}

static void c_command(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)node;
	const char *s = c->full_command && p->info.cmdline[0] ? p->info.cmdline : p->info.comm;
	sanitize_term(s, out, n);
}

/* ADVICE: the advice's action and node in a word (why.h). A move of
 * memory that waits for usable heat says "wait". */
static void c_advice(const struct col_ctx *c, const struct snap_proc *p, int node, char *out,
		     size_t n)
{
	(void)node;
	const struct why_result *w = c->snap ? snapshot_why(c->snap, p) : NULL;
	if (!w) {              /* judged small, or not read */
		snprintf(out, n, "%s", p->nm == NMS_OK ? "none" : "-");
		return;
	}
	switch (w->action) {
	case WHY_ACT_MIGRATE: snprintf(out, n, "migrate->N%d", w->node); break;
	case WHY_ACT_REBIND: snprintf(out, n, "rebind->N%d", w->node); break;
	case WHY_ACT_MIGRATE_HOT: snprintf(out, n, "hot->N%d", w->node); break;
	default: snprintf(out, n, "%s", strstr(w->text, "waits for it") ? "wait" : "none"); break;
	}
}

/* ---- the JSON values --------------------------------------------------- */

#define GET(name) static bool get_##name(const struct snapshot *s, const struct snap_proc *p, json_object **v)
#define SET(name) static int set_##name(struct fields_proc_read *r, json_object *v)

/* A number of the recorded value, -1 null or missing. */
/* A process's string, kept in the snapshot's list (cut at max bytes). */
static const char *keep_str(struct snapshot *s, json_object *v, size_t max)
{
	const char *t = jval_str(v);
	t = t ? t : "";
	return proc_list_strdup(&s->plist, t, strnlen(t, max));
}

/* By node id, each kB written as it is, never null (per_node_kb_or_null:
 * the whole object is null unless placed). */
static json_object *per_node(const struct topology *t, const int64_t *kb)
{
	return snapshot_json_put_node_kb(t, kb, false);
}

/* A uint32 count from the recording, 0 when unknown. */
static uint32_t rd_u32(json_object *v)
{
	int64_t n = jval_i64(v);
	return n > 0 ? (n > UINT32_MAX ? UINT32_MAX : (uint32_t)n) : 0;
}

GET(pid) { (void)s; *v = json_object_new_int(p->info.pid); return true; }
SET(pid) { r->p->info.pid = (int)jval_i64(v); return 0; }

GET(ppid) { (void)s; *v = p->info.ppid >= 0 ? json_object_new_int(p->info.ppid) : NULL; return true; }
SET(ppid) { r->p->info.ppid = (int)jval_i64(v); return 0; }

GET(comm) { (void)s; *v = jstr(p->info.comm); return true; }
SET(comm) { r->p->info.comm = keep_str(r->s, v, 63); return r->p->info.comm ? 0 : -ENOMEM; }

GET(cmdline) { (void)s; *v = jstr(p->info.cmdline); return true; }
SET(cmdline) { r->p->info.cmdline = keep_str(r->s, v, 255); return r->p->info.cmdline ? 0 : -ENOMEM; }

GET(user) { (void)s; *v = jstr(p->info.user); return true; }
SET(user) { r->p->info.user = keep_str(r->s, v, 32); return r->p->info.user ? 0 : -ENOMEM; }

GET(uid) { (void)s; *v = jnum(p->info.uid); return true; }
SET(uid) { r->p->info.uid = jval_i64(v); return 0; }

/* One printable ASCII letter, or unknown: a byte from a broken tree's
 * stat is never written as it is (it may not be UTF-8). */
GET(state)
{
	(void)s;
	char st[2] = { p->info.state, 0 };
	*v = st[0] > ' ' && st[0] < 0x7f ? json_object_new_string(st) : NULL;
	return true;
}
SET(state)
{
	const char *st = jval_str(v);
	r->p->info.state = st && st[0] != '?' ? st[0] : 0;
	return 0;
}

GET(kthread) { (void)s; *v = json_object_new_boolean(p->info.kthread); return true; }
SET(kthread) { r->p->info.kthread = v && json_object_get_boolean(v); return 0; }

static bool v_start(const struct snap_proc *p, int node, double *v)
{
	(void)node;
	*v = (double)p->info.starttime;
	return true;
}

static void c_start(const struct col_ctx *c, const struct snap_proc *p, int node, char *out, size_t n)
{
	(void)c; (void)node;
	unsigned long long s = (unsigned long long)parse_ticks_s(p->info.starttime), d = s / 86400;
	if (d)
		snprintf(out, n, "%llud%02lluh", d, s / 3600 % 24);
	else
		snprintf(out, n, "%llu:%02llu:%02llu", s / 3600, s / 60 % 60, s % 60);
}

GET(start) { (void)s; *v = json_object_new_int64((int64_t)p->info.starttime); return true; }
SET(start) { r->p->info.starttime = (uint64_t)(jval_i64(v) > 0 ? jval_i64(v) : 0); return 0; }

GET(threads) { (void)s; *v = jnum(p->info.nthreads); return true; }
SET(threads) { r->p->info.nthreads = proc_nthreads(jval_i64(v)); return 0; }

GET(last_cpu) { (void)s; *v = p->info.last_cpu >= 0 ? json_object_new_int(p->info.last_cpu) : NULL; return true; }
SET(last_cpu) { r->p->info.last_cpu = (int)jval_i64(v); return 0; }

GET(home)
{
	*v = p->home >= 0 ? json_object_new_int(s->topo->nodes[p->home].id) : NULL;
	return true;
}
SET(home)
{
	int64_t home = jval_i64(v);
	r->p->home = home >= 0 ? topology_node_index(r->s->topo, (int)home) : -1;
	return 0;
}

GET(node_kb) { *v = placed(p) ? per_node(s->topo, p->node_kb) : NULL; return true; }
SET(node_kb) { snapshot_json_node_kb(r->s->topo, v, r->p->node_kb); return 0; }

#define KB_ARRAY(name, which)                                                                  \
	GET(name)                                                                              \
	{                                                                                      \
		*v = placed(p) ? per_node(s->topo, snap_kb(p, s->topo->nnodes, which)) : NULL; \
		return true;                                                                   \
	}                                                                                      \
	SET(name)                                                                              \
	{                                                                                      \
		snapshot_json_node_kb(r->s->topo, v, snap_kb(r->p, r->s->topo->nnodes, which)); \
		return 0;                                                                      \
	}
KB_ARRAY(anon_kb, SNAP_KB_ANON)
KB_ARRAY(file_kb, SNAP_KB_FILE)

GET(huge_kb)
{
	*v = placed(p) && !p->huge_unknown ? per_node(s->topo, snap_kb(p, s->topo->nnodes, SNAP_KB_HUGE))
					   : NULL;
	return true;
}
/* Unknown when null (placed: pages of an unknown size; see set_nm). */
SET(huge_kb)
{
	snapshot_json_node_kb(r->s->topo, v, snap_kb(r->p, r->s->topo->nnodes, SNAP_KB_HUGE));
	r->p->huge_unknown = !v || json_object_is_type(v, json_type_null);
	return 0;
}

GET(total_kb) { (void)s; *v = placed(p) ? jnum(p->total_kb) : NULL; return true; }
SET(total_kb) { r->p->total_kb = jval_i64(v); return 0; }

GET(remote_kb) { (void)s; *v = placed(p) ? jnum(p->remote_kb) : NULL; return true; }
SET(remote_kb) { r->p->remote_kb = jval_i64(v); return 0; }

GET(unknown_kb) { (void)s; *v = placed(p) ? jnum(p->unknown_node_kb) : NULL; return true; }
SET(unknown_kb)
{
	int64_t kb = jval_i64(v);
	r->p->unknown_node_kb = kb > 0 ? kb : 0;
	return 0;
}

GET(nm_warnings) { (void)s; *v = placed(p) ? json_object_new_int64((int64_t)p->nm_warnings) : NULL; return true; }
SET(nm_warnings) { r->p->nm_warnings = rd_u32(v); return 0; }

GET(remote_pct) { (void)s; *v = placed(p) ? jreal(snap_remote_pct(p), 1) : NULL; return true; }

/* kB per tier id, or null (placement not read, or no tiers). */
GET(tier_kb)
{
	const struct tier_model *m = &s->nk.tiers;
	*v = NULL;
	int64_t kb[64];
	if (!placed(p) || !m->ntiers || m->nnodes != s->topo->nnodes ||
	    m->ntiers > sizeof(kb) / sizeof(*kb))
		return true;
	tiers_kb(m, p->node_kb, kb);
	*v = json_object_new_object();
	for (size_t j = 0; j < m->ntiers; j++) {
		char id[16];
		snprintf(id, sizeof(id), "%d", m->tier[j].id);
		json_object_object_add(*v, id, json_object_new_int64(kb[j]));
	}
	return true;
}

GET(hot_slow) { (void)s; *v = jnum(snap_hot_slow_kb(p)); return true; }
GET(cold_fast) { (void)s; *v = jnum(snap_cold_fast_kb(p)); return true; }

GET(rss_kb) { (void)s; *v = jnum(p->info.rss_kb); return true; }
SET(rss_kb) { r->p->info.rss_kb = jval_i64(v); return 0; }

GET(cpu_pct) { (void)s; *v = jreal(p->cpu_pct, 1); return true; }
SET(cpu_pct) { r->p->cpu_pct = (float)jval_dbl(v); return 0; }

/* user + system, in seconds (the kernel's ticks are 1/100 s) */
GET(cpu_time) { (void)s; *v = jreal(parse_ticks_s(p->info.utime + p->info.stime), 2); return true; }
SET(cpu_time)
{
	double ct = jval_dbl(v);
	r->p->info.utime = ct >= 0 ? parse_s_ticks(ct) : 0;
	return 0;
}

GET(policy) { (void)s; *v = placed(p) ? jstr(p->policy) : NULL; return true; }
SET(policy) { r->p->policy = keep_str(r->s, v, 63); return r->p->policy ? 0 : -ENOMEM; }

GET(mappings) { (void)s; *v = placed(p) ? json_object_new_int64((int64_t)p->nmappings) : NULL; return true; }
SET(mappings) { r->p->nmappings = rd_u32(v); return 0; }

GET(nm) { (void)s; *v = json_object_new_string(nm_state_names[p->nm]); return true; }
SET(nm)
{
	int nm = jget_name(nm_state_names, 5, jval_str(v));
	r->p->nm = nm >= 0 ? (enum nm_state)nm : NMS_ERROR;
	r->p->nm_errno = r->p->nm == NMS_ERROR ? EIO : 0;
	r->p->huge_unknown = r->p->nm == NMS_OK && r->p->huge_unknown;
	return 0;
}

GET(nm_error)
{
	(void)s;
	*v = p->nm == NMS_ERROR ? json_object_new_string(fsroot_strerror(p->nm_errno)) : NULL;
	return p->nm == NMS_ERROR;
}

GET(placement)
{
	(void)s;
	*v = placed(p) ? json_object_new_string(p->nm_sampled ? "sampled" : "numa_maps") : NULL;
	return true;
}
SET(placement)
{
	const char *pl = jval_str(v);
	r->p->nm_sampled = pl && strcmp(pl, "sampled") == 0;
	return 0;
}

GET(nm_age) { (void)s; *v = jreal(p->nm_age_s, 1); return true; }
SET(nm_age) { r->p->nm_age_s = (float)jval_dbl(v); return 0; }

/* The kernel's view: kept (snapshot_sched_add) once the last of its four
 * keys is read and one of them is known. */
GET(racc) { (void)s; *v = jreal(snap_sched(p)->racc_pct, 1); return true; }
SET(racc) { r->ks.racc_pct = (float)jval_dbl(v); return 0; }
GET(kmig) { (void)s; *v = jnum(snap_sched(p)->kmig_pages); return true; }
SET(kmig) { r->ks.kmig_pages = jval_i64(v); return 0; }
GET(kmig_rate) { (void)s; *v = jreal(snap_sched(p)->kmig_rate, 1); return true; }
SET(kmig_rate) { r->ks.kmig_rate = (float)jval_dbl(v); return 0; }
GET(sched_age) { (void)s; *v = jreal(snap_sched(p)->sched_age_s, 1); return true; }
SET(sched_age)
{
	r->ks.sched_age_s = (float)jval_dbl(v);
	const struct snap_sched *k = &r->ks;
	if (k->kmig_pages < 0 && k->racc_pct < 0 && k->kmig_rate < 0 && k->sched_age_s < 0)
		return 0;
	struct snap_sched *e = snapshot_sched_add(r->s);
	if (!e)
		return -ENOMEM;
	*e = *k;
	r->p->sched = e;
	return 0;
}

GET(cause)
{
	(void)s;
	const char *cause = why_cause_name(p->why);
	*v = cause ? json_object_new_string(cause) : NULL;
	return true;
}
SET(cause)
{
	int wc = jget_name(why_cause_names, WHY_NCAUSES, jval_str(v));
	r->p->why = wc >= 0 ? wc : WHY_NOT_READ;
	return 0;
}

/* The evidence and the advice: the sample's judgement (snapshot_why), or
 * for a process judged to have little remote, none; left out when its
 * placement is not known. */
GET(evidence)
{
	const struct why_result *w = snapshot_why(s, p);
	*v = NULL;
	if (!w && p->why != WHY_NONE)
		return false;
	*v = json_object_new_array();
	for (size_t k = 0; w && k < w->nevidence; k++)
		json_object_array_add(*v, json_object_new_string(w->evidence[k]));
	return true;
}

GET(advice)
{
	const struct why_result *w = snapshot_why(s, p);
	*v = NULL;
	if (!w && p->why != WHY_NONE)
		return false;
	*v = json_object_new_object();
	json_object_object_add(*v, "action", json_object_new_string(w ? why_action_names[w->action] : "none"));
	json_object_object_add(*v, "node", w && w->node >= 0 ? json_object_new_int(w->node) : NULL);
	json_object_object_add(*v, "text", json_object_new_string(w ? w->text :
						"nothing to do: little of it is remote"));
	return true;
}
/* The judgement of a recorded process with a cause, its evidence with it. */
SET(advice)
{
	struct snapshot *s = r->s;
	struct snap_proc *p = r->p;
	if (!v || p->why == WHY_NONE || p->why == WHY_NOT_READ)
		return 0;
	struct why_result *g = buf_grow_array(s->why, &s->whycap, s->nwhy + 1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	s->why = g;
	struct why_result *w = &s->why[s->nwhy];
	memset(w, 0, sizeof(*w));
	w->cause = (enum why_cause)p->why;
	json_object *ev = jget(r->obj, "remote_evidence");
	for (size_t k = 0; k < jget_len(ev) && k < WHY_MAX_EVIDENCE; k++)
		sanitize_term(json_object_get_string(json_object_array_get_idx(ev, k)) ?
			      json_object_get_string(json_object_array_get_idx(ev, k)) : "",
			      w->evidence[k], sizeof(w->evidence[k])), w->nevidence++;
	int act = jget_name(why_action_names, WHY_NACTIONS, jget_str(v, "action"));
	w->action = act >= 0 ? (enum why_action)act : WHY_ACT_NONE;
	w->node = (int)jget_i64(v, "node");
	const char *text = jget_str(v, "text");
	sanitize_term(text ? text : "", w->text, sizeof(w->text));
	p->why_idx = (long)s->nwhy++;
	return 0;
}

/* The process's access heat (access_json.c's object; read back for the
 * whole sample by access_json_read). */
GET(access) { *v = access_json_proc(s, p); return true; }

GET(cgroup)
{
	*v = p->cgroup ? jstr(p->cgroup) : NULL;
	return s->cg_layout != CGROUP_NONE || s->have_cgroups;
}
SET(cgroup)
{
	struct snapshot *s = r->s;
	const char *cgp = jval_str(v);
	if (cgp) {
		char *kept;
		if (snapshot_keep_string(s, cgp, &kept))
			return -ENOMEM;
		r->p->cgroup = kept;
		r->p->cgroup_idx = s->have_cgroups ? cgroup_find(&s->cgroups, cgp) : -1;
	}
	if (!s->cg_layout && v)
		s->cg_layout = CGROUP_V2;   /* processes' cgroups were read */
	return 0;
}

/* ---- the per-process gauges -------------------------------------------- */

static bool pv_home(const struct snapshot *s, const struct snap_proc *p, size_t node, double *v)
{
	(void)node;
	*v = p->home >= 0 ? s->topo->nodes[p->home].id : -1;
	return p->home >= 0;
}

static bool pv_memory(const struct snapshot *s, const struct snap_proc *p, size_t node, double *v)
{
	(void)s;
	*v = (double)p->node_kb[node] * 1024.0;
	return true;
}

static bool pv_remote(const struct snapshot *s, const struct snap_proc *p, size_t node, double *v)
{
	(void)s; (void)node;
	*v = (double)p->remote_kb * 1024.0;
	return true;
}

static bool pv_ratio(const struct snapshot *s, const struct snap_proc *p, size_t node, double *v)
{
	(void)s; (void)node;
	*v = snap_remote_pct(p) / 100.0;
	return snap_remote_pct(p) >= 0;
}

/* Tier and heat gauges: only with two tiers or more, and (heat) only of
 * usable heat: a stale or measured number would read as current. */
static bool pv_kb(const struct snapshot *s, int64_t kb, bool heat, const struct snap_proc *p, double *v)
{
	*v = (double)kb * 1024.0;
	return kb >= 0 && tiers_multi(&s->nk.tiers) && (!heat || access_usable(p->acc));
}

static bool pv_hot_slow(const struct snapshot *s, const struct snap_proc *p, size_t node, double *v)
{
	(void)node;
	return pv_kb(s, snap_hot_slow_kb(p), true, p, v);
}

static bool pv_cold_fast(const struct snapshot *s, const struct snap_proc *p, size_t node, double *v)
{
	(void)node;
	return pv_kb(s, snap_cold_fast_kb(p), true, p, v);
}

static bool pv_slow(const struct snapshot *s, const struct snap_proc *p, size_t node, double *v)
{
	(void)node;
	int64_t fast, slow;
	tiers_split_kb(&s->nk.tiers, p->nm == NMS_OK ? p->node_kb : NULL, &fast, &slow);
	return pv_kb(s, slow, false, p, v);
}

static bool pv_hot_remote(const struct snapshot *s, const struct snap_proc *p, size_t node, double *v)
{
	(void)s; (void)node;
	const struct access_proc *a = access_usable(p->acc);
	*v = a ? (double)a->hot_remote_kb * 1024.0 : -1;
	return a && a->hot_remote_kb >= 0;
}

/* ---- the catalogue ------------------------------------------------------ */

/* A column's part of a row: name, batch header, monitor header, help,
 * widths (negative: left-aligned), spaces before it in batch text,
 * natural order descending, per node; sort value (number or string) and
 * cell. */
#define COL(id, ...) .col_id = (id), .col = { __VA_ARGS__ }

const struct proc_field proc_fields[] = {
	{ "pid", "{\"type\": \"integer\", \"minimum\": 1}", NULL, false, false, 1, PID_LIMIT,
	  get_pid, set_pid,
	  COL(COL_PID, "PID", "PID", "PID", "process id (a thread row: its TID)",
	      7, 7, 0, false, false, v_pid, NULL, c_pid) },
	{ "ppid", S_COUNT_NULL, "Parent PID (0 for the first process); null when unknown.", false, false,
	  0, PID_LIMIT, get_ppid, set_ppid, .col_id = COL_NCOLS },
	{ "comm", S_STR, "The short name (/proc/PID/comm).", false, false, 0, 0, get_comm, set_comm,
	  COL(COL_COMMAND, "COMMAND", "COMMAND", "COMMAND",
	      "command name (the monitor, and -c: the command line)",
	      -16, -16, 1, false, false, NULL, s_comm, c_command) },
	{ "cmdline", S_STR, "The command line, arguments joined by blanks; empty for kernel threads.",
	  false, false, 0, 0, get_cmdline, set_cmdline, .col_id = COL_NCOLS },
	{ "user", S_STR, "The effective user's name (its number when it has none, ? when unknown).",
	  false, false, 0, 0, get_user, set_user,
	  COL(COL_USER, "USER", "USER", "USER", "effective user",
	      -10, -9, 1, false, false, NULL, s_user, c_user) },
	{ "uid", S_COUNT_NULL, "The effective uid; null when unknown.", false, false, 0, UINT32_MAX,
	  get_uid, set_uid, .col_id = COL_NCOLS },
	{ "state", "{\"type\": [\"string\", \"null\"], \"pattern\": \"^[!-~]$\"}",
	  "The state letter of /proc/PID/stat (R, S, D, Z, T, t, I ...); null when unknown.",
	  false, false, 0, 0, get_state, set_state, .col_id = COL_NCOLS },
	{ "kernel_thread", "{\"type\": \"boolean\"}",
	  "A kernel thread (shown only with --kernel-threads or -p).", false, false, 0, 0,
	  get_kthread, set_kthread, .col_id = COL_NCOLS },
	{ "start_ticks", S_COUNT, "Start time, clock ticks after boot (with pid, it names the process).",
	  false, false, 0, 0, get_start, set_start,
	  COL(COL_START, "START", "START", "START", "start time, after boot: H:MM:SS, or DdHHh from a day on",
	      9, 9, 1, false, false, v_start, NULL, c_start) },
	{ "threads", S_COUNT_NULL, "Threads; null when unknown.", false, false, 0, PID_LIMIT,
	  get_threads, set_threads,
	  COL(COL_THREADS, "THR", "THR", "THR", "number of threads",
	      5, 4, 1, true, false, v_threads, NULL, c_threads) },
	{ "last_cpu", S_ID_NULL, "The CPU it last ran on; null when unknown.", false, false, 0, 1 << 22,
	  get_last_cpu, set_last_cpu, .col_id = COL_NCOLS },
	{ "home_node", S_ID_NULL, "The node of last_cpu; null when unknown.", false, false,
	  0, TOPO_MAX_NODE_ID, get_home, set_home,
	  COL(COL_HOME, "HOME", "HOME", "HOME", "node where most threads last ran (main thread breaks ties)",
	      4, 5, 1, false, false, v_home, NULL, c_home),
	  "numatop_process_home_node", "Node where most of the process's threads last ran.", W_PID,
	  false, pv_home },
	{ "node_kb", S_NODE_KB, "Memory by node id, kB (numa_maps); null unless numa_maps is ok.",
	  false, true, 0, 0, get_node_kb, set_node_kb,
	  COL(COL_NODE, "N", "N", "N", "N<id>: kB resident on that node (numa_maps); N: every node",
	      10, 7, 1, true, true, v_node, NULL, c_node),
	  "numatop_process_memory_bytes", "Resident memory of the process on the node (numa_maps).",
	  W_PID, true, pv_memory },
	{ "anon_kb", S_NODE_KB, "Anonymous memory by node id, kB; null unless numa_maps is ok.",
	  false, true, 0, 0, get_anon_kb, set_anon_kb, .col_id = COL_NCOLS },
	{ "file_kb", S_NODE_KB, "File pages by node id, kB; null unless numa_maps is ok.",
	  false, true, 0, 0, get_file_kb, set_file_kb, .col_id = COL_NCOLS },
	{ "huge_kb", S_NODE_KB, "hugetlb pages by node id, kB; null unless numa_maps is ok, or when pages "
	  "of an unknown size could not be counted.", false, true, 0, 0, get_huge_kb, set_huge_kb,
	  .col_id = COL_NCOLS },
	{ "total_kb", S_KB, "The sum of node_kb and unknown_node_kb, kB; null unless numa_maps is ok.",
	  false, true, 0, 0, get_total_kb, set_total_kb, .col_id = COL_NCOLS },
	{ "remote_kb", S_KB, "kB on nodes other than home_node; null unless numa_maps is ok (or no home_node).",
	  false, true, 0, 0, get_remote_kb, set_remote_kb,
	  COL(COL_REMOTE, "REMOTE", "REMOTE", "REMOTE", "kB on nodes other than HOME",
	      10, 7, 1, true, false, v_remote, NULL, c_remote),
	  "numatop_process_remote_bytes", "Resident memory of the process on other nodes than its home node.",
	  W_PID, false, pv_remote },
	{ "unknown_node_kb", S_KB, "kB on node ids the topology lacks (neither local nor remote); null "
	  "unless numa_maps is ok.", false, true, 0, 0, get_unknown_kb, set_unknown_kb, .col_id = COL_NCOLS },
	{ "numa_maps_warnings", S_COUNT_NULL, "Lines of its numa_maps that did not parse; null unless "
	  "numa_maps is ok.", false, true, 0, 0, get_nm_warnings, set_nm_warnings, .col_id = COL_NCOLS },
	{ "remote_pct", S_PCT, "remote_kb of total_kb, %; null when either is.", false, true, 0, 0,
	  get_remote_pct, NULL,
	  COL(COL_REMOTE_PCT, "REMOTE%", "REMOTE%", "REMOTE%", "REMOTE / total resident in numa_maps",
	      7, 8, 1, true, false, v_remote_pct, NULL, c_remote_pct),
	  "numatop_process_remote_ratio",
	  "Share (0..1) of the process's resident memory on other nodes than its home node.", W_PID,
	  false, pv_ratio },
	{ "tier_kb", "{\"type\": [\"object\", \"null\"], \"propertyNames\": {\"pattern\": \"^[0-9]+$\"}, "
	  "\"additionalProperties\": {\"$ref\": \"#/$defs/count\"}}",
	  "Memory by memory tier id (memory_tierN), kB: node_kb summed over each tier's nodes; null unless "
	  "numa_maps is ok and the kernel has tiers.", false, true, 0, 0, get_tier_kb, NULL,
	  COL(COL_TIER, "T", "T", "T",
	      "T<id>: kB resident on the nodes of memory_tier<id> (numa_maps); T: every tier",
	      10, 7, 1, true, false, NULL, NULL, col_tier_cell, true, col_tier_num) },
	{ "hot_slow_kb", S_KB, "Hot kB (access heat) on the slower memory tiers, which pay the far latency; "
	  "null without an access source for it or with fewer than two tiers.", false, false, 0, 0,
	  get_hot_slow, NULL,
	  COL(COL_HOTSLOW, "HOTSLOW", "HOTSLOW", "HOTSLOW",
	      "hot kB on slower memory tiers (they pay the far latency: promote)",
	      10, 8, 1, true, false, col_hot_slow_num, NULL, col_hot_slow_cell),
	  "numatop_process_hot_slow_tier_bytes",
	  "Memory of the process accessed in its last access window (DAMON) on slower memory "
	  "tiers than the fastest (HOTSLOW): it pays the far latency; promote it.", W_PID_TIERS_ACC,
	  false, pv_hot_slow },
	{ "cold_fast_kb", S_KB, "Cold kB (untouched 5 s or more) on the fastest memory tier, room it could "
	  "make; null without an access source for it or with fewer than two tiers.", false, false, 0, 0,
	  get_cold_fast, NULL,
	  COL(COL_COLDFAST, "COLDFAST", "COLDFAST", "COLDFAST",
	      "cold kB on the fastest memory tier (room it could make: demote)",
	      10, 9, 1, true, false, col_cold_fast_num, NULL, col_cold_fast_cell),
	  "numatop_process_cold_fast_tier_bytes",
	  "Memory of the process untouched for 5 s or more (DAMON) on the fastest memory tier "
	  "(COLDFAST): room a demotion could make.", W_PID_TIERS_ACC, false, pv_cold_fast },
	{ "rss_kb", S_KB, "Resident set size, kB; null when unknown.", false, false, 0, 0,
	  get_rss_kb, set_rss_kb,
	  COL(COL_RSS, "RSS", "RSS_KB", "RSS", "resident memory (kB)",
	      10, 6, 1, true, false, v_rss, NULL, c_rss) },
	{ "cpu_pct", S_PCT, "CPU since the last sample, % of one CPU (above 100 with several threads); "
	  "null on the first sample.", false, false, 0, 0, get_cpu_pct, set_cpu_pct,
	  COL(COL_CPU, "CPU%", "CPU%", "CPU%", "CPU use since the previous sample, 100 = one CPU",
	      6, 5, 1, true, false, v_cpu, NULL, c_cpu) },
	{ "cpu_time_s", S_SECONDS, "User plus system CPU time, seconds; null when unknown.", false, false,
	  0, 0, get_cpu_time, set_cpu_time,
	  COL(COL_TIME, "TIME", "TIME", "TIME+", "CPU time used (user + system)",
	      10, 9, 1, true, false, v_time, NULL, c_time) },
	{ "policy", S_STR_NULL, "Its memory policy as numa_maps says (the largest one); null unless "
	  "numa_maps is ok.", false, true, 0, 0, get_policy, set_policy,
	  COL(COL_POLICY, "POLICY", "POLICY", "POLICY", "memory policy of the mappings (numa_maps)",
	      -24, -16, 2, false, false, NULL, s_policy, c_policy) },
	{ "mappings", S_COUNT_NULL, "Mappings in numa_maps; null unless numa_maps is ok.", false, true,
	  0, 0, get_mappings, set_mappings, .col_id = COL_NCOLS },
	{ "numa_maps", "{\"enum\": [\"not_read\", \"ok\", \"no_perm\", \"gone\", \"error\"]}",
	  "What reading /proc/PID/numa_maps gave: ok; no_perm (not readable: run as root or with "
	  "CAP_SYS_PTRACE); gone (exited); error (then numa_maps_error); not_read (the budget has not "
	  "reached it yet).", false, false, 0, 0, get_nm, set_nm, .col_id = COL_NCOLS },
	{ "placement", "{\"enum\": [\"numa_maps\", \"sampled\", null]}",
	  "numa_maps (counted) or sampled (estimated from maps and move_pages); null unless numa_maps "
	  "is ok.", false, true, 0, 0, get_placement, set_placement, .col_id = COL_NCOLS },
	{ "sample_age_s", S_SECONDS, "Age of the placement numbers, seconds; null when never read.",
	  false, false, 0, 0, get_nm_age, set_nm_age,
	  COL(COL_AGE, "AGE", "AGE", "AGE", "seconds since the placement numbers were read",
	      6, 5, 1, true, false, v_age, NULL, c_age) },
	{ "numa_maps_error", S_STR, "The error; present exactly when numa_maps is error.", true, false,
	  0, 0, get_nm_error, NULL, .col_id = COL_NCOLS },
	{ "remote_access_pct", S_PCT, "NUMA hint faults on another node than the faulting thread's, % "
	  "(RACC%); null when not read (the kernel's balancing off, not among the processes read).",
	  false, false, 0, 0, get_racc, set_racc,
	  COL(COL_RACC, "RACC%", "RACC%", "RACC%",
	      "kernel's sampled NUMA faults on another node than the thread's (NUMA balancing)",
	      7, 6, 1, true, false, v_racc, NULL, c_racc) },
	{ "kernel_migrated_pages", S_COUNT_NULL, "Pages the kernel's balancing migrated (sched "
	  "numa_pages_migrated); null when not read.", false, false, 0, 0, get_kmig, set_kmig,
	  .col_id = COL_NCOLS },
	{ "kernel_migrate_per_s", "{\"$ref\": \"#/$defs/per_s\"}", "The same, pages per second; null "
	  "when not read twice.", false, false, 0, 0, get_kmig_rate, set_kmig_rate, .col_id = COL_NCOLS },
	{ "sched_age_s", S_SECONDS, "Age of the sched numbers, seconds; null when never read.", false,
	  false, 0, 0, get_sched_age, set_sched_age, .col_id = COL_NCOLS },
	{ "remote_cause", "{\"enum\": [\"none\", \"policy\", \"cpuset\", \"shared_file\", \"spread\", "
	  "\"spill\", \"moved\", \"unknown\", \"demoted\", \"slow_tier_hot\", null]}",
	  "Why its memory is remote (see docs/why.md); null when its placement is not known yet.",
	  false, false, 0, 0, get_cause, set_cause,
	  COL(COL_WHY, "WHY", "WHY", "WHY",
	      "why REMOTE: none policy cpuset shared_file spread spill moved unknown demoted "
	      "slow_tier_hot",
	      -13, -13, 1, false, false, NULL, s_why, c_why) },
	{ "remote_evidence", "{\"type\": \"array\", \"items\": {\"type\": \"string\"}}",
	  "The evidence for remote_cause, one line each. Present with advice.", true, false, 0, 0,
	  get_evidence, NULL, .col_id = COL_NCOLS },
	{ "advice", "{\"$ref\": \"#/$defs/advice\"}", NULL, true, false, 0, 0, get_advice, set_advice,
	  COL(COL_ADVICE, "ADVICE", "ADVICE", "ADVICE",
	      "the one fix in short: migrate->N<id>, rebind->N<id>, hot->N<id> (its hot part), "
	      "wait (heat not usable yet), none; the whole advice: x, detail, JSON",
	      -13, -13, 1, false, false, NULL, NULL, c_advice) },
	{ "access", "{\"$ref\": \"#/$defs/access_proc\"}", NULL, true, false, 0, 0, get_access, NULL,
	  .col_id = COL_NCOLS },
	{ "cgroup", S_STR_NULL, "Its cgroup's path in the memory hierarchy; null when unknown. Present "
	  "when the machine has cgroups.", true, false, 0, 0, get_cgroup, set_cgroup,
	  COL(COL_CGROUP, "CGROUP", "CGROUP", "CGROUP",
	      "cgroup: systemd unit, container id (12), pod; the path in JSON",
	      -20, -19, 1, false, false, NULL, s_cgroup, c_cgroup) },
	/* Columns of facts the JSON has in the access object (access_json.c)
	 * or that come from the sample's tier model. */
	{ NULL, NULL, NULL, false, false, 0, 0, NULL, NULL,
	  COL(COL_HOT, "HOT", "HOT_KB", "HOT", "kB accessed in the last DAMON interval (access heat)",
	      10, 6, 1, true, false, v_hot, NULL, c_hot) },
	{ NULL, NULL, NULL, false, false, 0, 0, NULL, NULL,
	  COL(COL_HOTREM, "HOTREM", "HOTREM_KB", "HOTREM", "hot kB on nodes where none of its threads works",
	      10, 7, 1, true, false, v_hotrem, NULL, c_hotrem),
	  "numatop_process_hot_remote_bytes",
	  "Memory of the process accessed in its last access window (DAMON) on nodes where "
	  "none of its threads works (HOTREM).", W_PID_ACC, false, pv_hot_remote },
	{ NULL, NULL, NULL, false, false, 0, 0, NULL, NULL,
	  COL(COL_HOTREM_PCT, "HOTREM%", "HOTREM%", "HOTREM%", "HOTREM / HOT",
	      8, 8, 1, true, false, v_hotrem_pct, NULL, c_hotrem_pct) },
	{ NULL, NULL, NULL, false, false, 0, 0, NULL, NULL,
	  COL(COL_FAST, "FAST", "FAST", "FAST", "kB on the fastest memory tier (memory_tierN, the lowest N)",
	      10, 7, 1, true, false, NULL, NULL, col_fast_cell, false, col_fast_num) },
	{ NULL, NULL, NULL, false, false, 0, 0, NULL, NULL,
	  COL(COL_SLOW, "SLOW", "SLOW", "SLOW", "kB on slower memory tiers (CXL, far memory: CPU-less nodes)",
	      10, 7, 1, true, false, NULL, NULL, col_slow_cell, false, col_slow_num),
	  "numatop_process_slow_tier_bytes",
	  "Resident memory of the process on slower memory tiers than the fastest.", W_PID_TIERS,
	  false, pv_slow },
	{ NULL, NULL, NULL, false, false, 0, 0, NULL, NULL,
	  COL(COL_SLOW_PCT, "SLOW%", "SLOW%", "SLOW%", "SLOW / total resident in numa_maps",
	      6, 6, 1, true, false, NULL, NULL, col_slow_pct_cell, false, col_slow_pct_num) },
};
const size_t proc_nfields = sizeof(proc_fields) / sizeof(proc_fields[0]);

const struct proc_field *fields_proc_col(enum snap_col c)
{
	for (size_t i = 0; i < proc_nfields; i++)
		if (proc_fields[i].col.name && proc_fields[i].col_id == c)
			return &proc_fields[i];
	return NULL;
}

json_object *fields_proc_json(const struct snapshot *s, const struct snap_proc *p)
{
	json_object *o = json_object_new_object();
	for (size_t i = 0; i < proc_nfields; i++) {
		json_object *v = NULL;
		if (proc_fields[i].key && proc_fields[i].get(s, p, &v))
			json_object_object_add(o, proc_fields[i].key, v);
	}
	return o;
}

int fields_proc_read(struct snapshot *s, json_object *o, struct snap_proc *p, int64_t *kb)
{
	size_t nn = s->topo->nnodes;
	memset(p, 0, sizeof(*p));
	p->node_kb = kb;
	for (size_t j = 0; j < nn; j++)
		snap_kb(p, nn, SNAP_KB_POL)[j] = 0;
	p->pol_mode = -1;
	p->pol_top = "";
	p->unknown_node_id = -1;
	p->moved_from = -1;
	p->rss_growth_kb = -1;
	p->why_idx = -1;
	p->cgroup_idx = -1;
	struct fields_proc_read r = { s, p, o, { -1, -1, -1, -1 } };
	for (size_t i = 0; i < proc_nfields; i++) {
		const struct proc_field *f = &proc_fields[i];
		int rc = f->key && f->set ? f->set(&r, jget(o, f->key)) : 0;
		if (rc)
			return rc;
	}
	return 0;
}
