/* action_tier.c - the tier checks of promote hot and demote cold
 * (action_tier.h). */
#include "action_tier.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "access.h"
#include "bitmap.h"

static double mib(int64_t kb)
{
	return (double)kb / 1024.0;
}

bool tieract_policy_excludes(const char *policy, int node_id, char *list, size_t n)
{
	list[0] = '\0';
	for (const char *at = policy; at && (at = strstr(at, "bind")) != NULL; at += 4) {
		const char *p = at + 4;
		if (*p == '=')         /* flags: =static, =relative */
			while (*p && *p != ':' && *p != ',')
				p++;
		if (*p != ':')
			continue;
		const char *s = ++p;
		/* The list: digits, '-' and ',' followed by a digit (a comma
		 * before a letter ends it: "bind:0,default"). */
		while ((*p >= '0' && *p <= '9') || *p == '-' || (*p == ',' && p[1] >= '0' && p[1] <= '9'))
			p++;
		struct bitmap b;
		bitmap_init(&b);
		int rc = p > s ? bitmap_parse_list(&b, s, (size_t)(p - s)) : -EINVAL;
		bool out = rc == 0 && !bitmap_test(&b, (unsigned)node_id);
		bitmap_free(&b);
		if (out) {
			snprintf(list, n, "%.*s", (int)(p - s), s);
			return true;
		}
	}
	return false;
}

/* The ids of the nodes in tiers slower than the fastest: "1" or "1, 3". */
static void slower_nodes(const struct tier_model *m, char *out, size_t n)
{
	size_t o = 0;
	out[0] = '\0';
	for (size_t i = 0; i < m->nnodes && o + 16 < n; i++)
		if (m->node[i].order > 0)
			o += (size_t)snprintf(out + o, n - o, "%s%d", o ? ", " : "", m->node[i].id);
}

enum tieract_refusal tieract_check(const struct tieract_move *m, char *why, size_t n)
{
	why[0] = '\0';
	int id = m->topo && m->node < m->topo->nnodes ? m->topo->nodes[m->node].id : (int)m->node;
	const char *what = m->cold ? "cold" : "hot";
	if (m->cold) {
		if (!m->tiers || !tiers_multi(m->tiers)) {
			snprintf(why, n, "this machine has %s memory tier: there is no slower tier to "
				 "demote to (--migrate without --cold moves memory between nodes)",
				 m->tiers && m->tiers->ntiers ? "one" : "no");
			return TIERACT_NO_SLOW_TIER;
		}
		int order = tiers_node_order(m->tiers, m->node);
		if (order <= 0) {
			char slow[128];
			slower_nodes(m->tiers, slow, sizeof(slow));
			const struct tier_info *t = tiers_node_tier(m->tiers, m->node);
			char tn[32] = "no tier";
			if (t)
				snprintf(tn, sizeof(tn), "memory_tier%d", t->id);
			snprintf(why, n, "node %d is %s (%s): demote cold moves memory to a slower tier "
				 "(node %s)", id, order == 0 ? "in the fastest tier" : "in no memory tier",
				 tn, slow);
			return TIERACT_NOT_SLOWER;
		}
		char list[64];
		if (tieract_policy_excludes(m->policy, id, list, sizeof(list))) {
			char pol[96];
			snprintf(pol, sizeof(pol), "%s", m->policy);
			for (char *c = pol; *c; c++)   /* the kernel's text, printed */
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					*c = '?';
			snprintf(why, n, "its memory policy (%s) binds its memory to node%s %s: pages "
				 "demoted to node %d would go against it", pol,
				 strpbrk(list, ",-") ? "s" : "", list, id);
			return TIERACT_POLICY;
		}
	}
	if (m->kb > 0 && m->free_kb >= 0 && m->kb > m->free_kb) {
		snprintf(why, n, "node %d has %.1f MiB free for %.1f MiB of %s memory: %s", id,
			 mib(m->free_kb), mib(m->kb), what,
			 m->cold ? "free memory there first" : "free memory there first, then promote it");
		return TIERACT_NO_ROOM;
	}
	return TIERACT_OK;
}

bool tieract_move_of(const struct snapshot *s, const struct snap_proc *p, int node_id, bool cold,
		     struct tieract_move *m)
{
	memset(m, 0, sizeof(*m));
	const struct topology *t = s->topo;
	size_t i = 0;
	while (t && i < t->nnodes && t->nodes[i].id != node_id)
		i++;
	if (!t || i >= t->nnodes)
		return false;
	m->tiers = &s->nk.tiers;
	m->topo = t;
	m->node = i;
	m->cold = cold;
	m->free_kb = s->nodes ? s->nodes[i].mem.mem_free_kb : -1;
	m->policy = p ? p->policy : NULL;
	m->kb = -1;
	const struct access_proc *a = p ? p->acc : NULL;
	int64_t all = a ? (cold ? a->cold_kb : a->hot_kb) : -1;
	const int64_t *on = a ? (cold ? a->cold_node_kb : a->hot_node_kb) : NULL;
	if (all >= 0 && on && on[i] >= 0)
		m->kb = all > on[i] ? all - on[i] : 0;
	return true;
}
