/* history.h - the last samples on screen: a small ring per node (CPU
 * busy %, free memory, numa_miss + other_node per second) and per
 * displayed process (REMOTE %, kB per node), drawn as sparklines. Memory
 * is bounded: HIST_MAX_PROCS processes at most (the least recently
 * displayed one goes first), cap samples each. Pure: no curses. */
#ifndef NUMATOP_HISTORY_H
#define NUMATOP_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

#define HIST_DEFAULT 300          /* samples kept */
#define HIST_MAX_PROCS 256        /* processes with a history */

/* A ring of values, oldest first when read; NAN is unknown. */
struct hist_ring {
	float *v;
	size_t cap, n, head;          /* head: where the next value goes */
};

/* Per node: CPU busy %, free kB, numa_miss + other_node per second, and
 * the pages per second the kernel promoted into it and demoted out of it
 * (memory tiers; unknown without). */
enum hist_node_key { HIST_CPU, HIST_FREE_KB, HIST_MISS, HIST_PROMOTE, HIST_DEMOTE, HIST_NODE_KEYS };

struct hist_proc {
	int pid;
	uint64_t starttime;
	unsigned long seen;           /* the sample it was last displayed in */
	struct hist_ring remote_pct;
	struct hist_ring *node_kb;    /* [nnodes] */
};

struct pid_idx;

struct history {
	size_t cap, nnodes;
	unsigned long samples;        /* added so far */
	struct hist_ring *node;       /* [nnodes * HIST_NODE_KEYS] */
	struct hist_proc *procs;
	size_t nprocs;
	struct pid_idx *want;         /* scratch of history_add */
	size_t wantcap;
};

/* cap samples for nnodes nodes. 0 or -ENOMEM. */
int history_init(struct history *h, size_t cap, size_t nnodes);
void history_free(struct history *h);
/* Forget every value (a jump in a replay); sizes stay. */
void history_reset(struct history *h);
/* Add sample s: every node, every process already kept, and the
 * displayed ones (pids, n) not kept yet. 0 or -ENOMEM. */
int history_add(struct history *h, const struct snapshot *s, const int *pids, size_t n);

const struct hist_ring *history_node(const struct history *h, size_t node, enum hist_node_key k);
/* The process's history (same PID and start time), or NULL. */
/* Key k summed over the nodes of tier j (fast -> slow) of model m, into
 * out (made here, hist_ring_free after): a value is unknown when one of
 * the nodes' is. 0, -ENOENT (no such tier, or the model is not the
 * history's nodes), -ENOMEM. */
int history_tier(const struct history *h, const struct tier_model *m, size_t j,
		 enum hist_node_key k, struct hist_ring *out);
void hist_ring_free(struct hist_ring *r);
const struct hist_proc *history_proc(const struct history *h, int pid, uint64_t starttime);
/* Bytes the history holds. */
size_t history_bytes(const struct history *h);

/* Value i of the ring, oldest first (i < r->n). */
float hist_at(const struct hist_ring *r, size_t i);
/* The last `width` values as a sparkline into out (UTF-8 block
 * characters, or " .:-=+*#" when ascii; unknown values as ' '), scaled
 * from lo to hi (hi <= lo: from the values' own min and max). Returns the
 * number of columns written (<= width). */
size_t hist_spark(const struct hist_ring *r, size_t width, bool ascii, double lo, double hi,
		  char *out, size_t n);
/* Min and max of the known values; false when none is known. */
bool hist_range(const struct hist_ring *r, double *lo, double *hi);

#endif
