/* sanitize.c - escape hostile process names. */
#include "sanitize.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Decode one UTF-8 sequence; returns its length, or 0 if invalid. */
static size_t utf8_decode(const unsigned char *s, uint32_t *cp)
{
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	size_t n;
	uint32_t c, min;
	if ((s[0] & 0xe0) == 0xc0) { n = 2; c = s[0] & 0x1f; min = 0x80; }
	else if ((s[0] & 0xf0) == 0xe0) { n = 3; c = s[0] & 0x0f; min = 0x800; }
	else if ((s[0] & 0xf8) == 0xf0) { n = 4; c = s[0] & 0x07; min = 0x10000; }
	else return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

static int is_bidi_or_invisible(uint32_t c)
{
	return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ||
	       c == 0x200e || c == 0x200f || c == 0x061c || c == 0xfeff;
}

/* Append n bytes if they fit whole (leaving room for the NUL). */
static int put(char *out, size_t outsz, size_t *o, const char *s, size_t n)
{
	if (*o + n + 1 > outsz)
		return 0;
	memcpy(out + *o, s, n);
	*o += n;
	return 1;
}

size_t sanitize_term(const char *in, char *out, size_t outsz)
{
	if (!outsz)
		return 0;
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0;
	int ok = 1;
	while (*s && ok) {
		uint32_t cp;
		size_t n = utf8_decode(s, &cp);
		char esc[16];
		if (n == 0) {
			snprintf(esc, sizeof(esc), "\\x%02x", s[0]);
			ok = put(out, outsz, &o, esc, 4);
			s++;
		} else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) {
			snprintf(esc, sizeof(esc), "\\x%02x", (unsigned)cp & 0xff);
			if (cp >= 0x80)
				snprintf(esc, sizeof(esc), "\\u%04x", (unsigned)cp);
			ok = put(out, outsz, &o, esc, strlen(esc));
			s += n;
		} else if (is_bidi_or_invisible(cp)) {
			snprintf(esc, sizeof(esc), "\\u%04x", (unsigned)cp);
			ok = put(out, outsz, &o, esc, strlen(esc));
			s += n;
		} else if (cp == '\\') {
			ok = put(out, outsz, &o, "\\\\", 2);
			s++;
		} else {
			ok = put(out, outsz, &o, (const char *)s, n);
			s += n;
		}
	}
	out[o] = '\0';
	return o;
}

size_t sanitize_utf8(const char *in, char *out, size_t outsz)
{
	if (!outsz)
		return 0;
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0;
	int ok = 1;
	while (*s && ok) {
		uint32_t cp;
		size_t n = utf8_decode(s, &cp);
		if (n == 0) {
			ok = put(out, outsz, &o, "\xef\xbf\xbd", 3);
			s++;
		} else {
			ok = put(out, outsz, &o, (const char *)s, n);
			s += n;
		}
	}
	out[o] = '\0';
	return o;
}

bool utf8_valid(const char *in)
{
	const unsigned char *s = (const unsigned char *)in;
	uint32_t cp;
	for (size_t n; *s; s += n)
		if ((n = utf8_decode(s, &cp)) == 0)
			return false;
	return true;
}

size_t sanitize_ascii(const char *in, char *out, size_t outsz)
{
	if (!outsz)
		return 0;
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0;
	while (*s && o + 1 < outsz) {
		uint32_t cp;
		size_t n = utf8_decode(s, &cp);
		if (n == 0)
			n = 1;   /* an invalid byte: one character */
		out[o++] = *s < 0x80 ? (char)*s : '?';
		s += n;
	}
	out[o] = '\0';
	return o;
}

/* Columns a code point takes on a terminal: 0 for combining marks, 2 for
 * East Asian wide and fullwidth characters and emoji, else 1 (the
 * common ranges of Unicode's EastAsianWidth W/F; no locale needed). */
static int cp_width(uint32_t c)
{
	if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) ||
	    (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0x20d0 && c <= 0x20ff))
		return 0;
	if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0x303e) ||
	    (c >= 0x3041 && c <= 0x33ff) || (c >= 0x3400 && c <= 0x4dbf) ||
	    (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xa000 && c <= 0xa4cf) ||
	    (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	    (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	    (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1f64f) ||
	    (c >= 0x1f900 && c <= 0x1f9ff) || (c >= 0x20000 && c <= 0x3fffd))
		return 2;
	return 1;
}

size_t utf8_fit(const char *s, int cols, int *used)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t off = 0;
	int w = 0;
	while (p[off]) {
		uint32_t cp;
		size_t k = utf8_decode(p + off, &cp);
		int cw = k ? cp_width(cp) : 1;
		if (!k)
			k = 1;                 /* an invalid byte: one column */
		if (w + cw > cols)
			break;
		w += cw;
		off += k;
	}
	if (used)
		*used = w;
	return off;
}

int utf8_width(const char *s)
{
	int w;
	utf8_fit(s, 1 << 30, &w);
	return w;
}
