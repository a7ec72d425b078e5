/* batch.c - the batch modes (-b, --json, --format, -w): the sample loop
 * (sample_loop.h) with the format's writer or the recording behind it. */
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
#include "sample_loop.h"
#include "sampler.h"
#include "session.h"
#include "sigstop.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* Where each sample goes: the format's writer, to out or (-w) through a
 * memory stream into the recording. */
struct batch_emit {
	const struct output_format *fmt;
	struct output_opts *oo;
	struct output_stats *stats;
	FILE *out;
	struct rec_writer *rec;
	FILE *mem;
	char **line;
};

static int emit(void *ctx, const struct snapshot *snap, double wall_s, double cpu_s, char *msg,
		size_t msgsz)
{
	struct batch_emit *e = ctx;
	output_stats_add(e->stats, snap, wall_s, cpu_s);
	if (e->mem)
		rewind(e->mem);
	int rc = e->fmt->write(e->out, snap, e->oo);
	if (e->mem && rc == 0) {
		/* The line as --json prints it, without its newline. */
		long len = ftell(e->mem);
		rc = len > 0 ? rec_writer_add(e->rec, *e->line, (size_t)len - 1, msg, msgsz) : -EIO;
		if (rc)
			return rc;
	}
	if (rc == -EPIPE)
		return 1;      /* reader went away (| head): a clean end */
	if (rc) {
		snprintf(msg, msgsz, "writing output: %s", strerror(-rc));
		return rc;
	}
	return 0;
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
	struct output_opts oo = { .root_label = o->root, .show_age = o->show_age, .sort = &key,
				  .cols = o->columns ? &cols : NULL,
				  .meas = se.have_meas ? &se.meas : NULL,
				  .metrics = &o->metrics,
				  .stats = &stats, .cgroups = o->cgroups,
				  .full_command = o->full_command };
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
	struct batch_emit be = { fmt, &oo, &stats, out, rec, mem, &line };
	struct sample_loop loop = { .smp = se.smp, .key = &key, .delay = delay,
				    .iterations = o->iterations, .stop = &stop_requested,
				    .emit = emit, .ctx = &be };
	if (sample_loop_run(&loop, &snap, msg, sizeof(msg)) != 0) {
		fprintf(err, "numatop-tui: %s\n", msg);
		status = 1;
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
