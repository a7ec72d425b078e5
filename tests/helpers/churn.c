/* churn.c - process churn for tests/sh/test_churn.sh.
 *
 *   churn SECONDS [MAX_CHILDREN]
 *
 * For SECONDS, forks and reaps children as fast as it can (at most
 * MAX_CHILDREN, default 24, alive at once). Children vary: some exit at
 * once, some touch up to 2 MiB of memory, some start threads that touch
 * memory and come and go, some rename themselves and linger a few ms.
 * Reaping is lazy (only when MAX_CHILDREN is reached), so exited children
 * sit as zombies for a while. Two long-lived helpers run beside it:
 * "churn-zombies" always holds a few zombie children (so every scan sees
 * processes whose memory is gone), "churn-threads" keeps creating and
 * joining threads (its thread list changes under every read).
 *
 * It is a child subreaper, so grandchildren orphaned on the way out are
 * reaped here too. SIGTERM, SIGINT or SIGHUP end it early. On exit it
 * prints
 *   churn: forks=N reaped-late=N seconds=S
 * and exits 0 (1 when nothing could be forked). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nap_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
	nanosleep(&ts, NULL);
}

/* Small xorshift; each process seeds its own. */
static unsigned rnd_state = 2463534242u;
static unsigned rnd(void)
{
	unsigned x = rnd_state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return rnd_state = x;
}

static void touch(size_t bytes)
{
	char *p = malloc(bytes);
	if (!p)
		return;
	for (size_t i = 0; i < bytes; i += 4096)
		p[i] = (char)i;
	free(p);
}

struct thr_arg {
	unsigned seed;
};

static void *thread_body(void *v)
{
	struct thr_arg *a = v;
	rnd_state = a->seed | 1;
	touch(16384 + rnd() % 262144);
	nap_us(500 + rnd() % 10000);
	return NULL;
}

/* Start 1..max threads, let them run, join them. Returns how many ran. */
static unsigned thread_burst(unsigned max)
{
	pthread_t t[8];
	struct thr_arg a[8];
	unsigned n = 1 + rnd() % (max > 8 ? 8 : max), ok = 0;
	for (unsigned i = 0; i < n; i++) {
		a[i].seed = rnd();
		if (pthread_create(&t[ok], NULL, thread_body, &a[i]) == 0)
			ok++;
	}
	for (unsigned i = 0; i < ok; i++)
		pthread_join(t[i], NULL);
	return ok;
}

/* A short-lived child. Never returns. */
static void child(unsigned kind, unsigned seed)
{
	rnd_state = seed | 1;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	switch (kind % 4) {
	case 0:         /* exit at once */
		break;
	case 1:         /* touch memory, linger */
		touch(65536 + rnd() % (2u << 20));
		nap_us(rnd() % 20000);
		break;
	case 2:         /* threads that come and go */
		thread_burst(4);
		break;
	default:        /* renamed, memory and threads */
		prctl(PR_SET_NAME, "churn-kid");
		touch(4096 + rnd() % 524288);
		thread_burst(3);
		nap_us(rnd() % 30000);
		break;
	}
	_exit(0);
}

/* Long-lived helper: holds ZOMBIES exited children unreaped, rotating. */
static void zombie_keeper(void)
{
	enum { ZOMBIES = 4 };
	pid_t ring[ZOMBIES] = { 0 };
	unsigned i = 0;
	prctl(PR_SET_NAME, "churn-zombies");
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	while (!stop) {
		pid_t p = fork();
		if (p == 0)
			_exit(0);
		while (ring[i % ZOMBIES] > 0 && waitpid(ring[i % ZOMBIES], NULL, 0) < 0 &&
		       errno == EINTR)
			;
		ring[i % ZOMBIES] = p;
		i++;
		nap_us(20000);
	}
	for (int k = 0; k < ZOMBIES; k++)
		while (ring[k] > 0 && waitpid(ring[k], NULL, 0) < 0 && errno == EINTR)
			;
	_exit(0);
}

/* Long-lived helper: threads that come and go, without pause. */
static void thread_churner(void)
{
	prctl(PR_SET_NAME, "churn-threads");
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	rnd_state = (unsigned)getpid() * 2654435761u | 1;
	while (!stop)
		thread_burst(8);
	_exit(0);
}

static pid_t spawn(void (*fn)(void))
{
	pid_t p = fork();
	if (p == 0)
		fn();
	return p;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: churn SECONDS [MAX_CHILDREN]\n");
		return 2;
	}
	double secs = strtod(argv[1], NULL);
	long max = argc > 2 ? strtol(argv[2], NULL, 10) : 24;
	if (secs <= 0 || max < 1) {
		fprintf(stderr, "churn: bad arguments\n");
		return 2;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	rnd_state = (unsigned)getpid() * 2246822519u | 1;
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	pid_t zk = spawn(zombie_keeper), tc = spawn(thread_churner);
	double t0 = now(), end = t0 + secs;
	unsigned long forks = 0, reaped = 0;
	long alive = 0;
	while (!stop && now() < end) {
		if (alive >= max) {
			/* Lazy reaping: exited children stayed zombies until now. */
			pid_t w = waitpid(-1, NULL, 0);
			if (w > 0 && w != zk && w != tc) {
				alive--;
				reaped++;
			}
			continue;
		}
		unsigned kind = (unsigned)forks, seed = rnd();
		pid_t p = fork();
		if (p == 0)
			child(kind, seed);
		if (p < 0) {
			if (errno == EAGAIN || errno == ENOMEM) {
				nap_us(1000);
				continue;
			}
			break;
		}
		forks++;
		alive++;
	}
	if (zk > 0)
		kill(zk, SIGTERM);
	if (tc > 0)
		kill(tc, SIGTERM);
	/* Reap everything, the helpers included. */
	for (;;) {
		pid_t w = waitpid(-1, NULL, 0);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
	}
	printf("churn: forks=%lu reaped-late=%lu seconds=%.1f\n", forks, reaped, now() - t0);
	return forks ? 0 : 1;
}
