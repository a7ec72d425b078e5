/* damon.c - read DAMON's sysfs tree through the rooted I/O layer, and say
 * whose each kdamond is (see damon.h). Reads only. */
#include "damon.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"
#include "safefile.h"

/* out = dir + "/" + name (name may hold a format's result); -ENAMETOOLONG
 * leaves out empty, so the read that follows fails. */
#define DPATH 256
static int join(char *out, size_t n, const char *dir, const char *name)
{
	if ((size_t)snprintf(out, n, "%s/%s", dir, name) < n)
		return 0;
	out[0] = '\0';
	return -ENAMETOOLONG;
}

/* A small file dir/name as a value; -errno. */
static int read_val(const struct fsroot *r, const char *dir, const char *name, char *v, size_t n)
{
	char path[DPATH];
	if (join(path, sizeof(path), dir, name))
		return -ENAMETOOLONG;
	int rc = fsroot_read_small(r, path, v, n);
	return rc < 0 ? rc : 0;
}

/* A number file: 0 and *out, or -errno (-EINVAL garbage). */
static int read_i64(const struct fsroot *r, const char *dir, const char *name, int64_t *out)
{
	char v[64];
	int rc = read_val(r, dir, name, v, sizeof(v));
	return rc ? rc : damon_parse_i64(v, strlen(v), out);
}

static int read_u64(const struct fsroot *r, const char *dir, const char *name, uint64_t *out)
{
	char v[64];
	int rc = read_val(r, dir, name, v, sizeof(v));
	return rc ? rc : damon_parse_u64(v, strlen(v), out);
}

/* A count file bounded by max: the count, or -errno. */
static int64_t read_count(const struct fsroot *r, const char *dir, const char *name, int64_t max)
{
	int64_t v;
	int rc = read_i64(r, dir, name, &v);
	if (rc)
		return rc;
	return v < 0 || v > max ? -ERANGE : v;
}

/* A number that may be unknown: -1 on any error. */
static int64_t num_or_unknown(const struct fsroot *r, const char *dir, const char *name)
{
	int64_t v;
	return read_i64(r, dir, name, &v) == 0 && v >= 0 ? v : -1;
}

static int read_range(const struct fsroot *r, const char *dir, const char *which,
		      uint64_t *lo, uint64_t *hi)
{
	char d[DPATH];
	join(d, sizeof(d), dir, which);
	int rc = read_u64(r, d, "min", lo);
	return rc ? rc : read_u64(r, d, "max", hi);
}

/* One scheme's action and pattern (not its regions). 0 when all read. */
static int read_scheme(const struct fsroot *r, const char *dir, struct damon_scheme *s)
{
	s->total_bytes = -1;
	int rc = read_val(r, dir, "action", s->action, sizeof(s->action));
	if (rc)
		s->action[0] = '\0';
	char ap[DPATH];
	join(ap, sizeof(ap), dir, "access_pattern");
	s->have_pattern = read_range(r, ap, "sz", &s->sz_min, &s->sz_max) == 0 &&
			  read_range(r, ap, "nr_accesses", &s->acc_min, &s->acc_max) == 0 &&
			  read_range(r, ap, "age", &s->age_min, &s->age_max) == 0;
	char tr[DPATH];
	join(tr, sizeof(tr), dir, "tried_regions");
	s->total_bytes = num_or_unknown(r, tr, "total_bytes");
	return rc ? rc : s->have_pattern ? 0 : -EINVAL;
}

static int read_context(const struct fsroot *r, const char *dir, struct damon_context *c)
{
	char d[DPATH];
	int bad = 0;
	if (read_val(r, dir, "operations", c->operations, sizeof(c->operations)) != 0) {
		c->operations[0] = '\0';
		bad = 1;
	}
	join(d, sizeof(d), dir, "monitoring_attrs/intervals");
	c->sample_us = num_or_unknown(r, d, "sample_us");
	c->aggr_us = num_or_unknown(r, d, "aggr_us");
	c->update_us = num_or_unknown(r, d, "update_us");
	join(d, sizeof(d), dir, "monitoring_attrs/nr_regions");
	c->min_regions = num_or_unknown(r, d, "min");
	c->max_regions = num_or_unknown(r, d, "max");
	bad |= c->sample_us < 0 || c->aggr_us < 0 || c->update_us < 0 ||
	       c->min_regions < 0 || c->max_regions < 0;

	join(d, sizeof(d), dir, "targets");
	int64_t nt = read_count(r, d, "nr_targets", DAMON_MAX_READ_REGIONS);
	if (nt < 0)
		return -EINVAL;
	c->pids = calloc(nt ? (size_t)nt : 1, sizeof(*c->pids));
	if (!c->pids)
		return -ENOMEM;
	c->ntargets = (size_t)nt;
	for (size_t i = 0; i < c->ntargets; i++) {
		char td[DPATH], sub[48];
		snprintf(sub, sizeof(sub), "targets/%zu", i);
		join(td, sizeof(td), dir, sub);
		c->pids[i] = num_or_unknown(r, td, "pid_target");
		bad |= c->pids[i] < 0;
	}

	join(d, sizeof(d), dir, "schemes");
	int64_t ns = read_count(r, d, "nr_schemes", DAMON_MAX_READ_REGIONS);
	if (ns < 0)
		return -EINVAL;
	c->schemes = calloc(ns ? (size_t)ns : 1, sizeof(*c->schemes));
	if (!c->schemes)
		return -ENOMEM;
	c->nschemes = (size_t)ns;
	for (size_t i = 0; i < c->nschemes; i++) {
		char sd[DPATH], sub[48];
		snprintf(sub, sizeof(sub), "schemes/%zu", i);
		join(sd, sizeof(sd), dir, sub);
		bad |= read_scheme(r, sd, &c->schemes[i]) != 0;
	}
	return bad ? -EINVAL : 0;
}

/* One kdamond; kd->complete when every file was read and made sense. */
static int read_kdamond(const struct fsroot *r, int idx, struct damon_kdamond *kd)
{
	char dir[DPATH], v[32];
	snprintf(dir, sizeof(dir), DAMON_KDAMONDS "/%d", idx);
	kd->index = idx;
	kd->owner = DAMON_OWNER_FOREIGN;
	kd->pid = -1;
	kd->state = DAMON_KD_UNKNOWN;
	int bad = 0;
	if (read_val(r, dir, "state", v, sizeof(v)) != 0 ||
	    damon_parse_state(v, strlen(v), &kd->state) != 0)
		bad = 1;
	if (read_i64(r, dir, "pid", &kd->pid) != 0 || kd->pid < -1) {
		kd->pid = -1;
		bad = 1;
	}
	char cd[DPATH];
	join(cd, sizeof(cd), dir, "contexts");
	int64_t nc = read_count(r, cd, "nr_contexts", 16);
	if (nc < 0)
		return 0;             /* incomplete: never ours */
	kd->ctxs = calloc(nc ? (size_t)nc : 1, sizeof(*kd->ctxs));
	if (!kd->ctxs)
		return -ENOMEM;
	kd->nctxs = (size_t)nc;
	for (size_t i = 0; i < kd->nctxs; i++) {
		char d[DPATH], sub[24];
		snprintf(sub, sizeof(sub), "%zu", i);
		join(d, sizeof(d), cd, sub);
		int rc = read_context(r, d, &kd->ctxs[i]);
		if (rc == -ENOMEM)
			return rc;
		bad |= rc != 0;
	}
	kd->complete = !bad;
	return 0;
}

static enum damon_avail avail_of_error(int err)
{
	if (err == -ENOENT || err == -ENOTDIR)
		return DAMON_UNAVAILABLE;
	if (err == -EACCES || err == -EPERM)
		return DAMON_NOT_PERMITTED;
	return DAMON_ERROR;
}

int damon_read(const struct fsroot *r, struct damon_status *st)
{
	memset(st, 0, sizeof(*st));
	st->ours = -1;
	st->nr_kdamonds = -1;
	int64_t n = read_count(r, DAMON_KDAMONDS, "nr_kdamonds", INT32_MAX);
	if (n < 0) {
		/* The file first: absent means the whole interface is. */
		if (n == -ENOENT && fsroot_exists(r, DAMON_KDAMONDS) == 0)
			n = -EINVAL;
		st->err = (int)n;
		st->avail = n == -EINVAL || n == -ERANGE ? DAMON_ERROR : avail_of_error((int)n);
		return 0;
	}
	st->nr_kdamonds = n;
	if (n == 0) {
		st->avail = DAMON_FREE;
		return 0;
	}
	/* Past our reading bound: in use, without looking at each. */
	size_t nk = n > DAMON_MAX_KDAMONDS ? DAMON_MAX_KDAMONDS : (size_t)n;
	st->kd = calloc(nk, sizeof(*st->kd));
	if (!st->kd)
		return -ENOMEM;
	st->nkd = nk;
	for (size_t i = 0; i < nk; i++) {
		int rc = read_kdamond(r, (int)i, &st->kd[i]);
		if (rc) {
			damon_status_free(st);
			return rc;
		}
	}
	st->avail = DAMON_IN_USE;
	return 0;
}

/* Each tried_regions/<R>/ in index order (the kernel's order: target by
 * target, rising addresses). */
int damon_read_regions(const struct fsroot *r, int kdamond, int ctx, int scheme,
		       struct damon_scheme *s)
{
	char dir[DPATH];
	snprintf(dir, sizeof(dir), DAMON_KDAMONDS "/%d/contexts/%d/schemes/%d/tried_regions",
		 kdamond, ctx, scheme);
	free(s->regions);
	s->regions = NULL;
	s->nregions = s->bad_regions = 0;
	s->regions_cut = false;
	s->total_bytes = num_or_unknown(r, dir, "total_bytes");
	int *ids = NULL;
	size_t nids = 0;
	int rc = fsroot_list_ids(r, dir, "", FSROOT_DIRS, &ids, &nids);
	if (rc)
		return rc;
	if (nids > DAMON_MAX_READ_REGIONS) {
		nids = DAMON_MAX_READ_REGIONS;
		s->regions_cut = true;
	}
	s->regions = calloc(nids ? nids : 1, sizeof(*s->regions));
	if (!s->regions) {
		free(ids);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nids; i++) {
		char rd[DPATH], sub[24], vals[DAMON_RF_N][32];
		struct damon_region_text t;
		snprintf(sub, sizeof(sub), "%d", ids[i]);
		join(rd, sizeof(rd), dir, sub);
		for (int f = 0; f < DAMON_RF_N; f++) {
			int e = read_val(r, rd, damon_region_files[f], vals[f], sizeof(vals[f]));
			t.f[f] = e ? NULL : vals[f];
			t.len[f] = e ? 0 : strlen(vals[f]);
		}
		if (damon_parse_region(&t, &s->regions[s->nregions]) == 0)
			s->nregions++;
		else
			s->bad_regions++;
	}
	free(ids);
	return 0;
}

int damon_owner_starttime(const struct fsroot *r, int pid, uint64_t *starttime)
{
	if (pid <= 0)
		return -ESRCH;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	struct buf b = { 0 };
	int rc = fsroot_read_file(r, path, &b, 4096);
	if (rc == -ENOENT)
		rc = -ESRCH;
	struct pid_stat ps;
	if (rc == 0)
		rc = parse_pid_stat(b.data, b.len, &ps);
	buf_free(&b);
	if (rc == 0)
		*starttime = ps.starttime;
	return rc;
}

int damon_record_load(const char *path, struct damon_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	char dir[512];
	const char *name;
	int rc = safefile_split(path, dir, sizeof(dir), &name);
	if (rc)
		return rc;
	int dfd = safefile_open_dir(dir, 0, NULL, 0);
	if (dfd < 0)
		return dfd;
	/* Ours only: written by this user (root), readable by no one else. */
	struct stat sb;
	if (fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
		rc = -errno;
	else if (!S_ISREG(sb.st_mode))
		rc = S_ISLNK(sb.st_mode) ? -ELOOP : -EMEDIUMTYPE;
	else if (sb.st_uid != geteuid() || (sb.st_mode & 077))
		rc = -EPERM;
	struct buf b = { 0 };
	if (rc == 0)
		rc = safefile_read(dfd, name, &b, DAMON_RECORD_MAX);
	close(dfd);
	if (rc == 0)
		rc = damon_record_parse(b.data ? b.data : "", b.len, rec);
	buf_free(&b);
	return rc;
}

void damon_classify(const struct fsroot *r, struct damon_status *st,
		    const struct damon_record *rec, const struct damon_owner_id *self)
{
	st->ours = -1;
	if (st->avail != DAMON_IN_USE && st->avail != DAMON_STALE && st->avail != DAMON_OURS)
		return;
	size_t foreign = 0;
	for (size_t i = 0; i < st->nkd; i++) {
		struct damon_kdamond *kd = &st->kd[i];
		kd->owner = DAMON_OWNER_FOREIGN;
		if (rec && damon_settings_match(kd, rec)) {
			uint64_t t;
			int rc = damon_owner_starttime(r, rec->owner.pid, &t);
			if (self && rec->owner.pid == self->pid && rec->owner.starttime == self->starttime)
				kd->owner = DAMON_OWNER_SELF;
			else if (rc == -ESRCH || (rc == 0 && t != rec->owner.starttime))
				kd->owner = DAMON_OWNER_STALE;   /* gone, or its PID reused */
			else
				kd->owner = DAMON_OWNER_LIVE_OTHER;  /* alive, or cannot tell */
		}
		if (kd->owner == DAMON_OWNER_SELF || kd->owner == DAMON_OWNER_STALE)
			st->ours = (int)i;
		else
			foreign++;
	}
	if ((int64_t)st->nkd != st->nr_kdamonds)
		foreign++;                                   /* some not read */
	if (foreign || st->ours < 0)
		st->avail = DAMON_IN_USE;
	else
		st->avail = st->kd[st->ours].owner == DAMON_OWNER_SELF ? DAMON_OURS : DAMON_STALE;
}

static void free_context(struct damon_context *c)
{
	for (size_t i = 0; i < c->nschemes; i++)
		free(c->schemes[i].regions);
	free(c->schemes);
	free(c->pids);
}

void damon_status_free(struct damon_status *st)
{
	for (size_t i = 0; i < st->nkd; i++) {
		for (size_t j = 0; j < st->kd[i].nctxs; j++)
			free_context(&st->kd[i].ctxs[j]);
		free(st->kd[i].ctxs);
	}
	free(st->kd);
	st->kd = NULL;
	st->nkd = 0;
}

const char *damon_avail_name(enum damon_avail a)
{
	switch (a) {
	case DAMON_UNAVAILABLE: return "unavailable";
	case DAMON_NOT_PERMITTED: return "not_permitted";
	case DAMON_ERROR: return "error";
	case DAMON_FREE: return "free";
	case DAMON_IN_USE: return "in_use";
	case DAMON_STALE: return "stale";
	case DAMON_OURS: return "ours";
	}
	return "error";
}

const char *damon_avail_text(enum damon_avail a)
{
	switch (a) {
	case DAMON_UNAVAILABLE: return "kernel without DAMON (CONFIG_DAMON_SYSFS)";
	case DAMON_NOT_PERMITTED: return "DAMON needs root";
	case DAMON_ERROR: return "DAMON's files could not be read";
	case DAMON_FREE: return "DAMON is free";
	case DAMON_IN_USE: return "DAMON is in use by someone else";
	case DAMON_STALE: return "DAMON holds a kdamond a previous run left";
	case DAMON_OURS: return "DAMON is ours";
	}
	return "DAMON's files could not be read";
}
