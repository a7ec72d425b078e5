/* monotime.h - the monotonic clock in seconds, the one every timer and
 * rate reads (CLOCK_MONOTONIC: never steps with the wall clock). */
#ifndef NUMATOP_MONOTIME_H
#define NUMATOP_MONOTIME_H

double monotime_now(void);

#endif
