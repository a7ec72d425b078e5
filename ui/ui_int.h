/* ui_int.h - state shared by the ui/ modules (ncurses only; reads the
 * snapshot model, never /proc or /sys). */
#ifndef NUMATOP_UI_INT_H
#define NUMATOP_UI_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "action_table.h"
#include "columns.h"
#include "detail.h"
#include "hmat.h"
#include "measure.h"
#include "sampler.h"
#include "session.h"
#include "history.h"
#include "replay.h"
#include "ui.h"
#include "settings.h"
#include "snapshot.h"
/* The curses calls that write text, checked under the tests. */
#include "ui_out.h"

#define KEY_CTRL(c) ((c) & 0x1f)
#define UI_MSG_SECONDS 5.0       /* a message stays this long */
#define KEY_TAB 9
#define KEY_ESC 27

/* Screens: the first SCR_NSCREENS are the tabs (Tab cycles them); the
 * rest are opened by a key. Each has a row in ui_screen_ops (ui_screen.c). */
enum ui_screen { SCR_PROCESSES, SCR_NODES, SCR_CGROUPS, SCR_TOPOLOGY, SCR_DISTANCES, SCR_NSCREENS,
		 SCR_DETAIL, SCR_HELP, SCR_KILL, SCR_SORT, SCR_ACTION, SCR_MEASURE,
		 SCR_SETUP, SCR_N };

struct ui;
typedef void (*ui_handler)(struct ui *u, int ch);

/* One row of the main key table (ui_keys.c): dispatch, the help screen
 * and the function-key bar read it. A row of an action names its row of
 * the action table (act), whose keys, label, help and bar label it takes
 * (read them with ui_key_code, ui_key_label, ui_key_help, ui_key_bar). */
struct ui_key {
	int key;
	ui_handler fn;
	const char *label;      /* how the help screen names the key */
	const char *help;       /* NULL: same entry as the line above */
	const char *bar;        /* label on the function-key bar, or NULL */
	bool acts;              /* acts on the machine: refused on a recording
				 * and with --readonly, and off the bar there */
	const struct action_def *act;   /* an action's keys, or NULL */
};
extern const struct ui_key ui_keys[];
extern const size_t ui_nkeys;
/* Key j (from 0) of a row, 0 past its last; its label, help and bar label. */
int ui_key_code(const struct ui_key *k, int j);
const char *ui_key_label(const struct ui_key *k);
const char *ui_key_help(const struct ui_key *k);
const char *ui_key_bar(const struct ui_key *k);
/* An action table's key as curses says it (ACTION_KEY_F(7): KEY_F(7)),
 * and whether ch is one of action d's keys (ui_guard.c). */
int ui_action_keycode(int c);
bool ui_action_key_is(const struct action_def *d, int ch);

/* A screen's or dialog's own keys, for the help screen. */
struct ui_help {
	const char *label, *help;
};

struct ui_screen_ops {
	const char *name;       /* tab title (tabs), or what the help calls it */
	void (*draw)(struct ui *u, int y0, int h);
	void (*key)(struct ui *u, int ch);   /* NULL: the main key table */
	bool overlay;           /* drawn over the Processes screen */
	bool bare;              /* the whole terminal: no tabs, no key bar */
	long (*scroll_max)(const struct ui *u);   /* Up/Down scroll u->scroll */
	const struct ui_help *help;
	size_t nhelp;
	/* 1 + the action_where whose actions' keys it takes (the help lists
	 * them after its own), 0 none. */
	int actions_at;
};
extern const struct ui_screen_ops ui_screen_ops[SCR_N];

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
	const struct ui_config *opt;
	struct session se;       /* root, topology, sampler, HMAT, measurement */
	struct snapshot snap;
	struct sort_key sort;
	struct sort_key sort_eff;      /* the order shown: sort, or the heat default (col_sort_effective) */
	enum ui_screen screen, back;
	uint32_t *rows;          /* visible process indexes (filter, tree) */
	int *depth;              /* tree depth per row */
	int *thr;                /* thread index per row, -1 for a process row */
	size_t nrows;
	long sel, top;           /* selected row and first row shown */
	int sel_pid;
	bool show_nodes, show_heatmap, paused, tree, threads, quit;
	bool detail_exited;      /* the detail's process exited: last numbers shown */
	/* The signal dialog (k): its processes, pinned when it opened, and
	 * the signal under the cursor. */
	struct ui_kill_state {
		struct action_target *tg;
		size_t n;
		int sel;
	} kill;
	/* The one-line prompt of / and \ (F3, F4), part of the main loop:
	 * sampling, signals and resizes go on while it is open. */
	struct ui_prompt {
		int kind;                /* 0 closed, else UI_PROMPT_* */
		char buf[520];           /* UTF-8, as long as filter[] */
		size_t len;
	} prompt;
	bool kernel_threads;     /* K: shown (hidden by default) */
	struct ui_setup_state {          /* F2: cursor, pane, available row */
		int sel, pane, avail;
	} setup;
	bool color, c256, ascii, mouse;
	double delay, last_sample;
	bool sample_due;         /* a handler asked for a sample before the
				  * next redraw (ui_want_sample) */
	bool job_on;             /* a background job runs (ui_jobs.c): set
				  * by ui_draw for the screens it draws */
	char filter[520], search[520];   /* filter: "cgroup <path>" fits */
	struct ui_tag *tagged;   /* tagged processes: PID + start time */
	size_t ntagged;
	struct proc_detail detail;
	long scroll;             /* first line shown on a scrolling screen */
	int sort_sel;            /* the sort dialog's (F6) cursor */
	int table_y, table_h;    /* where the process table is drawn */
	char msg[320];
	char acting[96];         /* the keys that act ("F7 m, F8 B, ..."), for
				  * a refusal in replay: ui_keys_acting */
	char msg_seen[320];      /* the message as last drawn, and since when */
	double msg_since;
	struct ui_action *act;   /* the migrate / rebind dialog, NULL when closed */
	/* The heatmap: the layer shown, and where the saved measurement and
	 * the firmware's SLIT disagree. */
	struct ui_heat_state {
		enum ui_layer layer;
		bool *marks;     /* [n * n] cells where SLIT and latency disagree */
		char note[200];  /* ... said in one line, or "" */
	} heat;
	struct ui_measure *mjob; /* the L dialog / a running measurement */
	struct col_list cols;    /* the table's columns (-o, F2, A) */
	/* How the columns follow the samples (columns.h): the heat's and
	 * the tiers' join (not with -o; with saved columns only the heat's);
	 * those added are never written to the settings file unless the
	 * user adds them in Setup. */
	struct col_follow follow;
	struct ui_hdr { int x0, x1; enum snap_col col; int node; } *hdr;
	char settings_path[1024];     /* the settings file, "" none */
	bool settings_bad;            /* it could not be read: never written */
	struct settings settings_at_start;   /* to tell whether to write */
	int nhdr;                /* header cells as drawn, for the mouse */
	size_t hdrcap;
	/* The Cgroups screen: rows (cgroup indexes), selection kept by path,
	 * the sort column, collapsed cgroups by path. */
	struct ui_cg_state {
		size_t *rows, nrows;
		long sel, top;
		char sel_path[512];
		int sort;
		bool desc;
		char **collapsed;
		size_t ncollapsed;
	} cg;
	struct ui_cgmove *cgmove;     /* m on a cgroup, NULL when closed */
	bool replay;                  /* --replay: the samples of a recording */
	struct ui_replay *rp;
	struct history hist;          /* the last samples, for sparklines */
	struct ui_fleet *fleet;       /* --fleet: the Fleet screen's state, else NULL */
};

/* The files of ui/ in layers, each calling only its own layer and those
 * below it (and the model): the toolkit, the state the screens share,
 * the screens (each draws and takes the keys for itself), the frame. */

/* ---- the toolkit ------------------------------------------------------ */

/* ui_paint.c: put text, the colour of a role */
int ui_attr(const struct ui *u, enum ui_color c);
void ui_put(int y, int x, const char *s, int maxcols);
/* s from (y, x) in as many rows as it needs before ymax, broken at
 * spaces; returns the next row. */
int ui_put_wrapped(int y, int ymax, int x, const char *s);
/* printf at (y, x), cut at the right edge (never wrapped onto the next
 * line); the column after what was written. */
int ui_putf(int y, int x, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Display columns of a UTF-8 string. */
int ui_text_width(const char *s);
/* Bytes of s that fit in maxcols display columns (whole characters; an
 * invalid byte counts one column); *used (if not NULL): their columns. */
size_t ui_fit_cols(const char *s, int maxcols, int *used);
/* ui_status.c: the status line in row y */
void ui_draw_status(struct ui *u, int y);
/* ui_history.c: history fed after each sample, drawn as sparklines */
void ui_history_add(struct ui *u);
int ui_spark(struct ui *u, int y, int x, int w, const struct hist_ring *r, double lo, double hi,
	     enum ui_color c);
void ui_history_node_line(struct ui *u, size_t i, int y, int x, int w);
void ui_history_tier_line(struct ui *u, size_t j, int y, int x, int w);
void ui_rate_range(const struct hist_ring *r, double *lo, double *hi);

/* ---- the state the screens share -------------------------------------- */

/* ui_rows.c: the process table's rows, the selection, the order */
void ui_rebuild_rows(struct ui *u);
const struct snap_proc *ui_selected(const struct ui *u);
void ui_select_row(struct ui *u, long row);
/* The snapshot sorted again by u->sort, and the rows. */
void ui_resort(struct ui *u);
/* A sort chosen: the order shown becomes the user's (no heat default). */
void ui_own_sort(struct ui *u);
/* Sort by column c (node: its node, -1), again when it is the one now. */
void ui_set_sort(struct ui *u, enum snap_col c, int node);
/* What the monitor needs of cgroups now: the screen, the CGROUP column,
 * a cgroup filter. */
enum sampler_cgroups ui_cg_need(const struct ui *u);
/* A sample before the next redraw (the K key, a cgroup moved): handlers
 * ask, the main loop samples (ui_sample), once for any number of asks. */
static inline void ui_want_sample(struct ui *u)
{
	u->sample_due = true;
}
/* ui_tags.c: a tag names one process (PID + start time): a PID that was
 * reused is not tagged. */
bool ui_is_tagged(const struct ui *u, const struct snap_proc *p);
/* Forget tags of processes that exited (gone from the snapshot, or zombies). */
void ui_prune_tags(struct ui *u);
void ui_toggle_tag(struct ui *u, const struct snap_proc *p);
/* Tag root and all its descendants. */
void ui_tag_tree(struct ui *u, const struct snap_proc *root);
void ui_clear_tags(struct ui *u);
/* ui_layers.c: the heatmap's layers */
bool ui_layer_available(const struct ui *u, enum ui_layer l);
void ui_next_layer(struct ui *u);
/* A new measurement in u->se.meas: marks, the disagreement line. */
void ui_measure_adopt(struct ui *u);
/* ui_guard.c: the guard of the keys that act (m, B, k, a cgroup move):
 * true, and the reason in the status line, when refused. */
bool ui_action_refused(struct ui *u, const char *what);
bool ui_replay_refused(struct ui *u);        /* an action in replay: said, true */
/* ui_replay.c: the monitor on a recording (--replay) */
int ui_replay_open(struct ui *u, const struct ui_config *o, char *err, size_t errsz);
void ui_replay_close(struct ui *u);
bool ui_replay_sample(struct ui *u);         /* the current sample into u->snap;
                                               * true: one not in the history yet */
/* Move to another sample (to, when, as replay_move; none: said when
 * there is none), to be taken in by ui_sample; false: it could not. */
bool ui_replay_go(struct ui *u, enum replay_to to, time_t when, const char *none);
bool ui_replay_say(struct ui *u);            /* a new warning into u->msg */
time_t ui_replay_when(const struct ui *u);   /* the current sample's time */
void ui_replay_status(const struct ui *u, char *out, size_t n);
/* ui_settings.c: the settings file: read (after the options), and on
 * quit written when something changed: 0, or -errno with why. */
void ui_settings_load(struct ui *u);
int ui_settings_save(struct ui *u, char *why, size_t whysz);

/* ---- the screens and dialogs ------------------------------------------ */

/* ui_processes.c: the Processes screen, of the panels, heatmap, table */
void ui_draw_processes(struct ui *u, int y0, int h);
/* ui_table.c: the process table from the column list */
void ui_draw_table(struct ui *u, int y, int h);
int ui_proc_table_col_at(const struct ui *u, int x);
bool sorted_by_hdr(const struct ui *u, int i);
/* ui_panels.c: the node panels, two lines a node, one, or flowing in
 * columns (lines: -1 when the style does not apply) */
enum ui_panel_mode { PANEL_TWO, PANEL_ONE, PANEL_FLOW };
int ui_panel_cols(void);
int ui_panel_lines(const struct ui *u, enum ui_panel_mode m);
int ui_draw_panels(struct ui *u, int y, int lines, enum ui_panel_mode m);
/* ui_heatmap.c: the heatmap */
int ui_draw_heatmap(struct ui *u, int y, int maxy);
/* Lines the whole heatmap takes; one line saying it does not fit. */
int ui_heatmap_lines(struct ui *u);
int ui_draw_heatmap_summary(struct ui *u, int y);
/* The Distances screen: the heatmap from row u->scroll. */
void ui_draw_heatmap_full(struct ui *u, int y0, int h);
/* ui_screens.c: the Nodes and Topology screens, the sort menu (F6) */
void ui_draw_nodes(struct ui *u, int y0, int h);
void ui_draw_topology(struct ui *u, int y0, int h);
void ui_draw_sort_menu(struct ui *u);
void ui_sort_menu_key(struct ui *u, int ch);
/* The F6 menu: entry i as a sort key; the number of entries. */
size_t ui_sort_menu_len(const struct ui *u);
void ui_sort_menu_entry(const struct ui *u, size_t i, struct sort_key *k, char *label, size_t n);
/* ui_detail.c: the process detail */
void ui_draw_detail(struct ui *u, int y0, int h);
/* ui_kill.c: the signal dialog on the selected or tagged processes,
 * pinned when it opens */
void ui_kill_open(struct ui *u);
void ui_kill_close(struct ui *u);
void ui_kill_key(struct ui *u, int ch);
void ui_draw_kill(struct ui *u);
extern const struct ui_signal { int sig; const char *name; } ui_signals[];
extern const size_t ui_nsignals;
/* ui_cgroups.c: the Cgroups screen */
void ui_draw_cgroups(struct ui *u, int y0, int h);
bool ui_cgroups_key(struct ui *u, int ch);   /* false: not one of its keys */
void ui_cg_rebuild(struct ui *u);
bool ui_cg_collapsed(const struct ui *u, const char *path);
void ui_cgroups_free(struct ui *u);
/* ui_cgmove.c: m on a cgroup (v2): its cpuset.mems to one node; a
 * dialog of the Cgroups screen, drawn and keyed through it */
void ui_cgmove_open(struct ui *u, const char *path);
bool ui_cgmove_open_p(const struct ui *u);
void ui_cgmove_key(struct ui *u, int ch);
void ui_cgmove_draw(struct ui *u);
bool ui_cgmove_running(const struct ui *u);
void ui_cgmove_poll(struct ui *u);
void ui_cgmove_free(struct ui *u);
/* ui_action.c: the m / B dialogs */
void ui_action_open(struct ui *u, bool migrate);
/* The same on node index node_idx (-1: the usual), opened for the advice
 * of a cause (said in its title). */
/* hot: the dialog starts on "only the hot part" (the advice migrate hot). */
void ui_action_open_at(struct ui *u, bool migrate, int node_idx, const char *advice, bool hot);
void ui_action_key(struct ui *u, int ch);
void ui_action_draw(struct ui *u);
bool ui_action_running(const struct ui *u);
void ui_action_work(struct ui *u, double seconds);
void ui_action_free(struct ui *u);
/* ui_measure.c: the L dialog, the measurement thread */
void ui_measure_open(struct ui *u);
void ui_measure_key(struct ui *u, int ch);
void ui_measure_draw(struct ui *u);
bool ui_measure_running(const struct ui *u);
void ui_measure_poll(struct ui *u);
void ui_measure_free(struct ui *u);
/* ui_setup.c: F2, the columns */
void ui_setup_open(struct ui *u);
void ui_setup_draw(struct ui *u, int y0, int h);
void ui_setup_key(struct ui *u, int ch);

/* ---- the frame -------------------------------------------------------- */

/* ui_jobs.c: the background jobs (ui_jobs[]): the one running, or NULL;
 * wait_ms: how long the main loop waits for a key while it runs (0: it
 * works between every two looks at the keys); step: its work or its
 * progress, between keys. */
struct ui_job {
	const char *name;
	int wait_ms;
	bool (*running)(const struct ui *u);
	void (*step)(struct ui *u);
	void (*free)(struct ui *u);
};
const struct ui_job *ui_job_running(const struct ui *u);
void ui_jobs_free(struct ui *u);
/* ui_sample.c: a sample taken in (the main loop's, and a replay's move) */
void ui_sample(struct ui *u);
/* ui_replay_move.c: to another sample of the recording, taken in */
void ui_replay_to(struct ui *u, enum replay_to to, time_t when, const char *none);
void ui_replay_jump(struct ui *u, const char *text);
/* ui_prompt.c: the search and filter prompts */
enum { UI_PROMPT_SEARCH = 1, UI_PROMPT_FILTER, UI_PROMPT_TIME, UI_PROMPT_FLEET_FILTER };
void ui_prompt_open(struct ui *u, int kind);
/* A key for the open prompt: a character (is_key false, wc) or a
 * curses key code. */
void ui_prompt_key(struct ui *u, bool is_key, unsigned wc);
void ui_prompt_draw(struct ui *u);
/* ui_fleet.c: the Fleet screen (--fleet), a monitor of its own: no
 * session, no sample; a thread asks the Prometheus server. */
struct fleet_config;
int ui_fleet_open(struct ui *u, const struct fleet_config *c, char *msg, size_t n);
void ui_fleet_close(struct ui *u);
void ui_fleet_poll(struct ui *u);            /* what came, and a refresh when due */
int ui_fleet_key(struct ui *u, int ch);      /* a key: the prompt it asks for, or 0 */
void ui_fleet_prompt_done(struct ui *u, int kind, const char *text);
/* ui_fleet_draw.c: the Fleet screen drawn (the host open too) */
void ui_fleet_draw(struct ui *u);
/* ui_replay_keys.c: the replay's keys, before the main table */
bool ui_replay_key(struct ui *u, int ch);    /* t T b Home End; false: not one */
extern const struct ui_key ui_replay_keys[];
extern const size_t ui_nreplay_keys;
/* ui_screen.c: the screen table, drawing and key dispatch through it */
bool ui_handle_key(struct ui *u, int ch);
/* The main key table alone (for a screen's keys to fall back to). */
bool ui_main_key(struct ui *u, int ch);
bool ui_help_line(long k, const char **label, const char **text, char *buf, size_t n,
		  enum ui_color *c);
void ui_help_key(struct ui *u, int ch);
void ui_draw(struct ui *u);
/* The function-key bar, from the key table. */
void ui_draw_fkeys(struct ui *u);

#endif
