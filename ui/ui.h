/* ui.h - the interactive ncurses monitor (ui/). */
#ifndef NUMATOP_UI_H
#define NUMATOP_UI_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

/* Run the monitor until the user quits; returns the exit status. */
int ui_run(const struct options *o);

/* The help screen's line k (0, 1, ...): a heading (*heading, its text in
 * *text) or a key's label and text, as the key table says them; false
 * past the last. buf holds text built for the line. For the man page. */
bool ui_help_entry(long k, const char **label, const char **text, char *buf, size_t n,
		   bool *heading);

#endif
