/* exit_status.c - the exit statuses (exit_status.h). */
#include "exit_status.h"

const struct exit_status exit_statuses[] = {
	{ 0, "success" },
	{ 1, "an error: a file or the root that cannot be read, a Prometheus server (--fleet) "
	     "that could not be read, an action that failed, output "
	     "that could not be written (a full disk, a closed standard output), no terminal for "
	     "the monitor, or a terminal that went away" },
	{ 2, "a usage error: an unknown option, a bad value, a column or user that does not "
	     "exist, a replay window that ends before it begins" },
	{ 3, "an action done in part: --migrate left pages it could not move, --migrate-cgroup "
	     "left memory on other nodes (what stayed, and why, is printed)" },
	{ 4, "nothing to move: --migrate --hot (--cold) watched the process and found nothing "
	     "hot (cold); nothing was moved (how long it watched is printed)" },
	{ 130, "a measurement was cancelled (Ctrl-C)" },
	{ 131, "the monitor was ended by SIGQUIT (Ctrl-\\), after restoring the terminal" },
};
const size_t exit_nstatuses = sizeof(exit_statuses) / sizeof(exit_statuses[0]);
