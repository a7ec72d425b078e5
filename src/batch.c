/* batch.c - the batch loop: sample, sort, print, sleep. */
#include "batch.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "columns.h"
#include "output.h"
#include "sampler.h"
#include "sigstop.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

int batch_open(const struct options *o, FILE *err, struct fsroot **root,
	       struct topology *topo, struct sampler **smp)
{
	int rc = fsroot_open(o->root, root);
	if (rc) {
		fprintf(err, "numatop-tui: cannot open root '%s': %s\n", o->root, strerror(-rc));
		return rc;
	}
	rc = topology_read(*root, topo);
	if (rc) {
		fprintf(err, "numatop-tui: '%s' has no readable /sys or /proc: %s\n",
			o->root, strerror(-rc));
		fsroot_close(*root);
		*root = NULL;
		return rc;
	}
	enum proc_backend be = o->proc_files ? PROC_BACKEND_FILES : PROC_BACKEND_AUTO;
	rc = sampler_new(*root, topo, be, smp);
	if (rc) {
		fprintf(err, "numatop-tui: cannot start sampling: %s\n", strerror(-rc));
		topology_free(topo);
		fsroot_close(*root);
		*root = NULL;
		return rc;
	}
	struct sampler_filter f = { o->pids, o->npids, o->user, o->kernel_threads };
	sampler_set_filter(*smp, &f);
	struct nmsched_config c;
	nmsched_config_default(&c);
	c.full = options_full_scan(o);
	c.budget_s = o->budget_ms / 1000.0;
	sampler_set_budget(*smp, &c);
	/* Processes named with -p are what the user watches: every tick. */
	if (o->npids && (rc = sampler_set_priority(*smp, o->pids, o->npids)) != 0) {
		sampler_free(*smp);
		topology_free(topo);
		fsroot_close(*root);
		*root = NULL;
		return rc;
	}
	return 0;
}

int batch_columns(const struct options *o, const struct topology *t, struct sort_key *key,
		  struct col_list *cols, char *err, size_t errsz)
{
	*key = (struct sort_key){ COL_REMOTE, -1, true };
	if (o->sort && col_parse_sort(t, o->sort, key) != 0) {
		snprintf(err, errsz, "-s: no column '%s' on this machine", o->sort);
		return -EINVAL;
	}
	if (!o->columns)
		return 0;
	char e[480];
	int rc = col_list_parse(t, o->columns, cols, e, sizeof(e));
	if (rc == 0 && o->show_age)
		rc = col_list_set_age(cols, true);
	if (rc)
		snprintf(err, errsz, "-o: %s", e);
	return rc;
}

static void sleep_for(double secs)
{
	struct timespec ts = { (time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9) };
	while (!stop_requested && nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int batch_run(const struct options *o, FILE *out, FILE *err)
{
	struct fsroot *root;
	struct topology topo;
	struct sampler *smp;
	if (batch_open(o, err, &root, &topo, &smp) != 0)
		return 1;
	struct sort_key key;
	struct col_list cols = { 0 };
	char msg[512];
	if (batch_columns(o, &topo, &key, &cols, msg, sizeof(msg)) != 0) {
		fprintf(err, "numatop-tui: %s\n", msg);
		col_list_free(&cols);
		sampler_free(smp);
		topology_free(&topo);
		fsroot_close(root);
		return 2;
	}
	sigstop_install(on_signal);
	signal(SIGPIPE, SIG_IGN);   /* a closed pipe shows up as EPIPE */
	struct output_opts oo = { .root_label = o->root, .show_age = o->show_age,
				  .cols = o->columns ? &cols : NULL };
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	int status = 0;
	for (long i = 0; !stop_requested && (o->iterations == 0 || i < o->iterations); i++) {
		if (i > 0)
			sleep_for(o->delay);
		if (stop_requested)
			break;
		int rc = sampler_tick(smp, &snap);
		if (rc) {
			fprintf(err, "numatop-tui: sampling failed: %s\n", strerror(-rc));
			status = 1;
			break;
		}
		snapshot_sort(&snap, &key);
		rc = o->json ? output_json_write(out, &snap, &oo)
			     : output_text_write(out, &snap, &oo);
		if (rc == -EPIPE)
			break;      /* reader went away (| head): a clean end */
		if (rc) {
			fprintf(err, "numatop-tui: writing output: %s\n", strerror(-rc));
			status = 1;
			break;
		}
	}
	snapshot_free(&snap);
	col_list_free(&cols);
	sampler_free(smp);
	topology_free(&topo);
	fsroot_close(root);
	return status;
}
