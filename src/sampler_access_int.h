/* sampler_access_int.h - what sampler_access.c keeps between samples,
 * shared with sampler_access_turns.c (each process's last heat, whose
 * turn it is, the source's target slots). Inside the sampler only. */
#ifndef NUMATOP_SAMPLER_ACCESS_INT_H
#define NUMATOP_SAMPLER_ACCESS_INT_H

#include "access.h"
#include "access_pick.h"
#include "access_source.h"
#include "sampler_int.h"

/* What is known of one process's heat, kept between samples. */
struct acc_entry {
	int pid;
	uint64_t starttime;
	double turn_start;            /* -1: not watched now */
	double last_on;               /* when it was last watched, -1 never */
	bool have;
	double at;                    /* when the heat below was read */
	struct access_proc heat;      /* arrays: kb below */
	int64_t *kb;                  /* 3 * nnodes */
	struct access_region reg[ACCESS_MAX_REGIONS];
	int64_t *reg_kb;              /* ACCESS_MAX_REGIONS * nnodes */
};

struct access_state {
	enum sampler_access mode;
	bool started, tried;
	const struct access_source_ops *src;   /* access_source.h */
	void *src_st;                 /* its state, once opened */
	bool src_ok;
	enum access_why why;
	char msg[160];
	double retry_at, probe_at;
	int pids[ACCESS_MAX_TARGETS];     /* in the source's target order */
	double slot_since[ACCESS_MAX_TARGETS];  /* when each slot got its pid */
	size_t npids;
	/* The targets when the request in flight was made: its answer's
	 * regions are theirs, by position. */
	int req_pids[ACCESS_MAX_TARGETS];
	double req_since[ACCESS_MAX_TARGETS];
	size_t req_n;
	struct acc_entry *e;
	size_t ne, ecap;
	int64_t *reg_node_kb;         /* scratch: nregions * nnodes */
	struct access_cand *cand;     /* scratch: whose turn it may be */
	size_t cand_cap;
	size_t rnk_cap;
	void **pages;
	int *status;
	uint64_t kd_ticks;            /* the source's thread's utime + stime */
	double kd_at;
	int64_t kd_pid;
	double request_ms;            /* the last answer's round trip, -1 none yet */
	double last_answer;           /* when regions were last joined, -1 never */
	int refused;                  /* starts the source refused in a row (EINVAL) */
};

/* Entries: by PID and start time, made with arrays for nnodes nodes. */
void acc_entry_free(struct acc_entry *e);
struct acc_entry *acc_entry_find(struct access_state *a, int pid, uint64_t st);
struct acc_entry *acc_entry_get(struct access_state *a, size_t nn, int pid, uint64_t st);
/* Index of pid in snap (sorted by PID during the tick), or -1. */
long acc_find_proc(const struct snapshot *snap, int pid);
/* Drop what is too old or belongs to a process that is gone. */
void acc_entries_expire(struct access_state *a, const struct snapshot *snap, double now);
/* pid is among v[0..n). */
bool acc_in_set(const int *v, size_t n, int pid);
/* The processes to watch now into out[ACCESS_MAX_TARGETS]; the count. */
size_t acc_choose(struct sampler *s, const struct snapshot *snap, double now, int *out);
/* The source's slots for the wanted set (order[], since[]); the count. */
size_t acc_arrange(struct access_state *a, const int *want, size_t n, int *order,
		   double *since, double now);

#endif
