/* parse_pid.c - /proc/PID/stat and /proc/PID/status parsers. */
#include "parse.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static void copy_field(char *dst, size_t dstsz, const char *s, size_t n)
{
	if (n >= dstsz)
		n = dstsz - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

int parse_pid_stat(const char *buf, size_t len, struct pid_stat *out)
{
	memset(out, 0, sizeof(*out));
	out->nthreads = out->rss_pages = NT_UNKNOWN;
	out->processor = NT_UNKNOWN;
	out->ppid = NT_UNKNOWN;
	const char *end = buf + len;
	const char *p = buf;
	int64_t v;
	if (parse_i64(&p, end, &v) != 0 || v <= 0 || v > 0x7fffffff)
		return -EINVAL;
	out->pid = (int)v;
	const char *open = memchr(p, '(', (size_t)(end - p));
	if (!open)
		return -EINVAL;
	/* The name may contain ')' and spaces: the last ')' ends it. */
	const char *close = NULL;
	for (const char *q = end; q > open;) {
		q--;
		if (*q == ')') {
			close = q;
			break;
		}
	}
	if (!close)
		return -EINVAL;
	copy_field(out->comm, sizeof(out->comm), open + 1,
		   (size_t)(close - open - 1));
	p = close + 1;
	/* Fields after comm, numbered as in proc(5): 3 = state ... */
	int field = 3;
	uint64_t u;
	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		if (p >= end || *p == '\n' || *p == '\0')
			break;
		const char *tok = p;
		while (p < end && *p != ' ' && *p != '\n' && *p != '\0')
			p++;
		const char *t = tok;
		if (field == 3) {
			out->state = *tok;
		} else if (field == 4 || field == 20 || field == 24 || field == 39) {
			if (parse_i64(&t, p, &v) != 0 || t != p)
				return -EINVAL;
			if (field == 4)
				out->ppid = (int)v;
			else if (field == 20)
				out->nthreads = v;
			else if (field == 24)   /* beyond any machine: unknown */
				out->rss_pages = v >= 0 && v <= PID_STAT_MAX_PAGES ? v : NT_UNKNOWN;
			else
				out->processor = (v >= 0 && v < 0x7fffffff) ? (int)v : NT_UNKNOWN;
		} else if (field == 9 || field == 10 || field == 12 || field == 14 ||
			   field == 15 || field == 22) {
			if (parse_u64(&t, p, &u) != 0 || t != p)
				return -EINVAL;
			if (field == 9)
				out->flags = u;
			else if (field == 10)
				out->minflt = u;
			else if (field == 12)
				out->majflt = u;
			else if (field == 14)   /* saturated: sums cannot wrap */
				out->utime = u < PID_STAT_MAX_TICKS ? u : PID_STAT_MAX_TICKS;
			else if (field == 15)
				out->stime = u < PID_STAT_MAX_TICKS ? u : PID_STAT_MAX_TICKS;
			else
				out->starttime = u;
		}
		if (++field > 39)
			break;          /* nothing needed after the last CPU */
	}
	/* A stat line cut before starttime is not usable. */
	return field > 22 ? 0 : -EINVAL;
}

static bool key_is(const char *s, const char *e, const char *key)
{
	size_t n = strlen(key);
	return (size_t)(e - s) > n && memcmp(s, key, n) == 0 && s[n] == ':';
}

static const char *value_start(const char *s, const char *e, const char *key)
{
	s += strlen(key) + 1;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

int parse_pid_status(const char *buf, size_t len, struct pid_status *out)
{
	memset(out, 0, sizeof(*out));
	out->uid = out->threads = out->vm_rss_kb = NT_UNKNOWN;
	const char *p = buf, *end = buf + len;
	int found = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		const char *v;
		int64_t x;
		if (key_is(p, e, "Name")) {
			v = value_start(p, e, "Name");
			copy_field(out->name, sizeof(out->name), v, (size_t)(e - v));
			found++;
		} else if (key_is(p, e, "Uid")) {
			/* "Uid: real effective saved fs": the effective
			 * one owns the process, as ps and top show. */
			v = value_start(p, e, "Uid");
			if (parse_i64(&v, e, &x) == 0) {
				out->uid = x;
				while (v < e && (*v == ' ' || *v == '\t'))
					v++;
				if (parse_i64(&v, e, &x) == 0)
					out->uid = x;
			}
			found++;
		} else if (key_is(p, e, "Threads")) {
			v = value_start(p, e, "Threads");
			if (parse_i64(&v, e, &x) == 0)
				out->threads = x;
		} else if (key_is(p, e, "VmRSS")) {
			v = value_start(p, e, "VmRSS");
			if (parse_i64(&v, e, &x) == 0 && x >= 0 && x <= PID_STAT_MAX_PAGES)
				out->vm_rss_kb = x;
		} else if (key_is(p, e, "Cpus_allowed_list")) {
			v = value_start(p, e, "Cpus_allowed_list");
			copy_field(out->cpus_allowed_list,
				   sizeof(out->cpus_allowed_list), v, (size_t)(e - v));
		} else if (key_is(p, e, "Mems_allowed_list")) {
			v = value_start(p, e, "Mems_allowed_list");
			copy_field(out->mems_allowed_list,
				   sizeof(out->mems_allowed_list), v, (size_t)(e - v));
		}
		p = nl ? nl + 1 : end;
	}
	return found ? 0 : -EINVAL;
}

int maps_parse_range(const char *s, size_t len, uint64_t *start, uint64_t *end)
{
	const char *p = s, *e = s + len;
	uint64_t v[2] = { 0, 0 };
	for (int k = 0; k < 2; k++) {
		const char *d = p;
		while (p < e && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) {
			if (p - d >= 16)
				return -EINVAL;
			v[k] = v[k] * 16 + (uint64_t)(*p <= '9' ? *p - '0' : *p - 'a' + 10);
			p++;
		}
		if (p == d)
			return -EINVAL;
		if (k == 0 && (p >= e || *p++ != '-'))
			return -EINVAL;
	}
	if ((p < e && *p != ' ') || v[1] <= v[0])
		return -EINVAL;
	*start = v[0];
	*end = v[1];
	return 0;
}

static double ticks_per_s(void)
{
	long h = sysconf(_SC_CLK_TCK);
	return h > 0 ? (double)h : 100.0;
}

double parse_ticks_s(uint64_t ticks)
{
	return (double)ticks / ticks_per_s();
}

uint64_t parse_s_ticks(double s)
{
	return (uint64_t)(s * ticks_per_s() + 0.5);
}
