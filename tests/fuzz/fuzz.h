/* fuzz.h - the fuzz targets of files other than fuzz.c, which runs them
 * all (fuzz_replay) or one (-DFUZZ_TARGET=name). Each takes exactly size
 * bytes and calls abort() when an invariant breaks. */
#ifndef NUMATOP_FUZZ_H
#define NUMATOP_FUZZ_H

#include <stddef.h>

struct topology;

/* fuzz.c: a recording's header line (s up to its first newline) read
 * into t, and the sample text after it (*body, *blen). 0, or -1 when
 * there is nothing more to fuzz (no newline, or a header the reader
 * refuses; t is then not set). */
int fuzz_recording_header(const char *s, size_t size, struct topology *t,
			  const char **body, size_t *blen);

/* fuzz_damon.c: DAMON's sysfs values and tried regions (and a region's
 * numbers alone), our record, and the access heat of a recorded sample. */
void t_damon_scalar(const char *s, size_t size);
void t_damon_region(const char *s, size_t size);
void t_damon_numbers(const char *s, size_t size);
void t_damon_record(const char *s, size_t size);
void t_access_json(const char *s, size_t size);

/* fuzz_fleet.c: the answer of Prometheus's query API and the fleet's
 * hosts table folded from it. */
void t_fleet_answer(const char *s, size_t size);

#endif
