/* settings.h - the monitor's settings file, like htoprc:
 * $XDG_CONFIG_HOME/numatop-tui/numatop-tuirc (~/.config/... by default),
 * plain "key=value" lines and "# comments".
 *
 *   sort=REMOTE  sort_descending=1  columns=PID,USER,HOME,...
 *   show_nodes=1  show_heatmap=1  heatmap_layer=slit  delay=2
 *   kernel_threads=0  tree=0
 *   fleet=http://prometheus:9090 (--fleet alone reads it)
 *   fleet_match={job="numa"}  fleet_token_file=/etc/numatop-tui/token
 *   fleet_basic_auth_file=...  fleet_timeout=5
 *
 * The parser is pure (a buffer in, values or "line N: why" out); keys it
 * does not know are skipped (a newer version's file still loads). The
 * file is read and written through safefile.h: never through a symbolic
 * link, only in directories of the user or root. */
#ifndef NUMATOP_SETTINGS_H
#define NUMATOP_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* columns= holds at most this many names: every column once and one per
 * node of the kernel's 1024 at most; each name up to 7 characters and
 * its comma ("REMOTE%,", "N1023,"). */
#define SETTINGS_MAX_COLUMNS 1040

/* Each value: -1 / "" / < 0 when the file does not set it. */
struct settings {
	char sort[32];
	int sort_descending;
	char columns[SETTINGS_MAX_COLUMNS * 8];
	int show_nodes, show_heatmap, kernel_threads, tree;
	char heatmap_layer[24];
	double delay;
	/* The fleet client (--fleet): its label matcher, and its credentials
	 * as files only (a bearer token; user:password for basic auth). */
	char fleet[512];            /* the Prometheus server's URL */
	char fleet_match[512];
	char fleet_token_file[512], fleet_basic_auth_file[512];
	double fleet_timeout;
};

/* The heatmap layers by name, in the order of the v key. */
extern const char *const settings_layer_names[];
extern const size_t settings_nlayers;

void settings_init(struct settings *s);
/* 0, or -EINVAL with "line N: ..." in err, in words ("line 3: columns:
 * 10000 names, at most 1040"); s keeps what came before. */
int settings_parse(const char *buf, size_t len, struct settings *s, char *err, size_t errsz);
/* The file's text: every value that is set. */
void settings_write(FILE *f, const struct settings *s);

/* The file's path; -ENOENT when neither XDG_CONFIG_HOME nor HOME is set. */
int settings_path(char *out, size_t n);
/* Load path: 0, -ENOENT (no file: nothing set), or another -errno / -EINVAL
 * with the reason in err. */
int settings_load(const char *path, struct settings *s, char *err, size_t errsz);
/* Save (atomic; the directory made 0700 if missing): 0 or -errno, why
 * says what was refused. */
int settings_save(const char *path, const struct settings *s, char *why, size_t whysz);

#endif
