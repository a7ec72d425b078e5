/* fuzz_fleet.c - the answer of a Prometheus server's query API
 * (fleet_parse.c), and the hosts table folded from it as each query's
 * answer (fleet_model.c): whatever the server sends, the parser returns
 * 0, -EPROTO or -EINVAL, a success has well-formed series, and the table
 * keeps its invariants. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "fuzz.h"

void t_fleet_answer(const char *s, size_t size)
{
	struct fleet_answer a;
	int rc = fleet_answer_parse(s, size, &a);
	if (rc != 0 && rc != -EPROTO && rc != -EINVAL && rc != -ENOMEM)
		abort();
	if (rc == -EPROTO && !memchr(a.error, '\0', sizeof(a.error)))
		abort();
	if (rc == 0) {
		for (size_t i = 0; i < a.nseries; i++) {
			const struct fleet_series *x = &a.series[i];
			if (a.type == FR_VECTOR && x->npoints != 1)
				abort();
			for (size_t k = 0; k < x->nlabels; k++)
				if (!x->names[k] || !x->values[k])
					abort();
		}
		struct fleet f = { 0 };
		for (enum fleet_query q = 0; q < FQ_N; q++)
			if (fleet_merge(&f, q, &a) != 0)
				break;
		fleet_sort(&f);
		for (size_t i = 0; i < f.nhosts; i++) {
			const struct fleet_host *h = &f.hosts[i];
			if (!h->instance || !h->job || h->ntop > 2 * FLEET_TOP)
				abort();
			if (i && h[-1].hot_remote_bytes < h->hot_remote_bytes)
				abort();    /* the order */
			for (size_t j = 1; j < h->nnodes; j++)
				if (h->nodes[j - 1].id >= h->nodes[j].id)
					abort();
		}
		fleet_free(&f);
	}
	fleet_answer_free(&a);
}
