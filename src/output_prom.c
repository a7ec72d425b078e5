/* output_prom.c - the Prometheus text exposition (0.0.4) and OpenMetrics
 * (1.0.0) of a snapshot: per node memory, CPU time, NUMA events and
 * distances (and the measured latency and bandwidth when there is a
 * measurement), the top processes by remote memory, and the exporter's
 * own cost. Units in names, counters end in _total, HELP and TYPE for
 * every family; label values escaped and made terminal-safe. */
#include "output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure_io.h"
#include "node_fields.h"
#include "sanitize.h"

struct expo {
	FILE *f;
	bool om;                /* OpenMetrics */
};

enum fam_type { F_GAUGE, F_COUNTER, F_INFO };

/* HELP and TYPE of a family. base: the name without _total / _info. */
static void family(const struct expo *e, const char *base, enum fam_type t, const char *help)
{
	static const char *const types[] = { "gauge", "counter", "info" };
	const char *suffix = e->om ? "" : t == F_COUNTER ? "_total" : t == F_INFO ? "_info" : "";
	const char *type = !e->om && t == F_INFO ? "gauge" : types[t];
	fprintf(e->f, "# HELP %s%s %s\n# TYPE %s%s %s\n", base, suffix, help, base, suffix, type);
}

/* A label value: terminal-safe (control characters and invalid UTF-8 as
 * visible escapes), then escaped as the format requires. */
static void label_value(FILE *f, const char *v)
{
	char safe[512];
	sanitize_term(v, safe, sizeof(safe));
	for (const char *p = safe; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p == '"')
			fputs("\\\"", f);
		else if (*p == '\n')
			fputs("\\n", f);
		else
			fputc(*p, f);
	}
}

static void value(FILE *f, double v)
{
	if (v == (double)(int64_t)v && v < 9e15 && v > -9e15)
		fprintf(f, " %lld\n", (long long)v);
	else
		fprintf(f, " %.9g\n", v);
}

static void node_sample(const struct expo *e, const char *name, int node, double v)
{
	fprintf(e->f, "%s{node=\"%d\"}", name, node);
	value(e->f, v);
}

static double kb_bytes(int64_t kb) { return (double)kb * 1024.0; }

static void node_memory(const struct expo *e, const struct snapshot *s)
{
	const struct topology *t = s->topo;
	for (size_t k = 0; k < node_nfields; k++) {
		const struct node_field *nf = &node_fields[k];
		if (!nf->prom)
			continue;
		family(e, nf->prom, F_GAUGE, nf->prom_help);
		for (size_t i = 0; i < t->nnodes; i++) {
			double v = nf->get(s, i);
			if (v >= 0)
				node_sample(e, nf->prom, t->nodes[i].id,
					    nf->unit == NF_KB ? kb_bytes((int64_t)v) : v);
		}
	}
	family(e, "numatop_node_cpus", F_GAUGE, "CPUs of the node (online ones).");
	for (size_t i = 0; i < t->nnodes; i++)
		node_sample(e, "numatop_node_cpus", t->nodes[i].id, (double)t->nodes[i].ncpus_online);
}

static void node_cpu(const struct expo *e, const struct snapshot *s)
{
	static const char *const modes[] = { "user", "nice", "system", "idle", "iowait",
					     "irq", "softirq", "steal" };
	const struct topology *t = s->topo;
	family(e, "numatop_node_cpu_seconds", F_COUNTER,
	       "CPU time of the node's CPUs since boot, by mode (/proc/stat).");
	for (size_t i = 0; s->node_ticks && i < t->nnodes; i++) {
		const struct cpu_ticks *k = &s->node_ticks[i];
		for (int m = 0; m < (int)(sizeof(modes) / sizeof(modes[0])) && m < k->nfields; m++) {
			fprintf(e->f, "numatop_node_cpu_seconds_total{node=\"%d\",mode=\"%s\"}",
				t->nodes[i].id, modes[m]);
			value(e->f, parse_ticks_s(k->t[m]));
		}
	}
	family(e, "numatop_node_numa_events", F_COUNTER,
	       "Pages allocated on or for the node since boot, by outcome (numastat).");
	for (size_t i = 0; i < t->nnodes; i++) {
		if (s->nodes[i].numastat_rc)
			continue;
		for (int k = 0; k < NUMASTAT_NKEYS; k++) {
			if (s->nodes[i].ns.v[k] < 0)
				continue;
			fprintf(e->f, "numatop_node_numa_events_total{node=\"%d\",type=\"%s\"}",
				t->nodes[i].id, numastat_names[k]);
			value(e->f, (double)s->nodes[i].ns.v[k]);
		}
	}
}

static void distances(const struct expo *e, const struct snapshot *s, const struct measure_result *m)
{
	const struct topology *t = s->topo;
	family(e, "numatop_node_distance", F_GAUGE,
	       "Distance from node to node as the firmware reports it (SLIT; 10 = local).");
	for (size_t i = 0; i < t->nnodes; i++)
		for (size_t j = 0; j < t->nnodes; j++) {
			int d = topology_distance(t, i, j);
			if (d < 0)
				continue;
			fprintf(e->f, "numatop_node_distance{node=\"%d\",to=\"%d\"}", t->nodes[i].id,
				t->nodes[j].id);
			value(e->f, d);
		}
	if (!m || m->n != t->nnodes)
		return;
	family(e, "numatop_node_latency_seconds", F_GAUGE,
	       "Measured load latency from the CPUs of node to the memory of to.");
	for (size_t i = 0; i < m->n; i++)
		for (size_t j = 0; j < m->n; j++)
			if (measure_at(m, i, j)->lat_ns > 0) {
				fprintf(e->f, "numatop_node_latency_seconds{node=\"%d\",to=\"%d\"}",
					m->node_ids[i], m->node_ids[j]);
				value(e->f, measure_at(m, i, j)->lat_ns / 1e9);
			}
	family(e, "numatop_node_read_bandwidth_bytes_per_second", F_GAUGE,
	       "Measured read bandwidth of every CPU of node from the memory of to.");
	for (size_t i = 0; i < m->n; i++)
		for (size_t j = 0; j < m->n; j++)
			if (measure_at(m, i, j)->bwall_gbs > 0) {
				fprintf(e->f, "numatop_node_read_bandwidth_bytes_per_second{node=\"%d\",to=\"%d\"}",
					m->node_ids[i], m->node_ids[j]);
				value(e->f, measure_at(m, i, j)->bwall_gbs * 1e9);
			}
	if (m->when > 0) {
		family(e, "numatop_measurement_timestamp_seconds", F_GAUGE,
		       "When the latency and bandwidth were measured (Unix time).");
		fputs("numatop_measurement_timestamp_seconds", e->f);
		value(e->f, (double)m->when);
	}
}

static int by_remote(const void *a, const void *b)
{
	const struct snap_proc *x = *(const struct snap_proc *const *)a,
			       *y = *(const struct snap_proc *const *)b;
	if (x->remote_kb != y->remote_kb)
		return x->remote_kb > y->remote_kb ? -1 : 1;
	return x->info.pid - y->info.pid;
}

static void proc_labels(FILE *f, const struct snap_proc *p)
{
	fprintf(f, "pid=\"%d\",comm=\"", p->info.pid);
	label_value(f, p->info.comm);
	fputs("\",user=\"", f);
	label_value(f, p->info.user);
	fputc('"', f);
}

/* The top processes by remote memory: a bounded number of series however
 * many processes the machine runs. */
static int processes(const struct expo *e, const struct snapshot *s, size_t top)
{
	const struct topology *t = s->topo;
	const struct snap_proc **v = malloc((s->nprocs ? s->nprocs : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i].nm == NMS_OK && s->procs[i].remote_kb >= 0)
			v[n++] = &s->procs[i];
	qsort(v, n, sizeof(*v), by_remote);
	if (n > top)
		n = top;
	family(e, "numatop_process_memory_bytes", F_GAUGE,
	       "Resident memory of the process on the node (numa_maps); top processes by remote bytes.");
	for (size_t k = 0; k < n; k++)
		for (size_t j = 0; j < t->nnodes; j++) {
			fputs("numatop_process_memory_bytes{", e->f);
			proc_labels(e->f, v[k]);
			fprintf(e->f, ",node=\"%d\"}", t->nodes[j].id);
			value(e->f, kb_bytes(v[k]->node_kb[j]));
		}
	family(e, "numatop_process_remote_bytes", F_GAUGE,
	       "Resident memory of the process on other nodes than its home node.");
	for (size_t k = 0; k < n; k++) {
		fputs("numatop_process_remote_bytes{", e->f);
		proc_labels(e->f, v[k]);
		fputc('}', e->f);
		value(e->f, kb_bytes(v[k]->remote_kb));
	}
	family(e, "numatop_process_remote_ratio", F_GAUGE,
	       "Share (0..1) of the process's resident memory on other nodes than its home node.");
	for (size_t k = 0; k < n; k++)
		if (v[k]->remote_pct >= 0) {
			fputs("numatop_process_remote_ratio{", e->f);
			proc_labels(e->f, v[k]);
			fputc('}', e->f);
			value(e->f, v[k]->remote_pct / 100.0);
		}
	family(e, "numatop_process_home_node", F_GAUGE,
	       "Node where most of the process's threads last ran.");
	for (size_t k = 0; k < n; k++)
		if (v[k]->home >= 0) {
			fputs("numatop_process_home_node{", e->f);
			proc_labels(e->f, v[k]);
			fputc('}', e->f);
			value(e->f, t->nodes[v[k]->home].id);
		}
	free(v);
	return 0;
}

static void self(const struct expo *e, const struct snapshot *s, const struct output_stats *st)
{
	family(e, "numatop_build", F_INFO, "The exporter's version.");
	fprintf(e->f, "numatop_build_info{version=\"%s\"} 1\n", NUMATOP_VERSION);
	family(e, "numatop_processes", F_GAUGE, "Processes in the sample (kernel threads left out).");
	fputs("numatop_processes", e->f);
	value(e->f, (double)s->nprocs);
	family(e, "numatop_warnings", F_GAUGE, "Warnings of the sample: input that could not be read or trusted.");
	fputs("numatop_warnings", e->f);
	value(e->f, (double)(s->topo->nwarnings + snapshot_warnings(s, NULL, NULL)));
	if (!st)
		return;
	family(e, "numatop_scrape_duration_seconds", F_GAUGE,
	       "Time the last sample took to collect and render (a scrape only sends it).");
	fputs("numatop_scrape_duration_seconds", e->f);
	value(e->f, st->last_duration_s);
	family(e, "numatop_sample_cpu_seconds", F_COUNTER, "CPU time the exporter spent sampling.");
	fputs("numatop_sample_cpu_seconds_total", e->f);
	value(e->f, st->cpu_seconds);
	family(e, "numatop_samples", F_COUNTER, "Samples taken.");
	fputs("numatop_samples_total", e->f);
	value(e->f, (double)st->samples);
	family(e, "numatop_numa_maps_reads", F_COUNTER,
	       "Processes whose placement was read: exact (numa_maps) or sampled (move_pages).");
	fprintf(e->f, "numatop_numa_maps_reads_total{kind=\"exact\"}");
	value(e->f, (double)st->nm_exact);
	fprintf(e->f, "numatop_numa_maps_reads_total{kind=\"sampled\"}");
	value(e->f, (double)st->nm_sampled);
}

static int expose(FILE *f, const struct snapshot *s, const struct output_opts *o, bool om)
{
	struct expo e = { f, om };
	node_memory(&e, s);
	node_cpu(&e, s);
	distances(&e, s, o->meas);
	int rc = processes(&e, s, o->metrics_top_set ? o->metrics_top : OUTPUT_METRICS_TOP);
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
