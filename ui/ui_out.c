/* ui_out.c - the text-writing curses calls of ui/, and the check of the
 * tests (NUMATOP_TEST_WRAPS=FILE): no text passes the right edge, none
 * goes on in the row below. See ui_out.h. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define UI_OUT_REAL
#include "ui_out.h"

static struct {
	int on;              /* 0 not asked yet, 1 checking, -1 not */
	FILE *f;
	char what[128];      /* the screen being drawn */
	char said[192];      /* the last frame line written */
	int edge_row;        /* the last write ended at the right edge of
			      * this row (-1: none): a write after it with
			      * no move goes on in the row below */
	uint32_t seen[512];  /* hashes of the offences said (each once) */
} chk = { .edge_row = -1 };

static bool checking(void)
{
	if (!chk.on) {
		const char *p = getenv("NUMATOP_TEST_WRAPS");
		chk.f = p && *p ? fopen(p, "ae") : NULL;
		if (chk.f)
			setvbuf(chk.f, NULL, _IOLBF, 0);
		chk.on = chk.f ? 1 : -1;
	}
	return chk.on > 0;
}

/* Columns curses gives the first n bytes of s (n < 0: all); *nl: a
 * newline among them. Control characters are ^X; a byte beyond ASCII in
 * a single-byte locale at least ~X (the row check catches M-x). */
static int text_cols(const char *s, int n, bool *nl)
{
	size_t len = strlen(s);
	if (n >= 0 && (size_t)n < len)
		len = (size_t)n;
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	int cols = 0;
	*nl = false;
	for (size_t off = 0; off < len;) {
		wchar_t wc;
		size_t k = MB_CUR_MAX > 1 ? mbrtowc(&wc, s + off, len - off, &st) : 1;
		if (MB_CUR_MAX == 1)
			wc = (unsigned char)s[off];
		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			k = 1;
			wc = L'?';
			memset(&st, 0, sizeof(st));
		}
		*nl |= wc == L'\n';
		int w = MB_CUR_MAX == 1 && wc >= 0x80 ? 2 : wc < 0x20 || wc == 0x7f ? 2 : wcwidth(wc);
		cols += w > 0 ? w : 0;
		off += k;
	}
	return cols;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char line[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	uint32_t h = 2166136261u;
	for (const char *p = line; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	size_t slot = h % (sizeof(chk.seen) / sizeof(chk.seen[0]));
	if (chk.seen[slot] == h)
		return;
	chk.seen[slot] = h;
	fprintf(chk.f, "%s\n", line);
}

/* After a write of cols columns (text s, n bytes) at (y0, x0): said
 * when it passed the right edge or the cursor went on in another row. */
static void check(int y0, int x0, int cols, bool nl, const char *s, int n)
{
	int y1, x1;
	getyx(stdscr, y1, x1);
	bool edge = x0 + cols == COLS;
	bool wrapped = nl || x0 + cols > COLS || (y1 != y0 && !(edge && y1 == y0 + 1 && x1 == 0));
	if (wrapped) {
		char t[400];
		size_t k = 0;
		for (const char *p = s; *p && (n < 0 || p - s < n) && k + 1 < sizeof(t); p++)
			t[k++] = (unsigned char)*p < 0x20 ? '?' : *p;
		t[k] = '\0';
		say("wrap %dx%d %s: row %d col %d, %d columns: %s", COLS, LINES, chk.what, y0, x0, cols, t);
	}
	chk.edge_row = edge && !wrapped ? y0 : -1;
}

/* A write with no move of its own, after one that ended at the edge. */
static void check_after_edge(const char *s)
{
	if (chk.edge_row >= 0)
		say("wrap %dx%d %s: row %d: written on after the right edge: %s", COLS, LINES, chk.what,
		    chk.edge_row, s);
}

int ui_out_mvaddnstr(int y, int x, const char *s, int n)
{
	if (!checking())
		return mvaddnstr(y, x, s, n);
	if (y < 0 || y >= LINES || x < 0 || x >= COLS)
		return mvaddnstr(y, x, s, n);
	bool nl;
	int cols = text_cols(s, n, &nl);
	int rc = mvaddnstr(y, x, s, n);
	check(y, x, cols, nl, s, n);
	return rc;
}

int ui_out_mvaddstr(int y, int x, const char *s)
{
	return ui_out_mvaddnstr(y, x, s, -1);
}

int ui_out_mvprintw(int y, int x, const char *fmt, ...)
{
	char buf[1024], *s = buf;
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len < 0)
		return ERR;
	if ((size_t)len >= sizeof(buf)) {
		s = malloc((size_t)len + 1);
		if (!s)
			return ERR;
		va_start(ap, fmt);
		vsnprintf(s, (size_t)len + 1, fmt, ap);
		va_end(ap);
	}
	int rc = ui_out_mvaddnstr(y, x, s, -1);
	if (s != buf)
		free(s);
	return rc;
}

int ui_out_mvaddch(int y, int x, chtype c)
{
	if (!checking() || y < 0 || y >= LINES || x < 0 || x >= COLS)
		return mvaddch(y, x, c);
	int rc = mvaddch(y, x, c);
	char t[2] = { (char)(c & A_CHARTEXT), '\0' };
	check(y, x, 1, false, t, 1);
	return rc;
}

int ui_out_addch(chtype c)
{
	if (!checking())
		return addch(c);
	int y, x;
	getyx(stdscr, y, x);
	char t[2] = { (char)(c & A_CHARTEXT), '\0' };
	check_after_edge(t);
	int rc = addch(c);
	check(y, x, 1, false, t, 1);
	return rc;
}

int ui_out_move(int y, int x)
{
	chk.edge_row = -1;
	return move(y, x);
}

void ui_out_frame(const char *what)
{
	if (!checking())
		return;
	chk.edge_row = -1;
	snprintf(chk.what, sizeof(chk.what), "%s", what);
	char line[sizeof(chk.said)];
	snprintf(line, sizeof(line), "frame %dx%d %s", COLS, LINES, what);
	if (strcmp(line, chk.said) != 0) {
		snprintf(chk.said, sizeof(chk.said), "%s", line);
		fprintf(chk.f, "%s\n", line);
	}
}
