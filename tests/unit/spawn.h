/* spawn.h - live children for the action tests: n threads of a function,
 * ready when the call returns; reaped with reap(). */
#ifndef NUMATOP_TEST_SPAWN_H
#define NUMATOP_TEST_SPAWN_H

#include <pthread.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* A child with n threads running fn; it says it is ready after settle_us
 * (so that its thread population is there when the test looks). */
static pid_t spawn_threads(int n, void *(*fn)(void *), useconds_t settle_us)
{
	int p[2];
	if (pipe(p) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		for (int i = 0; i < n; i++) {
			pthread_t th;
			pthread_create(&th, NULL, fn, NULL);
		}
		usleep(settle_us);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	char c;
	if (pid < 0 || read(p[0], &c, 1) != 1)
		pid = -1;
	close(p[0]);
	return pid;
}

static pid_t spawn_child(int threads)
{
	return spawn_threads(threads, sleeper, 0);
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

#endif
