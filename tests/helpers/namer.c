/* namer.c - a process with a chosen comm: `namer NAME [ARG...]` sets its
 * comm to NAME (prctl PR_SET_NAME, at most 15 bytes; any bytes but NUL),
 * prints "ready" and sleeps until killed. Its command line is argv as
 * given, so hostile arguments show up in /proc/PID/cmdline too. */
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: namer NAME [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_NAME, argv[1], 0, 0, 0) != 0) {
		perror("prctl");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
