/* output_prom.c - the Prometheus text exposition (0.0.4) and OpenMetrics
 * (1.0.0) of a snapshot: per node memory, CPU time, NUMA events and
 * distances (and the measured latency and bandwidth when there is a
 * measurement), the processes with the most remote memory
 * (output_prom_proc.c), the access heat, and the exporter's own cost. Units in names,
 * counters end in _total, HELP and TYPE for every family; the families
 * and their labels are one table (output_prom_fam.c). */
#include "output.h"

#include <errno.h>

#include "measure_io.h"
#include "node_fields.h"
#include "output_prom_int.h"
#include "snapshot_tiers.h"

static void node_memory(const struct expo *e, const struct snapshot *s)
{
	const struct topology *t = s->topo;
	for (size_t k = 0; k < node_nfields; k++) {
		const struct node_field *nf = &node_fields[k];
		if (!nf->prom)
			continue;
		struct prom_family f = prom_node_family(nf);
		prom_head_row(e, &f);
		for (size_t i = 0; i < t->nnodes; i++) {
			double v = nf->get(s, i);
			if (v >= 0)
				prom_sample_row(e, &f, (const char *[]){ prom_num(t->nodes[i].id).s },
				       nf->unit == NF_KB ? prom_kb_bytes((int64_t)v) : v);
		}
	}
	prom_head(e, F_NODE_CPUS);
	for (size_t i = 0; i < t->nnodes; i++)
		prom_sample(e, F_NODE_CPUS, (const char *[]){ prom_num(t->nodes[i].id).s },
			   (double)t->nodes[i].ncpus_online);
}

static void node_cpu(const struct expo *e, const struct snapshot *s)
{
	static const char *const modes[] = { "user", "nice", "system", "idle", "iowait",
					     "irq", "softirq", "steal" };
	const struct topology *t = s->topo;
	prom_head(e, F_NODE_CPU_SECONDS);
	for (size_t i = 0; s->node_ticks && i < t->nnodes; i++) {
		const struct cpu_ticks *k = &s->node_ticks[i];
		for (int m = 0; m < (int)(sizeof(modes) / sizeof(modes[0])) && m < k->nfields; m++)
			prom_sample(e, F_NODE_CPU_SECONDS, (const char *[]){ prom_num(t->nodes[i].id).s, modes[m] },
				   parse_ticks_s(k->t[m]));
	}
	prom_head(e, F_NODE_NUMA_EVENTS);
	for (size_t i = 0; i < t->nnodes; i++) {
		if (s->nodes[i].numastat_rc)
			continue;
		for (int k = 0; k < NUMASTAT_NKEYS; k++)
			if (s->nodes[i].ns.v[k] >= 0)
				prom_sample(e, F_NODE_NUMA_EVENTS,
					   (const char *[]){ prom_num(t->nodes[i].id).s, numastat_names[k] },
					   (double)s->nodes[i].ns.v[k]);
	}
}

static void distances(const struct expo *e, const struct snapshot *s, const struct measure_result *m)
{
	const struct topology *t = s->topo;
	prom_head(e, F_NODE_DISTANCE);
	for (size_t i = 0; i < t->nnodes; i++)
		for (size_t j = 0; j < t->nnodes; j++) {
			int d = topology_distance(t, i, j);
			if (d >= 0)
				prom_sample(e, F_NODE_DISTANCE,
					   (const char *[]){ prom_num(t->nodes[i].id).s, prom_num(t->nodes[j].id).s }, d);
		}
	if (!m || m->n != t->nnodes)
		return;
	prom_head(e, F_NODE_LATENCY);
	for (size_t i = 0; i < m->n; i++)
		for (size_t j = 0; j < m->n; j++)
			if (measure_at(m, i, j)->lat_ns > 0)
				prom_sample(e, F_NODE_LATENCY,
					   (const char *[]){ prom_num(m->node_ids[i]).s, prom_num(m->node_ids[j]).s },
					   measure_at(m, i, j)->lat_ns / 1e9);
	prom_head(e, F_NODE_BANDWIDTH);
	for (size_t i = 0; i < m->n; i++)
		for (size_t j = 0; j < m->n; j++)
			if (measure_at(m, i, j)->bwall_gbs > 0)
				prom_sample(e, F_NODE_BANDWIDTH,
					   (const char *[]){ prom_num(m->node_ids[i]).s, prom_num(m->node_ids[j]).s },
					   measure_at(m, i, j)->bwall_gbs * 1e9);
	if (m->when > 0) {
		prom_head(e, F_MEAS_TIME);
		prom_sample(e, F_MEAS_TIME, NULL, (double)m->when);
	}
}

static void self(const struct expo *e, const struct snapshot *s, const struct output_stats *st)
{
	prom_head(e, F_BUILD);
	prom_sample(e, F_BUILD, (const char *[]){ NUMATOP_VERSION }, 1);
	prom_head(e, F_PROCESSES);
	prom_sample(e, F_PROCESSES, NULL, (double)s->nprocs);
	prom_head(e, F_WARNINGS);
	prom_sample(e, F_WARNINGS, NULL, (double)(s->topo->nwarnings + snapshot_warnings(s, NULL, NULL)));
	if (!st)
		return;
	prom_head(e, F_SCRAPE_DURATION);
	prom_sample(e, F_SCRAPE_DURATION, NULL, st->last_duration_s);
	prom_head(e, F_SAMPLE_CPU);
	prom_sample(e, F_SAMPLE_CPU, NULL, st->cpu_seconds);
	prom_head(e, F_SAMPLES);
	prom_sample(e, F_SAMPLES, NULL, (double)st->samples);
	prom_head(e, F_NM_READS);
	prom_sample(e, F_NM_READS, (const char *[]){ "exact" }, (double)st->nm_exact);
	prom_sample(e, F_NM_READS, (const char *[]){ "sampled" }, (double)st->nm_sampled);
}

/* The memory tiers: each node's, each tier's order, nodes, HMAT figures,
 * memory and the kernel's promotions and demotions. */
static void tiers(const struct expo *e, const struct snapshot *s)
{
	const struct tier_model *m = &s->nk.tiers;
	const struct topology *t = s->topo;
	prom_head(e, F_NODE_TIER);
	for (size_t i = 0; i < t->nnodes && i < m->nnodes; i++)
		if (m->node[i].tier >= 0)
			prom_sample(e, F_NODE_TIER, (const char *[]){ prom_num(t->nodes[i].id).s },
				    m->node[i].tier);
	static const enum fam per_tier[] = { F_TIER_ORDER, F_TIER_NODES, F_TIER_LATENCY, F_TIER_BANDWIDTH,
					     F_TIER_TOTAL, F_TIER_FREE, F_TIER_PROMOTED, F_TIER_DEMOTED };
	for (size_t k = 0; k < sizeof(per_tier) / sizeof(*per_tier); k++) {
		enum fam f = per_tier[k];
		prom_head(e, f);
		for (size_t j = 0; j < m->ntiers; j++) {
			const struct tier_info *ti = &m->tier[j];
			struct tier_sum ts;
			snapshot_tier_sum(s, j, &ts);
			struct prom_num id = prom_num(ti->id);
			double v = f == F_TIER_ORDER ? ti->order : f == F_TIER_NODES ? (double)ti->nnodes :
				   f == F_TIER_LATENCY ? (ti->read_lat_ns >= 0 ? ti->read_lat_ns / 1e9 : -1) :
				   f == F_TIER_BANDWIDTH ? (ti->read_bw_mbs >= 0 ? ti->read_bw_mbs * 1e6 : -1) :
				   f == F_TIER_TOTAL ? (ts.total_kb >= 0 ? prom_kb_bytes(ts.total_kb) : -1) :
				   f == F_TIER_FREE ? (ts.free_kb >= 0 ? prom_kb_bytes(ts.free_kb) : -1) :
				   f == F_TIER_PROMOTED ? (double)ts.promoted : (double)ts.demoted;
			if (v < 0)
				continue;
			if (f == F_TIER_NODES)
				prom_sample(e, f, (const char *[]){ id.s, ti->cpus ? "yes" : "no" }, v);
			else
				prom_sample(e, f, (const char *[]){ id.s }, v);
		}
	}
	prom_head(e, F_TIER_DEMOTION);
	if (m->demotion >= 0)
		prom_sample(e, F_TIER_DEMOTION, NULL, m->demotion);
}

/* The access heat: the hot bytes on each node, summed over the processes
 * whose heat is known (each one's last window, as HOT shows it; the
 * process and command series are output_prom_proc.c's), and the access
 * source's state: which source and why, the processes DAMON watches, its
 * window and our kdamond's CPU. Unknown is no sample, never 0. */
static void node_hot(const struct expo *e, const struct snapshot *s)
{
	const struct topology *t = s->topo;
	prom_head(e, F_NODE_HOT);
	for (size_t j = 0; j < t->nnodes; j++) {
		int64_t kb = -1;
		for (size_t i = 0; i < s->nprocs; i++) {
			const struct access_proc *a = s->procs[i].acc;
			if (a && a->hot_kb >= 0 && a->hot_node_kb && a->hot_node_kb[j] >= 0)
				kb = (kb > 0 ? kb : 0) + a->hot_node_kb[j];
		}
		if (kb >= 0)
			prom_sample(e, F_NODE_HOT, (const char *[]){ prom_num(t->nodes[j].id).s },
				    prom_kb_bytes(kb));
	}
}

static void access_heat(const struct expo *e, const struct snapshot *s)
{
	const struct access_status *a = &s->access;
	node_hot(e, s);
	prom_head(e, F_ACC_SOURCE);
	prom_sample(e, F_ACC_SOURCE, (const char *[]){ access_source_names[a->source],
						       access_why_names[a->why] }, 1);
	prom_head(e, F_ACC_MONITORED);
	prom_sample(e, F_ACC_MONITORED, NULL, (double)a->monitored);
	prom_head(e, F_ACC_WINDOW);
	if (a->window_s > 0)
		prom_sample(e, F_ACC_WINDOW, NULL, a->window_s);
	prom_head(e, F_ACC_KDAMOND_CPU);
	if (a->kdamond_cpu_pct >= 0)
		prom_sample(e, F_ACC_KDAMOND_CPU, NULL, a->kdamond_cpu_pct / 100.0);
}

static int expose(FILE *f, const struct snapshot *s, const struct output_opts *o, bool om)
{
	static const struct output_metrics defaults = OUTPUT_METRICS_DEFAULT;
	struct expo e = { f, om };
	node_memory(&e, s);
	node_cpu(&e, s);
	distances(&e, s, o->meas);
	tiers(&e, s);
	access_heat(&e, s);
	int rc = prom_processes(&e, s, o->metrics ? o->metrics : &defaults);
	self(&e, s, o->stats);
	if (om)
		fputs("# EOF\n", f);
	if (rc == 0 && (fflush(f) != 0 || ferror(f)))
		rc = errno ? -errno : -EIO;
	return rc;
}

int output_prom_write(FILE *f, const struct snapshot *s, const struct output_opts *o)
{
	return expose(f, s, o, false);
}

int output_openmetrics_write(FILE *f, const struct snapshot *s, const struct output_opts *o)
{
	return expose(f, s, o, true);
}

void output_stats_add(struct output_stats *st, const struct snapshot *s, double duration_s,
		      double cpu_s)
{
	st->samples++;
	st->nm_exact += s->nm_stats.read;
	st->nm_sampled += s->nm_stats.sampled;
	st->last_duration_s = duration_s;
	if (cpu_s > 0)
		st->cpu_seconds += cpu_s;
}
