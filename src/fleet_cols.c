/* fleet_cols.c - the hosts table's columns, one row each: header, width,
 * the order in which a narrow terminal leaves them out, the sort value
 * and the cell. The batch text (--fleet -b) and the Fleet screen both
 * walk it. */
#include "fleet.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "sanitize.h"

/* Bytes as the monitor shows them (fmt_human_kb), "-" unknown. */
static void bytes(char *out, size_t n, double b)
{
	if (b < 0 || isnan(b))
		snprintf(out, n, "-");
	else
		fmt_human_kb(out, n, (int64_t)(b / 1024));
}

static void rate(char *out, size_t n, double r)
{
	if (r < 0 || isnan(r))
		snprintf(out, n, "-");
	else
		snprintf(out, n, "%.0f", r);
}

static bool known(double x, double *v)
{
	*v = x;
	return x >= 0 && !isnan(x);
}

static void c_instance(const struct fleet_host *h, char *o, size_t n) { sanitize_term(h->instance ? h->instance : "", o, n); }
static void c_up(const struct fleet_host *h, char *o, size_t n) { snprintf(o, n, "%s", h->up < 0 ? "-" : h->up ? "up" : "DOWN"); }
static bool n_up(const struct fleet_host *h, double *v) { return known(h->up, v); }
static void c_age(const struct fleet_host *h, char *o, size_t n)
{
	if (h->age_s < 0)
		snprintf(o, n, "-");
	else
		fmt_age(o, n, h->age_s);
}
static bool n_age(const struct fleet_host *h, double *v) { return known(h->age_s, v); }
static void c_nodes(const struct fleet_host *h, char *o, size_t n) { snprintf(o, n, "%zu", h->nnodes); }
static bool n_nodes(const struct fleet_host *h, double *v) { *v = (double)h->nnodes; return true; }
static void c_remote(const struct fleet_host *h, char *o, size_t n) { bytes(o, n, h->remote_bytes); }
static bool n_remote(const struct fleet_host *h, double *v) { return known(h->remote_bytes, v); }
static void c_hot(const struct fleet_host *h, char *o, size_t n) { bytes(o, n, h->hot_remote_bytes); }
static bool n_hot(const struct fleet_host *h, double *v) { return known(h->hot_remote_bytes, v); }
static void c_slow(const struct fleet_host *h, char *o, size_t n) { bytes(o, n, h->hot_slow_bytes); }
static bool n_slow(const struct fleet_host *h, double *v) { return known(h->hot_slow_bytes, v); }
static void c_promo(const struct fleet_host *h, char *o, size_t n) { rate(o, n, h->promote_pps); }
static bool n_promo(const struct fleet_host *h, double *v) { return known(h->promote_pps, v); }
static void c_demo(const struct fleet_host *h, char *o, size_t n) { rate(o, n, h->demote_pps); }
static bool n_demo(const struct fleet_host *h, double *v) { return known(h->demote_pps, v); }
static void c_heat(const struct fleet_host *h, char *o, size_t n) { sanitize_term(h->heat_source[0] ? h->heat_source : "-", o, n); }
static void c_version(const struct fleet_host *h, char *o, size_t n) { sanitize_term(h->version[0] ? h->version : "-", o, n); }

/* The worst process: its command and PID, and its hot remote bytes (said
 * "hot") or else its remote bytes. */
static void c_worst(const struct fleet_host *h, char *o, size_t n)
{
	if (!h->ntop) {
		snprintf(o, n, "-");
		return;
	}
	const struct fleet_proc *p = &h->top[0];
	char comm[96], b[16];
	sanitize_term(p->comm, comm, sizeof(comm));
	bool hot = p->hot_remote_bytes >= 0;
	bytes(b, sizeof(b), hot ? p->hot_remote_bytes : p->remote_bytes);
	if (p->pid >= 0)
		snprintf(o, n, "%s/%ld %s%s", comm, p->pid, b, hot ? " hot" : "");
	else
		snprintf(o, n, "%s %s%s", comm, b, hot ? " hot" : "");
}
static bool n_worst(const struct fleet_host *h, double *v)
{
	if (!h->ntop)
		return false;
	const struct fleet_proc *p = &h->top[0];
	return known(p->hot_remote_bytes >= 0 ? p->hot_remote_bytes : p->remote_bytes, v);
}

static void c_used(const struct fleet_host *h, char *o, size_t n)
{
	size_t len = 0;
	o[0] = '\0';
	for (size_t j = 0; j < h->nnodes && len + 1 < n; j++) {
		char b[16];
		bytes(b, sizeof(b), h->nodes[j].used_bytes);
		int w = snprintf(o + len, n - len, "%sN%ld %s", j ? " " : "", h->nodes[j].id, b);
		if (w < 0 || (size_t)w >= n - len)
			break;
		len += (size_t)w;
	}
	if (!h->nnodes)
		snprintf(o, n, "-");
}
static bool n_used(const struct fleet_host *h, double *v)
{
	double s = 0;
	for (size_t j = 0; j < h->nnodes; j++)
		s += h->nodes[j].used_bytes > 0 ? h->nodes[j].used_bytes : 0;
	*v = s;
	return h->nnodes > 0;
}

static void c_labels(const struct fleet_host *h, char *o, size_t n)
{
	char raw[1024];
	size_t len = 0;
	raw[0] = '\0';
	int w = snprintf(raw, sizeof(raw), "job=%s", h->job ? h->job : "");
	len = w > 0 && (size_t)w < sizeof(raw) ? (size_t)w : 0;
	for (size_t k = 0; k < h->nlabels && len + 1 < sizeof(raw); k++) {
		w = snprintf(raw + len, sizeof(raw) - len, " %s=%s", h->lnames[k], h->lvalues[k]);
		if (w < 0 || (size_t)w >= sizeof(raw) - len)
			break;
		len += (size_t)w;
	}
	sanitize_term(raw, o, n);
}

const struct fleet_col fleet_cols[] = {
	{ "INSTANCE", -32, 0, "the exporter's instance label (host:port of the target)", NULL, c_instance },
	{ "UP", -4, 0, "up: its last scrape worked; DOWN: it failed (the series of the hour kept)", n_up,
	  c_up },
	{ "AGE", 5, 8, "age of its last sample", n_age, c_age },
	{ "NODES", 6, 2, "NUMA nodes", n_nodes, c_nodes },
	{ "REMOTE", 7, 0, "its processes' memory on other nodes than their home node, all of them", n_remote,
	  c_remote },
	{ "HOTREM", 7, 0, "the part of it that DAMON saw accessed (-: no access heat on the host)", n_hot,
	  c_hot },
	{ "HOTSLOW", 8, 6, "hot memory on slower memory tiers (-: no heat or no tiers)", n_slow, c_slow },
	{ "PROMO/s", 8, 4, "pages promoted per second, 5 min (memory tiers)", n_promo, c_promo },
	{ "DEMO/s", 7, 3, "pages demoted per second, 5 min (memory tiers)", n_demo, c_demo },
	{ "HEAT", -5, 5, "the access heat's source (damon) or none", NULL, c_heat },
	{ "VERSION", -8, 1, "the exporter's numatop-tui version", NULL, c_version },
	{ "WORST", -30, 0, "the process with the most hot remote (\"hot\") or else remote memory", n_worst,
	  c_worst },
	{ "USED/NODE", -16, 7, "memory in use on each node (MemTotal - MemFree)", n_used, c_used },
	{ "LABELS", -30, 0, "the other target labels (l)", NULL, c_labels },
};
const size_t fleet_ncols = sizeof(fleet_cols) / sizeof(fleet_cols[0]);

int fleet_col_cmp(size_t c, const struct fleet_host *a, const struct fleet_host *b)
{
	const struct fleet_col *k = &fleet_cols[c];
	if (!k->num) {
		char x[1024], y[1024];
		k->cell(a, x, sizeof(x));
		k->cell(b, y, sizeof(y));
		return strcmp(x, y);
	}
	double x, y;
	bool kx = k->num(a, &x), ky = k->num(b, &y);
	if (kx != ky)
		return kx ? -1 : 1;
	if (kx && x != y)
		return x > y ? -1 : 1;       /* numbers: largest first */
	if (c == FLEET_COL_HOTREM)       /* the fleet's order: then remote */
		return fleet_col_cmp(FLEET_COL_REMOTE, a, b);
	return 0;
}
