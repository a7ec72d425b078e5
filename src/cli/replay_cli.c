/* replay_cli.c - --replay FILE|DIR --json: a recording's samples between
 * --begin and --end, as the NDJSON they were recorded as. */
#include "replay_cli.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "record.h"

static void say_warnings(const struct rec_reader *r, size_t *said, FILE *err)
{
	for (; *said < rec_reader_nwarnings(r); (*said)++)
		fprintf(err, "numatop-tui: warning: %s\n", rec_reader_warning(r, *said));
}

int replay_run(const struct options *o, FILE *out, FILE *err)
{
	if (!o->json) {
		fprintf(err, "numatop-tui: --replay prints its samples with --json (text and the "
			"monitor do not read recordings)\n");
		return 2;
	}
	char msg[600];
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
	long n = 0;
	while (rc == 0 && (o->iterations == 0 || n < o->iterations)) {
		if (o->begin && s.when < begin)
			break;          /* nothing at or after --begin */
		if (o->end && s.when > end)
			break;
		if (fwrite(s.line, 1, s.len, out) != s.len || fputc('\n', out) == EOF) {
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
	return status;
}
