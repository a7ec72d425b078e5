/* output.h - the non-interactive faces: batch text and NDJSON. */
#ifndef NUMATOP_OUTPUT_H
#define NUMATOP_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "columns.h"
#include "sampler.h"
#include "snapshot.h"

/* What an exporter says of its own cost, summed over its samples. */
struct output_stats {
	uint64_t samples, nm_exact, nm_sampled;
	double cpu_seconds;         /* CPU time spent sampling */
	double last_duration_s;     /* the last sample: collect + render */
};
void output_stats_add(struct output_stats *st, const struct snapshot *s, double duration_s,
		      double cpu_s);

/* The version of the JSON's layout (docs/numatop-tui.schema.json):
 * "schema_version" in every --json sample and recording header. Raised
 * when a field changes meaning or type or goes away; new fields do not. */
#define OUTPUT_JSON_SCHEMA_VERSION 1

/* Processes in the Prometheus exposition: the top N by remote bytes. */
#define OUTPUT_METRICS_TOP 50

struct measure_result;

struct output_opts {
	const char *root_label;     /* shown in the header */
	size_t max_rows;            /* 0 = every process */
	bool show_age;              /* text: the AGE column */
	const struct col_list *cols;  /* text: these columns (NULL: default) */
	/* prometheus, openmetrics: */
	const struct measure_result *meas;   /* the saved measurement, or NULL */
	size_t metrics_top;         /* --metrics-top N ... */
	bool metrics_top_set;       /* ... given (else OUTPUT_METRICS_TOP) */
	const struct output_stats *stats;    /* NULL: not said */
	bool cgroups;               /* text: the cgroup table (--cgroups) */
};

/* Both return 0, or -errno when the stream failed (e.g. -EPIPE). The
 * snapshot must already be sorted. */
int output_text_write(FILE *f, const struct snapshot *s,
		      const struct output_opts *o);
int output_json_write(FILE *f, const struct snapshot *s,
		      const struct output_opts *o);
/* The Prometheus text exposition (version 0.0.4) and OpenMetrics 1.0.0. */
int output_prom_write(FILE *f, const struct snapshot *s, const struct output_opts *o);
int output_openmetrics_write(FILE *f, const struct snapshot *s, const struct output_opts *o);

/* The formats, one row each (src/output.c): --format NAME. */
struct output_format {
	const char *name;
	const char *desc;
	int (*write)(FILE *f, const struct snapshot *s, const struct output_opts *o);
	enum sampler_cgroups cgroups;   /* what it shows of cgroups */
};
extern const struct output_format output_formats[];
extern const size_t output_nformats;
/* By name, case-insensitive; NULL when there is none. */
const struct output_format *output_format_find(const char *name);
/* "text json": the names, for messages. */
void output_format_names(char *out, size_t n);

#endif
