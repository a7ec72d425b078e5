/* proc_live_rec.c - one process of the live backend, each tick.
 *
 * A kept process holds its /proc/PID directory open (fstat gives its live
 * effective uid, openat its files: a reused PID can never be read as the
 * old process) and its /proc/PID/schedstat. A tick reads schedstat first
 * (one pread, three numbers): when a single-threaded process's run time
 * is the same as at its last stat read it did not run since, and nothing
 * in its stat changed but what others can change without it running (RSS
 * falling by reclaim, its parent when that one ends). Its kept numbers
 * stand; its stat is read again when it runs, when its parent ended, and
 * at least every LIVE_STAT_REFRESH_S. A process that runs keeps its stat
 * open too (pread again each tick); an idle one gives it back at its next
 * refresh (the kernel holds a page for each stat file once read).
 * Multi-threaded processes (schedstat is the main thread's only) and those
 * last seen running are read every tick. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc_live_int.h"
#include "monotime.h"

/* Deciseconds since the source opened, from STAGGER_DS: a record's first
 * stat time can be set back up to one refresh period without wrapping. */
#define REFRESH_DS (LIVE_STAT_REFRESH_S * 10)
#define STAGGER_DS 1000
_Static_assert(STAGGER_DS >= REFRESH_DS, "room for the stagger");

static uint32_t decis(const struct live *lv)
{
	double d = (monotime_now() - lv->t0) * 10.0;
	return STAGGER_DS + (d > 0 ? (uint32_t)d : 0);
}

static void close_fd(struct live *lv, int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		lv->nfds--;
		*fd = -1;
	}
}

void live_rec_close(struct live *lv, struct live_proc *r)
{
	close_fd(lv, &r->dirfd);
	close_fd(lv, &r->schedfd);
	close_fd(lv, &r->statfd);
	free(r->names);
	free(r->thr);
	free(r->hidden);
	memset(r, 0, sizeof(*r));
	r->dirfd = r->schedfd = r->statfd = -1;
}

static int gone_errno(int e)
{
	return e == ESRCH || e == ENOENT ? -ESRCH : -e;
}

/* A new record for pid: its directory and schedstat kept when the budget
 * allows (else it is read by path). */
int live_rec_open(struct live *lv, struct live_proc *r, int pid)
{
	memset(r, 0, sizeof(*r));
	r->pid = pid;
	r->dirfd = r->schedfd = r->statfd = -1;
	r->uid = -2;
	if (lv->nfds + 2 > lv->fd_limit)
		return 0;
	char path[16];
	snprintf(path, sizeof(path), "%d", pid);
	int d = openat(lv->procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d < 0) {
		if (errno == EMFILE || errno == ENFILE)
			lv->fd_limit = lv->nfds;   /* near the limit: by path from now */
		return errno == ENOENT ? -ESRCH : 0;
	}
	r->dirfd = d;
	lv->nfds++;
	if (lv->no_sched)
		return 0;
	int s = openat(d, "schedstat", O_RDONLY | O_CLOEXEC);
	if (s >= 0) {
		r->schedfd = s;
		lv->nfds++;
	} else if (errno == EMFILE || errno == ENFILE) {
		lv->fd_limit = lv->nfds;
	} else if (errno == ENOENT) {
		/* A kernel without it (no CONFIG_SCHED_INFO): every stat read. */
		struct stat sb;
		if (fstatat(d, "stat", &sb, 0) == 0)
			lv->no_sched = true;
		else
			return -ESRCH;
	}
	return 0;
}

int live_rec_openat(const struct live *lv, const struct live_proc *r, const char *name,
		    int flags)
{
	if (r->dirfd >= 0)
		return openat(r->dirfd, name, O_RDONLY | O_CLOEXEC | flags);
	char path[48];
	snprintf(path, sizeof(path), "%d/%.32s", r->pid, name);
	return openat(lv->procfd, path, O_RDONLY | O_CLOEXEC | flags);
}

/* The run time of r's main thread in ns (schedstat's first number). */
static int read_runtime(const struct live_proc *r, uint64_t *ns)
{
	char text[96];
	ssize_t n = pread(r->schedfd, text, sizeof(text) - 1, 0);
	if (n < 0)
		return gone_errno(errno);
	text[n] = '\0';
	uint64_t v = 0;
	const char *s = text;
	if (*s < '0' || *s > '9')
		return -EIO;
	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (uint64_t)(*s - '0');
	*ns = v;
	return 0;
}

/* The stat of r, parsed: -ESRCH when it is gone. keep: a stat opened now
 * stays open (the process runs) when the budget allows. */
static int read_stat(struct live *lv, struct live_proc *r, struct pid_stat *st, bool keep)
{
	char text[1024];
	ssize_t n;
	if (r->statfd >= 0) {
		n = pread(r->statfd, text, sizeof(text), 0);
		if (n < 0)
			return gone_errno(errno);
	} else {
		int fd = live_rec_openat(lv, r, "stat", 0);
		if (fd < 0)
			return gone_errno(errno);
		n = read(fd, text, sizeof(text));
		int e = errno;
		if (n >= 0 && keep && r->dirfd >= 0 && lv->nfds < lv->fd_limit) {
			r->statfd = fd;
			lv->nfds++;
		} else {
			close(fd);
		}
		if (n < 0)
			return gone_errno(e);
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

/* The command line into text (PROC_CMDLINE_MAX bytes): its length. */
static size_t read_cmdline(struct live *lv, const struct live_proc *r, char *text)
{
	char raw[PROC_CMDLINE_MAX];
	int fd = live_rec_openat(lv, r, "cmdline", 0);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, raw, sizeof(raw));
	close(fd);
	if (n <= 0)
		return 0;
	return proc_clean_cmdline(text, PROC_CMDLINE_MAX, raw, (size_t)n);
}

/* Names of r from this stat, in one allocation: comm kept, the command
 * line read again when comm changed (an exec) or the record is new. */
static int update_names(struct live *lv, struct live_proc *r, const struct pid_stat *st,
			bool fresh)
{
	if (!fresh && r->names && strcmp(r->names, st->comm) == 0)
		return 0;
	char text[PROC_CMDLINE_MAX];
	size_t c = strnlen(st->comm, sizeof(st->comm) - 1);
	size_t k = st->state == 'Z' ? 0 : read_cmdline(lv, r, text);
	char *v = malloc(c + 1 + k + 1);
	if (!v)
		return -ENOMEM;
	memcpy(v, st->comm, c);
	v[c] = '\0';
	memcpy(v + c + 1, text, k);
	v[c + 1 + k] = '\0';
	free(r->names);
	r->names = v;
	return 0;
}

static void keep_stat(struct live_stat *ls, const struct pid_stat *st)
{
	ls->utime = st->utime;
	ls->stime = st->stime;
	ls->faults = st->minflt + st->majflt;
	ls->rss_pages = st->rss_pages;
	ls->ppid = st->ppid;
	ls->processor = st->processor;
	ls->nthreads = st->nthreads < 0 ? -1 : st->nthreads > 0x7fffffff ? 0x7fffffff
									   : (int)st->nthreads;
	ls->state = st->state;
	ls->kthread = (st->flags & PID_STAT_PF_KTHREAD) != 0;
}

static void fill_info(struct live *lv, const struct live_proc *r, const struct live_stat *ls,
		      struct proc_info *p)
{
	const char *user = r->uid >= 0 ? live_user(lv, r->uid, NULL) : NULL;
	p->pid = r->pid;
	p->ppid = ls->ppid;
	p->comm = r->names ? r->names : "";
	p->cmdline = r->names ? r->names + strlen(r->names) + 1 : "";
	p->uid = r->uid;
	p->user = user ? user : "?";
	p->state = ls->state;
	p->utime = ls->utime;
	p->stime = ls->stime;
	p->starttime = r->starttime;
	p->faults = ls->faults;
	p->rss_kb = ls->rss_pages >= 0 ? ls->rss_pages * lv->page_kb : -1;
	p->last_cpu = ls->processor;
	p->nthreads = ls->nthreads;
	p->kthread = ls->kthread;
	p->thr_off = p->thr_n = 0;        /* the threads are read after the scan */
}

/* The stat numbers p was filled with (fill_info's inverse). */
static void info_stat(const struct live *lv, const struct proc_info *p, struct live_stat *ls)
{
	ls->utime = p->utime;
	ls->stime = p->stime;
	ls->faults = p->faults;
	ls->rss_pages = p->rss_kb >= 0 ? p->rss_kb / lv->page_kb : -1;
	ls->ppid = p->ppid;
	ls->processor = p->last_cpu;
	ls->nthreads = p->nthreads;
	ls->state = p->state;
	ls->kthread = p->kthread;
}

void live_rec_hide(struct live *lv, struct live_proc *r, const struct proc_info *p, bool hide)
{
	if (!hide) {
		free(r->hidden);
		r->hidden = NULL;
		return;
	}
	/* Without memory for it, the next scan reads its stat. */
	if (!r->hidden && !(r->hidden = malloc(sizeof(*r->hidden))))
		return;
	info_stat(lv, p, r->hidden);
}

/* Whether r's stat says it ran, faulted or changed state since the last
 * read (for processes without the schedstat gate). */
static bool ran_since(const struct live_stat *ls, const struct pid_stat *st)
{
	return ls->utime != st->utime || ls->stime != st->stime ||
	       ls->faults != st->minflt + st->majflt || ls->state != st->state;
}

bool proc_stat_still(uint64_t runtime_then, uint64_t runtime_now, int64_t nthreads,
		     char state, double read_at, double now, double max_age)
{
	return nthreads == 1 && state != 'R' && runtime_now == runtime_then &&
	       now - read_at < max_age;
}

int live_rec_tick(struct live *lv, struct live_proc *r, bool fresh, const struct live_found *fo,
		  struct proc_info *p)
{
	/* The last read's numbers: p's (kept by the list), else those kept
	 * for a process the list left out; none: read. */
	struct live_stat was;
	const struct live_stat *pv = NULL;
	if (!fresh && p->state)
		info_stat(lv, p, &was), pv = &was;
	else if (!fresh)
		pv = r->hidden;
	uint32_t now = decis(lv);
	uint64_t rt = r->runtime;
	bool gate = pv && r->schedfd >= 0 && pv->nthreads == 1 && pv->state != 'R';
	bool have_rt = r->schedfd >= 0 && (fresh || gate || !pv);
	int e;
	if (have_rt && (e = read_runtime(r, &rt)) != 0) {
		if (e == -ESRCH)
			return e;
		/* Unreadable for another reason: this one's stat every tick. */
		close_fd(lv, &r->schedfd);
		gate = false;
		rt = r->runtime;
	}
	if (gate && proc_stat_still(r->runtime, rt, pv->nthreads, pv->state, r->stat_at, now,
				    REFRESH_DS)) {
		lv->st.stat_kept++;
		fill_info(lv, r, pv, p);
		return 0;
	}
	/* It ran (or is read every tick): its stat stays open; a due refresh
	 * of an idle one gives it back. */
	bool ran = !gate || rt != r->runtime;
	struct pid_stat st;
	if ((e = read_stat(lv, r, &st, !fresh && ran)) != 0)
		return e;
	if (!ran)
		close_fd(lv, &r->statfd);
	if (fresh) {
		r->starttime = st.starttime;
	} else if (st.starttime != r->starttime) {
		return -ESRCH;                       /* the PID reused */
	}
	bool renamed = !r->names || strcmp(r->names, st.comm) != 0;
	int64_t uid = r->uid;
	if (fresh || renamed || !pv || now - r->uid_at >= LIVE_UID_RECHECK_S * 10 ||
	    (gate ? rt != r->runtime : ran_since(pv, &st))) {
		if ((e = read_uid(lv, r, &uid)) != 0)
			return e;
		r->uid_at = now;
	}
	if (uid != r->uid) {                         /* new, or a setuid */
		const char *name = fresh && fo && fo->began == st.starttime && fo->uid == uid ?
					   fo->user : NULL;
		r->uid = uid;
		if (!live_user(lv, uid, name))
			return -ENOMEM;
	}
	if ((e = update_names(lv, r, &st, fresh)) != 0)
		return e;
	struct live_stat ls;
	keep_stat(&ls, &st);
	r->runtime = rt;
	/* The processes read at once (at start) are refreshed spread over
	 * the period, not all in the same tick 30 s later. */
	r->stat_at = fresh ? now - (uint32_t)(((unsigned)r->pid * 2654435761u) % REFRESH_DS) : now;
	lv->st.stat_read++;
	fill_info(lv, r, &ls, p);
	return 0;
}

int live_rec_reread(struct live *lv, struct live_proc *r, struct proc_info *p)
{
	struct pid_stat st;
	int e = read_stat(lv, r, &st, false);
	if (e)
		return e;
	if (st.starttime != r->starttime)
		return -ESRCH;
	struct live_stat ls;
	keep_stat(&ls, &st);
	fill_info(lv, r, &ls, p);
	return 0;
}

int live_openat(void *live, const struct proc_info *p, const char *name)
{
	struct live *lv = live;
	const struct live_gen *g = &lv->recs;
	const struct live_proc *r = proc_find_pid(g->v, g->n, sizeof(*g->v), p->pid);
	if (!r || r->dirfd < 0 || r->starttime != p->starttime)
		return -EOPNOTSUPP;
	int fd = live_rec_openat(lv, r, name, 0);
	return fd >= 0 ? fd : -errno;
}
