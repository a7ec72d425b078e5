/* access_pick.c - whose turn it is to be watched (access_pick.h). */
#include "access_pick.h"

bool access_pick_worth(const struct access_cand *c)
{
	return c->remote_kb > 0 || c->fast_kb > 0;
}

static bool chosen(const int *out, size_t n, int pid)
{
	for (size_t i = 0; i < n; i++)
		if (out[i] == pid)
			return true;
	return false;
}

/* a before b: watched longer ago, remote before fast-only, more remote,
 * more on the fast tier, lower pid. */
static bool before(const struct access_cand *a, const struct access_cand *b)
{
	double la = a->last_on >= 0 ? a->last_on : -1e300, lb = b->last_on >= 0 ? b->last_on : -1e300;
	if (la != lb)
		return la < lb;
	if ((a->remote_kb > 0) != (b->remote_kb > 0))
		return a->remote_kb > 0;
	if (a->remote_kb != b->remote_kb)
		return a->remote_kb > b->remote_kb;
	if (a->fast_kb != b->fast_kb)
		return a->fast_kb > b->fast_kb;
	return a->pid < b->pid;
}

size_t access_pick(const struct access_cand *c, size_t nc, double now, double turn_s, int *out,
		   size_t n, size_t max)
{
	for (size_t i = 0; i < nc && n < max; i++)
		if (c[i].turn_start >= 0 && now - c[i].turn_start < turn_s && access_pick_worth(&c[i]) &&
		    !chosen(out, n, c[i].pid))
			out[n++] = c[i].pid;
	while (n < max) {
		const struct access_cand *best = NULL;
		for (size_t i = 0; i < nc; i++)
			if (access_pick_worth(&c[i]) && (!best || before(&c[i], best)) &&
			    !chosen(out, n, c[i].pid))
				best = &c[i];
		if (!best)
			break;
		out[n++] = best->pid;
	}
	return n;
}
