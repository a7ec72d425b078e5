/* output_prom_fam.c - the families of the Prometheus exposition as one
 * table (name, type, labels, HELP, when it is there), and writing them:
 * a family's HELP and TYPE, its samples with the labels of its row, label
 * values escaped and made terminal-safe. The node memory families are the
 * node fields' (node_fields.h), the per-process gauges the process facts'
 * (fields_proc.h). docs/prometheus.md's table is generated from the same
 * rows (output_prom_family, tools/genman.c). */
#include "output_prom_int.h"

#include <string.h>

#include "fields_proc.h"
#include "node_fields.h"
#include "sanitize.h"

#define W_MEAS "a saved measurement (--measure)"
#define W_COMM "--metrics-by comm"
#define W_STATS "batch and --serve (not --replay)"
#define W_TIERS "the kernel has memory tiers"
#define W_HMAT "memory tiers and the firmware's HMAT"
#define W_COMM_ACC "--metrics-by comm, the access heat of one of the processes is known"
#define W_ACC "the access heat of a process is known"
#define W_TIERS_ACC "more than one memory tier, the access heat of a process is known"
#define W_DAMON "a kdamond is read (DAMON)"
#define W_KDAMOND "our kdamond ran between two samples"

static const struct prom_family fams[F_N] = {
	[F_NODE_CPUS] = { "numatop_node_cpus", "gauge", "node", "CPUs of the node (online ones).", "" },
	[F_NODE_CPU_SECONDS] = { "numatop_node_cpu_seconds_total", "counter", "node,mode",
		"CPU time of the node's CPUs since boot, by mode (/proc/stat).", "" },
	[F_NODE_NUMA_EVENTS] = { "numatop_node_numa_events_total", "counter", "node,type",
		"Pages allocated on or for the node since boot, by outcome (numastat).", "" },
	[F_NODE_DISTANCE] = { "numatop_node_distance", "gauge", "node,to",
		"Distance from node to node as the firmware reports it (SLIT; 10 = local).", "" },
	[F_NODE_LATENCY] = { "numatop_node_latency_seconds", "gauge", "node,to",
		"Measured load latency from the CPUs of node to the memory of to.", W_MEAS },
	[F_NODE_BANDWIDTH] = { "numatop_node_read_bandwidth_bytes_per_second", "gauge", "node,to",
		"Measured read bandwidth of every CPU of node from the memory of to.", W_MEAS },
	[F_MEAS_TIME] = { "numatop_measurement_timestamp_seconds", "gauge", "",
		"When the latency and bandwidth were measured (Unix time).", W_MEAS },
	[F_COMM_PROCESSES] = { "numatop_comm_processes", "gauge", "comm,user",
		"Processes of the command name and user whose placement was read.", W_COMM },
	[F_COMM_MEMORY] = { "numatop_comm_memory_bytes", "gauge", "comm,user,node",
		"Resident memory on the node of the processes of the command name and user (numa_maps).",
		W_COMM },
	[F_COMM_RESIDENT] = { "numatop_comm_resident_bytes", "gauge", "comm,user",
		"Resident memory of the processes of the command name and user, every node (numa_maps).",
		W_COMM },
	[F_COMM_REMOTE] = { "numatop_comm_remote_bytes", "gauge", "comm,user",
		"Resident memory of the processes of the command name and user on other nodes than "
		"each one's home node.", W_COMM },
	[F_BELOW_MIN] = { "numatop_processes_below_min_remote", "gauge", "",
		"Processes left out of the process (or command) series: their remote memory (their "
		"group's with --metrics-by comm) at or below --metrics-min-remote.",
		"" },
	[F_HOST_REMOTE] = { "numatop_remote_bytes", "gauge", "",
		"Resident memory of every process whose placement was read on other nodes than "
		"its home node, summed: the host's, whatever --metrics-min-remote and "
		"--metrics-top leave out of the process series.", "" },
	[F_HOST_HOT_REMOTE] = { "numatop_hot_remote_bytes", "gauge", "",
		"Memory accessed in its last access window (DAMON) on nodes where none of its "
		"threads works, summed over every process whose access heat is known.", W_ACC },
	[F_HOST_HOT_SLOW] = { "numatop_hot_slow_tier_bytes", "gauge", "",
		"Memory accessed in its last access window (DAMON) on slower memory tiers than the "
		"fastest, summed over every process whose access heat is known.", W_TIERS_ACC },
	[F_BUILD] = { "numatop_build_info", "info", "version", "The exporter's version.", "" },
	[F_PROCESSES] = { "numatop_processes", "gauge", "",
		"Processes in the sample (kernel threads left out).", "" },
	[F_WARNINGS] = { "numatop_warnings", "gauge", "",
		"Warnings of the sample: input that could not be read or trusted.", "" },
	[F_SCRAPE_DURATION] = { "numatop_scrape_duration_seconds", "gauge", "",
		"Time the last sample took to collect and render (a scrape only sends it).", W_STATS },
	[F_SAMPLE_CPU] = { "numatop_sample_cpu_seconds_total", "counter", "",
		"CPU time the exporter spent sampling.", W_STATS },
	[F_SAMPLES] = { "numatop_samples_total", "counter", "", "Samples taken.", W_STATS },
	[F_NM_READS] = { "numatop_numa_maps_reads_total", "counter", "kind",
		"Processes whose placement was read: exact (numa_maps) or sampled (move_pages).", W_STATS },
	[F_NODE_TIER] = { "numatop_node_memory_tier", "gauge", "node",
		"The node's memory tier (memory_tierN: the lower, the faster).", W_TIERS },
	[F_TIER_ORDER] = { "numatop_tier_order", "gauge", "tier",
		"The tier's place, fast to slow (0 the fastest).", W_TIERS },
	[F_TIER_NODES] = { "numatop_tier_nodes", "gauge", "tier,cpus",
		"Nodes in the tier; cpus is yes when one of them has CPUs, no for memory only.", W_TIERS },
	[F_TIER_LATENCY] = { "numatop_tier_read_latency_seconds", "gauge", "tier",
		"The firmware's (HMAT) read latency of the tier's slowest node from its initiators.", W_HMAT },
	[F_TIER_BANDWIDTH] = { "numatop_tier_read_bandwidth_bytes_per_second", "gauge", "tier",
		"The firmware's (HMAT) read bandwidth of the tier's slowest node from its initiators.", W_HMAT },
	[F_TIER_TOTAL] = { "numatop_tier_memory_total_bytes", "gauge", "tier",
		"Memory of the tier's nodes.", W_TIERS },
	[F_TIER_FREE] = { "numatop_tier_memory_free_bytes", "gauge", "tier",
		"Free memory of the tier's nodes.", W_TIERS },
	[F_TIER_PROMOTED] = { "numatop_tier_promoted_pages_total", "counter", "tier",
		"Pages the kernel promoted into the tier's nodes (pgpromote_success).", W_TIERS },
	[F_TIER_DEMOTED] = { "numatop_tier_demoted_pages_total", "counter", "tier",
		"Pages the kernel demoted out of the tier's nodes (pgdemote_kswapd + pgdemote_direct).",
		W_TIERS },
	[F_TIER_DEMOTION] = { "numatop_tier_demotion_enabled", "gauge", "",
		"1 when the kernel demotes cold pages to a slower tier under pressure (demotion_enabled).",
		W_TIERS },
	[F_COMM_HOT_REMOTE] = { "numatop_comm_hot_remote_bytes", "gauge", "comm,user",
		"Memory accessed in their last access window (DAMON) on nodes where none of their "
		"threads works, summed over the processes of the command name and user whose access "
		"heat is known.", W_COMM_ACC },
	[F_NODE_HOT] = { "numatop_node_hot_bytes", "gauge", "node",
		"Memory on the node accessed in their last access window (DAMON), summed over the "
		"processes whose access heat is known.", W_ACC },
	[F_ACC_SOURCE] = { "numatop_access_source_info", "info", "source,reason",
		"The access heat's source (damon when it covers a process, else none) and, when "
		"DAMON does not, why (the JSON's access.reason).", "" },
	[F_ACC_MONITORED] = { "numatop_access_monitored_processes", "gauge", "",
		"Processes DAMON watches now (a few at once, in turns).", "" },
	[F_ACC_WINDOW] = { "numatop_access_window_seconds", "gauge", "",
		"DAMON's aggregation interval: hot is accessed within one of them.", W_DAMON },
	[F_ACC_KDAMOND_CPU] = { "numatop_access_kdamond_cpu_ratio", "gauge", "",
		"Share of one CPU our kdamond (DAMON's thread) used since the previous sample.",
		W_KDAMOND },
};

const struct prom_family *output_prom_fam(enum fam f)
{
	return &fams[f];
}

struct prom_family prom_node_family(const struct node_field *nf)
{
	return (struct prom_family){ nf->prom, "gauge", "node", nf->prom_help, "" };
}

struct prom_family prom_proc_family(const struct proc_field *pf)
{
	return (struct prom_family){ pf->prom, "gauge", pf->prom_node ? "pid,comm,user,node" : "pid,comm,user",
				     pf->prom_help, pf->prom_when };
}

bool output_prom_family(size_t i, struct prom_family *f)
{
	for (size_t k = 0; k < node_nfields; k++)
		if (node_fields[k].prom && i-- == 0) {
			*f = prom_node_family(&node_fields[k]);
			return true;
		}
	for (size_t k = 0; k < proc_nfields; k++)
		if (proc_fields[k].prom && i-- == 0) {
			*f = prom_proc_family(&proc_fields[k]);
			return true;
		}
	if (i >= F_N)
		return false;
	*f = fams[i];
	return true;
}

/* OpenMetrics names the family without _total or _info, and the text
 * format has no info type (a gauge). */
void prom_head_row(const struct expo *e, const struct prom_family *f)
{
	bool counter = strcmp(f->type, "counter") == 0, info = strcmp(f->type, "info") == 0;
	int n = (int)strlen(f->name) - (e->om && counter ? 6 : e->om && info ? 5 : 0);
	const char *type = !e->om && info ? "gauge" : f->type;
	fprintf(e->f, "# HELP %.*s %s\n# TYPE %.*s %s\n", n, f->name, f->help, n, f->name, type);
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

void prom_sample_row(const struct expo *e, const struct prom_family *f, const char *const *vals,
		     double v)
{
	fputs(f->name, e->f);
	const char *l = f->labels;
	for (size_t k = 0; *l; k++) {
		size_t n = strcspn(l, ",");
		fprintf(e->f, "%c%.*s=\"", k ? ',' : '{', (int)n, l);
		label_value(e->f, vals[k]);
		fputc('"', e->f);
		l += n + (l[n] == ',');
	}
	if (*f->labels)
		fputc('}', e->f);
	value(e->f, v);
}

struct prom_num prom_num(long long v)
{
	struct prom_num n;
	snprintf(n.s, sizeof(n.s), "%lld", v);
	return n;
}

void prom_head(const struct expo *e, enum fam f)
{
	prom_head_row(e, &fams[f]);
}

void prom_sample(const struct expo *e, enum fam f, const char *const *vals, double v)
{
	prom_sample_row(e, &fams[f], vals, v);
}

