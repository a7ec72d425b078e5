/* ui_settings.c - the monitor's state to and from the settings file
 * (settings.h): read at start (options on the command line win for that
 * run and are not written), written on quit when something changed since,
 * never over a file that could not be read, never with -n. */
#include <stdio.h>
#include <string.h>

#include "settings.h"
#include "ui_int.h"

/* The settings the monitor is showing now. */
static void collect(const struct ui *u, struct settings *s)
{
	settings_init(s);
	const struct topology *t = &u->se.topo;
	col_ref_name(t, (struct col_ref){ u->sort.col, u->sort.node }, s->sort, sizeof(s->sort));
	s->sort_descending = u->sort.descending;
	size_t off = 0;
	for (size_t i = 0; i < u->cols.n && off < sizeof(s->columns); i++) {
		if (u->follow.added[u->cols.v[i].col])
			continue;       /* added by the monitor: not a setting */
		char name[32];
		col_ref_name(t, u->cols.v[i], name, sizeof(name));
		int k = snprintf(s->columns + off, sizeof(s->columns) - off, "%s%s", off ? "," : "", name);
		off += k > 0 ? (size_t)k : 0;
	}
	s->show_nodes = u->show_nodes;
	s->show_heatmap = u->show_heatmap;
	snprintf(s->heatmap_layer, sizeof(s->heatmap_layer), "%s",
		 (size_t)u->heat.layer < settings_nlayers ? settings_layer_names[u->heat.layer] : "slit");
	s->delay = u->delay;
	s->kernel_threads = u->kernel_threads;
	s->tree = u->tree;
}

static void bad(struct ui *u, const char *what)
{
	u->settings_bad = true;
	char line[400];
	snprintf(line, sizeof(line), "settings: %.60s: %.80s (not used, kept as it is)",
		 u->settings_path, what);
	snprintf(u->msg, sizeof(u->msg), "%.159s", line);
}

/* The file's values as read at start (all unset when there was none):
 * what a setting given on the command line keeps in the file. One
 * monitor per process. */
static struct settings from_file;

void ui_settings_load(struct ui *u)
{
	const struct ui_config *o = u->opt;
	settings_init(&from_file);
	if (settings_path(u->settings_path, sizeof(u->settings_path)) != 0) {
		u->settings_path[0] = '\0';
		return;
	}
	struct settings s;
	settings_init(&s);
	char err[256];
	int rc = settings_load(u->settings_path, &s, err, sizeof(err));
	if (rc == -ENOENT && !err[0]) {
		collect(u, &u->settings_at_start);
		return;
	}
	if (rc) {
		bad(u, err[0] ? err : strerror(-rc));
		return;
	}
	/* Every value is checked before any is used: a file refused is not
	 * half applied. */
	const struct topology *t = &u->se.topo;
	struct sort_key key;
	if (s.sort[0] && col_parse_sort(t, s.sort, &key) != 0) {
		bad(u, "sort: no such column on this machine");
		return;
	}
	struct col_list l = { 0 };
	if (s.columns[0]) {
		char e[256];
		if (col_list_parse(t, s.columns, &l, e, sizeof(e)) != 0) {
			col_list_free(&l);
			bad(u, "columns: not a column list for this machine");
			return;
		}
	}
	from_file = s;
	/* REMOTE, descending, is the default (files before the heat
	 * default wrote it whenever anything changed): the heat default
	 * stays. */
	key.heat_default = key.col == COL_REMOTE && s.sort_descending != 0;
	if (!o->sort && s.sort[0])
		u->sort = key;
	if (!o->sort && s.sort_descending >= 0)
		u->sort.descending = s.sort_descending;
	if (!o->columns && s.columns[0]) {
		if (o->show_age)
			col_list_set_age(&l, true);
		col_list_free(&u->cols);
		u->cols = l;
		/* the saved columns, as saved (the heat's still join) */
		col_follow_init(&u->follow, false, u->follow.heat);
	} else {
		col_list_free(&l);
	}
	if (s.show_nodes >= 0)
		u->show_nodes = s.show_nodes;
	if (s.show_heatmap >= 0)
		u->show_heatmap = s.show_heatmap;
	if (s.tree >= 0)
		u->tree = s.tree;
	for (size_t i = 0; s.heatmap_layer[0] && i < settings_nlayers; i++)
		if (strcmp(s.heatmap_layer, settings_layer_names[i]) == 0 &&
		    ui_layer_available(u, (enum ui_layer)i))
			u->heat.layer = (enum ui_layer)i;
	if (!o->delay_set && s.delay > 0)
		u->delay = s.delay;
	if (!o->session.filter.kernel_threads && s.kernel_threads == 1) {
		u->kernel_threads = true;
		struct sampler_filter f = o->session.filter;
		f.kernel_threads = true;
		sampler_set_filter(u->se.smp, &f);
	}
	collect(u, &u->settings_at_start);
}

/* A setting given on the command line (-s, -o or --age, -d,
 * --kernel-threads) is that run's, not a change to keep: unless it was
 * changed in the monitor since, the file keeps its own value (or none). */
static void keep_file_values(const struct ui *u, struct settings *now)
{
	const struct ui_config *o = u->opt;
	const struct settings *st = &u->settings_at_start;
	if (o->sort && strcmp(now->sort, st->sort) == 0 &&
	    now->sort_descending == st->sort_descending) {
		memcpy(now->sort, from_file.sort, sizeof(now->sort));
		now->sort_descending = from_file.sort_descending;
	}
	if ((o->columns || o->show_age) && strcmp(now->columns, st->columns) == 0)
		memcpy(now->columns, from_file.columns, sizeof(now->columns));
	if (o->delay_set && now->delay == st->delay)
		now->delay = from_file.delay;
	if (o->session.filter.kernel_threads && now->kernel_threads == st->kernel_threads)
		now->kernel_threads = from_file.kernel_threads;
	/* The fleet's keys are the file's: the monitor does not set them. */
	memcpy(now->fleet, from_file.fleet, sizeof(now->fleet));
	memcpy(now->fleet_match, from_file.fleet_match, sizeof(now->fleet_match));
	memcpy(now->fleet_token_file, from_file.fleet_token_file, sizeof(now->fleet_token_file));
	memcpy(now->fleet_basic_auth_file, from_file.fleet_basic_auth_file,
	       sizeof(now->fleet_basic_auth_file));
	now->fleet_timeout = from_file.fleet_timeout;
}

int ui_settings_save(struct ui *u, char *why, size_t whysz)
{
	why[0] = '\0';
	/* -n: a run of N samples, not a session whose settings stick. */
	if (!u->settings_path[0] || u->settings_bad || u->opt->iterations > 0)
		return 0;
	struct settings now;
	collect(u, &now);
	if (memcmp(&now, &u->settings_at_start, sizeof(now)) == 0)
		return 0;
	keep_file_values(u, &now);
	int rc = settings_save(u->settings_path, &now, why, whysz);
	if (rc && !why[0])
		snprintf(why, whysz, "%s", strerror(-rc));
	return rc;
}
