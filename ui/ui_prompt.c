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

static const char *label(int kind)
{
	return kind == UI_PROMPT_SEARCH ? "Search:" : kind == UI_PROMPT_TIME ?
	       "Jump to (HH:MM[:SS] | YYYY-MM-DD HH:MM):" : "Filter (name | node N | remote>=X):";
}

void ui_prompt_open(struct ui *u, int kind)
{
	u->prompt.kind = kind;
	u->prompt.buf[0] = '\0';
	if (kind == UI_PROMPT_FILTER)
		snprintf(u->prompt.buf, sizeof(u->prompt.buf), "%s", u->filter);
	u->prompt.len = strlen(u->prompt.buf);
}

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

static void finish(struct ui *u)
{
	int kind = u->prompt.kind;
	u->prompt.kind = 0;
	curs_set(0);
	if (kind == UI_PROMPT_SEARCH && u->prompt.buf[0]) {
		search(u, u->prompt.buf);
	} else if (kind == UI_PROMPT_FILTER) {
		snprintf(u->filter, sizeof(u->filter), "%s", u->prompt.buf);
		ui_rebuild_rows(u);
	} else if (kind == UI_PROMPT_TIME && u->prompt.buf[0]) {
		ui_replay_jump(u, u->prompt.buf);
	}
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
	const char *l = label(u->prompt.kind);
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
