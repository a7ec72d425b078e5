/* cgroup.c - the layout, the walk of the memory hierarchy, and per cgroup
 * its numa_stat, process count, memory and effective cpuset; then REMOTE
 * from the nodes its threads run on. */
#include "cgroup.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"

enum cgroup_layout cgroup_detect(const struct fsroot *r)
{
	if (fsroot_exists(r, "/sys/fs/cgroup/cgroup.controllers") == 0)
		return CGROUP_V2;
	if (fsroot_exists(r, "/sys/fs/cgroup/memory/cgroup.procs") == 0)
		return fsroot_exists(r, "/sys/fs/cgroup/unified/cgroup.controllers") == 0 ?
		       CGROUP_HYBRID : CGROUP_V1;
	return CGROUP_NONE;
}

const char *cgroup_mem_base(enum cgroup_layout l)
{
	return l == CGROUP_V2 ? "/sys/fs/cgroup" :
	       l == CGROUP_NONE ? NULL : "/sys/fs/cgroup/memory";
}

/* Paths in preorder: '/' sorts before every other byte. */
static int path_cmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		unsigned ca = (unsigned char)*a, cb = (unsigned char)*b;
		if (ca != cb) {
			ca = ca == '/' ? 1 : ca == 0 ? 0 : ca + 1;
			cb = cb == '/' ? 1 : cb == 0 ? 0 : cb + 1;
			return ca < cb ? -1 : 1;
		}
		if (!ca)
			return 0;
	}
}

long cgroup_find(const struct cgroup_set *set, const char *path)
{
	size_t lo = 0, hi = set->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = path_cmp(set->v[mid].path, path);
		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

struct walk {
	const struct fsroot *r;
	const struct topology *t;
	struct cgroup_set *set;
	const char *mem, *cpuset;      /* hierarchy directories */
	const char *cpus_file, *mems_file, *cur_file;
	struct buf b;
	struct cgroup_numa_stat ns;
	long page_kb;
	char file[4096 + 64];
};

static int add(struct walk *w, const char *path, int parent, int depth)
{
	struct cgroup_set *s = w->set;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct cgroup_info *v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memset(v + s->cap, 0, (cap - s->cap) * sizeof(*v));
		s->v = v;
		s->cap = cap;
	}
	struct cgroup_info *c = &s->v[s->n];
	char *p = strdup(path);
	if (!p)
		return -ENOMEM;
	free(c->path);
	c->path = p;
	c->parent = parent;
	c->depth = depth;
	c->state = CGS_OK;
	c->err = 0;
	c->procs = c->procs_tree = -1;
	c->have_numa = c->have_cpus = c->have_mems = false;
	c->total_kb = c->anon_total_kb = c->file_total_kb = c->current_kb = -1;
	c->unknown_node_kb = 0;
	c->remote_kb = -1;
	c->cut = false;
	c->remote_by_mems = false;
	c->npids = 0;
	c->unseen = 0;
	bitmap_clear(&c->cpus);
	bitmap_clear(&c->mems);
	bitmap_clear(&c->run_nodes);
	s->n++;
	return 0;
}

/* "/sys/fs/cgroup/memory" + "/a/b" + "/" + name into w->file. */
static const char *file_of(struct walk *w, const char *base, const char *path, const char *name)
{
	snprintf(w->file, sizeof(w->file), "%s%s%s%s", base, strcmp(path, "/") ? path : "",
		 name ? "/" : "", name ? name : "");
	return w->file;
}

static void set_err(struct walk *w, struct cgroup_info *c, int rc)
{
	if (c->state != CGS_OK)
		return;
	file_of(w, w->mem, c->path, NULL);
	if (rc == -ENOENT || rc == -ESRCH || rc == -ENODEV || fsroot_exists(w->r, w->file) != 0)
		c->state = CGS_GONE;
	else if (rc == -EACCES || rc == -EPERM)
		c->state = CGS_NO_PERM;
	else
		c->state = CGS_ERROR;
	c->err = -rc;
}

static void read_numa(struct walk *w, struct cgroup_info *c, int64_t *kb)
{
	size_t nn = w->t->nnodes;
	c->node_kb = kb;
	c->anon_kb = kb + nn;
	c->file_kb = kb + 2 * nn;
	for (size_t i = 0; i < 3 * nn; i++)
		kb[i] = -1;
	int rc = fsroot_read_file(w->r, file_of(w, w->mem, c->path, "memory.numa_stat"), &w->b,
				  1 << 20);
	if (rc == -ENOENT && fsroot_exists(w->r, file_of(w, w->mem, c->path, NULL)) == 0)
		return;         /* the memory controller is not enabled here */
	if (rc == 0)
		rc = cgroup_parse_numa_stat(w->b.data, w->b.len, w->page_kb, &w->ns);
	if (rc) {
		set_err(w, c, rc);
		return;
	}
	c->have_numa = true;
	c->total_kb = c->anon_total_kb = c->file_total_kb = 0;
	for (int id = 0; id <= w->ns.max_id; id++) {
		int ix = topology_node_index(w->t, id);
		if (ix < 0) {
			if (w->ns.node_kb[id] > 0)
				c->unknown_node_kb += w->ns.node_kb[id];
			continue;
		}
		c->node_kb[ix] = w->ns.node_kb[id];
		c->anon_kb[ix] = w->ns.anon_kb[id];
		c->file_kb[ix] = w->ns.file_kb[id];
	}
	c->unknown_node_kb += w->ns.other_kb;
	for (size_t i = 0; i < nn; i++) {
		/* A node the file does not name (the kernel lists only nodes
		 * with memory) holds nothing of it. */
		if (c->node_kb[i] < 0)
			c->node_kb[i] = c->anon_kb[i] = c->file_kb[i] = 0;
		c->total_kb += c->node_kb[i];
		if (c->anon_kb[i] >= 0 && c->anon_total_kb >= 0)
			c->anon_total_kb += c->anon_kb[i];
		else
			c->anon_total_kb = -1;
		if (c->file_kb[i] >= 0 && c->file_total_kb >= 0)
			c->file_total_kb += c->file_kb[i];
		else
			c->file_total_kb = -1;
	}
}

static void read_procs(struct walk *w, struct cgroup_info *c)
{
	int rc = fsroot_read_file(w->r, file_of(w, w->mem, c->path, "cgroup.procs"), &w->b,
				  16 << 20);
	if (rc) {
		set_err(w, c, rc);
		return;
	}
	const char *p = w->b.data, *e = w->b.data + w->b.len;
	while (p < e) {
		char *end;
		long pid = strtol(p, &end, 10);
		if (end == p || pid <= 0 || pid > INT32_MAX || (end < e && *end != '\n')) {
			set_err(w, c, -EINVAL);
			c->npids = 0;
			return;
		}
		if (c->npids == c->pidcap) {
			size_t cap = c->pidcap ? c->pidcap * 2 : 8;
			int *v = realloc(c->pids, cap * sizeof(*v));
			if (!v) {
				set_err(w, c, -ENOMEM);
				return;
			}
			c->pids = v;
			c->pidcap = cap;
		}
		c->pids[c->npids++] = (int)pid;
		p = end < e ? end + 1 : e;
	}
	c->procs = (int64_t)c->npids;
}

static void read_small_num(struct walk *w, struct cgroup_info *c)
{
	char v[64];
	int rc = fsroot_read_small(w->r, file_of(w, w->mem, c->path, w->cur_file), v, sizeof(v));
	char *end;
	if (rc > 0) {
		long long x = strtoll(v, &end, 10);
		if (*end == '\0' && x >= 0)
			c->current_kb = x / 1024;
	}
}

/* The effective cpuset. Where the cgroup has none (v2 without the
 * cpuset controller there; v1's cpuset hierarchy need not mirror the
 * memory one) its parent's holds: a child inherits it. Parents are read
 * first (preorder). */
static void read_cpuset(struct walk *w, struct cgroup_info *c)
{
	if (!w->cpuset)
		return;
	char v[8192];
	int rc = fsroot_read_small(w->r, file_of(w, w->cpuset, c->path, w->cpus_file), v, sizeof(v));
	if (rc >= 0 && bitmap_parse_list(&c->cpus, v, (size_t)rc) == 0)
		c->have_cpus = true;
	if (rc != -ENOENT || c->parent < 0) {
		rc = fsroot_read_small(w->r, file_of(w, w->cpuset, c->path, w->mems_file), v, sizeof(v));
		if (rc >= 0 && bitmap_parse_list(&c->mems, v, (size_t)rc) == 0)
			c->have_mems = true;
	}
	if ((c->have_cpus || c->have_mems) || c->parent < 0)
		return;
	const struct cgroup_info *p = &w->set->v[c->parent];
	if (p->have_cpus && bitmap_copy(&c->cpus, &p->cpus) == 0)
		c->have_cpus = true;
	if (p->have_mems && bitmap_copy(&c->mems, &p->mems) == 0)
		c->have_mems = true;
}

/* Cgroups below v[idx] are left out. */
static void cut_below(struct cgroup_set *s, long idx, size_t n)
{
	s->truncated += n;
	if (idx < 0)
		return;
	s->v[idx].cut = true;
	if (s->first_cut < 0)
		s->first_cut = idx;
}

static int walk(struct walk *w, const char *path, int parent, int depth)
{
	struct cgroup_set *s = w->set;
	if (s->n >= CGROUP_MAX) {
		cut_below(s, parent, 1);
		return 0;
	}
	int rc = add(w, path, parent, depth);
	if (rc)
		return rc;
	long me = (long)s->n - 1;
	char **names;
	size_t nn;
	rc = fsroot_list_names(w->r, file_of(w, w->mem, path, NULL), "", FSROOT_DIRS, &names, &nn);
	if (rc) {
		if (rc == -ENOMEM)
			return rc;
		set_err(w, &s->v[me], rc);
		return 0;
	}
	size_t use = nn;
	if (depth >= CGROUP_MAX_DEPTH && nn > 0) {
		cut_below(s, me, nn);
		use = 0;
	}
	char child[4096];
	for (size_t i = 0; i < use && rc == 0; i++) {
		int len = snprintf(child, sizeof(child), "%s/%s", strcmp(path, "/") ? path : "",
				   names[i]);
		if (len < 0 || (size_t)len >= sizeof(child)) {
			cut_below(s, me, 1);
			continue;
		}
		rc = walk(w, child, (int)me, depth + 1);
	}
	fsroot_free_names(names, nn);
	return rc;
}

int cgroup_read_all(const struct fsroot *r, const struct topology *t, struct cgroup_set *set)
{
	set->n = 0;
	set->rc = 0;
	set->truncated = 0;
	set->first_cut = -1;
	set->layout = cgroup_detect(r);
	if (set->layout == CGROUP_NONE)
		return 0;
	struct walk w = { .r = r, .t = t, .set = set, .mem = cgroup_mem_base(set->layout) };
	if (set->layout == CGROUP_V2) {
		w.cpuset = "/sys/fs/cgroup";
		w.cpus_file = "cpuset.cpus.effective";
		w.mems_file = "cpuset.mems.effective";
		w.cur_file = "memory.current";
	} else {
		w.cpuset = fsroot_exists(r, "/sys/fs/cgroup/cpuset/cgroup.procs") == 0 ?
			   "/sys/fs/cgroup/cpuset" : NULL;
		w.cpus_file = "cpuset.effective_cpus";
		w.mems_file = "cpuset.effective_mems";
		w.cur_file = "memory.usage_in_bytes";
	}
	long ps = sysconf(_SC_PAGESIZE);
	w.page_kb = ps > 0 ? ps / 1024 : 4;
	int maxid = t->nnodes ? t->nodes[t->nnodes - 1].id : 0;
	int64_t *idarr = malloc(3 * (size_t)(maxid + 1) * sizeof(int64_t));
	if (!idarr)
		return -ENOMEM;
	w.ns = (struct cgroup_numa_stat){ .node_kb = idarr, .anon_kb = idarr + maxid + 1,
					  .file_kb = idarr + 2 * (maxid + 1), .max_id = maxid };
	w.b = (struct buf){ 0 };
	int rc = walk(&w, "/", -1, 0);
	size_t nn = t->nnodes ? t->nnodes : 1;
	if (rc == 0 && set->kbcap < set->n * 3 * nn) {
		int64_t *kb = realloc(set->kb, set->n * 3 * nn * sizeof(int64_t));
		if (!kb)
			rc = -ENOMEM;
		else {
			set->kb = kb;
			set->kbcap = set->n * 3 * nn;
		}
	}
	for (size_t i = 0; rc == 0 && i < set->n; i++) {
		struct cgroup_info *c = &set->v[i];
		read_procs(&w, c);
		read_numa(&w, c, set->kb + i * 3 * nn);
		if (c->state == CGS_GONE) {    /* removed meanwhile: nothing of it */
			c->have_numa = false;
			c->procs = -1;
			c->npids = 0;
			continue;
		}
		read_small_num(&w, c);
		read_cpuset(&w, c);
	}
	buf_free(&w.b);
	free(idarr);
	set->rc = rc;
	return rc;
}

void cgroup_add_run_node(struct cgroup_set *set, long idx, int node_id)
{
	if (idx < 0 || (size_t)idx >= set->n || node_id < 0)
		return;
	bitmap_set(&set->v[idx].run_nodes, (unsigned)node_id);
}

void cgroup_finish(struct cgroup_set *set, const struct topology *t)
{
	/* Children after parents: fold up from the end. */
	for (size_t i = set->n; i-- > 0;) {
		struct cgroup_info *c = &set->v[i];
		if (c->procs_tree < 0)
			c->procs_tree = c->procs;
		else if (c->procs >= 0)
			c->procs_tree += c->procs;
		/* Processes below a cut were not counted: not a number. */
		if (c->cut)
			c->procs_tree = -1;
		if (c->parent >= 0) {
			struct cgroup_info *p = &set->v[c->parent];
			if (c->cut)
				p->cut = true;
			bitmap_or(&p->run_nodes, &c->run_nodes);
			p->unseen += c->unseen;
			if (c->procs_tree >= 0)
				p->procs_tree = (p->procs_tree < 0 ? 0 : p->procs_tree) + c->procs_tree;
		}
	}
	for (size_t i = 0; i < set->n; i++) {
		struct cgroup_info *c = &set->v[i];
		c->remote_kb = -1;
		if (!c->have_numa)
			continue;
		/* Against mems when it leaves a node out, else where it runs. */
		bool restricted = false;
		if (c->have_mems)
			for (size_t k = 0; k < t->nnodes; k++)
				if (t->nodes[k].has_memory && !bitmap_test(&c->mems, (unsigned)t->nodes[k].id))
					restricted = true;
		const struct bitmap *home = restricted ? &c->mems : &c->run_nodes;
		if (!restricted && (bitmap_empty(&c->run_nodes) || c->unseen > 0 || c->cut))
			continue;
		c->remote_by_mems = restricted;
		int64_t r = 0;
		for (size_t k = 0; k < t->nnodes; k++)
			if (!bitmap_test(home, (unsigned)t->nodes[k].id) && c->node_kb[k] > 0)
				r += c->node_kb[k];
		c->remote_kb = r + (c->unknown_node_kb > 0 ? c->unknown_node_kb : 0);
	}
}

void cgroup_set_free(struct cgroup_set *set)
{
	for (size_t i = 0; i < set->cap; i++) {
		free(set->v[i].path);
		free(set->v[i].pids);
		bitmap_free(&set->v[i].cpus);
		bitmap_free(&set->v[i].mems);
		bitmap_free(&set->v[i].run_nodes);
	}
	free(set->v);
	free(set->kb);
	memset(set, 0, sizeof(*set));
}
