/* ui_paint.c - the drawing toolkit every screen uses: text put at (y, x)
 * cut by display columns (never past the edge, never wrapped by curses),
 * printf, words wrapped onto rows, the width of a UTF-8 string, and the
 * colour or attribute of a role. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "sanitize.h"
#include "ui_int.h"

/* s from (y, x), cut at maxcols display columns (not bytes: a block
 * character is 3 bytes and one column), never past the edge. */
/* Bytes of s that fit in maxcols display columns (whole characters;
 * an invalid byte counts one column); *used: their columns. */
size_t ui_fit_cols(const char *s, int maxcols, int *used)
{
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	size_t off = 0, len = strlen(s);
	int cols = 0;
	while (off < len) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s + off, len - off, &st);
		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			k = 1, wc = L'?';
			memset(&st, 0, sizeof(st));
		}
		int w = wcwidth(wc);
		if (cols + (w > 0 ? w : 0) > maxcols)
			break;
		cols += w > 0 ? w : 0;
		off += k;
	}
	if (used)
		*used = cols;
	return off;
}

void ui_put(int y, int x, const char *s, int maxcols)
{
	if (maxcols > COLS - x)
		maxcols = COLS - x;
	/* A single-byte locale (C, POSIX): a byte beyond ASCII would come
	 * out as junk (~T, M-x); each such character is one '?'. */
	char a[4096];
	if (MB_CUR_MAX == 1) {
		const unsigned char *p = (const unsigned char *)s;
		while (*p && *p < 0x80)
			p++;
		if (*p) {
			sanitize_ascii(s, a, sizeof(a));
			s = a;
		}
	}
	mvaddnstr(y, x, s, (int)ui_fit_cols(s, maxcols, NULL));
}

int ui_putf(int y, int x, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (x >= COLS)
		return COLS;
	ui_put(y, x, buf, COLS - x);
	int w = ui_text_width(buf);
	return w < COLS - x ? x + w : COLS;
}

int ui_put_wrapped(int y, int ymax, int x, const char *s)
{
	int room = COLS - x - 1;
	if (room < 8)
		return y;
	while (*s && y < ymax) {
		/* The bytes that fit, then back to the last space among them
		 * (a word longer than the line is cut where it must be). */
		size_t n = ui_fit_cols(s, room, NULL);
		if (s[n] && n > 0) {
			size_t k = n;
			while (k > 0 && s[k] != ' ')
				k--;
			if (k > 0)
				n = k;
		}
		char line[1024];
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1), s);
		ui_put(y++, x, line, room);
		s += n;
		while (*s == ' ')
			s++;
	}
	return y;
}

int ui_text_width(const char *s)
{
	int w;
	ui_fit_cols(s, 1 << 30, &w);
	return w;
}

int ui_attr(const struct ui *u, enum ui_color c)
{
	if (u->color && has_colors())
		return COLOR_PAIR(c);
	switch (c) {
	case C_HEADER: case C_SELECTED: case C_FKEY_LABEL: return A_REVERSE;
	case C_WARN: case C_REMOTE: case C_TAGGED: return A_BOLD;
	default: return A_NORMAL;
	}
}

