/* recorder.h - the benchmark's measure of recording (-w): bytes per
 * process per sample in steady state and the recorder's CPU per sample. */
#ifndef NUMATOP_BENCH_RECORDER_H
#define NUMATOP_BENCH_RECORDER_H

#include <stddef.h>

struct recorder_cost {
	double bytes_per_proc_sample;   /* steady state: after the warm-up */
	double bytes_per_sample;
	double mb_per_day_10s;          /* at one sample every 10 s */
	double cpu_ms_p50, cpu_ms_p95;  /* sample + JSON + compress + write */
	double compress_ms_p50;         /* JSON + compress + write alone */
	double procs;                   /* processes per sample, mean */
	size_t samples, warmup;
	/* History (the monitor's sparklines) with every process displayed
	 * for HIST_DEFAULT samples: its bytes, and the heap it took
	 * (mallinfo2's bytes in use, before and after). */
	double history_kib, history_rss_kib;
	/* A day of samples (8640 at 10 s) of this size in one file: the
	 * file's size, opening it (the frame index), and jumping to a time
	 * and rebuilding that sample (the monitor's b), median and worst. */
	double day_mb, day_write_s, open_ms, seek_p50_ms, seek_max_ms;
	size_t day_samples;
};

/* Record `samples` samples `delay` s apart of the live machine (the load
 * the benchmark spawned) into a temporary file, as -w does, in this
 * process; the first `warmup` samples are left out of the figures.
 * 0 or -errno. */
int recorder_measure(size_t samples, size_t warmup, double delay, struct recorder_cost *out);
/* The day file and its seeks (day_* fields), with day_samples samples
 * like the last one recorded; in /dev/shm (else /tmp). 0 or -errno. */
int recorder_measure_day(size_t day_samples, struct recorder_cost *out);

#endif
