/* fleet.h - a fleet of numatop-tui exporters (--serve) read back through
 * a Prometheus server's HTTP query API: the hosts table (one row per
 * scraped exporter) that the batch output and the monitor both show.
 *
 * A refresh asks the server a fixed set of instant queries (FQ_N, built
 * from the exposition's family table: output_prom_fam.h), whatever the
 * size of the fleet: Prometheus sums and picks the top processes. What
 * one query could not get is said (struct fleet_error) and the rest of
 * the table is kept: a partial answer. */
#ifndef NUMATOP_FLEET_H
#define NUMATOP_FLEET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

struct proc_field;
struct node_field;

/* --- the answer of /api/v1/query (a pure parser) --------------------------- */

enum fleet_result { FR_VECTOR, FR_MATRIX, FR_SCALAR, FR_STRING };

struct fleet_point {
	double t;                   /* Unix time, s */
	double v;                   /* NAN when the value is not a number */
};

struct fleet_series {
	char **names, **values;     /* labels (with __name__ when kept) */
	size_t nlabels;
	struct fleet_point *points; /* one for a vector, the range for a matrix */
	size_t npoints;
};

struct fleet_answer {
	enum fleet_result type;
	struct fleet_series *series;  /* a scalar or string: none */
	size_t nseries;
	struct fleet_point scalar;    /* FR_SCALAR */
	char error[256];              /* status "error": errorType: error */
	size_t nwarnings;             /* the answer's warnings, counted */
};

/* Parse the JSON of an answer, buf[0 .. len) (no NUL needed), into a
 * (zeroed first; fleet_answer_free after, whatever the result). 0;
 * -EPROTO: Prometheus answered an error (a->error says it); -EINVAL: not
 * an answer of the query API (not JSON, no status, a data of the wrong
 * shape); -ENOMEM. */
int fleet_answer_parse(const char *buf, size_t len, struct fleet_answer *a);
void fleet_answer_free(struct fleet_answer *a);
/* A series' label, or NULL. */
const char *fleet_series_label(const struct fleet_series *s, const char *name);

/* --- the queries ------------------------------------------------------------ */

enum fleet_query {
	FQ_UP,        /* up of the targets that had numatop series in the last hour */
	FQ_INFO,      /* the exporter's version, age of its last sample */
	FQ_NODES,     /* memory used per node */
	FQ_HOST,      /* the host's sums and the heat source */
	FQ_TOP,       /* the top processes by remote and by hot remote bytes */
	FQ_RATES,     /* promotion and demotion rates (recorded when the rules are loaded) */
	FQ_TOP_RAW,   /* FQ_TOP worked out from every process's series: without the
		       * rules' (asked instead, or after FQ_TOP found none) */
	FQ_N
};
/* The queries a refresh asks side by side (FQ_TOP_RAW in FQ_TOP's place
 * or after it: at most FQ_ASKED + 1 a refresh). */
#define FQ_ASKED FQ_TOP_RAW

/* Processes per host in FLEET_TOP (by remote bytes, and by hot remote). */
#define FLEET_TOP 3

/* The query's name (as errors say it) and its PromQL, for the label
 * matcher match ("" or NULL: none; '{job="numa"}' or 'job="numa"').
 * recorded: ask only for the recording rules' series
 * (contrib/prometheus/numatop-rules.yml) where the query has them.
 * 0, -EINVAL (a matcher that is not one), -ENOSPC. */
const char *fleet_query_name(enum fleet_query q);
int fleet_query_build(enum fleet_query q, const char *match, bool recorded, char *out, size_t n);
/* The name of the i-th recording rule the queries read (i from 0: the
 * rates', then each host's top processes'), or NULL past the last;
 * written into out. */
const char *fleet_rule_name(size_t i, char *out, size_t n);

/* --- the model -------------------------------------------------------------- */

struct fleet_proc {
	char comm[64];
	char user[32];
	long pid;                   /* -1: a command's sum (--metrics-by comm) */
	double remote_bytes;        /* -1 unknown */
	double hot_remote_bytes;    /* -1 unknown (no access heat) */
};

struct fleet_node {
	long id;
	double used_bytes;          /* MemTotal - MemFree of the node */
};

struct fleet_host {
	char *instance, *job;
	char **lnames, **lvalues;   /* the other target labels */
	size_t nlabels;
	int up;                     /* 1, 0, -1 unknown */
	double age_s;               /* of its last sample; -1 unknown (none for 5 min) */
	struct fleet_node *nodes;
	size_t nnodes;
	double remote_bytes;        /* -1 unknown (each double below too) */
	double hot_remote_bytes;
	double hot_slow_bytes;
	struct fleet_proc top[2 * FLEET_TOP];  /* hot remote, then remote, first */
	size_t ntop;
	double promote_pps, demote_pps;  /* pages per second, 5 min */
	char heat_source[24], heat_reason[24];  /* "" unknown */
	char version[32];           /* "" unknown */
};

/* What one query could not get. */
struct fleet_error {
	enum fleet_query q;
	int err;                    /* -errno */
	char msg[320];
};

struct fleet {
	struct fleet_host *hosts;   /* sorted: fleet_sort */
	size_t nhosts;
	struct fleet_error errors[FQ_N];
	size_t nerrors;
	size_t nqueries;            /* asked in the last refresh */
	bool recorded;              /* the recording rules' series were read */
	bool top_recorded;          /* the rules' top processes were read */
};

void fleet_free(struct fleet *f);
/* By hot remote bytes, then remote bytes (unknown last), then instance. */
void fleet_sort(struct fleet *f);
/* Fold query q's answer into f: hosts it names are added. 0 or -ENOMEM. */
int fleet_merge(struct fleet *f, enum fleet_query q, const struct fleet_answer *a);

/* --- the hosts table's columns: the batch text and the Fleet screen --------- */

struct fleet_col {
	const char *hdr;
	int w;                      /* < 0: left-aligned */
	int drop;                   /* left out first when narrow (1 ..); 0 never */
	const char *desc;           /* for the help and docs/fleet.md */
	/* The sort value (false: unknown, last), or NULL: by the cell's text. */
	bool (*num)(const struct fleet_host *h, double *v);
	/* The cell, control characters stripped (sanitize.h). */
	void (*cell)(const struct fleet_host *h, char *out, size_t n);
};
extern const struct fleet_col fleet_cols[];
extern const size_t fleet_ncols;
enum { FLEET_COL_REMOTE = 4, FLEET_COL_HOTREM = 5, FLEET_COL_WORST = 11, FLEET_COL_USED = 12,
       FLEET_COL_LABELS = 13 };
/* a before b (< 0), after, or the same (0) by column c, unknown last. */
int fleet_col_cmp(size_t c, const struct fleet_host *a, const struct fleet_host *b);

/* --- the client --------------------------------------------------------------- */

struct fleet_config {
	const char *url;            /* the server's base URL: http://host:9090 */
	const char *match;          /* --fleet-match, or NULL */
	const char *token_file;     /* bearer token, or NULL */
	const char *basic_auth_file;  /* "user:password", or NULL */
	double timeout_s;           /* per request (0: FLEET_TIMEOUT_S) */
	const atomic_bool *cancel;  /* NULL, or: set, a request under way ends
				     * (-ECANCELED; a monitor that quits) */
};
#define FLEET_TIMEOUT_S 5.0

struct fleet_client;
struct settings;

/* c from the options (url: --fleet's, "" or NULL: the settings' fleet=;
 * match: --fleet-match, NULL: the settings') and the settings file's
 * fleet keys (st may be NULL). c's strings point into url, match, st. */
void fleet_config_from(struct fleet_config *c, const char *url, const char *match,
		       const struct settings *st);

/* A client of the server c names (c's strings are copied). 0, -EINVAL
 * (no URL, a matcher that is not one: msg says it), -ENOMEM, or the
 * error of reading a credentials file (msg says it). */
int fleet_open(const struct fleet_config *c, struct fleet_client **out, char *msg, size_t n);
void fleet_close(struct fleet_client *cl);
/* libcurl loaded (the program does not link it: fleet_open loads it), for
 * a caller that asks over HTTP itself, as the benchmark. 0 or -ENOENT
 * (err says it). */
int fleet_http_load(char *err, size_t n);
/* One refresh into f (freed and filled again): every query asked once
 * (again once on a failure to reach the server or a 5xx). 0 when at
 * least one query answered (f->errors: those that did not); else the
 * first query's error (-EHOSTUNREACH and the like: f->errors says it),
 * -ENOENT: the server answered and no numatop series matched. */
int fleet_refresh(struct fleet_client *cl, struct fleet *f);
/* The time the refreshes and host views ask about (Unix seconds, as
 * Prometheus' time parameter); 0: now, the default. */
void fleet_set_time(struct fleet_client *cl, double at);

/* --- one host: its nodes and processes from its exporter's series ------------ */

/* A process column the host's series carry: a row of the process
 * catalogue (fields_proc.h) with a per-process gauge and a column. */
enum fleet_unit { FU_BYTES, FU_RATIO, FU_NUMBER };
struct fleet_view_col {
	const struct proc_field *f;
	long node;                  /* a per-node column: the node id; else -1 */
	enum fleet_unit unit;       /* as the gauge's name says (_bytes, _ratio) */
};

struct fleet_view_proc {
	long pid;                   /* -1: not a number */
	char comm[64], user[32];
	double *v;                  /* [ncols]: NAN unknown */
	double remote_bytes;        /* the REMOTE column's, NAN unknown */
	float *hist;                /* [nhist] remote bytes over the hour, NAN gaps */
};

/* A per-node column: a row of node_fields (node_fields.h) exported as a gauge. */
struct fleet_view_node {
	long id;
	double *v;                  /* [nnodecols]: NAN unknown */
	float *used_hist;           /* [nhist] memory used over the hour */
};

/* The series that the view draws over the last hour (range queries). */
#define FLEET_VIEW_RANGE_S 3600.0
#define FLEET_VIEW_STEP_S 60.0

struct fleet_view {
	char *instance;
	double at;                  /* the time asked about (0: now) */
	struct fleet_view_col *cols;
	size_t ncols;
	const struct node_field **nodecols;
	size_t nnodecols;
	struct fleet_view_node *nodes;  /* by id */
	size_t nnodes;
	struct fleet_view_proc *procs;  /* by remote bytes, largest first */
	size_t nprocs;
	size_t nhist;               /* points of each hour's series */
	double hist_end;            /* the last point's time */
	float *remote_hist, *hot_remote_hist;   /* [nhist] the host's sums */
	double remote_bytes, hot_remote_bytes, hot_slow_bytes;   /* NAN unknown */
	double processes, below_min;   /* the exporter's counts, NAN unknown */
	struct fleet_error errors[3];
	size_t nerrors;
	size_t nqueries;
};

/* The host whose instance label is instance, at the client's time: its
 * nodes and processes (one instant query) and the hour before (two range
 * queries). v is freed and filled again. 0 when the instant query
 * answered (v->errors: the range queries that did not); else its error
 * (v->errors says it); -ENOENT: no series of that instance. */
int fleet_view_read(struct fleet_client *cl, const char *instance, struct fleet_view *v);
void fleet_view_free(struct fleet_view *v);
/* A view's value as the monitor's cells say it: kB for bytes, a
 * percentage for a ratio, else the number; "-" unknown (NAN). */
void fleet_view_value(char *out, size_t n, double v, enum fleet_unit unit);
/* Column k's name as the monitor's header says it ("N1", "REMOTE"). */
void fleet_view_col_name(const struct fleet_view *v, size_t k, char *out, size_t n);

#endif
