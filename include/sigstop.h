/* sigstop.h - the signals that ask a run to stop. */
#ifndef NUMATOP_SIGSTOP_H
#define NUMATOP_SIGSTOP_H

/* Install handler for SIGINT, SIGTERM and SIGHUP, without SA_RESTART (a
 * blocking call returns EINTR, so the loop sees the request at once). */
void sigstop_install(void (*handler)(int));

#endif
