/* proc_live.c - the live backend (root "/"): the scan.
 *
 * libproc2 discovers each new process: its identity (PID, start time) and
 * user. From then on the process is a record (proc_live_rec.c) with kept
 * descriptors, read each tick without path lookups: a tick is one listing
 * of /proc (only when /proc/loadavg says a task was created or ended, or
 * every RELIST_S) and, per idle process, one pread of its schedstat. The
 * descriptors are bounded: the soft RLIMIT_NOFILE is raised to the hard
 * one, a reserve is left for everything else, and processes beyond the
 * budget (or after EMFILE) are read by path relative to the /proc
 * descriptor instead. Threads: proc_live_thr.c. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <libproc2/pids.h>

#include "proc_live_int.h"
#include "monotime.h"

enum item_index { I_PID, I_BEGAN, I_EUID, I_EUSER, I_N };

static enum pids_item items[I_N] = {
	[I_PID] = PIDS_ID_PID, [I_BEGAN] = PIDS_TICS_BEGAN,
	[I_EUID] = PIDS_ID_EUID, [I_EUSER] = PIDS_ID_EUSER,
};

/* libproc2 selects at most this many PIDs at once (FILL_ID_MAX). */
#define SELECT_MAX 255
/* /proc is listed again at least this often, even when /proc/loadavg
 * says that no task was created or ended. */
#define RELIST_S 10.0

_Static_assert(offsetof(struct live_proc, pid) == 0, "proc_find_pid needs pid first");
_Static_assert(offsetof(struct live_found, pid) == 0, "proc_find_pid needs pid first");

static void live_close(void *p)
{
	struct live *lv = p;
	for (size_t i = 0; i < lv->recs.n; i++)
		live_rec_close(lv, &lv->recs.v[i]);
	free(lv->recs.v);
	free(lv->newrecs.v);
	for (size_t i = 0; i < lv->nusers; i++)
		free(lv->users[i].name);
	free(lv->users);
	free(lv->pids);
	free(lv->fresh);
	free(lv->found);
	free(lv->ended);
	if (lv->procdir)
		closedir(lv->procdir);
	if (lv->loadavg_fd >= 0)
		close(lv->loadavg_fd);
	procps_pids_unref(&lv->info);
	free(lv);
}

static void live_stats(const void *p, struct proc_scan_stats *out)
{
	const struct live *lv = p;
	*out = lv->st;
}

/* Raise the soft descriptor limit to the hard one; the budget is what is
 * left after the reserve. */
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
	return cur > 2 * LIVE_FD_RESERVE ? (size_t)(cur - LIVE_FD_RESERVE) : 0;
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
		if (live_grow((void **)&lv->pids, &lv->pidcap, *n + 1, sizeof(int)))
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
	const struct live_gen *g = &lv->recs;
	if (live_grow((void **)&lv->pids, &lv->pidcap, g->n, sizeof(int)))
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
	if (live_grow((void **)&lv->found, &lv->foundcap, n, sizeof(*lv->found)))
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
			struct live_found *fo = &lv->found[lv->nfound++];
			fo->pid = PIDS_VAL(I_PID, s_int, st, lv->info);
			fo->began = PIDS_VAL(I_BEGAN, ull_int, st, lv->info);
			fo->uid = PIDS_VAL(I_EUID, u_int, st, lv->info);
			fo->user = live_user(lv, fo->uid, PIDS_VAL(I_EUSER, str, st, lv->info));
		}
	}
	for (size_t i = 1; i < lv->nfound; i++)
		for (size_t j = i; j > 0 && lv->found[j].pid < lv->found[j - 1].pid; j--) {
			struct live_found t = lv->found[j];
			lv->found[j] = lv->found[j - 1];
			lv->found[j - 1] = t;
		}
	return 0;
}


static int live_open(const struct fsroot *root, void **out)
{
	struct live *lv = calloc(1, sizeof(*lv));
	if (!lv)
		return -ENOMEM;
	lv->root = root;
	long ps = sysconf(_SC_PAGESIZE);
	lv->page_kb = ps > 0 ? ps / 1024 : 4;
	int fd = fsroot_open_fd(root, "/proc", O_RDONLY | O_DIRECTORY);
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
	lv->fd_limit = fd_budget();
	lv->t0 = monotime_now();
	/* Scans counted from a start no other source shares (filled_seq). */
	lv->seq = (uint64_t)(lv->t0 * 1e9);
	*out = lv;
	return 0;
}

/* The scan's new records into recs, both sorted by PID: merged from the
 * back. A large batch of new ones (the first scan) gives its room back. */
static int merge_new(struct live *lv)
{
	struct live_gen *g = &lv->recs, *fr = &lv->newrecs;
	if (g->n == 0) {                      /* the first scan: no copy */
		struct live_gen t = *g;
		*g = *fr;
		*fr = t;
		fr->n = 0;
		return 0;
	}
	if (live_grow((void **)&g->v, &g->cap, g->n + fr->n, sizeof(*g->v))) {
		for (size_t i = 0; i < fr->n; i++)
			live_rec_close(lv, &fr->v[i]);
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

/* A PID whose process ended (or became a zombie) in this scan: its
 * children have a new parent. Without memory for it, a child's parent is
 * read again at its next stat refresh. */
static void note_ended(struct live *lv, int pid)
{
	if (live_grow((void **)&lv->ended, &lv->endedcap, lv->nended + 1, sizeof(int)) == 0)
		lv->ended[lv->nended++] = pid;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* The children of the processes that ended in this scan: reparented
 * (to init or a subreaper) without running, so their kept stat is read
 * again. */
static void reread_orphans(struct live *lv, struct proc_list *l)
{
	qsort(lv->ended, lv->nended, sizeof(int), cmp_int);
	struct live_gen *g = &lv->recs;
	for (size_t i = 0; i < l->n; i++) {
		struct proc_info *p = proc_list_at(l, i);
		if (!bsearch(&p->ppid, lv->ended, lv->nended, sizeof(int), cmp_int))
			continue;
		struct live_proc *r = (struct live_proc *)proc_find_pid(g->v, g->n, sizeof(*g->v),
									p->pid);
		if (r)
			live_rec_reread(lv, r, p);   /* gone meanwhile: the next scan says so */
	}
	/* And those the list left out, in what is kept of them. */
	for (size_t i = 0; i < g->n; i++) {
		struct live_proc *r = &g->v[i];
		if (!r->hidden || !bsearch(&r->hidden->ppid, lv->ended, lv->nended, sizeof(int),
					   cmp_int))
			continue;
		struct proc_info p;
		proc_info_reset(&p);
		if (live_rec_reread(lv, r, &p) == 0)
			live_rec_hide(lv, r, &p, true);
	}
	lv->nended = 0;
}

/* A record that could not be read: gone (or its PID reused), said as
 * unread for another error. Its list entry (i) is taken back. */
static int drop(struct live *lv, struct proc_list *l, size_t i, struct live_proc *r, int e,
		int pid)
{
	live_rec_close(lv, r);
	proc_list_drop(l, i);
	if (e == -ENOMEM)
		return e;
	if (e != -ESRCH && l->nunread++ == 0)
		l->first_unread = pid, l->unread_errno = -e;
	return 0;
}

static int live_scan(void *state, struct proc_list *l)
{
	struct live *lv = state;
	memset(&lv->st, 0, sizeof(lv->st));
	lv->nended = 0;
	double now = monotime_now();
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
	struct live_gen *g = &lv->recs, *fr = &lv->newrecs;
	if (live_grow((void **)&lv->fresh, &lv->freshcap, n, sizeof(int)))
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
	    (rc = live_grow((void **)&fr->v, &fr->cap, nfresh, sizeof(*fr->v))) != 0)
		return rc;
	/* Kept records are compacted in place (w <= j); new ones go to fr,
	 * merged in after. The list comes out in PID order, its entries
	 * aligned to the PIDs first (proc_list_align). */
	if ((rc = proc_list_align(l, lv->pids, n)) != 0)
		return rc;
	/* A list this source did not fill last: its numbers are not the
	 * last read's, so none is kept (each is read), nor what the caller
	 * kept (its processes unknown). */
	if (l->filled_by != lv || l->filled_seq != lv->seq)
		for (size_t i = 0; i < n; i++) {
			proc_info_reset(proc_list_at(l, i));
			proc_list_renew(l, i);
			proc_list_at(l, i)->pid = lv->pids[i];
		}
	l->filled_by = NULL;
	fr->n = 0;
	size_t j = 0, w = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		int pid = lv->pids[i];
		for (; j < g->n && g->v[j].pid < pid; j++) {
			note_ended(lv, g->v[j].pid);
			live_rec_close(lv, &g->v[j]);
		}
		struct proc_info *p = proc_list_at(l, i);
		bool kept = p->state != 0;            /* filled by the last scan */
		uint64_t began = p->starttime;        /* then its process's */
		struct live_proc *r;
		bool fresh = true;
		if (j < g->n && g->v[j].pid == pid) {
			r = &g->v[w];
			if (w != j)
				*r = g->v[j];
			j++;
			char was = p->state ? p->state : r->hidden ? r->hidden->state : 0;
			int e = live_rec_tick(lv, r, false, NULL, p);
			if (e == 0) {
				fresh = false;
				if ((p->state == 'Z' || p->state == 'X') && was != p->state)
					note_ended(lv, pid);
			} else {
				note_ended(lv, pid);
				if (e != -ESRCH) {             /* unreadable, not gone */
					rc = drop(lv, l, i, r, e, pid);
					continue;
				}
				live_rec_close(lv, r);         /* gone, the PID reused */
			}
		}
		if (fresh) {
			const struct live_found *fo = proc_find_pid(lv->found, lv->nfound,
								    sizeof(*lv->found), pid);
			if (!fo || fr->n == fr->cap) {
				proc_list_drop(l, i);          /* gone before libproc2 saw it */
				continue;
			}
			r = &fr->v[fr->n];
			int e = live_rec_open(lv, r, pid);
			if (e == 0)
				e = live_rec_tick(lv, r, true, fo, p);
			if (e) {
				rc = drop(lv, l, i, r, e, pid);
				continue;
			}
			if (kept && began != p->starttime)
				proc_list_renew(l, i);         /* the PID reused */
		}
		live_rec_hide(lv, r, p, !proc_list_kept(l, i));
		if (r->dirfd >= 0)
			lv->st.kept_fd++;
		else
			lv->st.by_path++;
		if (fresh)
			fr->n++;
		else
			w++;
	}
	for (; j < g->n; j++) {
		note_ended(lv, g->v[j].pid);
		live_rec_close(lv, &g->v[j]);
	}
	g->n = w;
	proc_list_compact(l);
	int mrc = merge_new(lv);
	if (lv->foundcap > 1024) {            /* a first scan's thousands: give back */
		free(lv->found);
		lv->found = NULL;
		lv->foundcap = 0;
	}
	lv->nfound = 0;
	if (lv->nended && rc == 0)
		reread_orphans(lv, l);
	if (rc == 0 && mrc == 0) {
		l->filled_by = lv;
		l->filled_seq = ++lv->seq;
	}
	return rc ? rc : mrc;
}

const struct proc_backend_ops proc_live_ops = {
	.open = live_open, .close = live_close, .scan = live_scan, .threads = live_threads,
	.openat = live_openat, .stats = live_stats,
};
