/* session.c - open the root, the topology and the sampler once, for the
 * batch loop, the monitor and the action and measure commands alike. */
#include "session.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int session_open(struct session *s, const struct session_config *c, char *err, size_t errsz)
{
	memset(s, 0, sizeof(*s));
	int rc = fsroot_open(c->root, &s->root);
	if (rc) {
		snprintf(err, errsz, "cannot open root '%s': %s", c->root, fsroot_strerror(-rc));
		return rc;
	}
	if (c->live_only && !fsroot_is_live(s->root)) {
		snprintf(err, errsz, "--measure needs the live machine, not a recorded tree (--root)");
		session_close(s);
		return -EINVAL;
	}
	rc = topology_read(s->root, &s->topo);
	if (rc) {
		snprintf(err, errsz, "'%s' has no readable /sys or /proc: %s", c->root, fsroot_strerror(-rc));
		fsroot_close(s->root);
		s->root = NULL;
		return rc;
	}
	if (c->filter.user && !proc_user_known(s->root, c->filter.user)) {
		snprintf(err, errsz, "-u %s: no such user", c->filter.user);
		session_close(s);
		return SESSION_EUSAGE;
	}
	if (c->sampler) {
		rc = sampler_new(s->root, &s->topo, c->backend, &s->smp);
		if (rc) {
			snprintf(err, errsz, "cannot start sampling: %s", fsroot_strerror(-rc));
			session_close(s);
			return rc;
		}
		sampler_set_filter(s->smp, &c->filter);
		struct nmsched_config nc;
		nmsched_config_default(&nc);
		nc.full = c->full;
		if (c->budget_ms > 0)
			nc.budget_s = c->budget_ms / 1000.0;
		sampler_set_budget(s->smp, &nc);
		if (c->access && (rc = sampler_set_access(s->smp, c->access_watch ?
							  SAMPLER_ACCESS_WATCH : SAMPLER_ACCESS_ON)) != 0) {
			snprintf(err, errsz, "cannot start sampling: %s", fsroot_strerror(-rc));
			session_close(s);
			return rc;
		}
		/* Processes named with -p are what the user watches: every tick. */
		if (c->filter.npids &&
		    (rc = sampler_set_priority(s->smp, c->filter.pids, c->filter.npids)) != 0) {
			snprintf(err, errsz, "cannot start sampling: %s", fsroot_strerror(-rc));
			session_close(s);
			return rc;
		}
	}
	if (c->hmat)
		s->have_hmat = hmat_read(s->root, &s->topo, &s->hmat) == 0;
	if (c->measurement && fsroot_is_live(s->root))
		s->have_meas = measure_load_cached(&s->topo, &s->meas) == 0;
	return 0;
}

void session_close(struct session *s)
{
	if (s->have_meas)
		measure_free(&s->meas);
	if (s->have_hmat)
		hmat_free(&s->hmat);
	sampler_free(s->smp);
	if (s->root)
		topology_free(&s->topo);
	fsroot_close(s->root);
	memset(s, 0, sizeof(*s));
}
