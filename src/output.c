/* output.c - the output formats as one table: --format NAME (and -b,
 * --json) pick a row. A new format is one file with its writer and one
 * row here. */
#include "output.h"

#include <stdio.h>
#include <strings.h>

const struct output_format output_formats[] = {
	{ "text", "text snapshots, like top -b (-b)", output_text_write, SAMPLER_CG_OFF },
	{ "json", "one JSON object per sample, NDJSON (--json)", output_json_write,
	  SAMPLER_CG_ALL },
	{ "prometheus", "Prometheus text exposition per sample (node_exporter's textfile collector)",
	  output_prom_write, SAMPLER_CG_OFF },
	{ "openmetrics", "OpenMetrics text per sample (--openmetrics)", output_openmetrics_write,
	  SAMPLER_CG_OFF },
};
const size_t output_nformats = sizeof(output_formats) / sizeof(output_formats[0]);

const struct output_format *output_format_find(const char *name)
{
	for (size_t i = 0; i < output_nformats; i++)
		if (strcasecmp(name, output_formats[i].name) == 0)
			return &output_formats[i];
	return NULL;
}

void output_format_names(char *out, size_t n)
{
	size_t o = 0;
	out[0] = '\0';
	for (size_t i = 0; i < output_nformats && o < n; i++)
		o += (size_t)snprintf(out + o, n - o, "%s%s", i ? " " : "", output_formats[i].name);
}

void fmt_rate(char *out, size_t n, double r)
{
	if (r < 0)
		snprintf(out, n, "-");
	else if (r >= 10000)
		snprintf(out, n, "%.1fk/s", r / 1000);
	else
		snprintf(out, n, "%.0f/s", r);
}

void fmt_balancing(const struct snapshot *s, char *out, size_t n)
{
	const struct snap_numa_kernel *nk = &s->nk;
	const double *r = nk->sys_rate;
	char h[24], m[24], ms[24], mf[24], pr[24], dk[24], dd[24], loc[24], mode[48] = "";
	fmt_rate(h, sizeof(h), r[NVM_HINT_FAULTS]);
	fmt_rate(m, sizeof(m), r[NVM_PAGES_MIGRATED]);
	fmt_rate(ms, sizeof(ms), r[NVM_PGMIGRATE_SUCCESS]);
	fmt_rate(mf, sizeof(mf), r[NVM_PGMIGRATE_FAIL]);
	fmt_rate(pr, sizeof(pr), r[NVM_PGPROMOTE_SUCCESS]);
	fmt_rate(dk, sizeof(dk), r[NVM_PGDEMOTE_KSWAPD]);
	fmt_rate(dd, sizeof(dd), r[NVM_PGDEMOTE_DIRECT]);
	if (r[NVM_HINT_FAULTS] > 0 && r[NVM_HINT_FAULTS_LOCAL] >= 0)
		snprintf(loc, sizeof(loc), "%.1f%%", 100.0 * r[NVM_HINT_FAULTS_LOCAL] / r[NVM_HINT_FAULTS]);
	else
		snprintf(loc, sizeof(loc), "-");
	if (nk->balancing >= 0)
		snprintf(mode, sizeof(mode), " (kernel.numa_balancing=%d)", nk->balancing);
	snprintf(out, n, "numa balancing: %s%s  hint faults %s (local %s)  numa pages migrated %s"
		 "  pgmigrate %s, failed %s  promoted %s  demoted %s kswapd, %s direct",
		 snapshot_balancing_name(nk->balancing), mode, h, loc, m, ms, mf, pr, dk, dd);
}

bool fmt_tiers(const struct snapshot *s, char *out, size_t n)
{
	const struct topology *t = s->topo;
	size_t o = 0;
	bool any = false;
	out[0] = '\0';
	for (size_t i = 0; s->nk.tier && i < t->nnodes; i++)
		any |= s->nk.tier[i] >= 0;
	if (!any)
		return false;
	o += (size_t)snprintf(out, n, "memory tiers:");
	for (size_t i = 0; i < t->nnodes && o < n; i++) {
		if (s->nk.tier[i] >= 0)
			o += (size_t)snprintf(out + o, n - o, " N%d:tier%d", t->nodes[i].id, s->nk.tier[i]);
		else
			o += (size_t)snprintf(out + o, n - o, " N%d:none", t->nodes[i].id);
	}
	return true;
}
