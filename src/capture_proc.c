/* capture_proc.c - the processes of a capture, each copied whole or not at
 * all, and the names of their users; with anonymize the command line
 * becomes the command name, numa_maps' file paths a placeholder and no
 * user name is written. */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture_int.h"
#include "fsroot.h"
#include "parse.h"

/* What an anonymized numa_maps says for every mapped file. */
#define ANON_PATH "[anonymized]"

static int by_pid(const void *a, const void *b)
{
	const struct capture_rank *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int by_rss(const void *a, const void *b)
{
	const struct capture_rank *x = a, *y = b;
	return x->rss_kb != y->rss_kb ? (x->rss_kb > y->rss_kb ? -1 : 1) : by_pid(a, b);
}

size_t capture_pick_top(struct capture_rank *v, size_t n, size_t top)
{
	if (n)
		qsort(v, n, sizeof(*v), by_rss);
	if (top < n)
		n = top;
	if (n)
		qsort(v, n, sizeof(*v), by_pid);
	return n;
}

/* numa_maps text onto b with each file=PATH as file=ANON_PATH (the
 * kernel escapes blanks in a path: it ends at a blank or the line's end;
 * "file=" is never a line's first word, the address is). */
static int append_no_paths(struct buf *b, const char *s, size_t n)
{
	const char *end = s + n;
	for (;;) {
		const char *f = memmem(s, (size_t)(end - s), " file=", 6);
		const char *path = f ? f + 6 : end, *q = path;
		if (buf_append(b, s, (size_t)(path - s)) != 0)
			return -ENOMEM;
		if (!f)
			return 0;
		while (q < end && *q != ' ' && *q != '\n')
			q++;
		if (q > path && buf_append(b, ANON_PATH, sizeof(ANON_PATH) - 1) != 0)
			return -ENOMEM;
		s = q;
	}
}

/* Read path into the stage: 1 read, 0 not there or unreadable, -errno.
 * Anonymized, a command line is the command name (comm: "" unknown) and
 * numa_maps has no file path. */
static int stage(struct cap *c, const char *path, size_t max, const char *comm)
{
	int rc = capture_get(c, path, max);
	struct staged *v = rc <= 0 ? NULL : buf_grow_array(c->sv, &c->scap, c->sn + 1, sizeof(*v));
	if (!v)
		return rc == -ENOMEM || rc > 0 ? -ENOMEM : 0;
	c->sv = v;
	snprintf(v[c->sn].path, sizeof(v->path), "%s", path);
	v[c->sn].off = c->stage.len;
	const char *name = strrchr(path, '/') + 1;
	int arc = 0;
	if (c->o->anonymize && strcmp(name, "cmdline") == 0)
		arc = c->b.len && *comm ? buf_append(&c->stage, comm, strlen(comm) + 1) : 0;
	else if (c->o->anonymize && strcmp(name, "numa_maps") == 0)
		arc = append_no_paths(&c->stage, c->b.data ? c->b.data : "", c->b.len);
	else if (c->b.len)
		arc = buf_append(&c->stage, c->b.data, c->b.len);
	if (arc)
		return -ENOMEM;
	v[c->sn].len = c->stage.len - v[c->sn].off;
	c->sn++;
	return 1;
}

/* The command name in a stat text: between its first '(' and last ')'
 * ("" when there is none), what the reader shows. */
static void stat_comm(const char *s, size_t n, char *out, size_t outsz)
{
	const char *open = s ? memchr(s, '(', n) : NULL, *close = s ? memrchr(s, ')', n) : NULL;
	size_t len = open && close > open ? (size_t)(close - open - 1) : 0;
	snprintf(out, outsz, "%.*s", (int)(len < outsz ? len : outsz - 1), open ? open + 1 : "");
}

static void add_uid(struct cap *c, int64_t uid)
{
	for (size_t i = 0; i < c->nuids; i++)
		if (c->uids[i] == uid)
			return;
	int64_t *v = buf_grow_array(c->uids, &c->uidcap, c->nuids + 1, sizeof(*v));
	if (v)
		(c->uids = v)[c->nuids++] = uid;
}

/* What a process's files tell about people: a command line, mapped file
 * paths (counted for the summary). */
static void count_names(struct cap *c)
{
	bool cmdline = false, paths = false;
	for (size_t i = 0; i < c->sn; i++) {
		const char *name = strrchr(c->sv[i].path, '/') + 1;
		const char *data = c->stage.data + c->sv[i].off;
		if (strcmp(name, "cmdline") == 0)
			cmdline = c->sv[i].len > 0;
		else if (strcmp(name, "numa_maps") == 0 && !c->o->anonymize && c->sv[i].len)
			paths = memmem(data, c->sv[i].len, " file=", 6) != NULL;
	}
	c->st->cmdlines += cmdline && !c->o->anonymize;
	c->st->file_maps += paths;
}

/* One process, whole: read every file, then stat again; written only
 * when the process is still the same one (PID and start time). */
static int copy_proc(struct cap *c, int pid)
{
	static const char *const names[] = { "status", "cmdline", "numa_maps", "cgroup", "sched" };
	char path[80];
	struct pid_stat st0, st1;
	struct pid_status ss;
	c->sn = 0;
	buf_clear(&c->stage);
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	int rc = stage(c, path, CAPTURE_MAX_SMALL, "");
	if (rc <= 0)
		return rc;
	bool parsed = parse_pid_stat(c->b.data, c->b.len, &st0) == 0;
	char comm[64];
	stat_comm(c->b.data, c->b.len, comm, sizeof(comm));
	int64_t uid = -1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && rc >= 0; i++) {
		snprintf(path, sizeof(path), "/proc/%d/%s", pid, names[i]);
		rc = stage(c, path, i == 2 ? FSROOT_MAX_FILE : CAPTURE_MAX_SMALL, comm);
		if (rc == 1 && i == 0 && parse_pid_status(c->b.data, c->b.len, &ss) == 0)
			uid = ss.uid;
	}
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	int *tids = NULL;
	size_t n = 0;
	if (rc >= 0 && fsroot_list_ids(c->r, path, "", FSROOT_DIRS, &tids, &n) == 0)
		for (size_t i = 0; i < n && rc >= 0; i++) {
			snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tids[i]);
			rc = stage(c, path, CAPTURE_MAX_SMALL, "");
			snprintf(path, sizeof(path), "/proc/%d/task/%d/sched", pid, tids[i]);
			if (rc >= 0)
				rc = stage(c, path, CAPTURE_MAX_SMALL, "");
		}
	free(tids);
	if (rc < 0)
		return rc;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	int again = fsroot_read_file(c->r, path, &c->b, CAPTURE_MAX_SMALL);
	if (again == -ENOENT || again == -ESRCH ||
	    (again == 0 && parsed && (parse_pid_stat(c->b.data, c->b.len, &st1) != 0 ||
				      st1.starttime != st0.starttime))) {
		c->st->vanished++;
		return 0;
	}
	for (size_t i = 0; i < c->sn && rc >= 0; i++)
		rc = capture_put(c, c->sv[i].path, c->stage.data ? c->stage.data + c->sv[i].off : "",
				 c->sv[i].len);
	if (rc < 0)
		return rc;
	c->st->procs++;
	count_names(c);
	if (uid >= 0)
		add_uid(c, uid);
	return 0;
}

int capture_copy_procs(struct cap *c)
{
	const struct capture_opts *o = c->o;
	int *pids = NULL;
	size_t n = 0, keep = 0;
	if (o->mode == CAPTURE_NONE || fsroot_list_ids(c->r, "/proc", "", FSROOT_DIRS, &pids, &n) != 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k <= o->npids; k++)
			if (k == o->npids ? !o->pids : o->pids[k] == pids[i]) {
				pids[keep++] = pids[i];
				break;
			}
	n = keep;
	if (o->mode == CAPTURE_TOP) {
		struct capture_rank *v = calloc(n ? n : 1, sizeof(*v));
		if (!v) {
			free(pids);
			return -ENOMEM;
		}
		long pagekb = sysconf(_SC_PAGESIZE) / 1024;
		size_t m = 0;
		for (size_t i = 0; i < n; i++) {
			char path[64];
			struct pid_stat st;
			snprintf(path, sizeof(path), "/proc/%d/stat", pids[i]);
			if (fsroot_read_file(c->r, path, &c->b, CAPTURE_MAX_SMALL) == 0 &&
			    parse_pid_stat(c->b.data, c->b.len, &st) == 0)
				v[m++] = (struct capture_rank){ pids[i], st.rss_pages * pagekb };
		}
		n = capture_pick_top(v, m, o->top);
		for (size_t i = 0; i < n; i++)
			pids[i] = v[i].pid;
		free(v);
	}
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = copy_proc(c, pids[i]);
	free(pids);
	return rc;
}

/* etc/passwd: a recorded tree's own; live, one line per captured uid
 * that has a name (uid and name: what the tree reader uses). None when
 * anonymized: the reader shows uids. */
int capture_copy_users(struct cap *c)
{
	if (c->o->anonymize)
		return 0;
	buf_clear(&c->b);
	if (!fsroot_is_live(c->r)) {
		if (capture_get(c, "/etc/passwd", CAPTURE_MAX_SMALL) != 1)
			return 0;
	} else {
		for (size_t i = 0; i < c->nuids; i++) {
			struct passwd *pw = getpwuid((uid_t)c->uids[i]);
			char line[256];
			int len = pw ? snprintf(line, sizeof(line), "%s:x:%lld:%lld::/:/usr/sbin/nologin\n",
						pw->pw_name, (long long)c->uids[i], (long long)pw->pw_gid) : 0;
			if (len > 0 && (size_t)len < sizeof(line) && buf_append(&c->b, line, (size_t)len) != 0)
				return -ENOMEM;
		}
	}
	for (size_t i = 0; i < c->b.len; i++)
		c->st->users += c->b.data[i] == '\n' || i + 1 == c->b.len;
	return c->b.len ? capture_put(c, "/etc/passwd", c->b.data, c->b.len) : 0;
}
