/* snapshot_tiers.c - per tier sums and the tier lines (snapshot_tiers.h). */
#include "snapshot_tiers.h"

#include <stdio.h>

#include "format.h"

static double rate_sum(double a, double b)
{
	if (a < 0 && b < 0)
		return -1;
	return (a > 0 ? a : 0) + (b > 0 ? b : 0);
}

double snapshot_node_promote_rate(const struct snapshot *s, size_t i)
{
	if (!s->nk.node_rate || !s->topo || i >= s->topo->nnodes)
		return -1;
	return s->nk.node_rate[i][NVM_PGPROMOTE_SUCCESS];
}

double snapshot_node_demote_rate(const struct snapshot *s, size_t i)
{
	if (!s->nk.node_rate || !s->topo || i >= s->topo->nnodes)
		return -1;
	return rate_sum(s->nk.node_rate[i][NVM_PGDEMOTE_KSWAPD], s->nk.node_rate[i][NVM_PGDEMOTE_DIRECT]);
}

static int64_t count_sum(int64_t a, int64_t b)
{
	if (a < 0 && b < 0)
		return -1;
	return (a > 0 ? a : 0) + (b > 0 ? b : 0);
}

void snapshot_tier_sum(const struct snapshot *s, size_t j, struct tier_sum *out)
{
	*out = (struct tier_sum){ -1, -1, -1, -1, -1, -1 };
	const struct tier_model *m = &s->nk.tiers;
	if (j >= m->ntiers || !s->topo)
		return;
	for (size_t i = 0; i < m->nnodes && i < s->topo->nnodes; i++) {
		if (m->node[i].order != (int)j)
			continue;
		const struct node_sample *ns = s->nodes ? &s->nodes[i] : NULL;
		if (ns && ns->mem_rc == 0) {
			out->total_kb = count_sum(out->total_kb, ns->mem.mem_total_kb);
			out->free_kb = count_sum(out->free_kb, ns->mem.mem_free_kb);
		}
		out->promote_rate = rate_sum(out->promote_rate, snapshot_node_promote_rate(s, i));
		out->demote_rate = rate_sum(out->demote_rate, snapshot_node_demote_rate(s, i));
		if (s->nk.node) {
			const int64_t *v = s->nk.node[i].v;
			out->promoted = count_sum(out->promoted, v[NVM_PGPROMOTE_SUCCESS]);
			out->demoted = count_sum(out->demoted,
						 count_sum(v[NVM_PGDEMOTE_KSWAPD], v[NVM_PGDEMOTE_DIRECT]));
		}
	}
}

/* "80 ns 20.0 GB/s", "- ns 5.0 GB/s"; "" when both are unknown. */
static void speed(int64_t lat, int64_t bw, char *out, size_t n)
{
	char l[24], b[24];
	if (lat < 0 && bw < 0) {
		out[0] = '\0';
		return;
	}
	if (lat >= 0)
		snprintf(l, sizeof(l), "%lld ns", (long long)lat);
	else
		snprintf(l, sizeof(l), "- ns");
	if (bw >= 0)
		snprintf(b, sizeof(b), "%.1f GB/s", (double)bw / 1000.0);
	else
		snprintf(b, sizeof(b), "- GB/s");
	snprintf(out, n, "  %s %s", l, b);
}

void snapshot_tier_text(const struct snapshot *s, size_t j, char *out, size_t n)
{
	const struct tier_model *m = &s->nk.tiers;
	out[0] = '\0';
	if (j >= m->ntiers)
		return;
	const struct tier_info *t = &m->tier[j];
	char nodes[96], sp[64], used[16], tot[16], pr[16], de[16];
	size_t o = 0;
	nodes[0] = '\0';
	for (size_t i = 0; i < m->nnodes && o < sizeof(nodes) - 8; i++)
		if (m->node[i].order == (int)j)
			o += (size_t)snprintf(nodes + o, sizeof(nodes) - o, "%sN%d", o ? "," : "", m->node[i].id);
	speed(t->read_lat_ns, t->read_bw_mbs, sp, sizeof(sp));
	struct tier_sum ts;
	snapshot_tier_sum(s, j, &ts);
	fmt_human_kb(used, sizeof(used), ts.total_kb >= 0 && ts.free_kb >= 0 && ts.free_kb <= ts.total_kb ?
		     ts.total_kb - ts.free_kb : -1);
	fmt_human_kb(tot, sizeof(tot), ts.total_kb);
	fmt_rate(pr, sizeof(pr), ts.promote_rate);
	fmt_rate(de, sizeof(de), ts.demote_rate);
	snprintf(out, n, "tier%d  %-7s %s  %s%s  used %s of %s  promoted in %s  demoted out %s", t->id,
		 j == 0 ? "fastest" : j + 1 == m->ntiers ? "slowest" : "", nodes,
		 t->cpus ? "CPUs" : "memory only", sp, used, tot, pr, de);
}

void snapshot_tiering_text(const struct snapshot *s, char *out, size_t n)
{
	const struct tier_model *m = &s->nk.tiers;
	char lim[48];
	if (m->promote_limit_mbps >= 0)
		snprintf(lim, sizeof(lim), "%lld MB/s", (long long)m->promote_limit_mbps);
	else
		snprintf(lim, sizeof(lim), "-");
	snprintf(out, n, "tiering: balancing %s, demotion %s, promotion limit %s",
		 snapshot_balancing_name(s->nk.balancing),
		 m->demotion > 0 ? "on" : m->demotion == 0 ? "off" : "-", lim);
}

void snapshot_tiers_heat(struct snapshot *s)
{
	const struct tier_model *m = &s->nk.tiers;
	bool multi = tiers_multi(m) && s->topo && m->nnodes == s->topo->nnodes;
	for (size_t i = 0; i < s->nacc; i++) {
		struct access_proc *a = &s->acc[i];
		a->hot_slow_kb = a->cold_fast_kb = -1;
		if (!multi)
			continue;
		int64_t fast, slow;
		if (a->hot_kb >= 0) {
			tiers_split_kb(m, a->hot_node_kb, &fast, &slow);
			a->hot_slow_kb = slow;
		}
		if (a->cold_kb >= 0) {
			tiers_split_kb(m, a->cold_node_kb, &fast, &slow);
			a->cold_fast_kb = fast;
		}
	}
}
