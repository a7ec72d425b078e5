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

#include <stdbool.h>
#include <stddef.h>

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
	FQ_N
};

/* Processes per host in FLEET_TOP (by remote bytes, and by hot remote). */
#define FLEET_TOP 3

/* The query's name (as errors say it) and its PromQL, for the label
 * matcher match ("" or NULL: none; '{job="numa"}' or 'job="numa"').
 * recorded: ask only for the recording rules' series
 * (contrib/prometheus/numatop-rules.yml) where the query has them.
 * 0, -EINVAL (a matcher that is not one), -ENOSPC. */
const char *fleet_query_name(enum fleet_query q);
int fleet_query_build(enum fleet_query q, const char *match, bool recorded, char *out, size_t n);
/* The name of the i-th recording rule the queries read (i from 0), or
 * NULL past the last; written into out. */
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
};

void fleet_free(struct fleet *f);
/* By hot remote bytes, then remote bytes (unknown last), then instance. */
void fleet_sort(struct fleet *f);
/* Fold query q's answer into f: hosts it names are added. 0 or -ENOMEM. */
int fleet_merge(struct fleet *f, enum fleet_query q, const struct fleet_answer *a);

/* --- the client --------------------------------------------------------------- */

struct fleet_config {
	const char *url;            /* the server's base URL: http://host:9090 */
	const char *match;          /* --fleet-match, or NULL */
	const char *token_file;     /* bearer token, or NULL */
	const char *basic_auth_file;  /* "user:password", or NULL */
	double timeout_s;           /* per request (0: FLEET_TIMEOUT_S) */
};
#define FLEET_TIMEOUT_S 5.0

struct fleet_client;

/* A client of the server c names (c's strings are copied). 0, -EINVAL
 * (no URL, a matcher that is not one: msg says it), -ENOMEM, or the
 * error of reading a credentials file (msg says it). */
int fleet_open(const struct fleet_config *c, struct fleet_client **out, char *msg, size_t n);
void fleet_close(struct fleet_client *cl);
/* One refresh into f (freed and filled again): every query asked once
 * (again once on a failure to reach the server or a 5xx). 0 when at
 * least one query answered (f->errors: those that did not); else the
 * first query's error (-EHOSTUNREACH and the like: f->errors says it),
 * -ENOENT: the server answered and no numatop series matched. */
int fleet_refresh(struct fleet_client *cl, struct fleet *f);

#endif
