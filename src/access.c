/* access.c - the words of the access sources, the heat of a region, and
 * the join of a process's regions with its placement (see access.h). */
#include "access.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const access_source_names[ACCESS_NSRC] = { "none", "damon", "numa_balancing" };
const char *const access_why_names[ACCESS_NWHY] = {
	"on", "off", "no_damon", "no_vaddr", "not_root", "in_use", "not_yet", "recorded", "error",
	"stale", "measuring", "unseen",
};
const char *const access_heat_names[3] = { "hot", "warm", "cold" };

static const char *const why_text[ACCESS_NWHY] = {
	"DAMON watches it",
	"access monitoring is off (--access off)",
	"kernel without DAMON (CONFIG_DAMON_SYSFS)",
	"kernel without DAMON for processes (CONFIG_DAMON_VADDR)",
	"DAMON needs root",
	"DAMON is in use by someone else",
	"not monitored yet (waiting for its turn)",
	"the recorded tree has no DAMON results",
	"DAMON failed",
	"heat not fresh: DAMON has said nothing newer for two windows",
	"measuring heat: DAMON's regions have not settled yet",
	"heat not seen: it ran on its CPU but DAMON saw none of its memory accessed",
};

const char *access_why_text(enum access_why w)
{
	return (unsigned)w < ACCESS_NWHY ? why_text[w] : "unknown";
}

/* The windows counted over, at least a second's worth of them. */
static double window_of(const struct access_proc *a)
{
	return a->window_s > 0 ? a->window_s : 1.0;
}

static double settle_s(const struct access_proc *a)
{
	return ACCESS_SETTLE_WINDOWS * window_of(a);
}

enum access_trust access_proc_trust(const struct access_proc *a)
{
	if (!a || a->age_s < 0 || a->age_s > ACCESS_STALE_WINDOWS * window_of(a))
		return ACCESS_TRUST_STALE;
	if (a->unseen)
		return ACCESS_TRUST_UNSEEN;
	if (a->monitored_s < settle_s(a))
		return ACCESS_TRUST_MEASURING;
	return ACCESS_USABLE;
}

const struct access_proc *access_usable(const struct access_proc *a)
{
	return a && access_proc_trust(a) == ACCESS_USABLE ? a : NULL;
}

double access_settle_left_s(const struct access_proc *a)
{
	if (!a)
		return 0;
	double left = settle_s(a) - a->monitored_s;
	return left > 0 ? left : 0;
}

const char *access_trust_text(const struct access_proc *a, char *buf, size_t n)
{
	switch (access_proc_trust(a)) {
	case ACCESS_TRUST_MEASURING:
		snprintf(buf, n, "measuring heat (%.0f s left)", ceil(access_settle_left_s(a)));
		break;
	case ACCESS_TRUST_STALE:
		if (a && a->age_s >= 0)
			snprintf(buf, n, "heat not fresh: read %.0f s ago", a->age_s);
		else
			snprintf(buf, n, "heat not known");
		break;
	case ACCESS_TRUST_UNSEEN:
		snprintf(buf, n, "heat not seen: it ran on its CPU but DAMON saw none of its "
			 "memory accessed");
		break;
	default:
		if (n)
			buf[0] = '\0';
	}
	return buf;
}

enum access_why access_trust_why(enum access_trust t)
{
	switch (t) {
	case ACCESS_TRUST_MEASURING: return ACCESS_MEASURING;
	case ACCESS_TRUST_STALE: return ACCESS_STALE;
	case ACCESS_TRUST_UNSEEN: return ACCESS_UNSEEN;
	default: return ACCESS_ON;
	}
}

static int find(const char *const *v, int n, const char *name)
{
	for (int i = 0; name && i < n; i++)
		if (strcmp(v[i], name) == 0)
			return i;
	return -1;
}

int access_why_parse(const char *name)
{
	return find(access_why_names, ACCESS_NWHY, name);
}

int access_source_parse(const char *name)
{
	return find(access_source_names, ACCESS_NSRC, name);
}

bool access_source_measures(enum access_source s)
{
	return s != ACCESS_SRC_NONE && s != ACCESS_SRC_NUMAB && s < ACCESS_NSRC;
}

bool access_source_name_measures(const char *name)
{
	int s = name ? access_source_parse(name) : -1;
	return s >= 0 && access_source_measures((enum access_source)s);
}

double access_region_idle_s(const struct access_range *r, double aggr_s)
{
	if (r->nr_accesses < 0 || aggr_s <= 0)
		return -1;
	if (r->nr_accesses > 0)
		return 0;
	return r->age < 0 ? -1 : (double)r->age * aggr_s;
}

enum access_heat access_region_heat(const struct access_range *r, double aggr_s)
{
	if (r->nr_accesses > 0)
		return ACCESS_HOT;
	double idle = access_region_idle_s(r, aggr_s);
	return idle >= ACCESS_COLD_S ? ACCESS_COLD : ACCESS_WARM;
}

/* Hottest first: more accesses, then the rate kept longer, then lower. */
static int by_heat(const void *a, const void *b)
{
	const struct access_region *x = a, *y = b;
	if (x->heat != y->heat)
		return x->heat < y->heat ? -1 : 1;
	if (x->nr_accesses != y->nr_accesses)
		return x->nr_accesses > y->nr_accesses ? -1 : 1;
	if (x->heat != ACCESS_HOT && x->age_s != y->age_s)
		return x->age_s < y->age_s ? -1 : 1;   /* warm: touched more recently first */
	if (x->heat == ACCESS_HOT && x->age_s != y->age_s)
		return x->age_s > y->age_s ? -1 : 1;
	return (x->start > y->start) - (x->start < y->start);
}

static bool remote_at(const struct access_join_in *in, size_t k)
{
	if (in->work) {
		bool any = false;
		for (size_t i = 0; i < in->nnodes; i++)
			any |= in->work[i];
		if (any)
			return !in->work[k];
	}
	return in->home >= 0 && (size_t)in->home != k;
}

void access_join(const struct access_join_in *in, struct access_proc *out,
		 struct access_region *reg, size_t maxreg, size_t *nreg,
		 int64_t *reg_kb)
{
	size_t nn = in->nnodes;
	for (size_t k = 0; k < nn; k++)
		out->hot_node_kb[k] = out->warm_node_kb[k] = out->cold_node_kb[k] = 0;
	out->hot_kb = out->warm_kb = out->cold_kb = out->hot_remote_kb = -1;
	out->hot_remote_pct = out->cold_remote_idle_s = -1;
	out->window_s = in->aggr_s;
	*nreg = 0;
	bool known = in->aggr_s > 0;
	int maxacc = in->sample_s > 0 && in->aggr_s > 0 ?
		     (int)(in->aggr_s / in->sample_s + 0.5) : -1;
	double idle_min = -1;
	int64_t hot = 0, warm = 0, hotrem = 0;
	for (size_t i = 0; i < in->n && known; i++) {
		struct access_range capped = in->r[i];
		const struct access_range *r = &capped;
		if (in->max_age_s > 0 && capped.age >= 0 &&
		    (double)capped.age * in->aggr_s > in->max_age_s)
			capped.age = (int64_t)(in->max_age_s / in->aggr_s);
		enum access_heat h = access_region_heat(r, in->aggr_s);
		if (h == ACCESS_COLD) {
			/* Where cold pages are: numa_maps less hot and warm. */
			double idle = access_region_idle_s(r, in->aggr_s);
			if (idle_min < 0 || idle < idle_min)
				idle_min = idle;
			continue;
		}
		const int64_t *kb = in->reg_node_kb ? in->reg_node_kb + i * nn : NULL;
		int64_t res = 0;
		for (size_t k = 0; kb && k < nn; k++) {
			if (kb[k] < 0) {
				res = -1;
				break;
			}
			res += kb[k];
		}
		if (!kb || res < 0) {
			known = false;        /* a hot region of unknown placement */
			break;
		}
		for (size_t k = 0; k < nn; k++) {
			if (h == ACCESS_HOT) {
				out->hot_node_kb[k] += kb[k];
				if (remote_at(in, k))
					hotrem += kb[k];
			} else {
				out->warm_node_kb[k] += kb[k];
			}
		}
		if (h == ACCESS_HOT)
			hot += res;
		else
			warm += res;
		if (res > 0 && *nreg < maxreg) {
			struct access_region *o = &reg[(*nreg)++];
			o->start = r->start;
			o->end = r->end;
			o->nr_accesses = r->nr_accesses;
			o->max_accesses = maxacc;
			o->age_s = r->age >= 0 ? (double)r->age * in->aggr_s : -1;
			o->heat = h;
			o->resident_kb = res;
			o->kb_off = (size_t)(o - reg) * nn;
			memcpy(reg_kb + o->kb_off, kb, nn * sizeof(*kb));
		}
	}
	if (!known) {
		*nreg = 0;
		for (size_t k = 0; k < nn; k++)
			out->hot_node_kb[k] = out->warm_node_kb[k] = out->cold_node_kb[k] = -1;
		return;
	}
	/* Sorting moves the regions; their kB blocks move with them. */
	if (*nreg > 1) {
		int64_t *tmp = malloc(*nreg * (nn ? nn : 1) * sizeof(*tmp));
		if (tmp) {
			memcpy(tmp, reg_kb, *nreg * nn * sizeof(*tmp));
			qsort(reg, *nreg, sizeof(*reg), by_heat);
			for (size_t j = 0; j < *nreg; j++) {
				memcpy(reg_kb + j * nn, tmp + reg[j].kb_off, nn * sizeof(*tmp));
				reg[j].kb_off = j * nn;
			}
			free(tmp);
		}
	}
	out->hot_kb = hot;
	out->warm_kb = warm;
	out->hot_remote_kb = hotrem;
	out->hot_remote_pct = hot > 0 ? 100.0 * (double)hotrem / (double)hot : -1;
	if (!in->node_kb) {
		for (size_t k = 0; k < nn; k++)
			out->cold_node_kb[k] = -1;
		return;
	}
	int64_t cold = 0;
	bool cold_remote = false;
	for (size_t k = 0; k < nn; k++) {
		int64_t c = in->node_kb[k] < 0 ? 0 :
			    in->node_kb[k] - out->hot_node_kb[k] - out->warm_node_kb[k];
		out->cold_node_kb[k] = c > 0 ? c : 0;
		cold += out->cold_node_kb[k];
		cold_remote |= out->cold_node_kb[k] > 0 && remote_at(in, k);
	}
	out->cold_kb = cold;
	out->cold_remote_idle_s = cold_remote ? idle_min : -1;
}
