/* hmat.h - the firmware's own performance numbers (ACPI HMAT) where the
 * kernel exposes them: /sys/devices/system/node/nodeN/accessK/initiators/
 * {read,write}_{latency,bandwidth} for the initiator nodes linked there. */
#ifndef NUMATOP_HMAT_H
#define NUMATOP_HMAT_H

#include <stddef.h>
#include <stdint.h>

#include "fsroot.h"
#include "topology.h"

struct hmat {
	size_t n;               /* nodes, topology index order */
	int access;             /* the access class read (1: CPUs only, else 0) */
	int64_t *lat_ns;        /* [n * n] initiator row, target column; -1 */
	int64_t *bw_mbs;        /* read bandwidth, MB/s; -1 */
	size_t ncells;          /* cells with a value */
};

/* 0 with values, -ENOENT when the kernel shows none, -ENOMEM. */
int hmat_read(const struct fsroot *r, const struct topology *t, struct hmat *h);
void hmat_free(struct hmat *h);

#endif
