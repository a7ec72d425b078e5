/* node_fields.c - the per-node metrics' table (node_fields.h). */
#include "node_fields.h"

#include <string.h>

#define MEM_FIELD(name, member)                                                         \
	static double get_##name(const struct snapshot *s, size_t i)                    \
	{                                                                               \
		return (double)s->nodes[i].mem.member;                                  \
	}                                                                               \
	static void set_##name(struct snapshot *s, size_t i, double v)                  \
	{                                                                               \
		s->nodes[i].mem.member = v < 0 ? -1 : (int64_t)v;                       \
	}
MEM_FIELD(total, mem_total_kb)
MEM_FIELD(free, mem_free_kb)
MEM_FIELD(used, mem_used_kb)
MEM_FIELD(file, file_pages_kb)
MEM_FIELD(anon, anon_pages_kb)
MEM_FIELD(shmem, shmem_kb)

#define LOAD_FIELD(name, member)                                                        \
	static double get_##name(const struct snapshot *s, size_t i)                    \
	{                                                                               \
		return s->node_load ? s->node_load[i].member : -1;                      \
	}                                                                               \
	static void set_##name(struct snapshot *s, size_t i, double v)                  \
	{                                                                               \
		if (s->node_load)                                                       \
			s->node_load[i].member = v < 0 ? -1 : v;                        \
	}
LOAD_FIELD(busy, busy)
LOAD_FIELD(user, user)
LOAD_FIELD(system, system)
LOAD_FIELD(iowait, iowait)

const struct node_field node_fields[] = {
	{ "mem_total_kb", NF_KB, "MEM_TOTAL_KB", 12, "numatop_node_memory_total_bytes",
	  "Memory of the node (MemTotal).",
	  "MemTotal, kB; null when unknown.", get_total, set_total },
	{ "mem_free_kb", NF_KB, "MEM_FREE_KB", 12, "numatop_node_memory_free_bytes",
	  "Free memory of the node (MemFree).",
	  "MemFree, kB; null when unknown.", get_free, set_free },
	{ "mem_used_kb", NF_KB, "MEM_USED_KB", 12, "numatop_node_memory_used_bytes",
	  "Memory of the node in use (MemUsed: MemTotal - MemFree).",
	  "MemUsed (MemTotal - MemFree), kB; null when unknown.", get_used, set_used },
	{ "file_kb", NF_KB, "FILE_KB", 12, "numatop_node_memory_file_bytes",
	  "Page cache on the node (FilePages).",
	  "FilePages (page cache), kB; null when unknown.", get_file, set_file },
	{ "anon_kb", NF_KB, "ANON_KB", 12, "numatop_node_memory_anon_bytes",
	  "Anonymous memory on the node (AnonPages).",
	  "AnonPages, kB; null when unknown.", get_anon, set_anon },
	{ "shmem_kb", NF_KB, "SHMEM_KB", 12, "numatop_node_memory_shmem_bytes",
	  "Shared memory on the node (Shmem).",
	  "Shmem, kB; null when unknown.", get_shmem, set_shmem },
	{ "cpu_busy_pct", NF_PCT, "LOAD%", 6, NULL, NULL,
	  "Its CPUs' busy time since the last sample, %; null on the first sample or when unknown.",
	  get_busy, set_busy },
	{ "cpu_user_pct", NF_PCT, "USER%", 6, NULL, NULL,
	  "User (and nice) time, %; null as cpu_busy_pct.", get_user, set_user },
	{ "cpu_system_pct", NF_PCT, "SYS%", 6, NULL, NULL,
	  "System time, %; null as cpu_busy_pct.", get_system, set_system },
	{ "cpu_iowait_pct", NF_PCT, "IOWAIT%", 7, NULL, NULL,
	  "I/O wait, %; null as cpu_busy_pct.", get_iowait, set_iowait },
};
const size_t node_nfields = sizeof(node_fields) / sizeof(node_fields[0]);

const struct node_field *node_field_find(const char *key)
{
	for (size_t i = 0; i < node_nfields; i++)
		if (strcmp(node_fields[i].key, key) == 0)
			return &node_fields[i];
	return NULL;
}
