/* columns.h - the process-table columns: one table (src/columns.c) that the
 * sort, the batch text, the monitor (header, cells, mouse, F2, F6), -s, -o
 * and the help read. A new column is one row there (and its enum value). */
#ifndef NUMATOP_COLUMNS_H
#define NUMATOP_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "snapshot.h"

/* The process-table columns (their table is src/columns.c). */
enum snap_col {
	COL_PID, COL_USER, COL_HOME, COL_CPU, COL_RSS, COL_NODE, COL_REMOTE,
	COL_REMOTE_PCT, COL_WHY, COL_RACC, COL_HOT, COL_HOTREM, COL_HOTREM_PCT, COL_TIME, COL_THREADS, COL_AGE, COL_CGROUP, COL_POLICY, COL_COMMAND,
	COL_FAST, COL_SLOW, COL_SLOW_PCT,      /* memory tiers */
	COL_HOTSLOW, COL_COLDFAST,             /* memory tiers x access heat */
	COL_TIER,                              /* T<id>: kB on memory_tier<id> */
	COL_ADVICE,                            /* the one fix, in short (why.h) */
	COL_START,                             /* start time after boot */
	COL_NCOLS
};
struct sort_key {
	enum snap_col col;
	int node;                     /* node index for COL_NODE, tier id
				       * for COL_TIER */
	bool descending;
	/* The sample's tier model (COL_TIER's values), NULL none:
	 * snapshot_sort sets it from the snapshot. */
	const struct tier_model *tiers;
	/* The default order, no sort chosen: by REMOTE until the sample
	 * has access heat (nacc), then by HOTREM (HOTSLOW when it has memory
	 * tiers): the culprit first; heat not usable yet sorts as unknown,
	 * by REMOTE among itself (col_sort_effective). */
	bool heat_default;
};
/* The key a sort of s uses: key, or for heat_default the heat's column
 * once s has heat (descending). */
struct sort_key col_sort_effective(const struct sort_key *key, const struct snapshot *s);
/* The display order by the key (col_compare: unknown values last in both
 * directions, ties by resident memory, largest first, then PID) into
 * s->order, read through snapshot_row; s->procs is left in its order (the
 * sampler's, by PID). Out of memory: procs' own order. */
void snapshot_sort(struct snapshot *s, const struct sort_key *key);

/* How a cell is formatted: batch text (kB as integers, comm) or the
 * monitor (kB human-readable, the command line, marks in the first node
 * cell only). */
struct col_ctx {
	const struct topology *t;
	bool monitor;
	int mark_node;           /* monitor: the node cell that says why a
				  * process's placement is unknown */
	bool full_command;       /* COMMAND: the command line (the monitor,
				  * batch text with -c), else the name */
	const struct tier_model *tiers;   /* the sample's tiers (T<id>), NULL none */
	const struct snapshot *snap;      /* ADVICE: the sample's advice, NULL none */
};

struct col_def {
	const char *name;        /* as -s and -o take it: "REMOTE%", "N" */
	const char *text_hdr;    /* batch text header ("RSS_KB") */
	const char *ui_hdr;      /* monitor header ("RSS") */
	const char *desc;        /* one line for --help, the help screen, F2 */
	int text_w, ui_w;        /* cell width; negative: left-aligned */
	int text_sep;            /* spaces before the column in batch text */
	bool desc_sort;          /* natural order: numbers descending */
	bool per_node;           /* one column per node: N<id> */
	/* Sort value: a number (false when unknown), or a string (NULL when
	 * unknown); exactly one of the two is set (or tier_num below). */
	bool (*num)(const struct snap_proc *p, int node, double *v);
	const char *(*str)(const struct snap_proc *p);
	void (*cell)(const struct col_ctx *c, const struct snap_proc *p, int node,
		     char *out, size_t n);
	/* One column per memory tier (T<id>, node the tier id); tier_num:
	 * a sort value from the sample's tier model (T<id>, FAST, SLOW),
	 * instead of num. */
	bool per_tier;
	bool (*tier_num)(const struct tier_model *m, const struct snap_proc *p, int id,
			 double *v);
};

const struct col_def *col_get(enum snap_col c);
/* The column's name as the help lists it: "N<id>", "T<id>", "REMOTE". */
const char *col_help_name(enum snap_col c);

/* One entry of a column list. node: a node index, or -1 for "every node"
 * (the N entry, expanded when shown); for T<id> the tier id, or -1 for
 * "every tier" (the T entry, expanded to the sample's tiers). */
struct col_ref {
	enum snap_col col;
	int node;
};
/* The same column: the same col and, for a per-node or per-tier one, the
 * same node or tier. */
bool col_same(enum snap_col a, int anode, enum snap_col b, int bnode);
/* An entry's name as -o takes it: "N3" (t: the node's id), "T4", "RSS". */
void col_ref_name(const struct topology *t, struct col_ref r, char *out, size_t n);

struct col_list {
	struct col_ref *v;
	size_t n, cap;
};

/* "remote", "REMOTE%", "cpu", "N3", "N", "T4", "tier4", "T" ...
 * (case-insensitive, with aliases). t may be NULL: then N<id> is not
 * checked against the nodes. T<id> is any tier id (the tiers come with
 * each sample: one it lacks is unknown there). 0, -EINVAL (no such
 * column) or -ENOENT (no such node). */
int col_parse_name(const struct topology *t, const char *name, struct col_ref *out);
/* The same as a sort key in the column's natural direction; "N" or "T"
 * alone is not a sort key (-EINVAL). */
int col_parse_sort(const struct topology *t, const char *name, struct sort_key *key);
/* The names a user can give, space-separated: "PID USER ... COMMAND". */
void col_valid_names(char *out, size_t n);

/* "PID,user,N,remote": 0, or -EINVAL / -ENOENT with a message in err
 * that lists the valid names. */
int col_list_parse(const struct topology *t, const char *spec, struct col_list *l,
		   char *err, size_t errsz);
/* The default columns of the batch text or the monitor; age adds AGE. */
int col_list_default(struct col_list *l, bool monitor, bool age);
int col_list_insert(struct col_list *l, size_t pos, struct col_ref r);
void col_list_remove(struct col_list *l, size_t pos);
/* Index of the first entry showing col, or -1. */
long col_list_find(const struct col_list *l, enum snap_col col);
/* The access heat columns (HOT, HOTREM, HOTREM%) on, after REMOTE% (or
 * before WHY/POLICY/COMMAND), or off: removed. */
int col_list_set_access(struct col_list *l, bool on);
/* AGE on or off: inserted before POLICY/COMMAND, or removed. */
int col_list_set_age(struct col_list *l, bool on);
/* The default tier columns for the tier model m (NULL: none): with two
 * tiers FAST, SLOW and SLOW%; with more one T<id> per tier (fast ->
 * slow) and SLOW%; with one or none, none. They go after REMOTE% (else
 * before WHY/POLICY/COMMAND); the entries of another choice (FAST, SLOW,
 * single T<id> entries; SLOW% with fewer than two tiers) are removed.
 * src/columns_tiers.c. 0 or -ENOMEM. */
int col_list_set_tiers(struct col_list *l, const struct tier_model *m);
/* HOTSLOW and COLDFAST (tiers and heat both on: after SLOW%, else at the
 * end) added once, or removed. 0 or -ENOMEM. */
int col_list_set_tier_heat(struct col_list *l, bool on);
void col_list_free(struct col_list *l);

/* The default columns follow the sample (src/columns_follow.c), one rule
 * for the batch text and the monitor: the heat's columns (HOT, HOTREM,
 * HOTREM%) join once a sample has heat; the tier columns are set for the
 * sample's tiers, again when its tier ids change (a replay moving to
 * another machine's samples), so no T<id> stays from an earlier one;
 * HOTSLOW and COLDFAST join once it has tiers and heat, and leave with
 * the tiers. A column the user removed stays out while nothing changes.
 * A one-off table uses a fresh state; the monitor keeps one. */
struct col_follow {
	bool heat;                  /* the heat's columns are still to come */
	bool tiers;                 /* the tier columns follow the sample's */
	bool tier_heat;             /* HOTSLOW, COLDFAST are still to come */
	int *tier_ids;              /* the tier ids they were set for */
	size_t ntier_ids;
	bool tier_ids_set;
	bool added[COL_NCOLS];      /* the heat's columns added here, not
				     * chosen: never written as a setting */
};
/* on: the list is the default one (false: chosen with -o or a settings
 * file: nothing follows, but the heat's columns still come (follow.heat)
 * when heat is true. */
void col_follow_init(struct col_follow *f, bool tiers, bool heat);
/* The list for sample s. 0 or -ENOMEM. */
int col_follow_sample(struct col_follow *f, struct col_list *l, const struct snapshot *s);
void col_follow_free(struct col_follow *f);

/* A front end's choice of sort (-s NAME, NULL: REMOTE descending) and
 * columns (-o SPEC into l; NULL leaves l as it is), AGE added with age. 0, or
 * -errno with a message naming the option in err. */
int col_setup(const struct topology *t, const char *sort, const char *spec, bool age,
	      struct sort_key *key, struct col_list *l, char *err, size_t errsz);

/* The header of one column ("N3" for a node). */
void col_header(const struct col_ctx *c, enum snap_col col, int node, char *out, size_t n);
/* Width of the column in this context (absolute value). */
int col_width(const struct col_ctx *c, enum snap_col col);
/* Write one cell (unpadded) into out. */
void col_cell(const struct col_ctx *c, enum snap_col col, int node,
	      const struct snap_proc *p, char *out, size_t n);
/* Pad or cut s to the column's width into out: right-aligned numbers,
 * left-aligned text cut with '+' (last: not padded, not cut). */
void col_pad(const struct col_ctx *c, enum snap_col col, bool last,
	     const char *s, char *out, size_t n);

/* Sort comparison: the key's column, unknown last in both directions,
 * ties by resident memory (largest first), then PID. */
int col_compare(const struct snap_proc *a, const struct snap_proc *b,
		const struct sort_key *k);

#endif
