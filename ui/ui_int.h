/* ui_int.h - state shared by the ui/ modules (ncurses only; reads the
 * snapshot model, never /proc or /sys). */
#ifndef NUMATOP_UI_INT_H
#define NUMATOP_UI_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "columns.h"
#include "detail.h"
#include "hmat.h"
#include "measure.h"
#include "options.h"
#include "output.h"
#include "sampler.h"
#include "snapshot.h"

#define KEY_CTRL(c) ((c) & 0x1f)
#define KEY_TAB 9
#define KEY_ESC 27

enum ui_screen { SCR_PROCESSES, SCR_NODES, SCR_TOPOLOGY, SCR_NSCREENS,
		 SCR_DETAIL, SCR_HELP, SCR_KILL, SCR_SORT, SCR_ACTION, SCR_MEASURE };

/* Heatmap layers, cycled with v. */
enum ui_layer { HL_SLIT, HL_LATENCY, HL_BANDWIDTH, HL_HMAT_LATENCY, HL_HMAT_BANDWIDTH, HL_N };

enum ui_color {
	C_DEFAULT = 1, C_HEADER, C_SELECTED, C_LABEL, C_BAR_USER, C_BAR_SYS,
	C_BAR_MEM, C_WARN, C_DIM, C_FKEY, C_FKEY_LABEL, C_TAGGED, C_REMOTE,
	C_HEAT0 /* C_HEAT0 .. C_HEAT0 + 7: distance gradient */
};

struct ui_tag {
	int pid;
	uint64_t starttime;
};

struct ui {
	const struct options *opt;
	struct fsroot *root;
	struct topology topo;
	struct sampler *smp;
	struct snapshot snap;
	struct sort_key sort;
	enum ui_screen screen, back;
	size_t *rows;            /* visible process indexes (filter, tree) */
	int *depth;              /* tree depth per row */
	int *thr;                /* thread index per row, -1 for a process row */
	size_t nrows;
	long sel, top;           /* selected row and first row shown */
	int sel_pid;
	bool show_nodes, show_heatmap, paused, tree, threads, quit;
	bool color, c256, ascii, mouse;
	double delay, last_sample;
	char filter[64], search[64];
	struct ui_tag *tagged;   /* tagged processes: PID + start time */
	size_t ntagged;
	struct proc_detail detail;
	long detail_scroll;
	int kill_sel, sort_sel;
	int table_y, table_h;    /* where the process table is drawn */
	char msg[160];
	struct ui_action *act;   /* the migrate / rebind dialog, NULL when closed */
	struct measure_result meas;   /* the last measurement (have_meas) */
	bool have_meas, have_hmat;
	struct hmat hmat;
	bool *meas_marks;        /* [n * n] cells where SLIT and latency disagree */
	char meas_note[200];     /* ... said in one line, or "" */
	enum ui_layer layer;
	struct ui_measure *mjob; /* the L dialog / a running measurement */
	struct col_list cols;    /* the table's columns (-o, F2, A) */
	struct ui_hdr { int x0, x1; enum snap_col col; int node; } *hdr;
	int nhdr, hdrcap;        /* header cells as drawn, for the mouse */
};

/* ui_keys.c */
bool ui_handle_key(struct ui *u, int ch);
void ui_draw_help(struct ui *u);
/* ui_draw.c */
void ui_draw(struct ui *u);
void ui_rebuild_rows(struct ui *u);
int ui_attr(const struct ui *u, enum ui_color c);
/* ui_table.c: the process table from the column list */
void ui_draw_table(struct ui *u, int y, int h);
int ui_proc_table_col_at(const struct ui *u, int x);
/* ui_action.c: the m / B dialogs */
void ui_action_open(struct ui *u, bool migrate);
void ui_action_key(struct ui *u, int ch);
void ui_action_draw(struct ui *u);
bool ui_action_running(const struct ui *u);
void ui_action_work(struct ui *u, double seconds);
void ui_action_free(struct ui *u);
/* ui_heatmap.c: the heatmap and its layers */
int ui_draw_heatmap(struct ui *u, int y, int maxy);
void ui_next_layer(struct ui *u);
/* A new measurement in u->meas: marks, the disagreement line. */
void ui_measure_adopt(struct ui *u);
/* ui_measure.c: the L dialog, the measurement thread */
void ui_measure_open(struct ui *u);
void ui_measure_key(struct ui *u, int ch);
void ui_measure_draw(struct ui *u);
bool ui_measure_running(const struct ui *u);
void ui_measure_poll(struct ui *u);
void ui_measure_free(struct ui *u);
/* ui_screens.c */
void ui_draw_nodes(struct ui *u, int y0, int h);
void ui_draw_topology(struct ui *u, int y0, int h);
void ui_draw_detail(struct ui *u, int y0, int h);
void ui_draw_kill(struct ui *u);
void ui_draw_sort_menu(struct ui *u);
/* The F6 menu: entry i as a sort key; the number of entries. */
size_t ui_sort_menu_len(const struct ui *u);
void ui_sort_menu_entry(const struct ui *u, size_t i, struct sort_key *k, char *label, size_t n);
extern const struct ui_signal { int sig; const char *name; } ui_signals[];
extern const size_t ui_nsignals;

/* ui_tags.c: a tag names one process (PID + start time): a PID that was
 * reused is not tagged. */
bool ui_is_tagged(const struct ui *u, const struct snap_proc *p);
/* Forget tags of processes that exited (gone from the snapshot, or zombies). */
void ui_prune_tags(struct ui *u);
void ui_toggle_tag(struct ui *u, const struct snap_proc *p);
/* Tag root and all its descendants. */
void ui_tag_tree(struct ui *u, const struct snap_proc *root);
void ui_clear_tags(struct ui *u);
bool sorted_by_hdr(const struct ui *u, int i);
const struct snap_proc *ui_selected(const struct ui *u);

#endif
