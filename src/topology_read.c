/* topology_read.c - what the node and CPU readers of the topology
 * (topology.c, topology_cpu.c) share, below both: a CPU set read from
 * sysfs as a list or a mask, and a warning kept for the views. */
#include "topology_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void topo_warn(struct topology *t, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	char **w = realloc(t->warnings, (t->nwarnings + 1) * sizeof(*w));
	if (!w)
		return;
	t->warnings = w;
	if ((w[t->nwarnings] = strdup(msg)) != NULL)
		t->nwarnings++;
}

/* Read DIR/list_name (a cpulist) or else DIR/mask_name (a hex mask).
 * 0 when one was read, else -errno of the last attempt. */
int topo_read_bitmap(const struct fsroot *r, const char *dir,
		     const char *list_name, const char *mask_name,
		     struct bitmap *out)
{
	char path[512];
	struct buf b = { 0 };
	int rc = -ENOENT;
	if (list_name) {
		snprintf(path, sizeof(path), "%s/%s", dir, list_name);
		rc = fsroot_read_file(r, path, &b, 1 << 20);
		if (rc == 0)
			rc = bitmap_parse_list(out, b.data ? b.data : "", b.len);
	}
	if (rc && mask_name) {
		snprintf(path, sizeof(path), "%s/%s", dir, mask_name);
		rc = fsroot_read_file(r, path, &b, 1 << 20);
		if (rc == 0)
			rc = bitmap_parse_mask(out, b.data ? b.data : "", b.len);
	}
	buf_free(&b);
	return rc;
}
