/* output_prom_int.h - what the parts of the Prometheus exposition share:
 * the family table's rows, and writing a family's HELP and TYPE and its
 * samples (output_prom_fam.c); the node and the exporter's own series
 * (and the access heat's node and status series) are output_prom.c's, the
 * process and command series output_prom_proc.c's. */
#ifndef NUMATOP_OUTPUT_PROM_INT_H
#define NUMATOP_OUTPUT_PROM_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "output.h"
#include "output_prom_fam.h"

struct expo {
	FILE *f;
	bool om;                /* OpenMetrics */
};

/* HELP and TYPE of family f; one sample of it, with the values of its
 * labels in the table's order (as many). The _row forms: of a row that is
 * not in the table (prom_node_family: a node field's). */
void prom_head(const struct expo *e, enum fam f);
void prom_sample(const struct expo *e, enum fam f, const char *const *vals, double v);
void prom_head_row(const struct expo *e, const struct prom_family *f);
void prom_sample_row(const struct expo *e, const struct prom_family *f, const char *const *vals,
		     double v);
struct node_field;
struct prom_family prom_node_family(const struct node_field *nf);
struct proc_field;
struct prom_family prom_proc_family(const struct proc_field *pf);

/* A number as a label value. */
struct prom_num { char s[24]; };
struct prom_num prom_num(long long v);

static inline double prom_kb_bytes(int64_t kb) { return (double)kb * 1024.0; }

/* The process series (per pid or per command name and user) and the count
 * of processes left out; 0 or -ENOMEM. */
int prom_processes(const struct expo *e, const struct snapshot *s, const struct output_metrics *m);

#endif
