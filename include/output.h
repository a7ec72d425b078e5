/* output.h - the non-interactive faces: batch text and NDJSON. */
#ifndef NUMATOP_OUTPUT_H
#define NUMATOP_OUTPUT_H

#include <stdio.h>

#include "snapshot.h"

struct col_list;

struct output_opts {
	const char *root_label;     /* shown in the header */
	size_t max_rows;            /* 0 = every process */
	bool show_age;              /* text: the AGE column */
	const struct col_list *cols;  /* text: these columns (NULL: default) */
};

/* Both return 0, or -errno when the stream failed (e.g. -EPIPE). The
 * snapshot must already be sorted. */
int output_text_write(FILE *f, const struct snapshot *s,
		      const struct output_opts *o);
int output_json_write(FILE *f, const struct snapshot *s,
		      const struct output_opts *o);

/* The formats, one row each (src/output.c): --format NAME. */
struct output_format {
	const char *name;
	const char *desc;
	int (*write)(FILE *f, const struct snapshot *s, const struct output_opts *o);
};
extern const struct output_format output_formats[];
extern const size_t output_nformats;
/* By name, case-insensitive; NULL when there is none. */
const struct output_format *output_format_find(const char *name);
/* "text json": the names, for messages. */
void output_format_names(char *out, size_t n);

/* Shared formatting helpers (also used by the UI). */
const char *fmt_node_kind(const struct topology *t, size_t idx,
			  const struct node_sample *ns);
/* "12.3" or "-" for unknown (< 0). */
void fmt_pct(char *out, size_t n, double v);
/* Age of a sample: "0s", "42s", "7m", "3h"; "-" never (< 0). */
void fmt_age(char *out, size_t n, double s);
/* "812K", "65.4M", "1.2G"; at most 6 characters; "-" unknown. */
void fmt_human_kb(char *out, size_t n, int64_t kb);
/* kB as an integer, or "-" for unknown (< 0). */
void fmt_kb(char *out, size_t n, int64_t kb);

#endif
