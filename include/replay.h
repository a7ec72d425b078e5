/* replay.h - a recording played back into the model, for the batch
 * replay (--replay FILE -b / --json) and the monitor: the reader
 * (record.h), each header's topology, HMAT and measurement, each sample
 * rebuilt into a snapshot (snapshot_json.h) and filtered by the live sampler's
 * own filter (sampler_filter_keeps). A sample that cannot be rebuilt is
 * skipped with a warning; the caller's model changes only for a sample
 * that was rebuilt whole. */
#ifndef NUMATOP_REPLAY_H
#define NUMATOP_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "history.h"
#include "sampler.h"
#include "session.h"
#include "snapshot.h"

struct replay;

/* A recording (a file, or a directory of daily files). 0, or -errno with
 * err naming the file: not a recording, no samples in it (-ENOENT), the
 * header of its first sample unusable. */
int replay_open(struct replay **out, const char *path, char *err, size_t errsz);
/* Close, and free what the replay put in se (topology, HMAT,
 * measurement); free the snapshot built against it first. */
void replay_close(struct replay *rp, struct session *se);

/* -p, -u, K as the live sampler applies them; f's pointers must outlive
 * the replay. Default: every process but kernel threads. */
void replay_set_filter(struct replay *rp, const struct sampler_filter *f);

enum replay_to {
	REPLAY_SAME,     /* the current sample again (the filter changed) */
	REPLAY_FIRST, REPLAY_LAST, REPLAY_NEXT, REPLAY_PREV,
	REPLAY_AT,       /* the first at or after `when` (else the last) */
};

/* Move to a sample and rebuild it: se gets the topology, HMAT and
 * measurement of its header (*new_topology: they changed, so what was
 * made from the old ones must be made again), snap the sample, filtered.
 * Samples that cannot be rebuilt are skipped (a warning each) on the way
 * on: forward for NEXT, FIRST and AT (then backward from there when
 * nothing after it can be), backward for PREV and LAST. 0; -ENOENT: no
 * such sample; another -errno with err. On any error se, snap and the
 * position are as they were. */
int replay_move(struct replay *rp, enum replay_to to, time_t when, struct session *se,
		struct snapshot *snap, bool *new_topology, char *err, size_t errsz);

/* The current sample's time (-1 unknown) and file; the first sample's. */
time_t replay_when(const struct replay *rp);
const char *replay_file(const struct replay *rp);
time_t replay_start(const struct replay *rp);

/* Warnings so far (the reader's, samples and headers skipped), in order;
 * how many samples were skipped. */
size_t replay_nwarnings(const struct replay *rp);
const char *replay_warning(const struct replay *rp, size_t i);
size_t replay_nskipped(const struct replay *rp);

/* The nodes' history up to the current sample: h (re)made for se's
 * topology, filled with up to n samples before it of the same header
 * (read without their processes), oldest first. 0 or -ENOMEM. */
int replay_history(struct replay *rp, const struct session *se, struct history *h, size_t n);

/* The current sample as --json prints it: its recorded line, checked
 * (it was rebuilt), strings made valid UTF-8 with control characters
 * escaped, the processes the filter leaves out taken out (and counted as
 * the live run counts them). *out is malloc'ed (no newline). 0 or
 * -errno (src/replay_json.c). */
int replay_json_line(struct replay *rp, char **out, size_t *len);

#endif
