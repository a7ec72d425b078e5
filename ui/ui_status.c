/* ui_status.c - the status line under the panels: its fields in the
 * order of what matters most, made short or left out whole until the
 * line fits, and a message over it while one is shown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curses.h>

#include "ui_int.h"
#include "format.h"
#include "monotime.h"

static int status_part(struct ui *u, int y, int x, const char *s, enum ui_color c)
{
	if (x >= COLS)
		return x;
	attron(ui_attr(u, c));
	ui_put(y, x, s, COLS - x);
	attroff(ui_attr(u, c));
	return x + ui_text_width(s);
}

/* One field of the status line: its text, a shorter form ("" if none),
 * the step at which it is made short and the step at which it is left
 * out when the line is too long (0: never), and its colour. */
struct st_field {
	char lng[192], shrt[96];
	int short_at, drop_at;
	enum ui_color c;
	int shown;              /* 0 left out, 1 long, 2 short */
};

/* st_fields adds at most 13 fields (one of the warm-up and the numa_maps
 * budget): room for them all. */
enum { ST_MAX = 16 };

/* The steps, in the order they are taken while the line is too long:
 * the extras go first, then each field is made short (the least useful
 * first), then left out in the same order. The tasks always stay. */
enum st_step {
	ST_NEVER, ST_DROP_BAL, ST_DROP_NM, ST_DROP_AGE, ST_DROP_TREE, ST_DROP_KTHR,
	ST_SHORT_SELF, ST_SHORT_IVAL, ST_SHORT_TASKS, ST_SHORT_HEAT, ST_SHORT_WARN,
	ST_SHORT_FILTER, ST_SHORT_PERM,
	ST_DROP_SELF, ST_DROP_WARMUP, ST_DROP_IVAL, ST_DROP_HEAT, ST_DROP_WARN, ST_DROP_FILTER, ST_DROP_PERM,
	ST_DROP_PAUSE, ST_NSTEPS
};

static size_t st_fields(struct ui *u, struct st_field *f);
static void st_heat(const struct snapshot *s, struct st_field *p);
static void st_message(struct ui *u, int y);

static struct st_field *st_add(struct st_field *f, size_t *n, enum st_step short_at,
			       enum st_step drop_at, enum ui_color c)
{
	struct st_field *p = &f[(*n)++];
	p->lng[0] = p->shrt[0] = '\0';
	p->short_at = (int)short_at;
	p->drop_at = (int)drop_at;
	p->c = c;
	p->shown = 1;
	return p;
}

static int st_width(const struct st_field *f, size_t n)
{
	int w = 0;
	for (size_t i = 0; i < n; i++)
		if (f[i].shown)
			w += ui_text_width(f[i].shown == 2 ? f[i].shrt : f[i].lng);
	return w;
}

/* Whole fields only, step by step until the line fits in room: nothing
 * is cut inside a word. */
static void st_fit(struct st_field *f, size_t n, int room)
{
	for (int step = 1; step < ST_NSTEPS && st_width(f, n) > room; step++)
		for (size_t i = 0; i < n; i++) {
			if (f[i].short_at == step && f[i].shown == 1 && f[i].shrt[0])
				f[i].shown = 2;
			if (f[i].drop_at == step)
				f[i].shown = 0;
		}
}

void ui_draw_status(struct ui *u, int y)
{
	move(y, 0);
	clrtoeol();
	struct st_field f[ST_MAX];
	size_t n = st_fields(u, f);
	st_fit(f, n, COLS);
	int x = 0;
	for (size_t i = 0; i < n; i++)
		if (f[i].shown)
			x = status_part(u, y, x, f[i].shown == 2 ? f[i].shrt : f[i].lng, f[i].c);
	st_message(u, y);
}

/* The fields in the order shown, what matters most first: the tasks, a
 * pause and a filter, the refresh, the tool's own CPU, the heat, then the
 * warnings in short (their whole text is in F1 Help, the Nodes screen,
 * the detail and the JSON output), the rest when there is room. */
static size_t st_fields(struct ui *u, struct st_field *f)
{
	const struct snapshot *s = &u->snap;
	size_t n = 0;
	struct st_field *p;
	/* Thread view: rows are processes and their other threads; processes
	 * are counted as processes, and the threads shown said apart. */
	size_t procs_shown = u->nrows, thr_rows = 0;
	if (u->threads && u->thr) {
		for (size_t r = 0; r < u->nrows; r++)
			thr_rows += u->thr[r] >= 0;
		procs_shown -= thr_rows;
	}
	p = st_add(f, &n, ST_SHORT_TASKS, ST_NEVER, C_LABEL);
	if (u->threads) {
		snprintf(p->lng, sizeof(p->lng), "Tasks: %zu shown of %zu, with %zu threads", procs_shown,
			 s->nprocs, procs_shown + thr_rows);
		snprintf(p->shrt, sizeof(p->shrt), "Tasks: %zu/%zu +%zu thr", procs_shown, s->nprocs,
			 thr_rows);
	} else {
		snprintf(p->lng, sizeof(p->lng), "Tasks: %zu shown of %zu", u->nrows, s->nprocs);
		snprintf(p->shrt, sizeof(p->shrt), "Tasks: %zu/%zu", u->nrows, s->nprocs);
	}
	if (u->paused)
		snprintf(st_add(f, &n, ST_NEVER, ST_DROP_PAUSE, C_WARN)->lng, sizeof(p->lng), "  [PAUSED]");
	if (u->filter[0]) {
		p = st_add(f, &n, ST_SHORT_FILTER, ST_DROP_FILTER, C_LABEL);
		snprintf(p->lng, sizeof(p->lng), "  filter: %.64s", u->filter);
		snprintf(p->shrt, sizeof(p->shrt), "  filter: %.16s%s", u->filter,
			 strlen(u->filter) > 16 ? ".." : "");
	}
	if (u->tree || u->threads)
		snprintf(st_add(f, &n, ST_NEVER, ST_DROP_TREE, C_LABEL)->lng, sizeof(p->lng), "%s%s", u->tree ? "  [tree]" : "",
			 u->threads ? "  [threads]" : "");
	p = st_add(f, &n, ST_SHORT_IVAL, ST_DROP_IVAL, C_LABEL);
	snprintf(p->lng, sizeof(p->lng), "  interval %.1fs", u->delay);
	snprintf(p->shrt, sizeof(p->shrt), "  every %.1fs", u->delay);
	char self[16];
	fmt_pct(self, sizeof(self), s->self_cpu_pct);
	p = st_add(f, &n, ST_SHORT_SELF, ST_DROP_SELF, C_LABEL);
	snprintf(p->lng, sizeof(p->lng), "  tool CPU %s%%", self);
	snprintf(p->shrt, sizeof(p->shrt), "  self %s%%", self);
	st_heat(s, st_add(f, &n, ST_SHORT_HEAT, ST_DROP_HEAT, C_LABEL));
	/* Not root: said as it is, not as one more warning. */
	size_t nw = u->se.topo.nwarnings + snapshot_warnings(s, NULL, NULL);
	char l[96], sh[64];
	if (snapshot_no_perm_short(s, l, sizeof(l), sh, sizeof(sh))) {
		p = st_add(f, &n, ST_SHORT_PERM, ST_DROP_PERM, C_WARN);
		snprintf(p->lng, sizeof(p->lng), "  %s", l);
		snprintf(p->shrt, sizeof(p->shrt), "  %s", sh);
		if (!s->replayed && nw)
			nw--;    /* it is one of the sample's warnings */
	}
	if (nw && !u->msg[0]) {
		/* Broken input is said where it is seen; the text is on Nodes. */
		p = st_add(f, &n, ST_SHORT_WARN, ST_DROP_WARN, C_WARN);
		snprintf(p->lng, sizeof(p->lng), "  %zu warning%s (Tab: Nodes)", nw, nw == 1 ? "" : "s");
		snprintf(p->shrt, sizeof(p->shrt), "  %zu warning%s", nw, nw == 1 ? "" : "s");
	}
	if (s->kthreads_hidden) {
		p = st_add(f, &n, ST_NEVER, ST_DROP_KTHR, C_DIM);
		snprintf(p->lng, sizeof(p->lng), "  %zu kernel threads hidden (K)", s->kthreads_hidden);
		snprintf(p->shrt, sizeof(p->shrt), "  %zu kthreads hidden", s->kthreads_hidden);
	}
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	double age = (double)(now.tv_sec - s->wall.tv_sec) +
		     (double)(now.tv_nsec - s->wall.tv_nsec) / 1e9;
	snprintf(st_add(f, &n, ST_NEVER, ST_DROP_AGE, C_LABEL)->lng, sizeof(p->lng), "  age %.1fs", age);
	/* The warm-up says the table is not whole yet: kept longer. */
	if (s->nm_stats.warmup) {
		p = st_add(f, &n, ST_SHORT_WARN, ST_DROP_WARMUP, C_LABEL);
		snprintf(p->lng, sizeof(p->lng), "  placement read for %zu of %zu", s->nm_stats.known,
			 s->nprocs);
		snprintf(p->shrt, sizeof(p->shrt), "  read %zu/%zu", s->nm_stats.known, s->nprocs);
	}
	else if (!s->nm_stats.full && s->seq > 0)
		snprintf(st_add(f, &n, ST_NEVER, ST_DROP_NM, C_LABEL)->lng, sizeof(p->lng), "  numa_maps %zu read %zu sampled %.0fms",
			 s->nm_stats.read, s->nm_stats.sampled, s->nm_stats.spent_ms);
	/* NUMA balancing at work, when it is on: the compact line. */
	if (s->nk.balancing > 0) {
		const double *r = s->nk.sys_rate;
		char h[24], m[24];
		fmt_rate(h, sizeof(h), r[NVM_HINT_FAULTS]);
		fmt_rate(m, sizeof(m), r[NVM_PAGES_MIGRATED]);
		char loc[16] = "-";
		double lp = snapshot_hint_local_pct(&s->nk);
		if (lp >= 0)
			snprintf(loc, sizeof(loc), "%.0f%%", lp);
		snprintf(st_add(f, &n, ST_NEVER, ST_DROP_BAL, C_LABEL)->lng, sizeof(p->lng),
			 "  balancing: faults %s %s local, migrated %s", h, loc, m);
	}
	return n;
}

/* Access heat: who measures it, or in a word why nothing does. */
static void st_heat(const struct snapshot *s, struct st_field *p)
{
	static const char *const lng[ACCESS_NWHY] = {
		[ACCESS_OFF] = "off", [ACCESS_NO_DAMON] = "no DAMON in this kernel",
		[ACCESS_NO_VADDR] = "no DAMON for processes", [ACCESS_NOT_ROOT] = "DAMON needs root",
		[ACCESS_IN_USE] = "DAMON in use by another", [ACCESS_NOT_YET] = "DAMON starting",
		[ACCESS_RECORDED] = "not in this tree", [ACCESS_ERROR] = "DAMON error",
		[ACCESS_STALE] = "stale",
	};
	static const char *const shrt[ACCESS_NWHY] = {
		[ACCESS_OFF] = "off", [ACCESS_NO_DAMON] = "none", [ACCESS_NO_VADDR] = "none",
		[ACCESS_NOT_ROOT] = "root only", [ACCESS_IN_USE] = "in use", [ACCESS_NOT_YET] = "starting",
		[ACCESS_RECORDED] = "none", [ACCESS_ERROR] = "error", [ACCESS_STALE] = "stale",
	};
	const struct access_status *as = &s->access;
	if (as->why == ACCESS_ON) {
		snprintf(p->lng, sizeof(p->lng), "  heat: DAMON %zu/%zu", as->monitored, as->max_targets);
		snprintf(p->shrt, sizeof(p->shrt), "  heat %zu/%zu", as->monitored, as->max_targets);
	} else if ((unsigned)as->why < ACCESS_NWHY && lng[as->why]) {
		snprintf(p->lng, sizeof(p->lng), "  heat: %s", lng[as->why]);
		snprintf(p->shrt, sizeof(p->shrt), "  heat: %s", shrt[as->why]);
	} else {
		p->shown = 0;
	}
}

/* A message: it replaces the whole line (no fragments of the line
 * beside or under it), cut with an ellipsis at a character when it is
 * longer, for UI_MSG_SECONDS after it was last changed (longer while a
 * background job runs: its progress is its message). */
static void st_message(struct ui *u, int y)
{
	double t = monotime_now();
	if (strcmp(u->msg, u->msg_seen) != 0) {
		snprintf(u->msg_seen, sizeof(u->msg_seen), "%s", u->msg);
		u->msg_since = t;
	} else if (u->msg[0] && t - u->msg_since > UI_MSG_SECONDS && !u->job_on) {
		u->msg[0] = u->msg_seen[0] = '\0';
	}
	if (u->msg[0]) {
		move(y, 0);
		clrtoeol();
		attron(ui_attr(u, C_WARN));
		int room = COLS - 1;
		if (ui_text_width(u->msg) <= room) {
			ui_put(y, 0, u->msg, room);
		} else {
			const char *ell = u->ascii || MB_CUR_MAX == 1 ? "..." : "\xe2\x80\xa6";
			int ew = ui_text_width(ell);
			/* Cut after a whole word where there is one. */
			size_t n = ui_fit_cols(u->msg, room - ew, NULL), k = n;
			while (k > 0 && u->msg[k] != ' ')
				k--;
			if (k > (size_t)room / 2)
				n = k;
			char cut[sizeof(u->msg)];
			snprintf(cut, sizeof(cut), "%.*s", (int)n, u->msg);
			ui_put(y, 0, cut, room - ew);
			ui_put(y, ui_text_width(cut), ell, ew);
		}
		attroff(ui_attr(u, C_WARN));
	}
}

