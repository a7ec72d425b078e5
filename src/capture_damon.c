/* capture_damon.c - DAMON's state in a capture: the files of
 * /sys/kernel/mm/damon/admin/kdamonds that damon.c and damon_ctl.c read
 * (damon.h lists them), copied as they are, so that --root CAPTURE reads
 * the kdamonds, their targets and the regions their schemes last tried as
 * the capture saw them (the access heat of a recorded tree).
 *
 * Read only: nothing is written below /sys. So the tried_regions are those
 * the kernel last wrote for whoever asked for them (their kdamond's
 * owner), never asked for by the capture; a kdamond that is changed while
 * it is copied is copied as it was read, file by file. Directories are made
 * in the capture only for the files copied: no kdamonds directory (a kernel
 * without DAMON's sysfs interface) stays none, and one whose nr_kdamonds
 * could not be read (not root) is left out, not copied empty (which the
 * reader would take for DAMON's files being broken). */
#include <stdio.h>
#include <stdlib.h>

#include "capture_int.h"
#include "damon.h"

/* What damon.c reads, by directory (damon.h), and what damon_ctl.c reads
 * before it would start a kdamond (avail_operations). */
static const char *const kdamond_files[] = { "state", "pid", "contexts/nr_contexts" };
static const char *const context_files[] = {
	"operations", "avail_operations", "monitoring_attrs/intervals/sample_us",
	"monitoring_attrs/intervals/aggr_us", "monitoring_attrs/intervals/update_us",
	"monitoring_attrs/nr_regions/min", "monitoring_attrs/nr_regions/max",
	"targets/nr_targets", "schemes/nr_schemes",
};
static const char *const target_files[] = { "pid_target" };
static const char *const scheme_files[] = {
	"action", "access_pattern/sz/min", "access_pattern/sz/max",
	"access_pattern/nr_accesses/min", "access_pattern/nr_accesses/max",
	"access_pattern/age/min", "access_pattern/age/max", "tried_regions/total_bytes",
};
#define N(a) (sizeof(a) / sizeof(*(a)))

/* Copy dir/name for each of the n names that is there; -errno of a write. */
static int copy_files(struct cap *c, const char *dir, const char *const *names, size_t n)
{
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char path[512];
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, names[i]) < sizeof(path))
			rc = capture_copy(c, path);
	}
	return rc;
}

/* The numbered directories dir/<N> (the first max of them, as damon.c
 * reads no more), each copied by fn. */
static int copy_each(struct cap *c, const char *dir, size_t max,
		     int (*fn)(struct cap *c, const char *dir))
{
	int *ids = NULL;
	size_t n = 0;
	if (fsroot_list_ids(c->r, dir, "", FSROOT_DIRS, &ids, &n) != 0)
		return 0;
	int rc = 0;
	for (size_t i = 0; i < n && i < max && rc == 0; i++) {
		char sub[512];
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%d", dir, ids[i]) < sizeof(sub))
			rc = fn(c, sub);
	}
	free(ids);
	return rc;
}

static int copy_region(struct cap *c, const char *dir)
{
	return copy_files(c, dir, damon_region_files, DAMON_RF_N);
}

static int copy_target(struct cap *c, const char *dir)
{
	return copy_files(c, dir, target_files, N(target_files));
}

static int copy_scheme(struct cap *c, const char *dir)
{
	char tr[512];
	int rc = copy_files(c, dir, scheme_files, N(scheme_files));
	snprintf(tr, sizeof(tr), "%s/tried_regions", dir);
	return rc ? rc : copy_each(c, tr, DAMON_MAX_READ_REGIONS, copy_region);
}

static int copy_context(struct cap *c, const char *dir)
{
	char sub[512];
	int rc = copy_files(c, dir, context_files, N(context_files));
	snprintf(sub, sizeof(sub), "%s/targets", dir);
	rc = rc ? rc : copy_each(c, sub, DAMON_MAX_READ_REGIONS, copy_target);
	snprintf(sub, sizeof(sub), "%s/schemes", dir);
	return rc ? rc : copy_each(c, sub, DAMON_MAX_READ_REGIONS, copy_scheme);
}

static int copy_kdamond(struct cap *c, const char *dir)
{
	char sub[512];
	int rc = copy_files(c, dir, kdamond_files, N(kdamond_files));
	snprintf(sub, sizeof(sub), "%s/contexts", dir);
	c->st->kdamonds++;
	return rc ? rc : copy_each(c, sub, 16, copy_context);
}

int capture_copy_damon(struct cap *c)
{
	size_t files = c->st->files;
	int rc = capture_copy(c, DAMON_KDAMONDS "/nr_kdamonds");
	if (rc || c->st->files == files)
		return rc;        /* no DAMON, or not readable: nothing of it */
	return copy_each(c, DAMON_KDAMONDS, DAMON_MAX_KDAMONDS, copy_kdamond);
}
