/* ui.h - the interactive ncurses monitor (ui/). */
#ifndef NUMATOP_UI_H
#define NUMATOP_UI_H

#include "options.h"

/* Run the monitor until the user quits; returns the exit status. */
int ui_run(const struct options *o);

#endif
