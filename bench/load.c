/* load.c - spawn and reap the benchmark's load processes. */
#include "load.h"

#include <errno.h>
#include <stdio.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL

static int add_pid(struct load *l, pid_t p)
{
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 256;
		pid_t *v = realloc(l->pids, nc * sizeof(*v));
		if (!v)
			return -ENOMEM;
		l->pids = v;
		l->cap = nc;
	}
	l->pids[l->n++] = p;
	return 0;
}

/* In a child: die with the parent, then report ready on fd. */
static void child_setup(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
}

static void child_ready_and_wait(int fd)
{
	char c = 1;
	if (write(fd, &c, 1) != 1)
		_exit(1);
	close(fd);
	for (;;)
		pause();
}

/* k mappings of kb kB each, with a one-page hole between neighbours so
 * the kernel cannot merge them into one. */
static int map_regions(size_t k, size_t kb)
{
	size_t len = (kb * 1024 + PAGE - 1) / PAGE * PAGE;
	size_t span = len + PAGE;
	char *base = mmap(NULL, span * k, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			  -1, 0);
	if (base == MAP_FAILED)
		return -errno;
	munmap(base, span * k);
	for (size_t i = 0; i < k; i++) {
		char *p = mmap(base + i * span, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == MAP_FAILED)
			return -errno;
		madvise(p, len, MADV_NOHUGEPAGE);
		for (size_t o = 0; o < len; o += PAGE)
			p[o] = (char)(i + o);
	}
	return 0;
}

/* fork; the child runs body(arg, ready_fd) (which may exec a program
 * that reports readiness on ready_fd itself), then reports ready. */
static int spawn_one(struct load *l, int (*body)(void *, int), void *arg, pid_t *out)
{
	int fds[2];
	if (pipe(fds) != 0)
		return -errno;
	pid_t parent = getpid();
	pid_t p = fork();
	if (p < 0) {
		int e = errno;
		close(fds[0]);
		close(fds[1]);
		return -e;
	}
	if (p == 0) {
		close(fds[0]);
		child_setup(parent);
		if (body(arg, fds[1]) != 0)
			_exit(2);
		child_ready_and_wait(fds[1]);
	}
	close(fds[1]);
	int rc = add_pid(l, p);
	char c;
	ssize_t r;
	while ((r = read(fds[0], &c, 1)) < 0 && errno == EINTR)
		;
	close(fds[0]);
	if (rc == 0 && r != 1)
		rc = -ECHILD;    /* the child failed before it was ready */
	if (out)
		*out = p;
	return rc;
}

struct procs_arg { size_t k, kb; };

static int procs_body(void *a, int fd)
{
	(void)fd;
	const struct procs_arg *pa = a;
	return map_regions(pa->k, pa->kb);
}

int load_spawn_procs(struct load *l, size_t n, size_t k, size_t kb_each)
{
	struct procs_arg a = { k, kb_each };
	for (size_t i = 0; i < n; i++) {
		int rc = spawn_one(l, procs_body, &a, NULL);
		if (rc)
			return rc;
	}
	return 0;
}

struct exec_arg { const char *path; size_t k, kb; };

/* In the child: the program, told the ready descriptor. */
static int exec_body(void *a, int fd)
{
	const struct exec_arg *ea = a;
	char ks[24], kbs[24], fds[24];
	snprintf(ks, sizeof(ks), "%zu", ea->k);
	snprintf(kbs, sizeof(kbs), "%zu", ea->kb);
	snprintf(fds, sizeof(fds), "%d", fd);
	execl(ea->path, ea->path, ks, kbs, fds, (char *)NULL);
	return -1;
}

/* n processes exec'ing path (bench/tiny/tinyproc): K mappings of kb kB,
 * ready when it writes a byte on the fd it is given. PR_SET_PDEATHSIG
 * survives the exec: they die with the bench. */
int load_spawn_exec(struct load *l, size_t n, const char *path, size_t k, size_t kb)
{
	struct exec_arg a = { path, k, kb };
	for (size_t i = 0; i < n; i++) {
		int rc = spawn_one(l, exec_body, &a, NULL);
		if (rc)
			return rc;
	}
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The probe: mmap, touch and munmap one page, 2000 times a second. Both
 * mmap and munmap take the mmap lock for writing, so a numa_maps walk
 * holding it for reading shows up here as latency. */
static void *probe_thread(void *a)
{
	struct stall_probe *pr = a;
	struct timespec nap = { 0, 500000 };
	pr->ready = 1;
	for (;;) {
		if (pr->reset) {
			pr->max_ns = 0;
			pr->count = 0;
			pr->reset = 0;
		}
		uint64_t t0 = now_ns();
		char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED) {
			p[0] = 1;
			munmap(p, PAGE);
		}
		uint64_t dt = now_ns() - t0;
		if (dt > pr->max_ns)
			pr->max_ns = dt;
		pr->count++;
		nanosleep(&nap, NULL);
	}
	return NULL;
}

struct big_arg { size_t mib; struct stall_probe *probe; };

static int big_body(void *a, int fd)
{
	(void)fd;
	const struct big_arg *ba = a;
	size_t len = ba->mib << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	madvise(p, len, MADV_NOHUGEPAGE);    /* 4 KiB pages: the slow walk */
	for (size_t o = 0; o < len; o += PAGE)
		p[o] = 1;
	pthread_t t;
	if (pthread_create(&t, NULL, probe_thread, ba->probe) != 0)
		return -1;
	while (!ba->probe->ready)
		usleep(1000);
	return 0;
}

int load_spawn_big(struct load *l, size_t mib, struct stall_probe *probe, pid_t *pid)
{
	struct big_arg a = { mib, probe };
	return spawn_one(l, big_body, &a, pid);
}

static int many_body(void *a, int fd)
{
	(void)fd;
	return map_regions(*(const size_t *)a, 4);
}

int load_spawn_many_maps(struct load *l, size_t k, pid_t *pid)
{
	return spawn_one(l, many_body, &k, pid);
}

int load_adopt(struct load *l, pid_t pid)
{
	return add_pid(l, pid);
}

struct stall_probe *load_probe_new(void)
{
	void *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void load_kill_from(struct load *l, size_t from)
{
	for (size_t i = from; i < l->n; i++)
		kill(l->pids[i], SIGKILL);
	for (size_t i = from; i < l->n; i++)
		while (waitpid(l->pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	if (from < l->n)
		l->n = from;
}

void load_kill_all(struct load *l)
{
	load_kill_from(l, 0);
	free(l->pids);
	memset(l, 0, sizeof(*l));
}
