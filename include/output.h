/* output.h - the non-interactive faces: batch text and NDJSON. */
#ifndef NUMATOP_OUTPUT_H
#define NUMATOP_OUTPUT_H

#include <stdbool.h>
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

/* Processes in the Prometheus exposition: the top N by remote bytes of
 * those with more than OUTPUT_METRICS_MIN_REMOTE bytes of remote memory
 * (1 MiB: 256 pages; below it remote accesses cost next to nothing, and
 * shells, sleep and cron jobs, whose few pages of shared libraries sit on
 * another node, would each get series of their own for their short life),
 * each with its pid, or per command name and user. */
#define OUTPUT_METRICS_TOP 50
#define OUTPUT_METRICS_MIN_REMOTE (1024 * 1024)
enum output_metrics_by { OUTPUT_BY_PID, OUTPUT_BY_COMM };
struct output_metrics {
	size_t top;                 /* --metrics-top N */
	int64_t min_remote;         /* --metrics-min-remote SIZE, bytes */
	enum output_metrics_by by;  /* --metrics-by pid|comm */
};
#define OUTPUT_METRICS_DEFAULT { OUTPUT_METRICS_TOP, OUTPUT_METRICS_MIN_REMOTE, OUTPUT_BY_PID }

/* The families of the Prometheus exposition, one row each, as it writes
 * them: the name of its samples (counters end in _total, info in _info),
 * its type (gauge, counter, info), its labels in order ("node,to"; ""
 * none), its HELP text, and when it is there ("" always). tools/genman.c
 * writes docs/prometheus.md's table from them. */
struct prom_family {
	const char *name, *type, *labels, *help, *when;
};
/* The i-th family, from 0; false past the last. */
bool output_prom_family(size_t i, struct prom_family *f);

struct measure_result;

struct output_opts {
	const char *root_label;     /* shown in the header */
	size_t max_rows;            /* 0 = every process */
	bool show_age;              /* text: the AGE column */
	const struct col_list *cols;  /* text: these columns (NULL: default) */
	/* prometheus, openmetrics: */
	const struct measure_result *meas;   /* the saved measurement, or NULL */
	const struct output_metrics *metrics;  /* NULL: OUTPUT_METRICS_DEFAULT */
	const struct output_stats *stats;    /* NULL: not said */
	bool cgroups;               /* text: the cgroup table (--cgroups) */
	bool full_command;          /* text: COMMAND is the command line (-c) */
	const struct sort_key *sort;  /* text: the order, said on the heat line
				       * (NULL: not said) */
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
