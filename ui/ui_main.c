/* ui_main.c - interactive monitor entry (filled in by the TUI work). */
#include <stdio.h>

#include "ui.h"

int ui_run(const struct options *o)
{
	(void)o;
	fprintf(stderr, "numatop-tui: the interactive monitor is not built yet; use -b or --json\n");
	return 2;
}
