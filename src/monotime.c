/* monotime.c - the monotonic clock in seconds. */
#include "monotime.h"

#include <time.h>

double monotime_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
