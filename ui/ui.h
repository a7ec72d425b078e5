/* ui.h - the interactive ncurses monitor (ui/). */
#ifndef NUMATOP_UI_H
#define NUMATOP_UI_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"

/* What the monitor is asked to show, filled by its front end (main.c,
 * from the options): the monitor knows nothing of the command line. */
struct ui_config {
	struct session_config session;  /* what it opens; session.filter
					  * is -p, -u and -K */
	const char *sort;                /* -s NAME, NULL: REMOTE */
	const char *columns;             /* -o SPEC, NULL: the default */
	bool show_age;                   /* --age */
	const char *replay, *begin;      /* --replay FILE|DIR, --begin TIME */
	double delay;                    /* -d seconds */
	bool delay_set;                  /* -d given: it wins over settings */
	long iterations;                 /* -n: samples before it ends (0: no end) */
	bool readonly;                   /* --readonly: no action */
	bool no_mouse, no_color, ascii;
	bool measure_quick;              /* the measurement dialog's quick run */
	/* --fleet: the Fleet screen instead of this machine (url "" or NULL
	 * with fleet: the settings file's fleet=URL). */
	bool fleet;
	const char *fleet_url, *fleet_match;
	const char *fleet_host;          /* --fleet-host: opened at start */
};

/* Run the monitor until the user quits; returns the exit status. */
int ui_run(const struct ui_config *c);

/* The help screen's line k (0, 1, ...): a heading (*heading, its text in
 * *text) or a key's label and text, as the key table says them; false
 * past the last. buf holds text built for the line. For the man page. */
bool ui_help_entry(long k, const char **label, const char **text, char *buf, size_t n,
		   bool *heading);

/* The Fleet screen's key k (0, 1, ...): its label and text, as its help
 * lists them; false past the last. For the man page and docs/keys.md. */
bool ui_fleet_help_entry(long k, const char **label, const char **text);

/* The keys that act on the machine ("F7 m, F8 B, x, F9 k, L"), as the key
 * table marks them: refused on a recording and with --readonly. Returns
 * how many. */
size_t ui_keys_acting(char *out, size_t n);

#endif
