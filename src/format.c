/* format.c - numbers and kernel facts as the text writer and the monitor
 * print them: unknown (< 0) is "-", never 0. A leaf: it reads the model,
 * and no writer or view is under it. */
#include "format.h"

#include <stdio.h>
#include <string.h>

#include "bitmap.h"

void fmt_pct(char *out, size_t n, double v)
{
	if (v < 0)
		snprintf(out, n, "-");
	else
		snprintf(out, n, "%.1f", v);
}

void fmt_kb(char *out, size_t n, int64_t kb)
{
	if (kb < 0)
		snprintf(out, n, "-");
	else
		snprintf(out, n, "%lld", (long long)kb);
}

void fmt_human_kb(char *out, size_t n, int64_t kb)
{
	if (kb < 0)
		snprintf(out, n, "-");
	else if (kb < 10000)
		snprintf(out, n, "%lldK", (long long)kb);
	else if (kb < 1000 * 1024)       /* at most 6 characters: "999.9M" */
		snprintf(out, n, "%.1fM", (double)kb / 1024);
	else if (kb < 1000LL * 1024 * 1024)
		snprintf(out, n, "%.1fG", (double)kb / 1024 / 1024);
	else
		snprintf(out, n, "%.1fT", (double)kb / 1024 / 1024 / 1024);
}

void fmt_age(char *out, size_t n, double s)
{
	if (s < 0)
		snprintf(out, n, "-");
	else if (s < 100)
		snprintf(out, n, "%.0fs", s);
	else if (s < 6000)
		snprintf(out, n, "%.0fm", s / 60);
	else if (s < 48 * 3600)
		snprintf(out, n, "%.0fh", s / 3600);
	else
		snprintf(out, n, "%.0fd", s / 86400);
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

const char *fmt_node_kind(const struct topology *t, size_t idx,
			  const struct node_sample *ns)
{
	const struct topo_node *nd = &t->nodes[idx];
	bool cpus = !bitmap_empty(&nd->cpus);
	int64_t mem = ns && ns->mem_rc == 0 ? ns->mem.mem_total_kb : nd->mem_total_kb;
	if (t->synthetic)
		return "implicit (non-NUMA kernel)";
	if (!cpus && mem > 0)
		return "memory-only";
	if (cpus && mem == 0)
		return "no memory";
	if (mem < 0)
		return "memory unknown";
	return "";
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
	double lp = snapshot_hint_local_pct(nk);
	if (lp >= 0)
		snprintf(loc, sizeof(loc), "%.1f%%", lp);
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

void fmt_node_matrix(FILE *f, const struct topology *t, const struct fmt_matrix *m)
{
	char name[16], cell[40];
	fprintf(f, m->left ? "%s%-8s" : "%s%8s", m->indent, m->corner);
	for (size_t j = 0; j < t->nnodes; j++) {
		snprintf(name, sizeof(name), "N%d", t->nodes[j].id);
		fprintf(f, " %*s", m->width ? m->width : (int)strlen(name) + 4, name);
	}
	fputc('\n', f);
	for (size_t i = 0; i < t->nnodes; i++) {
		if (m->cpu_rows && bitmap_empty(&t->nodes[i].cpus))
			continue;     /* memory-only nodes are targets, not rows */
		snprintf(name, sizeof(name), "N%d", t->nodes[i].id);
		fprintf(f, m->left ? "%s%-8s" : "%s%8s", m->indent, name);
		for (size_t j = 0; j < t->nnodes; j++) {
			double x = m->get(m->ctx, i, j);
			if (x < 0)
				snprintf(cell, sizeof(cell), "-");
			else
				snprintf(cell, sizeof(cell), "%.*f", m->decimals, x);
			if (m->marks && m->marks[i * t->nnodes + j])
				strncat(cell, "!", sizeof(cell) - strlen(cell) - 1);
			snprintf(name, sizeof(name), "N%d", t->nodes[j].id);
			fprintf(f, " %*s", m->width ? m->width : (int)strlen(name) + 4, cell);
		}
		fputc('\n', f);
	}
}
