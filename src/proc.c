/* proc.c - the process source: a backend behind its ops (proc_int.h),
 * picked at open. The backends: proc_files.c (any root), proc_live*.c
 * (the live /proc). */
#include "proc_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct proc_source {
	enum proc_backend be;
	const struct proc_backend_ops *ops;
	void *state;            /* the backend's own */
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
	s->be = be;
	s->ops = be == PROC_BACKEND_LIVE ? &proc_live_ops : &proc_files_ops;
	int rc = s->ops->open(r, &s->state);
	if (rc) {
		free(s);
		return rc;
	}
	*out = s;
	return 0;
}

void proc_source_close(struct proc_source *s)
{
	if (!s)
		return;
	s->ops->close(s->state);
	free(s);
}

enum proc_backend proc_source_backend(const struct proc_source *s)
{
	return s->be;
}

int proc_source_scan(struct proc_source *s, struct proc_list *l)
{
	proc_list_clear_strings(l);
	l->nthr = 0;
	l->nbad = 0;
	l->nunread = 0;
	int rc = s->ops->scan(s->state, l);
	if (rc)
		l->n = 0;
	return rc;
}

int proc_source_threads(struct proc_source *s, struct proc_list *l,
			struct proc_info *p, struct buf *scratch)
{
	return s->ops->threads(s->state, l, p, scratch);
}

int proc_source_openat(struct proc_source *s, const struct proc_info *p, const char *name)
{
	return s->ops->openat ? s->ops->openat(s->state, p, name) : -EOPNOTSUPP;
}

void proc_source_stats(const struct proc_source *s, struct proc_scan_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (s->ops->stats)
		s->ops->stats(s->state, out);
}
