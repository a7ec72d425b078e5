/* topology_int.h - internal to the topology module (topology.c,
 * topology_cpu.c, and below both topology_read.c). */
#ifndef NUMATOP_TOPOLOGY_INT_H
#define NUMATOP_TOPOLOGY_INT_H

#include "topology.h"

int topo_read_cpus(const struct fsroot *r, struct topology *t);
void topo_warn(struct topology *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int topo_read_bitmap(const struct fsroot *r, const char *dir,
		     const char *list_name, const char *mask_name,
		     struct bitmap *out);

#endif
