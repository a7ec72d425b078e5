/* numa_maps.h - parser for /proc/PID/numa_maps (the whole grammar of
 * fs/proc/task_mmu.c show_numa_map and mm/mempolicy.c mpol_to_str). */
#ifndef NUMATOP_NUMA_MAPS_H
#define NUMATOP_NUMA_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum nm_mode {
	NM_MODE_DEFAULT, NM_MODE_LOCAL, NM_MODE_PREFER, NM_MODE_BIND,
	NM_MODE_INTERLEAVE, NM_MODE_WEIGHTED_INTERLEAVE, NM_MODE_PREFER_MANY,
	NM_MODE_UNKNOWN
};
extern const char *const nm_mode_names[];

/* Sanity caps: 2^36 pages of one mapping on one node and 16 GiB pages are
 * beyond any machine; larger values make the line invalid (-ERANGE), so
 * kB sums cannot overflow. */
#define NM_MAX_PAGES (UINT64_C(1) << 36)
#define NM_MAX_PAGE_KB (INT64_C(1) << 24)

enum nm_kind { NM_KIND_ANON, NM_KIND_FILE, NM_KIND_HEAP, NM_KIND_STACK };

struct nm_node_pages {
	int node;          /* node id as printed (N<id>=) */
	uint64_t pages;    /* in pages of this mapping's page size */
};

/* One parsed line. Reuse one struct for many lines: the node array and the
 * file buffer are kept between calls (no per-line allocation). */
struct nm_mapping {
	uint64_t start;
	enum nm_mode mode;
	char policy[80];          /* policy text as printed, e.g. "bind=static:0-3" */
	size_t policy_len;
	enum nm_kind kind;
	int stack_tid;            /* stack:<tid> (old kernels), else -1 */
	bool huge;                /* hugetlb mapping: counts are huge pages */
	char file[1024];          /* decoded path (octal escapes undone) */
	bool file_truncated;
	bool skip_path;           /* set by the caller: leave file[] empty (faster) */
	int64_t anon, dirty, mapped, mapmax, swapcache, active, writeback;
	int64_t pagesize_kb;      /* kernelpagesize_kB, -1 when absent */
	struct nm_node_pages *nodes;
	size_t nnodes, cap;
};

void nm_mapping_init(struct nm_mapping *m);
void nm_mapping_free(struct nm_mapping *m);

/* Parse one line (without its newline). 0 or -EINVAL / -ENOMEM. */
int numa_maps_parse_line(const char *s, size_t len, struct nm_mapping *m);

/* Page size in kB that a mapping's counts are in: kernelpagesize_kB when
 * printed, else base_kb for normal mappings and huge_kb for hugetlb ones
 * (huge_kb <= 0 = unknown: returns -1). */
int64_t nm_mapping_page_kb(const struct nm_mapping *m, int64_t base_kb,
			   int64_t huge_kb);

/* How node ids map to the caller's node indexes. */
struct nm_params {
	int64_t base_page_kb;      /* usually 4 */
	int64_t default_huge_kb;   /* Hugepagesize from /proc/meminfo, or -1 */
	const int *index_of_id;    /* index_of_id[id] = node index or -1 */
	size_t nids;               /* length of index_of_id */
	size_t nnodes;             /* number of node indexes */
	bool reference;            /* every line by numa_maps_parse_line (what
				    * the fast path is checked against) */
};

/* Per-process totals, arrays sized nnodes (node indexes). Reuse between
 * processes: numa_maps_summarize() resets it. */
/* The per-node arrays of a summary (and of a process in the snapshot):
 * node, anon, file, huge and pol, NM_KB_ARRAYS x nnodes in one block. */
#define NM_KB_ARRAYS 5
/* Distinct non-default policies a summary weighs to find the largest. */
#define NM_POLS 4

struct nm_summary {
	size_t nnodes;
	int64_t *node_kb, *anon_kb, *file_kb, *huge_kb;
	int64_t *pol_kb;           /* in mappings whose policy is not default
				    * or local (bind, interleave, prefer...) */
	/* The non-default policy holding the most pages ("" none). */
	char pol_top[48];
	enum nm_mode pol_top_mode;
	int64_t pol_top_kb;
	struct { char text[48]; enum nm_mode mode; int64_t kb; } pols[NM_POLS];
	size_t npols;
	int64_t total_kb;          /* on the topology's nodes */
	int64_t other_kb;          /* on nodes not in the topology (not in total) */
	int other_id;              /* the first such node id, -1 none */
	int64_t unknown_size_pages;/* huge pages of unknown size (not counted) */
	size_t nmappings, nbad;    /* lines parsed, lines rejected */
	size_t npolicies;          /* distinct policy texts seen */
	char policy[64];           /* one policy, or "mixed: a,b" (",+": more) */
	char first[80];            /* internal: the first policy seen */
	size_t firstlen;
};

int nm_summary_init(struct nm_summary *s, size_t nnodes);
void nm_summary_free(struct nm_summary *s);

/* Parse a whole numa_maps buffer into s. Bad lines (e.g. a last line
 * without its '\n', cut off because the process exited mid-read) are
 * counted in nbad, not guessed.
 * Kind split: hugetlb mappings count as huge, file= mappings as file,
 * everything else (heap, stack, anonymous) as anon.
 * 0, or -EINVAL when no line parsed but some were bad, or -ENOMEM. */
int numa_maps_summarize(const char *buf, size_t len,
			const struct nm_params *p, struct nm_mapping *scratch,
			struct nm_summary *s);

/* The same in pieces, for reading a file in chunks: begin, then feed each
 * chunk (only whole lines are taken: *used says how many bytes; keep the
 * rest in front of the next chunk), then end with the bytes left over (a
 * cut last line, counted as bad). Same return values. */
void numa_maps_begin(struct nm_summary *s);
int numa_maps_feed(const char *buf, size_t len, const struct nm_params *p,
		   struct nm_mapping *scratch, struct nm_summary *s, size_t *used);
int numa_maps_end(struct nm_summary *s, size_t leftover);

#endif
