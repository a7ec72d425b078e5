/* replay_cli.c - --replay FILE|DIR in batch: a recording's samples
 * between --begin and --end, through the replay (src/replay.c) as the
 * monitor reads them: with --json as NDJSON (the recorded lines checked
 * and written again), with -b (or --format) printed from the model as
 * live; -p, -u and -K filter as they do live. A sample that cannot be
 * read is skipped with a warning. */
#include "replay_cli.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "output.h"
#include "record.h"
#include "replay.h"

static void say_warnings(const struct replay *rp, size_t *said, FILE *err)
{
	for (; *said < replay_nwarnings(rp); (*said)++)
		fprintf(err, "numatop-tui: warning: %s\n", replay_warning(rp, *said));
}

static int print_json(struct replay *rp, FILE *out)
{
	char *line;
	size_t len;
	int rc = replay_json_line(rp, &line, &len);
	if (rc)
		return rc;
	rc = fwrite(line, 1, len, out) != len || fputc('\n', out) == EOF ? -EIO : 0;
	free(line);
	return rc;
}

static int print_model(const struct options *o, struct replay *rp, struct snapshot *snap,
		       const struct sort_key *key, const struct col_list *cols, FILE *out)
{
	const struct output_format *fmt = output_format_find(o->format ? o->format : "text");
	snapshot_sort(snap, key);
	char label[300];
	snprintf(label, sizeof(label), "replay %s", replay_file(rp));
	struct output_opts oo = { .root_label = label, .show_age = o->show_age, .sort = key,
				  .cols = o->columns ? cols : NULL,
				  .metrics = &o->metrics, .cgroups = o->cgroups,
				  .full_command = o->full_command };
	return fmt->write(out, snap, &oo) ? -EIO : 0;
}

int replay_run(const struct options *o, FILE *out, FILE *err)
{
	char msg[600];
	struct replay *rp;
	if (replay_open(&rp, o->replay, msg, sizeof(msg)) != 0) {
		fprintf(err, "numatop-tui: %s\n", msg);
		return 1;
	}
	struct sampler_filter f = { o->pids, o->npids, o->user, o->kernel_threads };
	replay_set_filter(rp, &f);
	struct session se;
	struct snapshot snap;
	struct sort_key key;
	struct col_list cols = { 0 };
	memset(&se, 0, sizeof(se));
	memset(&snap, 0, sizeof(snap));
	size_t said = 0;
	int status = 0;
	if (!o->json && options_columns(o, NULL, &key, &cols, msg, sizeof(msg)) != 0) {
		fprintf(err, "numatop-tui: %s\n", msg);
		status = 2;
		goto out;
	}
	/* Times of day are on the recording's first day. */
	time_t begin = 0, end = 0;
	bool has_begin = o->begin && rec_parse_time(o->begin, replay_start(rp), &begin) == 0;
	bool has_end = o->end && rec_parse_time(o->end, replay_start(rp), &end) == 0;
	/* One a time of day, the other a date: only the recording's first
	 * day orders them (options.c orders two of a kind). */
	if (has_begin && has_end && begin > end) {
		fprintf(err, "numatop-tui: --begin %s is after --end %s (times of day are on the "
			"recording's first day): nothing to replay\n", o->begin, o->end);
		status = 2;
		goto out;
	}
	signal(SIGPIPE, SIG_IGN);
	bool new_topo;
	int rc = replay_move(rp, has_begin ? REPLAY_AT : REPLAY_FIRST, begin, &se, &snap, &new_topo,
			     msg, sizeof(msg));
	long n = 0;
	while (rc == 0 && (o->iterations == 0 || n < o->iterations)) {
		time_t when = replay_when(rp);
		if ((has_begin && when < begin) || (has_end && when > end))
			break;          /* nothing in the window (any more) */
		int wrc = 0;
		/* Node columns (N<id>) and -s N<id> need the topology. */
		if (new_topo && !o->json) {
			col_list_free(&cols);
			memset(&cols, 0, sizeof(cols));
			if (options_columns(o, &se.topo, &key, &cols, msg, sizeof(msg)) != 0) {
				fprintf(err, "numatop-tui: %s: %s\n", replay_file(rp), msg);
				status = 1;
				break;
			}
		}
		say_warnings(rp, &said, err);
		wrc = o->json ? print_json(rp, out) : print_model(o, rp, &snap, &key, &cols, out);
		if (wrc == -ENOMEM) {
			fprintf(err, "numatop-tui: %s: out of memory\n", replay_file(rp));
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
		rc = replay_move(rp, REPLAY_NEXT, 0, &se, &snap, &new_topo, msg, sizeof(msg));
	}
	say_warnings(rp, &said, err);
	if (rc && rc != -ENOENT) {
		fprintf(err, "numatop-tui: %s: %s\n", o->replay, msg[0] ? msg : strerror(-rc));
		status = 1;
	} else if (n == 0 && replay_nskipped(rp) > 0) {
		fprintf(err, "numatop-tui: %s: none of its samples%s could be read\n", o->replay,
			has_begin || has_end ? " in the window" : "");
		status = 1;
	}
	if (fflush(out) != 0 && errno != EPIPE) {
		fprintf(err, "numatop-tui: writing output: %s\n", strerror(errno));
		status = 1;
	}
out:
	snapshot_free(&snap);
	replay_close(rp, &se);
	col_list_free(&cols);
	return status;
}
