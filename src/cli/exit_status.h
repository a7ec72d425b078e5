/* exit_status.h - the program's exit statuses as one table: --help, the
 * man page (genman's @EXIT@) and tests/sh/test_docs.sh (every status the
 * front ends return is in it) read it. */
#ifndef NUMATOP_EXIT_STATUS_H
#define NUMATOP_EXIT_STATUS_H

#include <stddef.h>

struct exit_status {
	int code;
	const char *text;
};

extern const struct exit_status exit_statuses[];
extern const size_t exit_nstatuses;

#endif
