/* ui_prompt.c - the search (F3 /) and filter (F4 \) prompts: a state of
 * the main loop, not a loop of their own, so that sampling, signals and
 * resizes go on while one is open. Input is UTF-8 (wide characters from
 * get_wch), shown and cut by display columns. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "sanitize.h"
#include "ui_int.h"

static void search(struct ui *u, const char *s)
{
	snprintf(u->search, sizeof(u->search), "%s", s);
	for (size_t k = 1; k <= u->nrows; k++) {
		size_t r = ((size_t)u->sel + k) % u->nrows;
		const struct snap_proc *p = &u->snap.procs[u->rows[r]];
		if (strstr(p->info.comm, s) || strstr(p->info.cmdline, s)) {
			ui_select_row(u, (long)r);
			return;
		}
	}
	char shown[96];
	sanitize_term(s, shown, sizeof(shown));
	snprintf(u->msg, sizeof(u->msg), "not found: %s", shown);
}

static void set_filter(struct ui *u, const char *s)
{
	snprintf(u->filter, sizeof(u->filter), "%s", s);
	ui_rebuild_rows(u);
	/* A filter that cannot match says why, not only "0 shown". */
	int node;
	if ((sscanf(s, "on node %d", &node) == 1 || sscanf(s, "node %d", &node) == 1) &&
	    topology_node_index(&u->se.topo, node) < 0) {
		char ids[128] = "";
		size_t o = 0;
		for (size_t i = 0; i < u->se.topo.nnodes && o < sizeof(ids) - 12; i++)
			o += (size_t)snprintf(ids + o, sizeof(ids) - o, "%s%d", i ? " " : "",
					      u->se.topo.nodes[i].id);
		snprintf(u->msg, sizeof(u->msg), "node %d: no such node (nodes: %s)", node, ids);
	}
}

static void filter_start(struct ui *u, char *buf, size_t n)
{
	snprintf(buf, n, "%s", u->filter);
}

/* The prompts: each kind's label, what it starts with (NULL: empty), and
 * what Enter does with the text (an empty text does nothing when
 * empty_ok is false). A new prompt is one row here. */
static const struct prompt_kind {
	int kind;
	const char *label;
	void (*start)(struct ui *u, char *buf, size_t n);
	void (*enter)(struct ui *u, const char *text);
	bool empty_ok;
} prompt_kinds[] = {
	{ UI_PROMPT_SEARCH, "Search:", NULL, search, false },
	{ UI_PROMPT_FILTER, "Filter (name | node N | remote>=X | cgroup PATH):", filter_start, set_filter,
	  true },
	{ UI_PROMPT_TIME, "Jump to (HH:MM[:SS] | YYYY-MM-DD HH:MM):", NULL, ui_replay_jump, false },
	/* The Fleet screen's: its text goes to ui_fleet_prompt_done. */
	{ UI_PROMPT_FLEET_FILTER, "Filter (text of the instance, labels, worst process):", filter_start,
	  NULL, true },
};

static const struct prompt_kind *find(int kind)
{
	for (size_t i = 0; i < sizeof(prompt_kinds) / sizeof(prompt_kinds[0]); i++)
		if (prompt_kinds[i].kind == kind)
			return &prompt_kinds[i];
	return NULL;
}

void ui_prompt_open(struct ui *u, int kind)
{
	const struct prompt_kind *k = find(kind);
	if (!k)
		return;
	u->prompt.kind = kind;
	u->prompt.buf[0] = '\0';
	if (k->start)
		k->start(u, u->prompt.buf, sizeof(u->prompt.buf));
	u->prompt.len = strlen(u->prompt.buf);
}

static void finish(struct ui *u)
{
	const struct prompt_kind *k = find(u->prompt.kind);
	int kind = u->prompt.kind;
	u->prompt.kind = 0;
	curs_set(0);
	if (u->fleet && k)
		ui_fleet_prompt_done(u, kind, u->prompt.buf);
	else if (k && k->enter && (k->empty_ok || u->prompt.buf[0]))
		k->enter(u, u->prompt.buf);
}

/* Remove the last character (a whole UTF-8 sequence). */
static void backspace(struct ui_prompt *p)
{
	while (p->len > 0) {
		unsigned char c = (unsigned char)p->buf[--p->len];
		if ((c & 0xc0) != 0x80)
			break;
	}
	p->buf[p->len] = '\0';
}

void ui_prompt_key(struct ui *u, bool is_key, unsigned wc)
{
	struct ui_prompt *p = &u->prompt;
	if ((!is_key && wc == KEY_ESC)) {
		p->kind = 0;
		curs_set(0);
	} else if ((!is_key && (wc == '\n' || wc == '\r')) || (is_key && wc == KEY_ENTER)) {
		finish(u);
	} else if ((is_key && wc == KEY_BACKSPACE) || (!is_key && (wc == 127 || wc == 8))) {
		backspace(p);
	} else if (!is_key && wc == 21) {            /* Ctrl-U: clear */
		p->len = 0;
		p->buf[0] = '\0';
	} else if (!is_key && wc >= 32 && wc != 127 && !(wc >= 0x80 && wc < 0xa0)) {
		char mb[MB_LEN_MAX];
		mbstate_t st;
		memset(&st, 0, sizeof(st));
		size_t n = wcrtomb(mb, (wchar_t)wc, &st);
		/* What fits, whole characters only. */
		if (n != (size_t)-1 && p->len + n < sizeof(p->buf)) {
			memcpy(p->buf + p->len, mb, n);
			p->len += n;
			p->buf[p->len] = '\0';
		}
	}
}

void ui_prompt_draw(struct ui *u)
{
	if (!u->prompt.kind || LINES < 1)
		return;
	int y = LINES - 1;
	move(y, 0);
	clrtoeol();
	const struct prompt_kind *k = find(u->prompt.kind);
	const char *l = k ? k->label : "";
	attron(ui_attr(u, C_FKEY_LABEL));
	mvaddnstr(y, 0, l, COLS);
	attroff(ui_attr(u, C_FKEY_LABEL));
	int x = (int)strlen(l) + 1;
	if (x >= COLS)
		return;
	/* The end of what was typed, when it is wider than the room. */
	char shown[sizeof(u->prompt.buf) * 4];
	sanitize_term(u->prompt.buf, shown, sizeof(shown));
	const char *s = shown;
	int room = COLS - x - 1;
	while (*s && ui_text_width(s) > room)
		s += mblen(s, MB_CUR_MAX) > 0 ? mblen(s, MB_CUR_MAX) : 1;
	mvaddstr(y, x, s);
	curs_set(1);
}
