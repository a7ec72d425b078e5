/* proc.c - the process-source interface and the file backend. */
#include "proc_int.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "parse.h"

struct proc_source {
	const struct fsroot *root;
	enum proc_backend be;
	void *pids;             /* struct pids_info *, in proc_live.c */
};


int proc_source_open(const struct fsroot *r, enum proc_backend be,
		     struct proc_source **out)
{
	*out = NULL;
	if (be == PROC_BACKEND_AUTO)
		be = fsroot_is_live(r) ? PROC_BACKEND_LIVE : PROC_BACKEND_FILES;
	if (be == PROC_BACKEND_LIVE && !fsroot_is_live(r))
		return -EINVAL;
	struct proc_source *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->root = r;
	s->be = be;
	*out = s;
	return 0;
}

void proc_source_close(struct proc_source *s)
{
	if (!s)
		return;
	if (s->pids)
		proc_live_close(s->pids);
	free(s);
}

enum proc_backend proc_source_backend(const struct proc_source *s)
{
	return s->be;
}

/* The libproc2 backend keeps its handle in the source. */
void **proc_source_pids_slot(struct proc_source *s) { return &s->pids; }
const struct fsroot *proc_source_root(const struct proc_source *s) { return s->root; }

int proc_source_scan(struct proc_source *s, struct proc_list *l)
{
	proc_list_clear_strings(l);
	l->n = 0;
	l->nthr = 0;
	l->nbad = 0;
	l->nunread = 0;
	if (s->be == PROC_BACKEND_LIVE)
		return proc_scan_live(s, l);
	return proc_scan_files(s->root, l);
}

int proc_source_threads(struct proc_source *s, struct proc_list *l,
			struct proc_info *p, struct buf *scratch)
{
	if (s->be == PROC_BACKEND_LIVE && s->pids)
		return proc_live_threads(s, l, p, scratch);
	return proc_read_threads(s->root, l, p, scratch);
}

int proc_source_openat(struct proc_source *s, const struct proc_info *p, const char *name)
{
	if (s->be == PROC_BACKEND_LIVE && s->pids)
		return proc_live_openat(s->pids, p, name);
	return -EOPNOTSUPP;
}

void proc_source_stats(const struct proc_source *s, struct proc_scan_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (s->be == PROC_BACKEND_LIVE && s->pids)
		proc_live_stats(s->pids, out);
}

void proc_list_free(struct proc_list *l)
{
	free(l->v);
	free(l->threads);
	for (size_t i = 0; i < l->strs.nblocks; i++)
		free(l->strs.blocks[i]);
	free(l->strs.blocks);
	memset(l, 0, sizeof(*l));
}

#define STR_BLOCK 16384

/* The first block is kept for the next scan; the others are freed. */
void proc_list_clear_strings(struct proc_list *l)
{
	struct proc_strings *st = &l->strs;
	for (size_t i = 1; i < st->nblocks; i++)
		free(st->blocks[i]);
	st->nblocks = st->nblocks ? 1 : 0;
	st->used = 0;
}

const char *proc_list_strdup(struct proc_list *l, const char *s, size_t n)
{
	struct proc_strings *st = &l->strs;
	if (n == 0)
		return "";
	size_t need = n + 1;
	if (!st->nblocks || st->used + need > STR_BLOCK) {
		size_t sz = need > STR_BLOCK ? need : STR_BLOCK;
		char **bl = realloc(st->blocks, (st->nblocks + 1) * sizeof(*bl));
		if (!bl)
			return NULL;
		st->blocks = bl;
		char *b = malloc(sz);
		if (!b)
			return NULL;
		/* A string longer than a block gets its own, before the last
		 * one, so the last block's free space is not lost. */
		if (need > STR_BLOCK && st->nblocks) {
			bl[st->nblocks] = bl[st->nblocks - 1];
			bl[st->nblocks - 1] = b;
			st->nblocks++;
			memcpy(b, s, n);
			b[n] = '\0';
			return b;
		}
		bl[st->nblocks++] = b;
		st->used = 0;
	}
	char *d = st->blocks[st->nblocks - 1] + st->used;
	memcpy(d, s, n);
	d[n] = '\0';
	st->used += need;
	return d;
}

struct proc_info *proc_list_add(struct proc_list *l)
{
	size_t size = l->elem ? l->elem : sizeof(struct proc_info);
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		void *v = realloc(l->v, cap * size);
		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	struct proc_info *p = proc_list_at(l, l->n++);
	memset(p, 0, size);
	p->comm = p->cmdline = "";
	p->user = "?";
	p->uid = p->rss_kb = p->nthreads = -1;
	p->last_cpu = -1;
	p->ppid = -1;
	return p;
}

int proc_list_add_thread(struct proc_list *l, struct proc_info *p, int tid,
			 int cpu)
{
	if (l->nthr == l->thrcap) {
		size_t cap = l->thrcap ? l->thrcap * 2 : 512;
		struct proc_thread *t = realloc(l->threads, cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		l->threads = t;
		l->thrcap = cap;
	}
	if (p->thr_n == 0)
		p->thr_off = l->nthr;
	l->threads[l->nthr].tid = tid;
	l->threads[l->nthr].last_cpu = cpu;
	l->nthr++;
	p->thr_n++;
	return 0;
}

size_t proc_clean_cmdline(char *dst, size_t dstsz, const char *src, size_t n)
{
	while (n > 0 && src[n - 1] == '\0')
		n--;
	if (n >= dstsz)
		n = dstsz - 1;
	/* Argument separators become blanks; every other byte is kept as the
	 * process wrote it, for the output layers to escape (sanitize_term
	 * for a terminal, sanitize_utf8 + the JSON library's escapes). */
	for (size_t i = 0; i < n; i++)
		dst[i] = src[i] == '\0' ? ' ' : src[i];
	dst[n] = '\0';
	return n;
}

bool proc_threads_still(uint64_t ticks_then, int64_t nthr_then, double read_at,
			uint64_t ticks_now, int64_t nthr_now, double now, double max_age)
{
	return ticks_then == ticks_now && nthr_then == nthr_now && read_at >= 0 &&
	       now >= read_at && now - read_at < max_age;
}

static int cmp_pid(const void *key, const void *elem)
{
	int a = *(const int *)key, b = *(const int *)elem;
	return (a > b) - (a < b);
}

const void *proc_find_pid(const void *base, size_t n, size_t size, int pid)
{
	return n ? bsearch(&pid, base, n, size, cmp_pid) : NULL;
}

void *proc_slot_pid(void **base, size_t *n, size_t *cap, size_t size, int pid, bool *added)
{
	*added = false;
	size_t lo = 0, hi = *n;
	char *v = *base;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int p = *(const int *)(v + mid * size);
		if (p == pid)
			return v + mid * size;
		if (p < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		char *nv = realloc(v, c * size);
		if (!nv)
			return NULL;
		*base = v = nv;
		*cap = c;
	}
	memmove(v + (lo + 1) * size, v + lo * size, (*n - lo) * size);
	(*n)++;
	memset(v + lo * size, 0, size);
	*(int *)(v + lo * size) = pid;
	*added = true;
	return v + lo * size;
}

int proc_read_stat(const struct fsroot *r, int pid, struct pid_stat *st)
{
	char path[64], text[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	int n = fsroot_read_small(r, path, text, sizeof(text));
	if (n < 0)
		return n == -ENOENT ? -ESRCH : n;
	if (parse_pid_stat(text, (size_t)n, st) != 0 || st->pid != pid)
		return -ESRCH;
	return 0;
}

int proc_read_threads(const struct fsroot *r, struct proc_list *l,
		      struct proc_info *p, struct buf *b)
{
	p->thr_n = 0;
	if (p->nthreads <= 1)
		return proc_list_add_thread(l, p, p->pid, p->last_cpu);
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/task", p->pid);
	int *tids = NULL;
	size_t n = 0;
	int rc = fsroot_list_ids(r, dir, "", FSROOT_DIRS, &tids, &n);
	if (rc || n == 0) {
		free(tids);
		/* No task/ (recorded tree or gone): the main thread only. */
		return proc_list_add_thread(l, p, p->pid, p->last_cpu);
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		char path[96];
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", p->pid, tids[i]);
		struct pid_stat st;
		int cpu = -1;
		if (fsroot_read_file(r, path, b, 1 << 16) == 0 &&
		    parse_pid_stat(b->data, b->len, &st) == 0)
			cpu = st.processor;
		else if (tids[i] != p->pid)
			continue;   /* thread exited meanwhile */
		rc = proc_list_add_thread(l, p, tids[i], tids[i] == p->pid && cpu < 0 ?
					  p->last_cpu : cpu);
	}
	free(tids);
	return rc;
}

int proc_user_known(const struct fsroot *r, const char *user)
{
	const char *q = user, *end = user + strlen(user);
	int64_t v;
	if (*user && parse_i64(&q, end, &v) == 0 && q == end)
		return v >= 0;                 /* a uid: any number is a user */
	if (fsroot_is_live(r))
		return getpwnam(user) != NULL;
	struct buf pw = { 0 };
	int found = 0;
	size_t n = strlen(user);
	if (n && fsroot_read_file(r, "/etc/passwd", &pw, 1 << 20) == 0 && pw.data) {
		for (const char *p = pw.data; p && *p && !found;) {
			found = strncmp(p, user, n) == 0 && p[n] == ':';
			p = strchr(p, '\n');
			p = p ? p + 1 : NULL;
		}
	}
	buf_free(&pw);
	return found;
}

/* User names for a recorded tree come from its own etc/passwd when it has
 * one; otherwise the uid is shown as digits. */
static void tree_user(const struct fsroot *r, int64_t uid, char *out, size_t outsz,
		      struct buf *pw)
{
	if (uid < 0) {
		snprintf(out, outsz, "?");
		return;
	}
	if (pw->len) {
		const char *p = pw->data, *end = pw->data + pw->len;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *e = nl ? nl : end;
			const char *c1 = memchr(p, ':', (size_t)(e - p));
			const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(e - c1 - 1)) : NULL;
			if (c2) {
				const char *q = c2 + 1;
				int64_t v;
				if (parse_i64(&q, e, &v) == 0 && v == uid) {
					size_t n = (size_t)(c1 - p);
					if (n >= outsz)
						n = outsz - 1;
					memcpy(out, p, n);
					out[n] = '\0';
					return;
				}
			}
			p = nl ? nl + 1 : end;
		}
	}
	(void)r;
	snprintf(out, outsz, "%lld", (long long)uid);
}

int proc_scan_files(const struct fsroot *r, struct proc_list *l)
{
	int *pids = NULL;
	size_t n = 0;
	int rc = fsroot_list_ids(r, "/proc", "", FSROOT_DIRS, &pids, &n);
	if (rc)
		return rc;
	struct buf b = { 0 }, pw = { 0 };
	if (!fsroot_is_live(r))
		fsroot_read_file(r, "/etc/passwd", &pw, 1 << 20);
	long pagekb = sysconf(_SC_PAGESIZE) / 1024;
	char path[64];
	for (size_t i = 0; i < n; i++) {
		struct pid_stat st;
		struct pid_status ss;
		snprintf(path, sizeof(path), "/proc/%d/stat", pids[i]);
		int e = fsroot_read_file(r, path, &b, 1 << 16);
		if (e == -ENOENT || e == -ESRCH)
			continue;   /* gone, or not a process directory */
		if (e) {
			if (l->nunread++ == 0)
				l->first_unread = pids[i], l->unread_errno = -e;
			continue;
		}
		if (parse_pid_stat(b.data, b.len, &st) != 0 || st.pid != pids[i]) {
			if (l->nbad++ == 0)
				l->first_bad = pids[i];
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%d/status", pids[i]);
		bool have_status = fsroot_read_file(r, path, &b, 1 << 16) == 0 &&
				   parse_pid_status(b.data, b.len, &ss) == 0;
		struct proc_info *p = proc_list_add(l);
		if (!p) {
			rc = -ENOMEM;
			break;
		}
		p->pid = pids[i];
		p->ppid = st.ppid;
		p->kthread = (st.flags & PID_STAT_PF_KTHREAD) != 0;
		p->comm = proc_list_strdup(l, st.comm, strlen(st.comm));
		p->state = st.state;
		p->utime = st.utime;
		p->stime = st.stime;
		p->starttime = st.starttime;
		p->minflt = st.minflt;
		p->majflt = st.majflt;
		p->last_cpu = st.processor;
		p->nthreads = st.nthreads;
		p->rss_kb = st.rss_pages >= 0 ? st.rss_pages * pagekb : -1;
		if (have_status) {
			p->uid = ss.uid;
			if (ss.vm_rss_kb >= 0)
				p->rss_kb = ss.vm_rss_kb;
			if (p->nthreads < 0)
				p->nthreads = ss.threads;
		}
		snprintf(path, sizeof(path), "/proc/%d/cmdline", pids[i]);
		char text[PROC_CMDLINE_MAX], user[33];
		if (fsroot_read_file(r, path, &b, 1 << 16) == 0) {
			size_t k = proc_clean_cmdline(text, sizeof(text), b.data, b.len);
			p->cmdline = proc_list_strdup(l, text, k);
		}
		if (fsroot_is_live(r)) {
			struct passwd *pwd = p->uid >= 0 ? getpwuid((uid_t)p->uid) : NULL;
			if (pwd)
				snprintf(user, sizeof(user), "%.32s", pwd->pw_name);
			else
				snprintf(user, sizeof(user), "%lld", (long long)p->uid);
		} else {
			tree_user(r, p->uid, user, sizeof(user), &pw);
		}
		p->user = proc_list_strdup(l, user, strlen(user));
		if (!p->comm || !p->cmdline || !p->user) {
			rc = -ENOMEM;
			break;
		}
	}
	buf_free(&b);
	buf_free(&pw);
	free(pids);
	return rc;
}
