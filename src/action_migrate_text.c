/* action_migrate_text.c - what the actions say: errors with their fix, the
 * reasons pages did not move, and what stays the process's own. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "action_migrate.h"
#include "sanitize.h"

const char *const migrate_reason_text[MIG_NREASONS] = {
	[MIG_SHARED] = "shared with other processes (needs CAP_SYS_NICE)",
	[MIG_BUSY] = "busy (pinned or under I/O)",
	[MIG_NOMEM] = "no free memory on the target node",
	[MIG_OTHER] = "other errors",
};

const char *migrate_strerror(int err, int to_node, char *buf, size_t n)
{
	if (err == -EACCES || err == EACCES) {
		snprintf(buf, n, "node %d is outside the process's cpuset (EACCES): "
			 "widen its cpuset.mems first", to_node);
		return buf;
	}
	return action_strerror(err, buf, n);
}

size_t migrate_format_not_moved(const struct migrate_job *j, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < MIG_NREASONS && len < n; i++)
		if (j->failed[i]) {
			int w = snprintf(buf + len, n - len, "%s%llu %s", len ? ", " : "",
					 (unsigned long long)j->failed[i], migrate_reason_text[i]);
			len += w > 0 ? (size_t)w : 0;
		}
	return len < n ? len : n - 1;
}

void migrate_format_policy_note(const char *policy, bool rebound, char *buf, size_t n)
{
	if (!policy || !policy[0] || strcmp(policy, "default") == 0)
		snprintf(buf, n, "memory policy default stays (another process's policy "
			 "cannot be changed): new pages go to the node of the CPU that "
			 "first touches them%s",
			 rebound ? " (now the chosen node's)" : "");
	else {
		char pol[256];   /* from the kernel, but printed: made safe anyway */
		sanitize_term(policy, pol, sizeof(pol));
		snprintf(buf, n, "memory policy %s stays (another process's policy cannot "
			 "be changed): its future allocations follow that policy", pol);
	}
}
