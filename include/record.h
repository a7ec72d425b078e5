/* record.h - recordings: a zstd stream that zstdcat turns into NDJSON,
 * one header line (format version, host, kernel, start, topology) and
 * then one line per sample, each what --json prints.
 *
 * The stream is a sequence of zstd frames. A frame holds at most
 * REC_FRAME_SAMPLES samples or REC_FRAME_BYTES of text; inside it every
 * sample is flushed (ZSTD_e_flush) and written before the next, so a
 * recorder that dies loses at most the sample being written, and samples
 * compress against the previous ones (the window holds them). A frame
 * starts with the header line when a recorder starts or a new file is
 * begun; readers apply the latest header to the samples after it.
 * Frames make seeking cheap: the reader indexes them when it opens a file
 * (their offsets from the block headers, their first sample's time from
 * its first line) and decodes one frame at a time. */
#ifndef NUMATOP_RECORD_H
#define NUMATOP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define REC_FORMAT_VERSION 1
#define REC_FRAME_SAMPLES 60
#define REC_FRAME_BYTES (16u << 20)
#define REC_KEEP_DAYS_DEFAULT 28
#define REC_DAILY_PREFIX "numatop-tui_"
#define REC_DAILY_SUFFIX ".zst"
#define REC_LEVEL 3
#define REC_DELAY_DEFAULT 10.0    /* -w without -d */

/* --- writing ------------------------------------------------------------ */

struct rec_writer;

/* A clock for the daily files' names and for pruning (tests pass a fake). */
typedef time_t (*rec_clock_fn)(void *ctx);

/* spec: a file, or a directory (ending in '/', or an existing directory)
 * for daily files REC_DAILY_PREFIX "YYYYMMDD" REC_DAILY_SUFFIX in local
 * time, with files older than keep_days days removed. header: the header
 * line's JSON (no newline), written at the start of every file this
 * writer begins or continues. An existing file is continued: it must be
 * a recording of this format version or older; a last frame that a
 * killed recorder left open is closed first (its whole samples kept).
 * One writer at a time: the file, and the directory of daily files, are
 * locked (flock) while the writer is open, and a second writer on either
 * gets -EBUSY with err naming the first's pid when /proc/locks says it
 * (readers take no lock). 0, or -errno with the reason in err. */
int rec_writer_open(struct rec_writer **out, const char *spec, int keep_days,
		    const char *header, rec_clock_fn clock, void *clock_ctx,
		    char *err, size_t errsz);
/* One sample line (without its newline). 0, or -errno with err (a full
 * disk: -ENOSPC; the file stays readable up to the last whole sample). */
int rec_writer_add(struct rec_writer *w, const char *line, size_t len, char *err, size_t errsz);
/* End the frame and close. 0 or -errno. */
int rec_writer_close(struct rec_writer *w, char *err, size_t errsz);
/* The file being written now. */
const char *rec_writer_path(const struct rec_writer *w);
/* Bytes written (compressed) and samples added, since open. */
void rec_writer_stats(const struct rec_writer *w, uint64_t *bytes, uint64_t *samples);

/* The daily file of a time in dir: "dir/numatop-tui_20261204.zst". */
void rec_daily_name(const char *dir, time_t when, char *out, size_t n);
/* Remove daily files in dir dated more than keep_days days before now
 * (by the date in their names) that are this user's recordings: regular
 * files (no symbolic link, FIFO or directory) of the effective user with
 * one link, empty or starting with a recording's header line. Anything
 * else with such a name is kept. Returns how many were removed, or -errno. */
int rec_prune(const char *dir, time_t now, int keep_days);

/* The header line of a session (malloc'ed JSON, no newline; NULL when
 * out of memory): interval_s is -d, start the recorder's start. */
struct session;
char *rec_header_json(const struct session *se, const char *root_label, double interval_s,
		      time_t start);

/* --- reading ------------------------------------------------------------ */

struct rec_reader;

/* One sample: its line and the header that applies to it. */
struct rec_sample {
	const char *line;             /* not NUL-terminated inside the frame */
	size_t len;
	const char *header;           /* the header line, NUL-terminated */
	time_t when;                  /* the sample's timestamp, -1 unknown */
	const char *file;             /* the file it is in */
};

/* A file, or a directory of daily files (read in date order). Every
 * frame is indexed; damage (a cut last frame, a corrupt frame, text
 * that is not a sample) is skipped and said in the warnings. 0, or
 * -errno with err naming the file and what is wrong ("not a numatop-tui
 * recording", "format version 3 is newer than this program's 1"). */
int rec_reader_open(struct rec_reader **out, const char *path, char *err, size_t errsz);
void rec_reader_close(struct rec_reader *r);

/* Move to a sample: first, last, next, previous, or the first sample at
 * or after `when` (the last one when there is none). 0 with *s filled,
 * -ENOENT when there is no such sample (s unchanged), or -errno. The
 * pointers in s stay valid until the next call. */
int rec_reader_first(struct rec_reader *r, struct rec_sample *s);
int rec_reader_last(struct rec_reader *r, struct rec_sample *s);
int rec_reader_next(struct rec_reader *r, struct rec_sample *s);
int rec_reader_prev(struct rec_reader *r, struct rec_sample *s);
int rec_reader_seek(struct rec_reader *r, time_t when, struct rec_sample *s);

/* Where the reader is (the sample it last handed out), and back there:
 * 0 with *s filled, -ENOENT when p is no sample, or -errno. */
struct rec_pos {
	long frame;
	size_t line;
};
void rec_reader_tell(const struct rec_reader *r, struct rec_pos *p);
int rec_reader_goto(struct rec_reader *r, const struct rec_pos *p, struct rec_sample *s);

/* Warnings so far (damage found while indexing or decoding), one line
 * each, naming the file. */
size_t rec_reader_nwarnings(const struct rec_reader *r);
const char *rec_reader_warning(const struct rec_reader *r, size_t i);
/* Samples known so far in indexed frames (exact once every frame was
 * decoded), and the time range from the frames' first samples. */
size_t rec_reader_nframes(const struct rec_reader *r);

/* "2026-12-04T14:30:05Z" at the start of a sample line -> time, or -1. */
time_t rec_line_time(const char *line, size_t len);
/* A header line's format version (a whole number from 1 to 99999, then
 * the next member), or -1 when the line is no header or its version is
 * no such number ("0", "1e300"). */
int rec_header_version(const char *line, size_t len);
/* A time as users give it: "HH:MM[:SS]" on the local date of ref, or
 * "YYYY-MM-DD HH:MM[:SS]" (also with a T) in local time, or
 * "YYYY-MM-DDTHH:MM:SSZ" in UTC. 0, -EINVAL, or -ERANGE for a date that
 * is not in the calendar (2026-02-30). */
int rec_parse_time(const char *s, time_t ref, time_t *out);

#endif
