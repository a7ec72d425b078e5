/* proc_files.c - the file backend: /proc/PID/stat, status and task/ read
 * by path through the rooted layer (recorded trees, --proc-files). */
#include "proc_int.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "parse.h"

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
		return proc_list_add_thread(l, p, p->pid, p->last_cpu,
					    proc_ticks(p->utime, p->stime), -1);
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/task", p->pid);
	int *tids = NULL;
	size_t n = 0;
	int rc = fsroot_list_ids(r, dir, "", FSROOT_DIRS, &tids, &n);
	if (rc || n == 0) {
		free(tids);
		/* No task/ (recorded tree or gone): the main thread only. */
		return proc_list_add_thread(l, p, p->pid, p->last_cpu,
					    proc_ticks(p->utime, p->stime), -1);
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		char path[96];
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", p->pid, tids[i]);
		struct pid_stat st;
		int cpu = -1;
		int64_t ticks = -1;
		if (fsroot_read_file(r, path, b, 1 << 16) == 0 &&
		    parse_pid_stat(b->data, b->len, &st) == 0) {
			cpu = st.processor;
			ticks = proc_ticks(st.utime, st.stime);
		} else if (tids[i] != p->pid) {
			continue;   /* thread exited meanwhile */
		}
		/* Its run time in ns, where the tree has it. */
		char ss[96];
		int64_t run_ns = -1;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", p->pid, tids[i]);
		int k = fsroot_read_small(r, path, ss, sizeof(ss));
		if (k > 0)
			run_ns = proc_parse_run_ns(ss, (size_t)k);
		rc = proc_list_add_thread(l, p, tids[i], tids[i] == p->pid && cpu < 0 ?
					  p->last_cpu : cpu, ticks, run_ns);
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
	l->filled_by = NULL;            /* not a live source's numbers now */
	if ((rc = proc_list_align(l, pids, n)) != 0)
		n = 0;
	for (size_t i = 0; i < n; i++) {
		struct pid_stat st;
		struct pid_status ss;
		/* The entry's process when the last scan filled it (state set). */
		bool kept = proc_list_at(l, i)->state != 0;
		uint64_t began = proc_list_at(l, i)->starttime;
		proc_info_reset(proc_list_at(l, i));   /* every number read again */
		proc_list_at(l, i)->pid = pids[i];
		snprintf(path, sizeof(path), "/proc/%d/stat", pids[i]);
		int e = fsroot_read_file(r, path, &b, 1 << 16);
		if (e == -ENOENT || e == -ESRCH) {
			proc_list_drop(l, i);   /* gone, or not a process directory */
			continue;
		}
		if (e) {
			if (l->nunread++ == 0)
				l->first_unread = pids[i], l->unread_errno = -e;
			proc_list_drop(l, i);
			continue;
		}
		if (parse_pid_stat(b.data, b.len, &st) != 0 || st.pid != pids[i]) {
			if (l->nbad++ == 0)
				l->first_bad = pids[i];
			proc_list_drop(l, i);
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%d/status", pids[i]);
		bool have_status = fsroot_read_file(r, path, &b, 1 << 16) == 0 &&
				   parse_pid_status(b.data, b.len, &ss) == 0;
		struct proc_info *p = proc_list_at(l, i);
		if (kept && began != st.starttime)
			proc_list_renew(l, i);             /* the PID reused */
		p->ppid = st.ppid;
		p->kthread = (st.flags & PID_STAT_PF_KTHREAD) != 0;
		p->comm = proc_list_strdup(l, st.comm, strlen(st.comm));
		p->state = st.state;
		p->utime = st.utime;
		p->stime = st.stime;
		p->starttime = st.starttime;
		p->faults = st.minflt + st.majflt;
		p->last_cpu = st.processor;
		p->nthreads = proc_nthreads(st.nthreads);
		p->rss_kb = st.rss_pages >= 0 ? st.rss_pages * pagekb : -1;
		if (have_status) {
			p->uid = ss.uid;
			if (ss.vm_rss_kb >= 0)
				p->rss_kb = ss.vm_rss_kb;
			if (p->nthreads < 0)
				p->nthreads = proc_nthreads(ss.threads);
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
		proc_list_kept(l, i);
	}
	proc_list_compact(l);
	buf_free(&b);
	buf_free(&pw);
	free(pids);
	return rc;
}

/* The backend's state is the root it reads. */
static int files_open(const struct fsroot *r, void **state)
{
	*state = (void *)r;
	return 0;
}

static void files_close(void *state)
{
	(void)state;
}

static int files_scan(void *state, struct proc_list *l)
{
	return proc_scan_files(state, l);
}

static int files_threads(void *state, struct proc_list *l, struct proc_info *p,
			 struct buf *scratch)
{
	return proc_read_threads(state, l, p, scratch);
}

const struct proc_backend_ops proc_files_ops = {
	.open = files_open, .close = files_close, .scan = files_scan, .threads = files_threads,
};
