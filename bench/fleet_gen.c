/* fleet_gen.c - an hour of a fleet as OpenMetrics: every family the fleet
 * client's queries read (include/fleet.h's FQ_*), named and labelled by
 * the exposition's tables (output_prom_fam.h, node_fields.h, the process
 * facts' prom gauges, fleet_rule_name for the recording rules' series)
 * as `numatop-tui --serve` writes them, with the target labels a scrape
 * adds (instance, job, dc) written in, and `up`. The exporter's other
 * families change no query's answer (a query selects by name) and are
 * left out. Families one after the other, each series' samples in time
 * order, as promtool wants them.
 *
 * The hosts differ: 2, 4 or 8 nodes; the access heat known on two in
 * three (DAMON), none on the others; a slower tier (CXL) on one in four,
 * with promotion and demotion counters. Processes' remote bytes spread
 * from 1 MiB to 2 GiB, their hot share from 0 to 100 %, so that each
 * host's top processes are a real choice. */
#include "fleet_gen.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "columns.h"
#include "fields_proc.h"
#include "fleet.h"
#include "node_fields.h"
#include "output_prom_fam.h"

#define GEN_PAGE 4096.0
#define GEN_JOB "numa"
#define GEN_PORT 9464
#define GEN_PID0 1000
#define GEN_PID_STEP 37
#define GEN_BELOW (7 * GEN_PAGE)    /* processes below --metrics-min-remote */

static const char *const gen_comms[] = { "postgres", "java", "redis-server", "python3", "nginx",
					 "mysqld", "envoy", "node", "memcached", "ceph-osd" };
static const char *const gen_users[] = { "postgres", "app", "root", "redis", "www-data" };
#define NCOMMS (sizeof(gen_comms) / sizeof(gen_comms[0]))
#define NUSERS (sizeof(gen_users) / sizeof(gen_users[0]))

/* What a family's series are. */
enum gen_kind {
	G_UP, G_BUILD, G_MEM_TOTAL, G_MEM_FREE, G_HOST_REMOTE, G_HOST_HOT, G_HOST_SLOW,
	G_ACC_SOURCE, G_PROCESSES, G_PROC_REMOTE, G_PROC_HOT, G_PROMOTED, G_DEMOTED,
	G_REC_PROMOTED, G_REC_DEMOTED, G_NKINDS
};

static uint64_t gen_hash(uint64_t a, uint64_t b)
{
	uint64_t x = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull);
	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 29;
	return x;
}

size_t fleet_gen_nodes(size_t h)
{
	static const size_t n[] = { 2, 4, 2, 8, 4 };
	return n[h % 5];
}

bool fleet_gen_heat(size_t h)
{
	return h % 3 != 2;
}

bool fleet_gen_tiered(size_t h)
{
	return h % 4 == 1;
}

void fleet_gen_instance(size_t h, char *out, size_t n)
{
	snprintf(out, n, "node%04zu.bench:%d", h, GEN_PORT);
}

long fleet_gen_host_of(const struct fleet_gen *g, const char *instance)
{
	unsigned long h;
	int port, used = 0;
	if (sscanf(instance, "node%lu.bench:%d%n", &h, &port, &used) != 2 || instance[used] ||
	    h >= g->hosts || port != GEN_PORT)
		return -1;
	return (long)h;
}

static long gen_pid(size_t h, size_t p)
{
	return GEN_PID0 + (long)(p * GEN_PID_STEP) + (long)(h % 29);
}

/* A process's remote bytes at step i: 1 MiB to 2 GiB, moving a few pages. */
static double gen_proc_remote(size_t h, size_t p, size_t i)
{
	uint64_t x = gen_hash(h, p);
	double base = (double)(1u << 20) * (double)(1u << (x % 12)) + (double)((x >> 8) % 256) * GEN_PAGE;
	return base + GEN_PAGE * (double)((i + p) % 5);
}

static double gen_proc_hot(size_t h, size_t p, size_t i)
{
	double pct = (double)(gen_hash(h, p + 100000) % 101);
	return (double)(long long)(gen_proc_remote(h, p, i) / GEN_PAGE * pct / 100.0) * GEN_PAGE;
}

static double gen_rank(size_t h, size_t p, size_t i)
{
	return fleet_gen_heat(h) ? gen_proc_hot(h, p, i) : gen_proc_remote(h, p, i);
}

static size_t gen_last(const struct fleet_gen *g)
{
	return (size_t)(g->span_s / g->step_s);
}

double fleet_gen_rank_bytes(const struct fleet_gen *g, size_t h, long pid)
{
	long d = pid - GEN_PID0 - (long)(h % 29);
	if (d < 0 || d % GEN_PID_STEP || (size_t)(d / GEN_PID_STEP) >= g->procs)
		return -1;
	return gen_rank(h, (size_t)(d / GEN_PID_STEP), gen_last(g));
}

double fleet_gen_rank_max(const struct fleet_gen *g, size_t h)
{
	double m = -1;
	for (size_t p = 0; p < g->procs; p++) {
		double v = gen_rank(h, p, gen_last(g));
		m = v > m ? v : m;
	}
	return m;
}

/* Pages a second promoted into (demoted out of) the fast tier. */
static double gen_rate(size_t h, bool promote)
{
	return (double)(gen_hash(h, promote ? 7 : 8) % 500) + (promote ? 20 : 5);
}

/* The value of series s (a node, a process, a tier) of kind k on host h
 * at step i. */
static double gen_value(const struct fleet_gen *g, enum gen_kind k, size_t h, size_t s, size_t i)
{
	size_t nn = fleet_gen_nodes(h);
	double sum = 0;
	switch (k) {
	case G_MEM_TOTAL:
		return fleet_gen_tiered(h) && s == nn - 1 ? 256.0 * (1u << 30) : 64.0 * (1u << 30);
	case G_MEM_FREE:
		return (double)(long long)(gen_value(g, G_MEM_TOTAL, h, s, i) / GEN_PAGE *
					   (double)(10 + (h * 7 + s * 13 + i / 10) % 70) / 100.0) * GEN_PAGE;
	case G_HOST_REMOTE:
	case G_HOST_HOT:
		for (size_t p = 0; p < g->procs; p++)
			sum += k == G_HOST_HOT ? gen_proc_hot(h, p, i) : gen_proc_remote(h, p, i);
		return sum + GEN_BELOW;
	case G_HOST_SLOW:
		return (double)(long long)(gen_value(g, G_HOST_HOT, h, 0, i) / GEN_PAGE / 10) * GEN_PAGE;
	case G_PROCESSES:
		return (double)(g->procs + 40 + h % 200);
	case G_PROC_REMOTE:
		return gen_proc_remote(h, s, i);
	case G_PROC_HOT:
		return gen_proc_hot(h, s, i);
	case G_PROMOTED:       /* series 0 the fast tier, 1 the slow one */
	case G_DEMOTED:
		return s == 0 ? 1e6 + gen_rate(h, k == G_PROMOTED) * g->step_s * (double)i : 0;
	case G_REC_PROMOTED:
	case G_REC_DEMOTED:
		return gen_rate(h, k == G_REC_PROMOTED);
	default:               /* up, the info families */
		return 1;
	}
}

/* Series of kind k on host h (0: none). */
static size_t gen_nseries(const struct fleet_gen *g, enum gen_kind k, size_t h)
{
	switch (k) {
	case G_MEM_TOTAL:
	case G_MEM_FREE:
		return fleet_gen_nodes(h);
	case G_HOST_HOT:
		return fleet_gen_heat(h);
	case G_HOST_SLOW:
		return fleet_gen_heat(h) && fleet_gen_tiered(h);
	case G_PROC_REMOTE:
		return g->procs;
	case G_PROC_HOT:
		return fleet_gen_heat(h) ? g->procs : 0;
	case G_PROMOTED:
	case G_DEMOTED:
		return fleet_gen_tiered(h) ? 2 : 0;
	case G_REC_PROMOTED:
	case G_REC_DEMOTED:
		return g->recorded && fleet_gen_tiered(h);
	default:
		return 1;
	}
}

/* The family's name as its samples are written, and its TYPE. */
static const char *gen_node_fam(const char *key)
{
	for (size_t i = 0; i < node_nfields; i++)
		if (strcmp(node_fields[i].key, key) == 0)
			return node_fields[i].prom;
	return NULL;
}

static void gen_family(enum gen_kind k, const char **name, const char **type, char *rule, size_t n)
{
	static const enum fam host_fam[G_NKINDS] = {
		[G_BUILD] = F_BUILD, [G_HOST_REMOTE] = F_HOST_REMOTE, [G_HOST_HOT] = F_HOST_HOT_REMOTE,
		[G_HOST_SLOW] = F_HOST_HOT_SLOW, [G_ACC_SOURCE] = F_ACC_SOURCE,
		[G_PROCESSES] = F_PROCESSES, [G_PROMOTED] = F_TIER_PROMOTED,
		[G_DEMOTED] = F_TIER_DEMOTED,
	};
	*type = "gauge";
	switch (k) {
	case G_UP:
		*name = "up";
		return;
	case G_MEM_TOTAL:
		*name = gen_node_fam("mem_total_kb");
		return;
	case G_MEM_FREE:
		*name = gen_node_fam("mem_free_kb");
		return;
	case G_PROC_REMOTE:
		*name = fields_proc_col(COL_REMOTE)->prom;
		return;
	case G_PROC_HOT:
		*name = fields_proc_col(COL_HOTREM)->prom;
		return;
	case G_REC_PROMOTED:
	case G_REC_DEMOTED:
		*name = fleet_rule_name(k == G_REC_PROMOTED ? 0 : 1, rule, n);
		return;
	default:
		*name = output_prom_fam(host_fam[k])->name;
		*type = output_prom_fam(host_fam[k])->type;
	}
}

/* NAME{its labels,instance,job,dc} of series s of kind k on host h. */
static void gen_series_name(const char *name, enum gen_kind k, size_t h, size_t s, char *out,
			    size_t n)
{
	char inst[64];
	fleet_gen_instance(h, inst, sizeof(inst));
	int w = snprintf(out, n, "%s{", name);
	size_t u = (size_t)w;
	switch (k) {
	case G_BUILD:
		u += (size_t)snprintf(out + u, n - u, "version=\"%s\",", NUMATOP_VERSION);
		break;
	case G_MEM_TOTAL:
	case G_MEM_FREE:
		u += (size_t)snprintf(out + u, n - u, "node=\"%zu\",", s);
		break;
	case G_ACC_SOURCE:
		u += (size_t)snprintf(out + u, n - u, "source=\"%s\",reason=\"%s\",",
				      access_source_names[fleet_gen_heat(h) ? ACCESS_SRC_DAMON : ACCESS_SRC_NONE],
				      access_why_names[fleet_gen_heat(h) ? ACCESS_ON : ACCESS_NO_DAMON]);
		break;
	case G_PROC_REMOTE:
	case G_PROC_HOT:
		u += (size_t)snprintf(out + u, n - u, "pid=\"%ld\",comm=\"%s\",user=\"%s\",",
				      gen_pid(h, s), gen_comms[gen_hash(h, s) % NCOMMS],
				      gen_users[gen_hash(s, h) % NUSERS]);
		break;
	case G_PROMOTED:
	case G_DEMOTED:
		u += (size_t)snprintf(out + u, n - u, "tier=\"%d\",", s == 0 ? 4 : 22);
		break;
	default:
		break;
	}
	snprintf(out + u, n - u, "instance=\"%s\",job=\"%s\",dc=\"dc%zu\"}", inst, GEN_JOB, h % 4);
}

int fleet_gen_write(const struct fleet_gen *g, FILE *f, size_t *series, size_t *samples)
{
	size_t nsteps = gen_last(g) + 1;
	*series = *samples = 0;
	for (int k = 0; k < G_NKINDS; k++) {
		const char *name, *type;
		char rule[128], sname[512];
		gen_family((enum gen_kind)k, &name, &type, rule, sizeof(rule));
		if (!name)
			return -EINVAL;
		/* OpenMetrics names a counter's family without _total, an
		 * info's without _info (as --serve's OpenMetrics does). */
		size_t len = strlen(name);
		bool counter = !strcmp(type, "counter"), info = !strcmp(type, "info");
		fprintf(f, "# TYPE %.*s %s\n", (int)(len - (counter ? 6 : info ? 5 : 0)), name, type);
		for (size_t h = 0; h < g->hosts; h++) {
			size_t ns = gen_nseries(g, (enum gen_kind)k, h);
			for (size_t s = 0; s < ns; s++) {
				gen_series_name(name, (enum gen_kind)k, h, s, sname, sizeof(sname));
				for (size_t i = 0; i < nsteps; i++)
					fprintf(f, "%s %.17g %ld\n", sname,
						gen_value(g, (enum gen_kind)k, h, s, i),
						g->t_end - (long)((double)(nsteps - 1 - i) * g->step_s));
				(*series)++;
				*samples += nsteps;
			}
		}
	}
	fputs("# EOF\n", f);
	return ferror(f) ? -EIO : 0;
}
