/* output_text.c - the batch text snapshot, like top -b. */
#include "output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "columns.h"
#include "sanitize.h"
#include "format.h"
#include "snapshot_tiers.h"
#include "node_fields.h"

static void print_warning(void *ctx, const char *line)
{
	fprintf(ctx, "warning: %s\n", line);
}

static void heat_line(FILE *f, const struct snapshot *s, const struct output_opts *o);

static void header(FILE *f, const struct snapshot *s, const struct output_opts *o)
{
	const struct topology *t = s->topo;
	char when[64];
	struct tm tm;
	/* Local time with its zone, as --begin/--end and the monitor take
	 * and show times (JSON keeps UTC). */
	localtime_r(&s->wall.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z", &tm);
	unsigned online = 0;
	for (size_t i = 0; i < t->ncpus; i++)
		online += t->cpus[i].online != 0;
	char iv[32], self[32];
	if (s->interval_s < 0)
		snprintf(iv, sizeof(iv), "-");
	else
		snprintf(iv, sizeof(iv), "%.2fs", s->interval_s);
	fmt_pct(self, sizeof(self), s->self_cpu_pct);
	fprintf(f, "numatop-tui %s  %s  sample %u  interval %s  root %s\n",
		NUMATOP_VERSION, when, s->seq, iv, o->root_label ? o->root_label : "/");
	char kt[64] = "";
	if (s->kthreads_hidden)
		snprintf(kt, sizeof(kt), " (%zu kernel threads hidden)", s->kthreads_hidden);
	fprintf(f, "nodes %zu  cpus %zu (%u online)  processes %zu%s  tool cpu%% %s\n",
		t->nnodes, t->ncpus, online, s->nprocs, kt, self);
	const struct snap_nm_stats *ns = &s->nm_stats;
	if (!ns->full)
		fprintf(f, "numa_maps budget %.0f ms: read %zu  sampled %zu  kept %zu  over budget %zu  spent %.1f ms\n",
			ns->budget_ms, ns->read, ns->sampled, ns->kept, ns->skipped, ns->spent_ms);
	if (ns->warmup)
		fprintf(f, "warming up: placement read for %zu of %zu processes\n", ns->known,
			s->nprocs);
	heat_line(f, s, o);
	for (size_t i = 0; i < t->nwarnings; i++)
		fprintf(f, "warning: %s\n", t->warnings[i]);
	snapshot_warnings(s, print_warning, f);
}

/* Access heat: who measures it and how many processes' heat is usable, or
 * why there is none; then the order of the table, which follows the heat
 * by default (columns.h: heat_default). */
static void heat_line(FILE *f, const struct snapshot *s, const struct output_opts *o)
{
	const struct access_status *as = &s->access;
	char heat[200];
	if (as->why == ACCESS_ON) {
		size_t usable = 0, shown = 0;
		for (size_t i = 0; i < s->nprocs; i++) {
			shown += s->procs[i].acc != NULL;
			usable += access_usable(s->procs[i].acc) != NULL;
		}
		char win[32] = "";
		if (as->window_s > 0)
			snprintf(win, sizeof(win), ", window %.2fs", as->window_s);
		snprintf(heat, sizeof(heat), "heat: DAMON, %zu of %zu watched%s; usable for %zu of %zu "
			 "(the others measuring, stale or unseen: ~)", as->monitored, as->max_targets, win,
			 usable, shown);
		if (usable == shown)
			snprintf(heat, sizeof(heat), "heat: DAMON, %zu of %zu watched%s; usable for %zu",
				 as->monitored, as->max_targets, win, usable);
	} else {
		snprintf(heat, sizeof(heat), "heat: %s", access_why_text(as->why));
	}
	char order[96] = "";
	if (o->sort) {
		struct sort_key k = col_sort_effective(o->sort, s);
		char name[32];
		col_ref_name(s->topo, (struct col_ref){ k.col, k.node }, name, sizeof(name));
		snprintf(order, sizeof(order), "  sorted by %s%s%s", name, k.descending ? "" : " ascending",
			 o->sort->heat_default && k.col != o->sort->col ? " (heat known)" : "");
	}
	fprintf(f, "%s%s\n", heat, order);
}

/* The node table's metrics, from the per-node field table, in order. */
static const char *const node_cols[] = { "cpu_busy_pct", "cpu_user_pct", "cpu_system_pct",
					  "mem_total_kb", "mem_free_kb" };
#define NODE_NCOLS (sizeof(node_cols) / sizeof(node_cols[0]))

static void node_table(FILE *f, const struct snapshot *s)
{
	const struct topology *t = s->topo;
	const struct node_field *nf[NODE_NCOLS];
	for (size_t k = 0; k < NODE_NCOLS; k++)
		nf[k] = node_field_find(node_cols[k]);
	fprintf(f, "\n%5s %-16s %4s", "NODE", "CPUS", "ONL");
	for (size_t k = 0; k < NODE_NCOLS; k++)
		fprintf(f, " %*s", nf[k]->text_w, nf[k]->text_hdr);
	fprintf(f, " %12s %10s %10s  %s\n", "NUMA_HIT", "NUMA_MISS", "OTHER_NODE", "NOTE");
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct topo_node *nd = &t->nodes[i];
		const struct node_sample *ns = &s->nodes[i];
		char cpus[4096], cell[32], hit[24], miss[24], other[24];
		size_t need = bitmap_format_list(&nd->cpus, cpus, sizeof(cpus));
		if (need == 0)
			snprintf(cpus, sizeof(cpus), "none");
		else if (need > 16)
			snprintf(cpus + 13, sizeof(cpus) - 13, "...");
		fprintf(f, "%5d %-16s %4u", nd->id, cpus, nd->ncpus_online);
		for (size_t k = 0; k < NODE_NCOLS; k++) {
			double v = nf[k]->get(s, i);
			if (nf[k]->unit == NF_KB)
				fmt_kb(cell, sizeof(cell), v < 0 ? -1 : (int64_t)v);
			else
				fmt_pct(cell, sizeof(cell), v);
			fprintf(f, " %*s", nf[k]->text_w, cell);
		}
		fmt_kb(hit, sizeof(hit), ns->ns.v[NUMASTAT_HIT]);
		fmt_kb(miss, sizeof(miss), ns->ns.v[NUMASTAT_MISS]);
		fmt_kb(other, sizeof(other), ns->ns.v[NUMASTAT_OTHER_NODE]);
		fprintf(f, " %12s %10s %10s  %s\n", hit, miss, other, fmt_node_kind(t, i, ns));
	}
}

#define TEXT_CGROUPS 20

static int by_memory(const void *a, const void *b, void *ctx)
{
	const struct cgroup_set *cs = ctx;
	int64_t x = cs->v[*(const size_t *)a].total_kb, y = cs->v[*(const size_t *)b].total_kb;
	if (x != y)
		return x > y ? -1 : 1;   /* largest first, unknown (-1) last */
	return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* --cgroups: the top cgroups by memory, per node, REMOTE against their
 * cpuset.mems (or the nodes their threads run on). */
static void cgroup_table(FILE *f, const struct snapshot *s)
{
	const struct topology *t = s->topo;
	const struct cgroup_set *cs = &s->cgroups;
	if (!s->have_cgroups || cs->layout == CGROUP_NONE) {
		fprintf(f, "\ncgroups: none mounted under /sys/fs/cgroup\n");
		return;
	}
	size_t *ix = malloc((cs->n ? cs->n : 1) * sizeof(*ix));
	if (!ix)
		return;
	for (size_t i = 0; i < cs->n; i++)
		ix[i] = i;
	if (cs->n > 1)
		qsort_r(ix, cs->n, sizeof(*ix), by_memory, (void *)cs);
	size_t show = cs->n < TEXT_CGROUPS ? cs->n : TEXT_CGROUPS;
	fprintf(f, "\ncgroups (%s): %zu, the top %zu by memory\n", cgroup_layout_names[cs->layout],
		cs->n, show);
	fprintf(f, "%6s %12s", "PROCS", "MEM_KB");
	for (size_t j = 0; j < t->nnodes; j++) {
		char h[24];
		snprintf(h, sizeof(h), "N%d", t->nodes[j].id);
		fprintf(f, " %10s", h);
	}
	fprintf(f, " %10s %-8s %-12s %s\n", "REMOTE", "MEMS", "CPUS", "CGROUP");
	for (size_t k = 0; k < show; k++) {
		const struct cgroup_info *c = &cs->v[ix[k]];
		char a[24], b[24], path[1024], mems[64], cpus[64];
		fmt_kb(a, sizeof(a), c->procs_tree);
		fmt_kb(b, sizeof(b), c->have_numa ? c->total_kb : -1);
		fprintf(f, "%6s %12s", a, c->state == CGS_OK ? b : cgroup_state_names[c->state]);
		for (size_t j = 0; j < t->nnodes; j++) {
			fmt_kb(a, sizeof(a), c->have_numa ? c->node_kb[j] : -1);
			fprintf(f, " %10s", a);
		}
		fmt_kb(a, sizeof(a), c->remote_kb);
		if (!c->have_mems || bitmap_format_list(&c->mems, mems, sizeof(mems)) == 0)
			snprintf(mems, sizeof(mems), "-");
		if (!c->have_cpus || bitmap_format_list(&c->cpus, cpus, sizeof(cpus)) == 0)
			snprintf(cpus, sizeof(cpus), "-");
		sanitize_term(c->path, path, sizeof(path));
		fprintf(f, " %10s %-8s %-12s %s\n", a, mems, cpus, path);
	}
	/* Said once: with where the walk stopped in the warnings above. */
	if (cs->truncated && (cs->first_cut < 0 || (size_t)cs->first_cut >= cs->n))
		fprintf(f, "cgroups: %zu more not read (over %d, or nested deeper than %d)\n",
			cs->truncated, CGROUP_MAX, CGROUP_MAX_DEPTH);
	free(ix);
}

/* The kernel's NUMA balancing in one line, and the memory tiers. */
static void balancing_line(FILE *f, const struct snapshot *s)
{
	char line[512];
	if (!s->nk.node)
		return;
	fmt_balancing(s, line, sizeof(line));
	fprintf(f, "\n%s\n", line);
	if (fmt_tiers(s, line, sizeof(line)))
		fprintf(f, "%s\n", line);
	if (!tiers_multi(&s->nk.tiers))
		return;
	/* Several tiers: each, fast -> slow, and the kernel's knobs. */
	for (size_t j = 0; j < s->nk.tiers.ntiers; j++) {
		snapshot_tier_text(s, j, line, sizeof(line));
		fprintf(f, "  %s\n", line);
	}
	snapshot_tiering_text(s, line, sizeof(line));
	fprintf(f, "  %s\n", line);
}

static double distance(const void *ctx, size_t i, size_t j)
{
	return topology_distance(ctx, i, j);
}

static void distance_table(FILE *f, const struct snapshot *s)
{
	fputc('\n', f);
	fmt_node_matrix(f, s->topo, &(struct fmt_matrix){ .indent = "", .corner = "DISTANCE",
							  .get = distance, .ctx = s->topo });
}

/* The process table: the chosen columns (default: col_list_default),
 * the per-node entry expanded to every node, the per-tier one to every
 * tier of the sample (fast -> slow). */
static void proc_line(FILE *f, const struct col_ctx *c, const struct col_list *l,
		      const struct snap_proc *p)
{
	const struct topology *t = c->t;
	bool first = true;
	for (size_t i = 0; i < l->n; i++) {
		enum snap_col col = l->v[i].col;
		const struct col_def *d = col_get(col);
		int node = l->v[i].node;
		bool all = (d->per_node || d->per_tier) && node < 0;
		size_t cnt = !all ? 1 : d->per_node ? t->nnodes : c->tiers ? c->tiers->ntiers : 0;
		for (size_t j = 0; j < cnt; j++) {
			char cell[1024], pad[1100];
			/* the cell's node: a node index, a tier id, else 0 */
			int at = !all ? (node < 0 ? 0 : node) : d->per_node ? (int)j : c->tiers->tier[j].id;
			if (p)
				col_cell(c, col, at, p, cell, sizeof(cell));
			else
				col_header(c, col, d->per_node || d->per_tier ? at : -1, cell, sizeof(cell));
			bool last = i + 1 == l->n && j + 1 == cnt;
			col_pad(c, col, last, cell, pad, sizeof(pad));
			if (!first)
				fprintf(f, "%*s", j == 0 ? d->text_sep : 1, "");
			first = false;
			fputs(pad, f);
		}
	}
	fputc('\n', f);
}

static void proc_table(FILE *f, const struct snapshot *s, const struct output_opts *o)
{
	struct col_ctx c = { s->topo, false, -1, o->full_command, &s->nk.tiers, s };
	struct col_list def = { 0 };
	const struct col_list *l = o->cols;
	if (!l || !l->n) {
		struct col_follow fo = { 0 };
		col_follow_init(&fo, true, true);
		int rc = col_list_default(&def, false, o->show_age);
		if (rc == 0)
			rc = col_follow_sample(&fo, &def, s);
		col_follow_free(&fo);
		if (rc) {
			col_list_free(&def);
			return;
		}
		l = &def;
	}
	fputc('\n', f);
	proc_line(f, &c, l, NULL);
	size_t rows = o->max_rows && o->max_rows < s->nprocs ? o->max_rows : s->nprocs;
	for (size_t i = 0; i < rows; i++)
		proc_line(f, &c, l, snapshot_row(s, i));
	col_list_free(&def);
}

int output_text_write(FILE *f, const struct snapshot *s,
		      const struct output_opts *o)
{
	header(f, s, o);
	node_table(f, s);
	balancing_line(f, s);
	if (o->cgroups)
		cgroup_table(f, s);
	distance_table(f, s);
	proc_table(f, s, o);
	fputc('\n', f);
	if (fflush(f) != 0 || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
