/* fuzz.c - libFuzzer targets for every parser. Build one target with
 * -DFUZZ_<name>: numa_maps, cpulist, cpumap, distance, meminfo, numastat,
 * proc_stat, pid_stat, pid_status, sanitize. `make fuzz FUZZ_SECONDS=N`
 * runs each for N seconds on the seed corpus in tests/fuzz/corpus/<name>. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bitmap.h"
#include "numa_maps.h"
#include "parse.h"
#include "sanitize.h"

static int count_cpu(int cpu, const struct cpu_ticks *t, void *ctx)
{
	(void)cpu;
	*(int *)ctx += t->nfields;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
#if defined(FUZZ_numa_maps)
	static const int ids[] = { 0, 1, -1, 2 };
	struct nm_params p = { 4, 2048, ids, 4, 3 };
	struct nm_mapping m;
	struct nm_summary sum;
	nm_mapping_init(&m);
	if (nm_summary_init(&sum, 3) == 0) {
		if (numa_maps_summarize(s, size, &p, &m, &sum) == 0) {
			int64_t t = sum.other_kb;
			for (size_t i = 0; i < 3; i++)
				t += sum.node_kb[i];
			if (t != sum.total_kb)
				abort();   /* per-node kB must add up to the total */
		}
		nm_summary_free(&sum);
	}
	nm_mapping_free(&m);
#elif defined(FUZZ_cpulist) || defined(FUZZ_cpumap)
	struct bitmap b;
	bitmap_init(&b);
#if defined(FUZZ_cpulist)
	int rc = bitmap_parse_list(&b, s, size);
#else
	int rc = bitmap_parse_mask(&b, s, size);
#endif
	if (rc == 0) {
		char out[256];
		size_t need = bitmap_format_list(&b, out, sizeof(out));
		if (need < sizeof(out)) {
			/* Round trip: the formatted list parses to the same set. */
			struct bitmap c;
			bitmap_init(&c);
			if (bitmap_parse_list(&c, out, strlen(out)) != 0 || !bitmap_equal(&b, &c))
				abort();
			bitmap_free(&c);
		}
	}
	bitmap_free(&b);
#elif defined(FUZZ_distance)
	int v[64];
	size_t n;
	parse_distance(s, size, v, 64, &n);
#elif defined(FUZZ_meminfo)
	struct mem_info mi;
	parse_meminfo(s, size, &mi);
#elif defined(FUZZ_numastat)
	struct numastat ns;
	parse_numastat(s, size, &ns);
#elif defined(FUZZ_proc_stat)
	int total = 0;
	parse_proc_stat(s, size, count_cpu, &total);
#elif defined(FUZZ_pid_stat)
	struct pid_stat st;
	parse_pid_stat(s, size, &st);
#elif defined(FUZZ_pid_status)
	struct pid_status ps;
	parse_pid_status(s, size, &ps);
#elif defined(FUZZ_sanitize)
	char *in = malloc(size + 1), out[128];
	if (in) {
		memcpy(in, s, size);
		in[size] = '\0';
		sanitize_term(in, out, sizeof(out));
		for (const unsigned char *q = (const unsigned char *)out; *q; q++)
			if (*q < 0x20 || *q == 0x7f)
				abort();   /* no control character may get through */
		sanitize_utf8(in, out, sizeof(out));
		free(in);
	}
#else
#error "define FUZZ_<target>"
#endif
	return 0;
}
