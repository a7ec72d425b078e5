/* session.h - what every front end opens first: the root, the topology
 * and (when asked) the sampler with its filter and numa_maps budget, the
 * firmware's HMAT and the saved measurement. One place, one set of error
 * messages; the limits the options and keys share are defined here. */
#ifndef NUMATOP_SESSION_H
#define NUMATOP_SESSION_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "fsroot.h"
#include "hmat.h"
#include "measure_io.h"
#include "proc.h"
#include "sampler.h"
#include "topology.h"

#define SESSION_DELAY_DEFAULT 2.0     /* seconds between samples */
#define SESSION_DELAY_MIN 0.1
#define SESSION_DELAY_MAX 3600.0
#define SESSION_BUDGET_MIN_MS 1.0     /* --budget (default NMSCHED_BUDGET_MS) */
#define SESSION_BUDGET_MAX_MS 10000.0

struct session_config {
	const char *root;            /* "/" for the live machine */
	bool sampler;                /* make a sampler (batch, monitor) */
	enum proc_backend backend;
	struct sampler_filter filter;
	bool full;                   /* every numa_maps every tick */
	double budget_ms;            /* else this much numa_maps reading a tick */
	bool live_only;              /* refuse a recorded tree (--measure) */
	bool hmat;                   /* read the firmware's HMAT */
	bool measurement;            /* load the saved measurement (live root) */
	bool access;                 /* access heat (sampler_set_access) */
	bool access_watch;           /* ... on DAMON's short window (a one-off watch) */
};

struct session {
	struct fsroot *root;
	struct topology topo;
	struct sampler *smp;         /* NULL unless cfg.sampler */
	struct hmat hmat;
	bool have_hmat;
	struct measure_result meas;
	bool have_meas;
};

/* Open everything c asks for. 0, or -errno with the reason in err (for
 * "numatop-tui: %s"); nothing stays open on failure. SESSION_EUSAGE: the
 * options ask for something that does not exist (-u nosuchuser): exit
 * status 2, as for a bad option. */
#define SESSION_EUSAGE (-EDOM)
int session_open(struct session *s, const struct session_config *c, char *err, size_t errsz);
void session_close(struct session *s);

#endif
