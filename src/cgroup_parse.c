/* cgroup_parse.c - pure parsers of memory.numa_stat (v1 and v2) and of
 * /proc/PID/cgroup, and the short name of a cgroup path. */
#include "cgroup_parse.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

const char *const cgroup_layout_names[] = { "none", "v1", "hybrid", "v2" };
const char *const cgroup_state_names[] = { "ok", "gone", "no_perm", "error" };

/* One line [p, e): the next line after it, or e. */
static const char *line_end(const char *p, const char *e)
{
	const char *nl = memchr(p, '\n', (size_t)(e - p));
	return nl ? nl : e;
}

/* An unsigned decimal in [p, e) ending at a space or the end; -1 if not. */
static int64_t number(const char **pp, const char *e)
{
	const char *p = *pp;
	int64_t v = 0;
	if (p >= e || *p < '0' || *p > '9')
		return -1;
	while (p < e && *p >= '0' && *p <= '9') {
		if (v > (INT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (*p++ - '0');
	}
	if (p < e && *p != ' ' && *p != '\t')
		return -1;
	*pp = p;
	return v;
}

enum which { W_NONE, W_NODE, W_ANON, W_FILE };

/* The N<id>=<value> tokens of one line into arr (scaled by mul, in kB
 * after div): 0, or -EINVAL for a token that is not one. */
static int node_tokens(const char *p, const char *e, int64_t mul, int64_t div,
		       int64_t *arr, struct cgroup_numa_stat *out, bool count_other)
{
	bool any = false;
	while (p < e) {
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= e)
			break;
		if (*p != 'N')
			return -EINVAL;
		p++;
		const char *q = p;
		int64_t id = 0;
		while (q < e && *q >= '0' && *q <= '9' && id <= 1 << 20)
			id = id * 10 + (*q++ - '0');
		if (q == p || q >= e || *q != '=' || id > 1 << 20)
			return -EINVAL;
		q++;
		int64_t v = number(&q, e);
		if (v < 0 || (mul > 1 && v > INT64_MAX / mul))
			return -EINVAL;
		v = v * mul / div;
		if (id <= out->max_id) {
			arr[id] = v;
		} else if (count_other) {
			if (v > INT64_MAX - out->other_kb)
				return -EINVAL;
			out->other_kb += v;
			if (out->other_id < 0)
				out->other_id = (int)id;
		}
		any = true;
		p = q;
	}
	return any ? 0 : -EINVAL;
}

int cgroup_parse_numa_stat(const char *buf, size_t len, long page_kb,
			   struct cgroup_numa_stat *out)
{
	size_t nid = (size_t)out->max_id + 1;
	for (size_t i = 0; i < nid; i++)
		out->node_kb[i] = out->anon_kb[i] = out->file_kb[i] = -1;
	out->other_kb = 0;
	out->other_id = -1;
	out->version = 0;
	if (page_kb <= 0)
		return -EINVAL;
	/* v1: hierarchical lines win over the cgroup's own ones. */
	bool v1_hier = len >= 13 && memmem(buf, len, "hierarchical_", 13) != NULL;
	bool understood = false;
	int64_t anon_v2_seen = 0;
	const char *p = buf, *e = buf + len;
	while (p < e) {
		const char *le = line_end(p, e);
		const char *sp = memchr(p, ' ', (size_t)(le - p));
		const char *eq = memchr(p, '=', (size_t)(le - p));
		if (eq && (!sp || eq < sp)) {
			/* v1: key=total N0=.. */
			const char *k = p;
			size_t kl = (size_t)(eq - p);
			bool hier = kl > 13 && memcmp(k, "hierarchical_", 13) == 0;
			if (hier) {
				k += 13;
				kl -= 13;
			}
			enum which w = W_NONE;
			if (kl == 5 && memcmp(k, "total", 5) == 0)
				w = W_NODE;
			else if (kl == 4 && memcmp(k, "anon", 4) == 0)
				w = W_ANON;
			else if (kl == 4 && memcmp(k, "file", 4) == 0)
				w = W_FILE;
			if (w != W_NONE && hier == v1_hier) {
				const char *q = eq + 1;
				if (number(&q, le) < 0)
					return -EINVAL;
				int64_t *arr = w == W_NODE ? out->node_kb :
					       w == W_ANON ? out->anon_kb : out->file_kb;
				int rc = node_tokens(q, le, page_kb, 1, arr, out, w == W_NODE);
				if (rc)
					return rc;
				if (out->version == 2)
					return -EINVAL;
				out->version = 1;
				understood = true;
			}
		} else if (sp) {
			/* v2: key N0=bytes N1=bytes */
			size_t kl = (size_t)(sp - p);
			enum which w = W_NONE;
			if (kl == 4 && memcmp(p, "anon", 4) == 0)
				w = W_ANON;
			else if (kl == 4 && memcmp(p, "file", 4) == 0)
				w = W_FILE;
			if (w != W_NONE) {
				int rc = node_tokens(sp + 1, le, 1, 1024,
						     w == W_ANON ? out->anon_kb : out->file_kb, out,
						     true);
				if (rc)
					return rc;
				if (out->version == 1)
					return -EINVAL;
				out->version = 2;
				anon_v2_seen |= w == W_ANON ? 1 : 2;
				understood = true;
			}
		}
		p = le < e ? le + 1 : e;
	}
	if (!understood)
		return -EINVAL;
	if (out->version == 2) {
		if (anon_v2_seen != 3)
			return -EINVAL;   /* node memory needs both */
		for (size_t i = 0; i < nid; i++)
			if (out->anon_kb[i] >= 0 && out->file_kb[i] >= 0)
				out->node_kb[i] = out->anon_kb[i] + out->file_kb[i];
	}
	return 0;
}

int cgroup_parse_proc(const char *buf, size_t len, struct cgroup_proc_paths *out)
{
	memset(out, 0, sizeof(*out));
	const char *p = buf, *e = buf + len;
	int rc = 0;
	bool any = false;
	while (p < e) {
		const char *le = line_end(p, e);
		const char *c1 = memchr(p, ':', (size_t)(le - p));
		const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(le - c1 - 1)) : NULL;
		if (c1 && c2 && c2 + 1 < le && c2[1] == '/') {
			const char *path = c2 + 1;
			size_t pl = (size_t)(le - path);
			char *dst = NULL;
			bool *flag = NULL;
			if (c1 == p + 1 && *p == '0' && c2 == c1 + 1) {
				dst = out->v2;
				flag = &out->have_v2;
			} else {
				/* v1: the controller list holds "memory" */
				const char *c = c1 + 1;
				while (c < c2) {
					const char *ce = memchr(c, ',', (size_t)(c2 - c));
					if (!ce)
						ce = c2;
					if (ce - c == 6 && memcmp(c, "memory", 6) == 0) {
						dst = out->memory;
						flag = &out->have_memory;
					}
					c = ce + 1;
				}
			}
			if (dst) {
				size_t cap = sizeof(out->v2);
				if (pl >= cap) {
					rc = -ENAMETOOLONG;
					pl = cap - 1;
				}
				memcpy(dst, path, pl);
				dst[pl] = '\0';
				*flag = true;
			}
			any = true;
		} else if (le > p) {
			return -EINVAL;
		}
		p = le < e ? le + 1 : e;
	}
	if (rc)
		return rc;
	return any ? 0 : -EINVAL;
}

static bool all_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

void cgroup_short_name(const char *path, char *out, size_t n)
{
	if (!n)
		return;
	const char *last = strrchr(path, '/');
	const char *c = last ? last + 1 : path;
	if (!*c) {
		snprintf(out, n, "/");
		return;
	}
	size_t cl = strlen(c);
	/* docker-<64hex>.scope, cri-containerd-<64hex>.scope, crio-<hex>.scope */
	const char *dash = strrchr(c, '-');
	const char *dot = strrchr(c, '.');
	if (dash && dot && dot > dash && (size_t)(dot - dash - 1) >= 32 &&
	    all_hex(dash + 1, (size_t)(dot - dash - 1))) {
		snprintf(out, n, "%.*s%.12s", (int)(dash + 1 - c), c, dash + 1);
		return;
	}
	if (cl >= 32 && all_hex(c, cl)) {       /* a bare container id */
		snprintf(out, n, "%.12s", c);
		return;
	}
	/* k8s: .../kubepods-besteffort-pod<uid>.slice or .../pod<uid>: "pod"
	 * opening the component or after a '-' (not the one of "kubepods") */
	const char *pod = NULL;
	for (const char *q = c; (q = strstr(q, "pod")) != NULL; q += 3)
		if (q == c || q[-1] == '-')
			pod = q;
	if (pod && strlen(pod) > 15) {
		size_t pl = strlen(pod);
		if (pl > 6 && strcmp(pod + pl - 6, ".slice") == 0)
			pl -= 6;
		snprintf(out, n, "%.*s", (int)(pl < 15 ? pl : 15), pod);
		return;
	}
	snprintf(out, n, "%s", c);
}
