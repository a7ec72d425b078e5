/* recorder.c - what recording costs on the benchmark's load: the same
 * steps as -w (sample, sort, JSON line, compress into the recording,
 * flush and sync), timed and sized per sample. */
#include "recorder.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output.h"
#include "record.h"
#include "session.h"

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double pct(double *v, size_t n, double p)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return v[(size_t)(p * (double)(n - 1) + 0.5)];
}

int recorder_measure(size_t samples, size_t warmup, double delay, struct recorder_cost *out)
{
	memset(out, 0, sizeof(*out));
	if (samples <= warmup + 1)
		return -EINVAL;
	struct session se;
	struct session_config sc = { .root = "/", .sampler = true, .backend = PROC_BACKEND_AUTO,
				     .budget_ms = NMSCHED_BUDGET_MS };
	char msg[512];
	int rc = session_open(&se, &sc, msg, sizeof(msg));
	if (rc) {
		fprintf(stderr, "bench: recorder: %s\n", msg);
		return rc;
	}
	sampler_set_cgroups(se.smp, output_format_find("json")->cgroups);
	char dir[] = "/tmp/numatop-bench-rec.XXXXXX", path[64];
	struct rec_writer *w = NULL;
	char *hdr = NULL, *line = NULL;
	size_t linesz = 0;
	FILE *mem = NULL;
	double *cpu = calloc(samples, sizeof(double)), *cmp = calloc(samples, sizeof(double));
	uint64_t *bytes = calloc(samples + 1, sizeof(uint64_t));
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	if (!mkdtemp(dir)) {
		rc = -errno;
		goto out;
	}
	snprintf(path, sizeof(path), "%s/rec.zst", dir);
	hdr = rec_header_json(&se, "/", delay, time(NULL));
	if (!cpu || !cmp || !bytes || !hdr || !(mem = open_memstream(&line, &linesz))) {
		rc = -ENOMEM;
		goto out;
	}
	rc = rec_writer_open(&w, path, REC_KEEP_DAYS_DEFAULT, hdr, NULL, NULL, msg, sizeof(msg));
	if (rc) {
		fprintf(stderr, "bench: recorder: %s\n", msg);
		goto out;
	}
	uint64_t n0;
	rec_writer_stats(w, &bytes[0], &n0);
	struct sort_key key = { COL_REMOTE, -1, true };
	struct output_opts oo = { .root_label = "/" };
	double procs = 0;
	for (size_t i = 0; i < samples && !rc; i++) {
		if (i)
			usleep((useconds_t)(delay * 1e6));
		double c0 = cpu_ms();
		if ((rc = sampler_tick(se.smp, &snap)) != 0)
			break;
		snapshot_sort(&snap, &key);
		double c1 = cpu_ms();
		rewind(mem);
		rc = output_json_write(mem, &snap, &oo);
		long len = ftell(mem);
		if (!rc)
			rc = rec_writer_add(w, line, (size_t)len - 1, msg, sizeof(msg));
		double c2 = cpu_ms();
		cpu[i] = c2 - c0;
		cmp[i] = c2 - c1;
		uint64_t ns;
		rec_writer_stats(w, &bytes[i + 1], &ns);
		if (i >= warmup)
			procs += (double)snap.nprocs;
	}
	if (rc)
		goto out;
	size_t steady = samples - warmup;
	out->samples = samples;
	out->warmup = warmup;
	out->procs = procs / (double)steady;
	out->bytes_per_sample = (double)(bytes[samples] - bytes[warmup]) / (double)steady;
	out->bytes_per_proc_sample = out->procs > 0 ? out->bytes_per_sample / out->procs : 0;
	out->mb_per_day_10s = out->bytes_per_sample * 8640 / 1e6;
	out->cpu_ms_p50 = pct(cpu + warmup, steady, 0.5);
	out->cpu_ms_p95 = pct(cpu + warmup, steady, 0.95);
	out->compress_ms_p50 = pct(cmp + warmup, steady, 0.5);
out:
	if (w)
		rec_writer_close(w, msg, sizeof(msg));
	if (mem)
		fclose(mem);
	free(line);
	free(hdr);
	free(cpu);
	free(cmp);
	free(bytes);
	snapshot_free(&snap);
	session_close(&se);
	unlink(path);
	rmdir(dir);
	return rc;
}
