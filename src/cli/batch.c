/* batch.c - the batch loop: sample, sort, print, sleep. */
#include "batch.h"

#include <errno.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "columns.h"
#include "output.h"
#include "record.h"
#include "sampler.h"
#include "session.h"
#include "sigstop.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

double batch_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of the calling thread (the sampling one). */
double batch_cpu(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_for(double secs)
{
	struct timespec ts = { (time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9) };
	while (!stop_requested && nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* The delay between samples. While the sampler warms up it is spent
 * first on never-read processes' placement, which the next sample shows;
 * when that completes the picture, the next sample comes at once (the
 * stream's reader gets the complete picture as soon as it exists). */
static void pause_between(struct sampler *smp, struct snapshot *snap, double secs)
{
	double end = batch_now() + secs;
	while (!stop_requested && sampler_warming(smp)) {
		double left = end - batch_now();
		if (left <= 0.01)
			break;
		int r = sampler_warmup(smp, snap, left);
		if (r == 0 && !sampler_warming(smp))
			return;
		if (r <= 0)
			break;
	}
	double left = end - batch_now();
	if (left > 0)
		sleep_for(left);
}

int batch_run(const struct options *o, FILE *out, FILE *err)
{
	struct session_config sc;
	struct session se;
	char msg[512];
	options_session(o, true, &sc);
	/* The metrics formats carry the saved measurement. */
	sc.measurement = o->format && (strcmp(o->format, "prometheus") == 0 ||
				       strcmp(o->format, "openmetrics") == 0);
	/* A recording's header carries the firmware's HMAT and the saved
	 * measurement: the heatmap's layers in replay. */
	if (o->record)
		sc.hmat = sc.measurement = true;
	int orc = session_open(&se, &sc, msg, sizeof(msg));
	if (orc != 0) {
		fprintf(err, "numatop-tui: %s\n", msg);
		return orc == SESSION_EUSAGE ? 2 : 1;
	}
	struct sort_key key;
	struct col_list cols = { 0 };
	if (options_columns(o, &se.topo, &key, &cols, msg, sizeof(msg)) != 0) {
		fprintf(err, "numatop-tui: %s\n", msg);
		col_list_free(&cols);
		session_close(&se);
		return 2;
	}
	const struct output_format *fmt = output_format_find(o->record ? "json" :
							     o->format ? o->format : "text");
	/* Cgroups as the format shows them; the text's table with --cgroups,
	 * the CGROUP column needs each process's. */
	enum sampler_cgroups cgm = fmt->cgroups;
	if (o->cgroups && fmt->write == output_text_write)
		cgm = SAMPLER_CG_ALL;
	else if (cgm == SAMPLER_CG_OFF && col_list_find(&cols, COL_CGROUP) >= 0)
		cgm = SAMPLER_CG_PROCS;
	sampler_set_cgroups(se.smp, cgm);
	sigstop_install(on_signal);
	signal(SIGPIPE, SIG_IGN);   /* a closed pipe shows up as EPIPE */
	struct output_stats stats = { 0 };
	struct output_opts oo = { .root_label = o->root, .show_age = o->show_age,
				  .cols = o->columns ? &cols : NULL,
				  .meas = se.have_meas ? &se.meas : NULL,
				  .metrics_top = (size_t)o->metrics_top, .metrics_top_set = o->metrics_top_set,
				  .stats = &stats, .cgroups = o->cgroups };
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	int status = 0;
	/* -w: each sample's JSON goes to the recording, not to out. */
	double delay = o->record && !o->delay_set ? REC_DELAY_DEFAULT : o->delay;
	struct rec_writer *rec = NULL;
	char *line = NULL;
	size_t linesz = 0;
	FILE *mem = NULL;
	if (o->record) {
		char *hdr = rec_header_json(&se, o->root, delay, time(NULL));
		int wrc = hdr ? rec_writer_open(&rec, o->record, (int)o->keep_days, hdr, NULL, NULL,
						msg, sizeof(msg)) : -ENOMEM;
		free(hdr);
		if (wrc == 0 && !(mem = open_memstream(&line, &linesz)))
			wrc = -ENOMEM;
		if (wrc) {
			fprintf(err, "numatop-tui: %s\n", msg[0] ? msg : strerror(-wrc));
			rec_writer_close(rec, msg, sizeof(msg));
			col_list_free(&cols);
			session_close(&se);
			return 1;
		}
		out = mem;
	}
	for (long i = 0; !stop_requested && (o->iterations == 0 || i < o->iterations); i++) {
		if (i > 0)
			pause_between(se.smp, &snap, delay);
		if (stop_requested)
			break;
		double t0 = batch_now(), c0 = batch_cpu();
		int rc = sampler_tick(se.smp, &snap);
		if (rc) {
			fprintf(err, "numatop-tui: sampling failed: %s\n", strerror(-rc));
			status = 1;
			break;
		}
		snapshot_sort(&snap, &key);
		output_stats_add(&stats, &snap, batch_now() - t0, batch_cpu() - c0);
		if (mem)
			rewind(mem);
		rc = fmt->write(out, &snap, &oo);
		if (mem && rc == 0) {
			/* The line as --json prints it, without its newline. */
			long len = ftell(mem);
			rc = len > 0 ? rec_writer_add(rec, line, (size_t)len - 1, msg, sizeof(msg)) : -EIO;
			if (rc) {
				fprintf(err, "numatop-tui: %s\n", msg);
				status = 1;
				break;
			}
		}
		if (rc == -EPIPE)
			break;      /* reader went away (| head): a clean end */
		if (rc) {
			fprintf(err, "numatop-tui: writing output: %s\n", strerror(-rc));
			status = 1;
			break;
		}
	}
	if (rec && rec_writer_close(rec, msg, sizeof(msg)) != 0) {
		fprintf(err, "numatop-tui: %s\n", msg);
		status = 1;
	}
	if (mem)
		fclose(mem);
	free(line);
	snapshot_free(&snap);
	col_list_free(&cols);
	session_close(&se);
	return status;
}
