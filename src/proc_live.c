/* proc_live.c - the live backend (root "/").
 *
 * libproc2 discovers each new process: its identity (PID, start time) and
 * user. From then on the process is a record here holding two kept-open
 * descriptors: its /proc/PID directory, whose fstat() gives the live
 * effective uid (the directory shows it even for non-dumpable processes,
 * unlike its files), and its /proc/PID/stat, read again with pread() at
 * offset 0 every tick (fresh text each time; ESRCH once the process is
 * gone, so a reused PID can never be read as the old process). A tick is
 * then one listing of /proc plus two syscalls per process, no path
 * lookups. The descriptors are bounded: the soft RLIMIT_NOFILE is raised
 * to the hard one, a reserve is left for everything else, and processes
 * beyond the budget (or after EMFILE) are read by path relative to the
 * /proc descriptor instead. The command line is read once per process
 * and again only when its comm changes (an exec). Threads are read again
 * only when the process used CPU time since they were last read (an idle
 * thread cannot have moved), or after PROC_THREADS_MAX_AGE_S. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libproc2/pids.h>

#include "parse.h"
#include "proc_int.h"

enum item_index { I_PID, I_BEGAN, I_EUID, I_EUSER, I_N };

static enum pids_item items[I_N] = {
	[I_PID] = PIDS_ID_PID, [I_BEGAN] = PIDS_TICS_BEGAN,
	[I_EUID] = PIDS_ID_EUID, [I_EUSER] = PIDS_ID_EUSER,
};

/* libproc2 selects at most this many PIDs at once (FILL_ID_MAX). */
#define SELECT_MAX 255
/* Descriptors left for everything else (numa_maps, cgroups, sockets). */
#define FD_RESERVE 256
/* The effective uid of a process that did not run is checked this often. */
#define UID_RECHECK_S 10.0
/* /proc is listed again at least this often, even when /proc/loadavg
 * says that no task was created or ended. */
#define RELIST_S 10.0

struct live_proc {
	int pid;
	int dirfd, statfd;            /* -1: read by path */
	char seen_state;              /* (below) */
	uint64_t starttime;
	int64_t uid;
	const char *user;             /* in the user table */
	char *comm, *cmdline;         /* owned; cmdline NULL: "" */
	/* What the last tick saw: the uid is checked again (fstat) when
	 * the process ran or faulted since, changed state, or after
	 * UID_RECHECK_S; a sleeping process cannot call setuid(). */
	uint64_t seen_ticks, seen_faults;
	double uid_at;
	struct thr_cache *thr;        /* multi-threaded processes only */
};

/* A multi-threaded process's threads as last read, and when. */
struct thr_cache {
	uint64_t ticks;               /* the process's CPU time then */
	int64_t nthreads;
	double at;                    /* monotonic seconds */
	size_t n;
	struct proc_thread v[];
};

struct gen {
	struct live_proc *v;
	size_t n, cap;
};

struct user_ent {
	int64_t uid;
	char *name;
};

/* What libproc2 said of a new process. */
struct found {
	int pid;
	uint64_t began;
	int64_t uid;
	const char *user;             /* in the user table */
};

struct live {
	struct pids_info *info;
	DIR *procdir;
	int procfd;
	struct gen recs;              /* by PID */
	struct gen newrecs;           /* a scan's new ones, merged into recs */
	struct user_ent *users;
	size_t nusers, ucap;
	int *pids, *fresh;
	size_t pidcap, freshcap;
	struct found *found;
	size_t nfound, foundcap;
	size_t fd_budget, nkept;
	int loadavg_fd;               /* /proc/loadavg, -1 none */
	char loadavg_key[64];         /* its "running/total last_pid" at the last listing */
	double listed_at;
	long page_kb;
	struct proc_scan_stats st;
};

_Static_assert(offsetof(struct live_proc, pid) == 0, "proc_find_pid needs pid first");
_Static_assert(offsetof(struct found, pid) == 0, "proc_find_pid needs pid first");

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void rec_close(struct live *lv, struct live_proc *r)
{
	if (r->dirfd >= 0) {
		close(r->dirfd);
		lv->nkept--;
	}
	if (r->statfd >= 0)
		close(r->statfd);
	free(r->comm);
	free(r->cmdline);
	free(r->thr);
	memset(r, 0, sizeof(*r));
	r->dirfd = r->statfd = -1;
}

void proc_live_close(void *p)
{
	struct live *lv = p;
	for (size_t i = 0; i < lv->recs.n; i++)
		rec_close(lv, &lv->recs.v[i]);
	free(lv->recs.v);
	free(lv->newrecs.v);
	for (size_t i = 0; i < lv->nusers; i++)
		free(lv->users[i].name);
	free(lv->users);
	free(lv->pids);
	free(lv->fresh);
	free(lv->found);
	if (lv->procdir)
		closedir(lv->procdir);
	if (lv->loadavg_fd >= 0)
		close(lv->loadavg_fd);
	procps_pids_unref(&lv->info);
	free(lv);
}

void proc_live_stats(const void *p, struct proc_scan_stats *out)
{
	const struct live *lv = p;
	*out = lv->st;
}

/* Raise the soft descriptor limit to the hard one; the budget is what is
 * left after the reserve, two descriptors a process. */
static size_t fd_budget(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 0;
	if (rl.rlim_cur < rl.rlim_max) {
		struct rlimit up = { rl.rlim_max, rl.rlim_max };
		if (setrlimit(RLIMIT_NOFILE, &up) == 0)
			rl.rlim_cur = rl.rlim_max;
	}
	rlim_t cur = rl.rlim_cur == RLIM_INFINITY ? (rlim_t)1 << 20 : rl.rlim_cur;
	return cur > 2 * FD_RESERVE ? (size_t)(cur - FD_RESERVE) / 2 : 0;
}

/* The user table: uid -> name, sorted by uid, kept for the source's life. */
static const char *user_put(struct live *lv, int64_t uid, const char *name)
{
	size_t lo = 0, hi = lv->nusers;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (lv->users[mid].uid == uid)
			return lv->users[mid].name;
		if (lv->users[mid].uid < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	char digits[24];
	if (!name) {
		struct passwd *pw = uid >= 0 ? getpwuid((uid_t)uid) : NULL;
		if (pw) {
			name = pw->pw_name;
		} else {
			snprintf(digits, sizeof(digits), "%lld", (long long)uid);
			name = uid >= 0 ? digits : "?";
		}
	}
	if (lv->nusers == lv->ucap) {
		size_t c = lv->ucap ? lv->ucap * 2 : 16;
		struct user_ent *u = realloc(lv->users, c * sizeof(*u));
		if (!u)
			return NULL;
		lv->users = u;
		lv->ucap = c;
	}
	char *copy = strndup(name, 32);
	if (!copy)
		return NULL;
	memmove(&lv->users[lo + 1], &lv->users[lo], (lv->nusers - lo) * sizeof(*lv->users));
	lv->users[lo] = (struct user_ent){ uid, copy };
	lv->nusers++;
	return copy;
}

static int grow(void **v, size_t *cap, size_t need, size_t size)
{
	void *n = buf_grow_array(*v, cap, need, size);
	if (!n)
		return -ENOMEM;
	*v = n;
	return 0;
}

/* Every PID in /proc, ascending. */
static int list_pids(struct live *lv, size_t *n)
{
	*n = 0;
	rewinddir(lv->procdir);
	errno = 0;
	bool sorted = true;
	struct dirent *d;
	while ((d = readdir(lv->procdir)) != NULL) {
		const char *s = d->d_name;
		if (*s < '1' || *s > '9')
			continue;
		long v = 0;
		for (; *s >= '0' && *s <= '9' && v < 0x7fffffff; s++)
			v = v * 10 + (*s - '0');
		if (*s || v > 0x7fffffff)
			continue;
		if (grow((void **)&lv->pids, &lv->pidcap, *n + 1, sizeof(int)))
			return -ENOMEM;
		if (*n && lv->pids[*n - 1] >= (int)v)
			sorted = false;
		lv->pids[(*n)++] = (int)v;
	}
	if (errno)
		return -errno;
	if (!sorted) {
		for (size_t i = 1; i < *n; i++)
			for (size_t j = i; j > 0 && lv->pids[j] < lv->pids[j - 1]; j--) {
				int t = lv->pids[j];
				lv->pids[j] = lv->pids[j - 1];
				lv->pids[j - 1] = t;
			}
	}
	return 0;
}

/* What /proc/loadavg says of task creation: "total last_pid" (its
 * "running/total" and last fields). Any fork or clone changes the last
 * allocated PID; an exit changes the total. */
static int loadavg_key(struct live *lv, char *key, size_t keysz)
{
	char text[128];
	ssize_t n = lv->loadavg_fd >= 0 ? pread(lv->loadavg_fd, text, sizeof(text) - 1, 0) : -1;
	if (n <= 0)
		return -EIO;
	text[n] = '\0';
	const char *slash = strchr(text, '/');
	if (!slash)
		return -EIO;
	snprintf(key, keysz, "%.60s", slash + 1);
	return 0;
}

/* The PIDs of the current records: the listing when nothing was created
 * or ended since the last one. */
static int reuse_pids(struct live *lv, size_t *n)
{
	const struct gen *g = &lv->recs;
	if (grow((void **)&lv->pids, &lv->pidcap, g->n, sizeof(int)))
		return -ENOMEM;
	for (size_t i = 0; i < g->n; i++)
		lv->pids[i] = g->v[i].pid;
	*n = g->n;
	return 0;
}

/* libproc2 on the new PIDs: identity and user, into lv->found (sorted). */
static int discover(struct live *lv, const int *pids, size_t n)
{
	lv->nfound = 0;
	if (grow((void **)&lv->found, &lv->foundcap, n, sizeof(*lv->found)))
		return -ENOMEM;
	for (size_t at = 0; at < n; at += SELECT_MAX) {
		unsigned k = (unsigned)(n - at < SELECT_MAX ? n - at : SELECT_MAX);
		struct pids_fetch *f = procps_pids_select(lv->info, (unsigned *)(pids + at), k,
							  PIDS_SELECT_PID);
		if (!f)
			continue;      /* all gone meanwhile, or no memory: by fstat */
		int total = f->counts ? f->counts->total : 0;
		for (int i = 0; i < total; i++) {
			struct pids_stack *st = f->stacks[i];
			struct found *fo = &lv->found[lv->nfound++];
			fo->pid = PIDS_VAL(I_PID, s_int, st, lv->info);
			fo->began = PIDS_VAL(I_BEGAN, ull_int, st, lv->info);
			fo->uid = PIDS_VAL(I_EUID, u_int, st, lv->info);
			fo->user = user_put(lv, fo->uid, PIDS_VAL(I_EUSER, str, st, lv->info));
		}
	}
	for (size_t i = 1; i < lv->nfound; i++)
		for (size_t j = i; j > 0 && lv->found[j].pid < lv->found[j - 1].pid; j--) {
			struct found t = lv->found[j];
			lv->found[j] = lv->found[j - 1];
			lv->found[j - 1] = t;
		}
	return 0;
}

/* The stat of r, parsed: -ESRCH when it is gone. */
static int read_stat(struct live *lv, const struct live_proc *r, struct pid_stat *st)
{
	char text[1024];
	ssize_t n;
	if (r->statfd >= 0) {
		n = pread(r->statfd, text, sizeof(text), 0);
		if (n < 0)
			return errno == ESRCH || errno == ENOENT ? -ESRCH : -errno;
	} else {
		char path[32];
		snprintf(path, sizeof(path), "%d/stat", r->pid);
		int fd = openat(lv->procfd, path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return errno == ENOENT || errno == ESRCH ? -ESRCH : -errno;
		n = read(fd, text, sizeof(text));
		int e = errno;
		close(fd);
		if (n < 0)
			return e == ESRCH ? -ESRCH : -e;
	}
	if (parse_pid_stat(text, (size_t)n, st) != 0 || st->pid != r->pid)
		return -ESRCH;
	return 0;
}

/* The effective uid of r, live: -ESRCH when it is gone. */
static int read_uid(struct live *lv, const struct live_proc *r, int64_t *uid)
{
	struct stat sb;
	int rc;
	if (r->dirfd >= 0) {
		rc = fstat(r->dirfd, &sb);
	} else {
		char path[16];
		snprintf(path, sizeof(path), "%d", r->pid);
		rc = fstatat(lv->procfd, path, &sb, 0);
	}
	if (rc != 0)
		return -ESRCH;
	*uid = sb.st_uid;
	return 0;
}

static bool ran_since(const struct live_proc *r, const struct pid_stat *st)
{
	return r->seen_ticks != st->utime + st->stime ||
	       r->seen_faults != st->minflt + st->majflt || r->seen_state != st->state;
}

/* The command line, up to PROC_CMDLINE_MAX bytes; NULL when empty. */
static char *read_cmdline(struct live *lv, const struct live_proc *r)
{
	char raw[PROC_CMDLINE_MAX], text[PROC_CMDLINE_MAX];
	char path[32];
	int fd;
	if (r->dirfd >= 0) {
		fd = openat(r->dirfd, "cmdline", O_RDONLY | O_CLOEXEC);
	} else {
		snprintf(path, sizeof(path), "%d/cmdline", r->pid);
		fd = openat(lv->procfd, path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0)
		return NULL;
	ssize_t n = read(fd, raw, sizeof(raw));
	close(fd);
	if (n <= 0)
		return NULL;
	size_t k = proc_clean_cmdline(text, sizeof(text), raw, (size_t)n);
	return k ? strndup(text, k) : NULL;
}

/* A new record for pid: descriptors when the budget allows. */
static int rec_open(struct live *lv, struct live_proc *r, int pid)
{
	memset(r, 0, sizeof(*r));
	r->pid = pid;
	r->dirfd = r->statfd = -1;
	if (lv->nkept >= lv->fd_budget)
		return 0;
	char path[16];
	snprintf(path, sizeof(path), "%d", pid);
	int d = openat(lv->procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d < 0) {
		if (errno == EMFILE || errno == ENFILE)
			lv->fd_budget = lv->nkept;   /* near the limit: by path from now */
		return errno == ENOENT ? -ESRCH : 0;
	}
	int s = openat(d, "stat", O_RDONLY | O_CLOEXEC);
	if (s < 0) {
		int e = errno;
		close(d);
		if (e == EMFILE || e == ENFILE)
			lv->fd_budget = lv->nkept;
		return e == ENOENT || e == ESRCH ? -ESRCH : 0;
	}
	r->dirfd = d;
	r->statfd = s;
	lv->nkept++;
	return 0;
}

static void fill_info(struct live *lv, const struct live_proc *r, const struct pid_stat *st,
		      struct proc_info *p)
{
	p->pid = r->pid;
	p->ppid = st->ppid;
	p->comm = r->comm ? r->comm : "";
	p->cmdline = r->cmdline ? r->cmdline : "";
	p->uid = r->uid;
	p->user = r->user ? r->user : "?";
	p->state = st->state;
	p->utime = st->utime;
	p->stime = st->stime;
	p->starttime = st->starttime;
	p->minflt = st->minflt;
	p->majflt = st->majflt;
	p->rss_kb = st->rss_pages >= 0 ? st->rss_pages * lv->page_kb : -1;
	p->last_cpu = st->processor;
	p->nthreads = st->nthreads;
	p->kthread = (st->flags & PID_STAT_PF_KTHREAD) != 0;
}

/* Names of r from this tick's stat: comm kept, the command line read
 * again when comm changed (an exec) or the record is new. */
static int update_names(struct live *lv, struct live_proc *r, const struct pid_stat *st,
			bool fresh)
{
	if (!fresh && r->comm && strcmp(r->comm, st->comm) == 0)
		return 0;
	char *c = strdup(st->comm);
	if (!c)
		return -ENOMEM;
	free(r->comm);
	r->comm = c;
	free(r->cmdline);
	r->cmdline = st->state == 'Z' ? NULL : read_cmdline(lv, r);
	return 0;
}

static int init_live(struct proc_source *s, struct live **out)
{
	struct live *lv = calloc(1, sizeof(*lv));
	if (!lv)
		return -ENOMEM;
	long ps = sysconf(_SC_PAGESIZE);
	lv->page_kb = ps > 0 ? ps / 1024 : 4;
	int fd = fsroot_open_fd(proc_source_root(s), "/proc", O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		free(lv);
		return fd;
	}
	lv->procdir = fdopendir(fd);
	if (!lv->procdir) {
		int e = errno;
		close(fd);
		free(lv);
		return -e;
	}
	lv->procfd = dirfd(lv->procdir);
	lv->loadavg_fd = openat(lv->procfd, "loadavg", O_RDONLY | O_CLOEXEC);
	lv->info = NULL;   /* must be NULL before procps_pids_new */
	int rc = procps_pids_new(&lv->info, items, I_N);
	if (rc < 0) {
		closedir(lv->procdir);
		free(lv);
		return rc;
	}
	lv->fd_budget = fd_budget();
	*out = lv;
	return 0;
}

/* The scan's new records into recs, both sorted by PID: merged from the
 * back. A large batch of new ones (the first scan) gives its room back. */
static int merge_new(struct live *lv)
{
	struct gen *g = &lv->recs, *fr = &lv->newrecs;
	if (g->n == 0) {                      /* the first scan: no copy */
		struct gen t = *g;
		*g = *fr;
		*fr = t;
		fr->n = 0;
		return 0;
	}
	if (grow((void **)&g->v, &g->cap, g->n + fr->n, sizeof(*g->v))) {
		for (size_t i = 0; i < fr->n; i++)
			rec_close(lv, &fr->v[i]);
		fr->n = 0;
		return -ENOMEM;
	}
	size_t a = g->n, b = fr->n, k = g->n + fr->n;
	while (b > 0) {
		if (a > 0 && g->v[a - 1].pid > fr->v[b - 1].pid)
			g->v[--k] = g->v[--a];
		else
			g->v[--k] = fr->v[--b];
	}
	g->n += fr->n;
	fr->n = 0;
	if (fr->cap > 1024) {
		free(fr->v);
		fr->v = NULL;
		fr->cap = 0;
	}
	return 0;
}

int proc_scan_libproc2(struct proc_source *s, struct proc_list *l)
{
	void **slot = proc_source_pids_slot(s);
	struct live *lv = *slot;
	if (!lv) {
		int rc = init_live(s, &lv);
		if (rc)
			return rc;
		*slot = lv;
	}
	memset(&lv->st, 0, sizeof(lv->st));
	double now = mono();
	size_t n;
	char key[64] = "";
	int rc;
	bool same = loadavg_key(lv, key, sizeof(key)) == 0 && strcmp(key, lv->loadavg_key) == 0;
	if (same && lv->recs.n && now - lv->listed_at < RELIST_S) {
		rc = reuse_pids(lv, &n);
	} else {
		rc = list_pids(lv, &n);
		snprintf(lv->loadavg_key, sizeof(lv->loadavg_key), "%s", key);
		lv->listed_at = now;
	}
	if (rc)
		return rc;
	struct gen *g = &lv->recs, *fr = &lv->newrecs;
	if (grow((void **)&lv->fresh, &lv->freshcap, n, sizeof(int)))
		return -ENOMEM;
	/* The PIDs no record stands for: libproc2 discovers them. */
	size_t nfresh = 0;
	for (size_t i = 0, j = 0; i < n; i++) {
		while (j < g->n && g->v[j].pid < lv->pids[i])
			j++;
		if (j == g->n || g->v[j].pid != lv->pids[i])
			lv->fresh[nfresh++] = lv->pids[i];
	}
	if ((rc = discover(lv, lv->fresh, nfresh)) != 0 ||
	    (rc = grow((void **)&fr->v, &fr->cap, nfresh, sizeof(*fr->v))) != 0)
		return rc;
	/* Kept records are compacted in place (w <= j); new ones go to fr,
	 * merged in after. The list comes out in PID order. */
	fr->n = 0;
	size_t j = 0, w = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		int pid = lv->pids[i];
		for (; j < g->n && g->v[j].pid < pid; j++)
			rec_close(lv, &g->v[j]);       /* gone */
		struct live_proc *r = NULL;
		struct pid_stat st;
		int64_t uid;
		bool fresh = true;
		if (j < g->n && g->v[j].pid == pid) {
			r = &g->v[w];
			if (w != j)
				*r = g->v[j];
			j++;
			int e = read_stat(lv, r, &st);
			uid = r->uid;
			if (e == 0 && st.starttime == r->starttime &&
			    (ran_since(r, &st) || now - r->uid_at >= UID_RECHECK_S ||
			     strcmp(r->comm ? r->comm : "", st.comm) != 0)) {
				e = read_uid(lv, r, &uid);
				r->uid_at = now;
			}
			if (e == 0 && st.starttime == r->starttime) {
				fresh = false;
			} else {
				rec_close(lv, r);              /* gone, the PID reused */
				if (e && e != -ESRCH) {
					if (l->nunread++ == 0)
						l->first_unread = pid, l->unread_errno = -e;
					continue;
				}
			}
		}
		if (fresh) {
			const struct found *fo = proc_find_pid(lv->found, lv->nfound,
							       sizeof(*lv->found), pid);
			if (!fo || fr->n == fr->cap)
				continue;                      /* gone before libproc2 saw it */
			r = &fr->v[fr->n];
			if (rec_open(lv, r, pid) != 0)
				continue;
			int e = read_stat(lv, r, &st);
			if (e == 0)
				e = read_uid(lv, r, &uid);
			r->uid_at = now;
			if (e) {
				rec_close(lv, r);
				if (e != -ESRCH && l->nunread++ == 0)
					l->first_unread = pid, l->unread_errno = -e;
				continue;
			}
			r->starttime = st.starttime;
			r->uid = -2;
			if (fo->began == st.starttime && fo->uid == uid)
				r->uid = uid, r->user = fo->user;
		}
		if (uid != r->uid) {                   /* new, or a setuid */
			r->uid = uid;
			if (!(r->user = user_put(lv, uid, NULL)))
				rc = -ENOMEM;
		}
		if (rc == 0)
			rc = update_names(lv, r, &st, fresh);
		struct proc_info *p = rc ? NULL : proc_list_add(l);
		if (!p) {
			rec_close(lv, r);
			rc = rc ? rc : -ENOMEM;
			break;
		}
		fill_info(lv, r, &st, p);
		r->seen_ticks = st.utime + st.stime;
		r->seen_faults = st.minflt + st.majflt;
		r->seen_state = st.state;
		if (r->statfd >= 0)
			lv->st.kept_fd++;
		else
			lv->st.by_path++;
		if (fresh)
			fr->n++;
		else
			w++;
	}
	for (; j < g->n; j++)
		rec_close(lv, &g->v[j]);
	g->n = w;
	int mrc = merge_new(lv);
	if (lv->foundcap > 1024) {            /* a first scan's thousands: give back */
		free(lv->found);
		lv->found = NULL;
		lv->foundcap = 0;
	}
	lv->nfound = 0;
	return rc ? rc : mrc;
}

/* The thread ids of r, from its task directory. */
static int list_tasks(struct live *lv, const struct live_proc *r, int **tids, size_t *n,
		      size_t *cap, int *taskfd)
{
	char path[32];
	int fd;
	if (r->dirfd >= 0) {
		fd = openat(r->dirfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	} else {
		snprintf(path, sizeof(path), "%d/task", r->pid);
		fd = openat(lv->procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (fd < 0)
		return -errno;
	int keep = dup(fd);
	DIR *d = keep >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		int e = errno;
		close(fd);
		if (keep >= 0)
			close(keep);
		return -e;
	}
	*n = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		char *end;
		long v = strtol(de->d_name, &end, 10);
		if (*end || v <= 0 || v > 0x7fffffff)
			continue;
		if (grow((void **)tids, cap, *n + 1, sizeof(int))) {
			closedir(d);
			close(keep);
			return -ENOMEM;
		}
		(*tids)[(*n)++] = (int)v;
	}
	closedir(d);
	*taskfd = keep;
	return 0;
}

static int read_tasks(struct live *lv, struct live_proc *r, const struct proc_info *p)
{
	int *tids = NULL, taskfd = -1;
	size_t n = 0, cap = 0;
	int rc = list_tasks(lv, r, &tids, &n, &cap, &taskfd);
	if (rc || n == 0) {
		free(tids);
		return rc ? rc : -ENOENT;
	}
	struct thr_cache *t = realloc(r->thr, sizeof(*t) + n * sizeof(t->v[0]));
	if (!t) {
		free(tids);
		close(taskfd);
		return -ENOMEM;
	}
	r->thr = t;
	t->n = 0;
	for (size_t i = 0; i < n; i++) {
		char path[32], text[1024];
		snprintf(path, sizeof(path), "%d/stat", tids[i]);
		int fd = openat(taskfd, path, O_RDONLY | O_CLOEXEC);
		ssize_t k = fd >= 0 ? read(fd, text, sizeof(text)) : -1;
		if (fd >= 0)
			close(fd);
		struct pid_stat st;
		int cpu = -1;
		if (k > 0 && parse_pid_stat(text, (size_t)k, &st) == 0)
			cpu = st.processor;
		else if (tids[i] != p->pid)
			continue;   /* the thread exited meanwhile */
		t->v[t->n].tid = tids[i];
		t->v[t->n].last_cpu = tids[i] == p->pid && cpu < 0 ? p->last_cpu : cpu;
		t->n++;
	}
	free(tids);
	close(taskfd);
	t->ticks = p->utime + p->stime;
	t->nthreads = p->nthreads;
	t->at = mono();
	return 0;
}

int proc_live_threads(struct proc_source *s, struct proc_list *l, struct proc_info *p,
		      struct buf *scratch)
{
	struct live *lv = *proc_source_pids_slot(s);
	struct gen *g = &lv->recs;
	struct live_proc *r = (struct live_proc *)proc_find_pid(g->v, g->n, sizeof(*g->v), p->pid);
	p->thr_n = 0;
	if (!r || r->starttime != p->starttime)
		return proc_read_threads(proc_source_root(s), l, p, scratch);
	if (p->nthreads <= 1) {
		free(r->thr);
		r->thr = NULL;
		return proc_list_add_thread(l, p, p->pid, p->last_cpu);
	}
	double now = mono();
	const struct thr_cache *t = r->thr;
	if (!t || !t->n || !proc_threads_still(t->ticks, t->nthreads, t->at,
					       p->utime + p->stime, p->nthreads, now,
					       PROC_THREADS_MAX_AGE_S)) {
		if (read_tasks(lv, r, p) != 0)
			return proc_list_add_thread(l, p, p->pid, p->last_cpu);
		lv->st.thr_read++;
	} else {
		lv->st.thr_kept++;
	}
	int rc = 0;
	t = r->thr;
	for (size_t i = 0; i < t->n && rc == 0; i++) {
		/* The main thread's CPU is this tick's, from the process's stat. */
		int cpu = t->v[i].tid == p->pid ? p->last_cpu : t->v[i].last_cpu;
		rc = proc_list_add_thread(l, p, t->v[i].tid, cpu);
	}
	return rc;
}
