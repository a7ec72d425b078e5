/* action_job_sum.c - what an action did, summed over its targets: kB per node
 * before and after, pages moved and why others did not, threads set. */
#include "action_job.h"

#include <string.h>

/* The pages the walks visited, per node: before or after. */
static void sum_walk(const struct actjob *j, bool after, int64_t *out)
{
	bool any = false;
	for (size_t k = 0; k < j->topo->nnodes; k++)
		out[k] = 0;
	for (size_t i = 0; i < j->n; i++) {
		const struct migrate_job *jb = &j->items[i].job;
		if (j->items[i].prep_rc || j->items[i].lock_rc || !jb->walk_before || !jb->scanned)
			continue;
		const uint64_t *v = after ? jb->walk_after : jb->walk_before;
		for (size_t k = 0; k < j->topo->nnodes && k < jb->pv.nnodes; k++)
			out[k] += (int64_t)(v[k] * (uint64_t)jb->pagesize / 1024);
		any = true;
	}
	for (size_t k = 0; !any && k < j->topo->nnodes; k++)
		out[k] = -1;
}

void actjob_sum_kb(const struct actjob *j, enum actjob_when w, int64_t *out)
{
	if (w == ACTJOB_WALK_BEFORE || w == ACTJOB_WALK_AFTER) {
		sum_walk(j, w == ACTJOB_WALK_AFTER, out);
		return;
	}
	for (size_t k = 0; k < j->topo->nnodes; k++) {
		int64_t sum = 0;
		bool any = false, unknown = false;
		for (size_t i = 0; i < j->n; i++) {
			const struct actjob_item *it = &j->items[i];
			const int64_t *v = w == ACTJOB_AFTER ? it->after : it->before;
			if (it->prep_rc)
				continue;
			if (w != ACTJOB_NOW && (it->lock_rc || it->after_rc))
				continue;
			if (v[k] < 0)
				unknown = true;
			else
				sum += v[k];
			any = true;
		}
		/* Nothing readable (no perm, exited) is unknown, not 0 kB. */
		out[k] = any && !unknown ? sum : -1;
	}
}

void actjob_summarize(const struct actjob *j, struct actjob_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->arrived_kb = -1;
	/* Processes move one after another: the rate is all bytes moved over
	 * the time since the first batch (a sum of per-process rates would
	 * count finished processes again). */
	double t0 = 0, t1 = 0;
	int64_t b0 = 0, a0 = 0;
	bool arrived_known = j->done && j->migrate && j->node >= 0;
	for (size_t i = 0; i < j->n; i++) {
		const struct actjob_item *it = &j->items[i];
		const struct migrate_job *jb = &it->job;
		s->threads += it->rb.nthreads;
		s->set += it->rb.changed;
		if (it->prep_rc)
			continue;
		s->planned++;
		s->pv.move_kb += jb->pv.move_kb;
		s->pv.shared_kb += jb->pv.shared_kb;
		s->pv.file_anon_kb += jb->pv.file_anon_kb;
		s->pv.file_kb += jb->pv.file_kb;
		s->pv.huge_kb += jb->pv.huge_kb;
		s->pv.on_target_kb += jb->pv.on_target_kb;
		s->scanned += jb->scanned;
		s->moved += jb->moved;
		s->mib += (double)jb->moved * (double)jb->pagesize / 1048576.0;
		for (int r = 0; r < MIG_NREASONS; r++)
			s->failed[r] += jb->failed[r];
		if (jb->t_start > 0 && (t0 == 0 || jb->t_start < t0))
			t0 = jb->t_start;
		if (jb->t_end > t1)
			t1 = jb->t_end;
		/* What moved is what numa_maps shows arrived on the target (page
		 * counts from move_pages see a huge page once per subpage). */
		if (it->lock_rc || it->after_rc)
			continue;      /* exited: left out of both, as in actjob_sum_kb */
		if (it->before[j->node] >= 0 && it->after[j->node] >= 0) {
			b0 += it->before[j->node];
			a0 += it->after[j->node];
		} else {
			arrived_known = false;
		}
	}
	if (arrived_known)
		s->arrived_kb = a0 > b0 ? a0 - b0 : 0;
	s->secs = t1 > t0 ? t1 - t0 : 0;
	double mib = s->arrived_kb >= 0 ? (double)s->arrived_kb / 1024.0 : s->mib;
	s->rate_mbs = s->secs > 0 ? mib * 1.048576 / s->secs : 0;
	s->progress = j->total_pages ? (double)s->scanned / (double)j->total_pages : 1;
}

int actjob_first_error(const struct actjob *j, int stage, char *buf, size_t n, int *pid)
{
	for (size_t i = 0; i < j->n; i++) {
		const struct actjob_item *it = &j->items[i];
		int rc = stage == 0 ? it->prep_rc : stage == 1 ? it->lock_rc :
			 stage == 2 ? it->rb_rc : it->mig_rc;
		if (rc < 0 && !(stage == 2 && it->lock_rc)) {
			*pid = it->tg.pid;
			if (stage == 3)
				migrate_strerror(rc, j->topo->nodes[j->node].id, buf, n);
			else
				action_strerror(rc, buf, n);
			return 1;
		}
	}
	return 0;
}
