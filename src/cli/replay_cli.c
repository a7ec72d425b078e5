/* replay_cli.c - --replay FILE|DIR in batch: a recording's samples
 * between --begin and --end, with --json as the NDJSON they were recorded
 * as, with -b (or --format) rebuilt into the model and printed as live. */
#include "replay_cli.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "output.h"
#include "record.h"
#include "snapjson.h"

static void say_warnings(const struct rec_reader *r, size_t *said, FILE *err)
{
	for (; *said < rec_reader_nwarnings(r); (*said)++)
		fprintf(err, "numatop-tui: warning: %s\n", rec_reader_warning(r, *said));
}

/* The model rebuilt from the recording: the topology of the current
 * header (rebuilt when a new recorder session starts), the snapshot. */
struct replay_state {
	const struct options *o;
	char *header;
	struct topology topo;
	bool have_topo;
	struct snapshot snap;
	struct sort_key key;
	struct col_list cols;
	char msg[300];
};

static void replay_state_free(struct replay_state *rs)
{
	snapshot_free(&rs->snap);
	if (rs->have_topo)
		topology_free(&rs->topo);
	free(rs->header);
	col_list_free(&rs->cols);
}

static int print_line(const struct rec_sample *s, FILE *out)
{
	if (fwrite(s->line, 1, s->len, out) != s->len || fputc('\n', out) == EOF)
		return -EIO;
	return 0;
}

static int print_model(struct replay_state *rs, const struct rec_sample *s,
		       const struct output_format *fmt, FILE *out)
{
	if (!rs->header || strcmp(rs->header, s->header) != 0) {
		snapshot_free(&rs->snap);
		if (rs->have_topo)
			topology_free(&rs->topo);
		rs->have_topo = false;
		free(rs->header);
		if (!(rs->header = strdup(s->header)))
			return -ENOMEM;
		int rc = snapjson_topology(s->header, &rs->topo, rs->msg, sizeof(rs->msg));
		if (rc)
			return rc == -ENOMEM ? rc : -EBADMSG;
		rs->have_topo = true;
		/* Node columns (N<id>) and -s N<id> need the topology. */
		col_list_free(&rs->cols);
		memset(&rs->cols, 0, sizeof(rs->cols));
		if (options_columns(rs->o, &rs->topo, &rs->key, &rs->cols, rs->msg, sizeof(rs->msg)) != 0)
			return -EBADMSG;
	}
	int rc = snapjson_snapshot(s->line, s->len, &rs->topo, &rs->snap, rs->msg, sizeof(rs->msg));
	if (rc)
		return rc == -ENOMEM ? rc : -EBADMSG;
	snapshot_sort(&rs->snap, &rs->key);
	char label[300];
	snprintf(label, sizeof(label), "replay %s", s->file);
	struct output_opts oo = { .root_label = label, .show_age = rs->o->show_age,
				  .cols = rs->o->columns ? &rs->cols : NULL,
				  .metrics_top = (size_t)rs->o->metrics_top,
				  .metrics_top_set = rs->o->metrics_top_set, .cgroups = rs->o->cgroups };
	return fmt->write(out, &rs->snap, &oo) ? -EIO : 0;
}

int replay_run(const struct options *o, FILE *out, FILE *err)
{
	char msg[600];
	const struct output_format *fmt = output_format_find(o->format ? o->format : "text");
	struct rec_reader *r;
	int rc = rec_reader_open(&r, o->replay, msg, sizeof(msg));
	if (rc) {
		fprintf(err, "numatop-tui: %s\n", msg);
		return 1;
	}
	size_t said = 0;
	struct rec_sample s;
	rc = rec_reader_first(r, &s);
	time_t begin = 0, end = 0;
	/* Times of day are on the recording's first day. */
	if (rc == 0 && o->begin && rec_parse_time(o->begin, s.when, &begin) == 0)
		rc = rec_reader_seek(r, begin, &s);
	if (rc == 0 && o->end)
		rec_parse_time(o->end, s.when, &end);
	signal(SIGPIPE, SIG_IGN);
	int status = 0;
	struct replay_state rs = { .o = o, .header = NULL };
	if (!o->json && options_columns(o, NULL, &rs.key, &rs.cols, msg, sizeof(msg)) != 0) {
		fprintf(err, "numatop-tui: %s\n", msg);
		rec_reader_close(r);
		return 2;
	}
	long n = 0;
	while (rc == 0 && (o->iterations == 0 || n < o->iterations)) {
		if (o->begin && s.when < begin)
			break;          /* nothing at or after --begin */
		if (o->end && s.when > end)
			break;
		int wrc = o->json ? print_line(&s, out) : print_model(&rs, &s, fmt, out);
		if (wrc == -EBADMSG || wrc == -ENOMEM) {
			fprintf(err, "numatop-tui: %s: %s\n", s.file, rs.msg);
			status = 1;
			break;
		}
		if (wrc) {
			if (errno != EPIPE) {
				fprintf(err, "numatop-tui: writing output: %s\n", strerror(errno));
				status = 1;
			}
			break;
		}
		n++;
		say_warnings(r, &said, err);
		rc = rec_reader_next(r, &s);
	}
	say_warnings(r, &said, err);
	if (rc && rc != -ENOENT) {
		fprintf(err, "numatop-tui: %s: %s\n", o->replay, strerror(-rc));
		status = 1;
	}
	if (fflush(out) != 0 && errno != EPIPE) {
		fprintf(err, "numatop-tui: writing output: %s\n", strerror(errno));
		status = 1;
	}
	rec_reader_close(r);
	replay_state_free(&rs);
	return status;
}
