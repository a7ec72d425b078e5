/* recorder.c - what recording costs on the benchmark's load: the same
 * steps as -w (sample, sort, JSON line, compress into the recording,
 * flush and sync), timed and sized per sample. */
#include "recorder.h"

#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "history.h"
#include "output.h"
#include "record.h"
#include "session.h"
#include "snapshot_json.h"

static char *last_line, *last_header;
static size_t last_len;

static double wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

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
	struct sort_key key = { COL_REMOTE, -1, true, NULL, false };
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
	/* The history with every process of the last sample displayed. */
	{
		struct history h;
		size_t heap0 = mallinfo2().uordblks;
		if (history_init(&h, HIST_DEFAULT, se.topo.nnodes) == 0) {
			int *pids = malloc((snap.nprocs + 1) * sizeof(int));
			for (size_t i = 0; pids && i < snap.nprocs; i++)
				pids[i] = snap.procs[i].info.pid;
			for (size_t k = 0; pids && k < HIST_DEFAULT; k++)
				history_add(&h, &snap, pids, snap.nprocs);
			out->history_kib = (double)history_bytes(&h) / 1024.0;
			out->history_rss_kib = ((double)mallinfo2().uordblks - (double)heap0) / 1024.0;
			free(pids);
			history_free(&h);
		}
	}
	/* The last sample's line, for the day file. */
	free(last_line);
	last_line = malloc(linesz + 1);
	if (last_line) {
		memcpy(last_line, line, linesz);
		last_len = (size_t)ftell(mem) - 1;
		last_line[last_len] = '\0';
		last_header = hdr;
		hdr = NULL;
	}
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

/* The sample's timestamp set to t (the line starts {"timestamp":"...Z"). */
static void set_time(char *line, time_t t)
{
	struct tm tm;
	gmtime_r(&t, &tm);
	char when[32];
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	memcpy(line + 14, when, 20);
}

int recorder_measure_day(size_t day_samples, struct recorder_cost *out)
{
	if (!last_line || !last_header || day_samples < 2)
		return -EINVAL;
	char dir[] = "/dev/shm/numatop-bench-day.XXXXXX", path[80];
	if (!mkdtemp(dir)) {
		memcpy(dir, "/tmp", 4);
		if (!mkdtemp(dir))
			return -errno;
	}
	snprintf(path, sizeof(path), "%s/day.zst", dir);
	char msg[512];
	struct rec_writer *w;
	int rc = rec_writer_open(&w, path, REC_KEEP_DAYS_DEFAULT, last_header, NULL, NULL, msg, sizeof(msg));
	time_t t0 = 1796342400;           /* a day from midnight, 10 s apart */
	double w0 = wall_ms();
	for (size_t k = 0; k < day_samples && !rc; k++) {
		set_time(last_line, t0 + (time_t)(k * 10));
		rc = rec_writer_add(w, last_line, last_len, msg, sizeof(msg));
	}
	uint64_t bytes = 0, ns;
	if (w) {
		rec_writer_stats(w, &bytes, &ns);
		rec_writer_close(w, msg, sizeof(msg));
	}
	out->day_write_s = (wall_ms() - w0) / 1e3;
	out->day_samples = day_samples;
	out->day_mb = (double)bytes / 1e6;
	struct rec_reader *r = NULL;
	double o0 = wall_ms();
	if (!rc)
		rc = rec_reader_open(&r, path, msg, sizeof(msg));
	out->open_ms = wall_ms() - o0;
	double ms[21];
	struct topology topo;
	struct snapshot snap;
	memset(&snap, 0, sizeof(snap));
	bool have_topo = false;
	for (int i = 0; i < 21 && !rc; i++) {
		/* Spread over the day, from the end backwards and forwards. */
		time_t when = t0 + (time_t)(((size_t)(i * 7919) % day_samples) * 10);
		double s0 = wall_ms();
		struct rec_sample s;
		rc = rec_reader_seek(r, when, &s);
		if (!rc && !have_topo) {
			rc = snapshot_json_topology(s.header, &topo, msg, sizeof(msg));
			have_topo = rc == 0;
		}
		if (!rc)
			rc = snapshot_json_snapshot(s.line, s.len, &topo, &snap, msg, sizeof(msg));
		ms[i] = wall_ms() - s0;
		if (!rc && s.when != when)
			rc = -EIO;
	}
	if (!rc) {
		out->seek_p50_ms = pct(ms, 21, 0.5);
		out->seek_max_ms = pct(ms, 21, 1.0);
	}
	snapshot_free(&snap);
	if (have_topo)
		topology_free(&topo);
	rec_reader_close(r);
	unlink(path);
	rmdir(dir);
	if (rc)
		fprintf(stderr, "bench: recorder day: %s\n", rc == -EIO ? "a jump found the wrong sample" : strerror(-rc));
	return rc;
}
