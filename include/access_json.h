/* access_json.h - access heat in the JSON sample (access_json.c):
 * written by output_json.c, read back by snapshot_json.c. */
#ifndef NUMATOP_ACCESS_JSON_H
#define NUMATOP_ACCESS_JSON_H

#include <json.h>

#include "access.h"
#include "snapshot.h"

json_object *access_json_status(const struct snapshot *s);
json_object *access_json_proc(const struct snapshot *s, const struct snap_proc *p);
/* The top level's and each process's "access" of a sample whose
 * processes s already holds (in the sample's order). 0, -EINVAL, -ENOMEM. */
int access_json_read(struct snapshot *s, json_object *root);
/* A process's source (damon, else numa_balancing where its faults were
 * read, else none) and why DAMON does not cover it. */
enum access_source access_proc_source(const struct snapshot *s, const struct snap_proc *p);
enum access_why access_proc_why(const struct snapshot *s, const struct snap_proc *p);

#endif
