/* sanitize.h - make names that any user chose safe for a terminal and for
 * JSON. */
#ifndef NUMATOP_SANITIZE_H
#define NUMATOP_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>

/* For the terminal: control characters (C0, DEL, C1), bidirectional
 * overrides/isolates and invalid UTF-8 bytes become visible escapes
 * ("\x1b", "\u202e"); valid printable UTF-8 is kept. Always
 * NUL-terminates; returns the output length. */
size_t sanitize_term(const char *in, char *out, size_t outsz);

/* For JSON: valid UTF-8 is kept as is (the JSON library escapes control
 * characters); each invalid byte becomes U+FFFD. */
size_t sanitize_utf8(const char *in, char *out, size_t outsz);

/* Whether in is valid UTF-8 (what sanitize_utf8 keeps as is). */
bool utf8_valid(const char *in);

/* For a terminal that shows only ASCII (a non-UTF-8 locale, -U): each
 * character beyond ASCII (a whole UTF-8 sequence, or an invalid byte)
 * becomes one '?', one column each, never split. in and out may be the
 * same buffer. Always NUL-terminates; returns the output length. */
size_t sanitize_ascii(const char *in, char *out, size_t outsz);

/* Display columns of UTF-8 text (wide East Asian characters count 2,
 * combining marks 0; no locale needed), and how many bytes of s fit in
 * cols columns without splitting a character (*used: their columns). */
int utf8_width(const char *s);
size_t utf8_fit(const char *s, int cols, int *used);

#endif
