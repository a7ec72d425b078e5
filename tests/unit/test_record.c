/* test_record.c - recordings (src/record_*.c): the writer with a fake
 * clock (daily files turn over at local midnight, old ones are pruned by
 * the date in their names), frames ended every REC_FRAME_SAMPLES samples,
 * the reader's navigation (first, next, prev, last, seek) across frames
 * and files, the small parsers (times, header versions), one writer at a
 * time on a file or directory (the lock), and pruning only recordings; a
 * file still being recorded is read whole without a warning, a later
 * header of a version this program does not read is a warning. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "check.h"
#include "record.h"

static time_t fake_now;
static time_t fake_clock(void *ctx)
{
	(void)ctx;
	return fake_now;
}

/* A sample line as --json starts them, at time t, numbered k. */
static size_t sample_line(char *out, size_t n, time_t t, int k)
{
	struct tm tm;
	gmtime_r(&t, &tm);
	char when[32];
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return (size_t)snprintf(out, n, "{\"timestamp\":\"%s\",\"sample\":%d,\"pad\":\"%0200d\"}",
				when, k, k);
}

static int sample_no(const struct rec_sample *s)
{
	const char *p = memmem(s->line, s->len, "\"sample\":", 9);
	return p ? atoi(p + 9) : -1;
}

static void times(void)
{
	const char *l = "{\"timestamp\":\"2026-12-04T10:20:30Z\",\"x\":1}";
	CHECK_EQ_INT((long)rec_line_time(l, strlen(l)), 1796379630L);
	CHECK_EQ_INT((long)rec_line_time("{\"timestamp\":\"garbage\"}", 22), -1);
	CHECK_EQ_INT((long)rec_line_time(l, 20), -1);          /* cut */
	const char *h = "{\"numatop_tui_recording\":12,\"x\":1}";
	CHECK_EQ_INT(rec_header_version(h, strlen(h)), 12);
	CHECK_EQ_INT(rec_header_version(l, strlen(l)), -1);
	CHECK_EQ_INT(rec_header_version("{\"numatop_tui_recording\":x}", 27), -1);
	/* A version is a whole number from 1, then the next member: 0,
	 * 1e300 (not 1), 1.5, -1, a cut one are none. */
	static const char *const no[] = { "0,", "0}", "1e300,", "1.5,", "-1,", "1", "123456,", "1 ," };
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		char hl[64];
		int n = snprintf(hl, sizeof(hl), "{\"numatop_tui_recording\":%s", no[i]);
		CHECK_EQ_INT(rec_header_version(hl, (size_t)n), -1);
	}
	CHECK_EQ_INT(rec_header_version("{\"numatop_tui_recording\":1}", 27), 1);
	time_t t;
	CHECK_EQ_INT(rec_parse_time("2026-12-04T10:20:30Z", 0, &t), 0);
	CHECK_EQ_INT((long)t, 1796379630L);
	setenv("TZ", "UTC", 1);
	tzset();
	CHECK_EQ_INT(rec_parse_time("2026-12-04 10:20", 0, &t), 0);
	CHECK_EQ_INT((long)t, 1796379600L);
	CHECK_EQ_INT(rec_parse_time("03:00", 1796379630, &t), 0);   /* that day */
	CHECK_EQ_INT((long)t, 1796353200L);
	CHECK_EQ_INT(rec_parse_time("03:00:07", 1796379630, &t), 0);
	CHECK_EQ_INT((long)t, 1796353207L);
	CHECK_EQ_INT(rec_parse_time("25:00", 0, &t), -EINVAL);
	CHECK_EQ_INT(rec_parse_time("yesterday", 0, &t), -EINVAL);
	CHECK_EQ_INT(rec_parse_time("", 0, &t), -EINVAL);
}

/* Samples every 10 minutes from 23:00 to 01:00 local (UTC here): two
 * daily files; a file 40 days old is pruned when the writer opens, one 28
 * days old at the turn of the day. */
static void daily(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	char dir[] = "/tmp/numatop-test-rec.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char old[256], edge[256], name[256];
	time_t day0 = 1796342400;                /* 2026-12-04T00:00:00Z */
	rec_daily_name(dir, day0 - 40 * 86400, old, sizeof(old));
	CHECK(strstr(old, "/numatop-tui_20261025.zst") != NULL);
	rec_daily_name(dir, day0 - 28 * 86400, edge, sizeof(edge));
	close(open(old, O_CREAT | O_WRONLY, 0644));
	close(open(edge, O_CREAT | O_WRONLY, 0644));
	fake_now = day0 + 23 * 3600;
	struct rec_writer *w;
	char err[256];
	CHECK_EQ_INT(rec_writer_open(&w, dir, 28, "{\"numatop_tui_recording\":1}", fake_clock, NULL,
				     err, sizeof(err)), 0);
	rec_daily_name(dir, fake_now, name, sizeof(name));
	CHECK_EQ_STR(rec_writer_path(w), name);
	CHECK(access(old, F_OK) != 0);           /* 40 days old: gone at open */
	CHECK(access(edge, F_OK) == 0);          /* 28 days: kept on the 4th... */
	char line[512];
	for (int k = 0; k < 13; k++) {
		fake_now = day0 + 23 * 3600 + k * 600;
		size_t n = sample_line(line, sizeof(line), fake_now, k);
		CHECK_EQ_INT(rec_writer_add(w, line, n, err, sizeof(err)), 0);
	}
	rec_daily_name(dir, fake_now, name, sizeof(name));
	CHECK(strstr(name, "numatop-tui_20261205.zst") != NULL);
	CHECK_EQ_STR(rec_writer_path(w), name);
	CHECK_EQ_INT(rec_writer_close(w, err, sizeof(err)), 0);
	CHECK(access(edge, F_OK) != 0);          /* ...and gone on the 5th */
	/* The directory replays in order across both files. */
	struct rec_reader *r;
	CHECK_EQ_INT(rec_reader_open(&r, dir, err, sizeof(err)), 0);
	struct rec_sample s;
	int k = 0, rc;
	for (rc = rec_reader_first(r, &s); rc == 0; rc = rec_reader_next(r, &s), k++)
		CHECK_EQ_INT(sample_no(&s), k);
	CHECK_EQ_INT(rc, -ENOENT);
	CHECK_EQ_INT(k, 13);
	CHECK_EQ_INT(rec_reader_prev(r, &s), 0);
	CHECK_EQ_INT(sample_no(&s), 11);
	/* 00:00 is sample 6, the first of the second file. */
	CHECK_EQ_INT(rec_reader_seek(r, day0 + 86400, &s), 0);
	CHECK_EQ_INT(sample_no(&s), 6);
	CHECK(strstr(s.file, "20261205") != NULL);
	CHECK_EQ_INT(rec_reader_prev(r, &s), 0);
	CHECK_EQ_INT(sample_no(&s), 5);
	CHECK(strstr(s.file, "20261204") != NULL);
	CHECK_EQ_STR(s.header, "{\"numatop_tui_recording\":1}");
	CHECK_EQ_INT((int)rec_reader_nwarnings(r), 0);
	rec_reader_close(r);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_EQ_INT(system(cmd), 0);
}

/* 150 samples: three frames; every sample reachable both ways, seek to
 * any time lands on it. */
static void frames(void)
{
	char path[] = "/tmp/numatop-test-rec.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	unlink(path);
	struct rec_writer *w;
	char err[256], line[512];
	fake_now = 1796342400;
	CHECK_EQ_INT(rec_writer_open(&w, path, 28, "{\"numatop_tui_recording\":1,\"h\":1}", fake_clock,
				     NULL, err, sizeof(err)), 0);
	for (int k = 0; k < 150; k++) {
		size_t n = sample_line(line, sizeof(line), fake_now + k * 2, k);
		CHECK_EQ_INT(rec_writer_add(w, line, n, err, sizeof(err)), 0);
	}
	uint64_t bytes, samples;
	rec_writer_stats(w, &bytes, &samples);
	CHECK_EQ_INT((int)samples, 150);
	CHECK_EQ_INT(rec_writer_close(w, err, sizeof(err)), 0);
	struct rec_reader *r;
	CHECK_EQ_INT(rec_reader_open(&r, path, err, sizeof(err)), 0);
	CHECK_EQ_INT((int)rec_reader_nframes(r), 3);
	struct rec_sample s;
	CHECK_EQ_INT(rec_reader_last(r, &s), 0);
	int k = 149, rc;
	for (; k >= 0; k--) {
		CHECK_EQ_INT(sample_no(&s), k);
		rc = rec_reader_prev(r, &s);
		if (rc)
			break;
	}
	CHECK_EQ_INT(k, 0);
	CHECK_EQ_INT(rec_reader_seek(r, fake_now + 2 * 97, &s), 0);
	CHECK_EQ_INT(sample_no(&s), 97);
	CHECK_EQ_INT(rec_reader_seek(r, fake_now + 2 * 97 - 1, &s), 0);   /* between: the next */
	CHECK_EQ_INT(sample_no(&s), 97);
	CHECK_EQ_INT(rec_reader_seek(r, fake_now + 100000, &s), 0);      /* after: the last */
	CHECK_EQ_INT(sample_no(&s), 149);
	CHECK_EQ_INT(rec_reader_seek(r, 0, &s), 0);                      /* before: the first */
	CHECK_EQ_INT(sample_no(&s), 0);
	CHECK_EQ_INT(rec_reader_next(r, &s), 0);
	CHECK_EQ_INT(sample_no(&s), 1);
	rec_reader_close(r);
	unlink(path);
}

/* A second writer on a file, or on a directory, that a first one writes
 * is refused while the first is open (the lock is per open file, so two
 * writers of one process count as two recorders), and can start after. */
static void lock(void)
{
	char dir[] = "/tmp/numatop-test-rec.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[300], err[512], err2[512], daily[300];
	snprintf(path, sizeof(path), "%s/one.zst", dir);
	const char *hdr = "{\"numatop_tui_recording\":1}";
	fake_now = 1796342400;
	struct rec_writer *w, *w2;
	CHECK_EQ_INT(rec_writer_open(&w, path, 28, hdr, fake_clock, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(rec_writer_open(&w2, path, 28, hdr, fake_clock, NULL, err2, sizeof(err2)), -EBUSY);
	CHECK(strstr(err2, "one.zst is being recorded by another") != NULL);
	CHECK_EQ_INT(rec_writer_close(w, err, sizeof(err)), 0);
	CHECK_EQ_INT(rec_writer_open(&w2, path, 28, hdr, fake_clock, NULL, err2, sizeof(err2)), 0);
	CHECK_EQ_INT(rec_writer_close(w2, err2, sizeof(err2)), 0);
	/* The directory, and its daily file by name; the directory's lock
	 * stays across the turn of the day. */
	CHECK_EQ_INT(rec_writer_open(&w, dir, 28, hdr, fake_clock, NULL, err, sizeof(err)), 0);
	snprintf(daily, sizeof(daily), "%s", rec_writer_path(w));
	CHECK_EQ_INT(rec_writer_open(&w2, dir, 28, hdr, fake_clock, NULL, err2, sizeof(err2)), -EBUSY);
	CHECK(strstr(err2, "is being recorded into by another") != NULL);
	CHECK_EQ_INT(rec_writer_open(&w2, daily, 28, hdr, fake_clock, NULL, err2, sizeof(err2)), -EBUSY);
	char line[512];
	fake_now += 86400;
	size_t n = sample_line(line, sizeof(line), fake_now, 0);
	CHECK_EQ_INT(rec_writer_add(w, line, n, err, sizeof(err)), 0);
	CHECK(strcmp(rec_writer_path(w), daily) != 0);
	CHECK_EQ_INT(rec_writer_open(&w2, dir, 28, hdr, fake_clock, NULL, err2, sizeof(err2)), -EBUSY);
	CHECK_EQ_INT(rec_writer_close(w, err, sizeof(err)), 0);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_EQ_INT(system(cmd), 0);
}

/* Old daily names on what is no recording of this user: all kept; the
 * old recording and an empty file (a recorder killed at its start) go. */
static void prune_only_recordings(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	char dir[] = "/tmp/numatop-test-rec.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char rec[300], p[300], err[256];
	snprintf(rec, sizeof(rec), "%s/rec.zst", dir);
	struct rec_writer *w;
	fake_now = 1796342400;
	CHECK_EQ_INT(rec_writer_open(&w, rec, 28, "{\"numatop_tui_recording\":1}", fake_clock, NULL,
				     err, sizeof(err)), 0);
	CHECK_EQ_INT(rec_writer_close(w, err, sizeof(err)), 0);
	/* 1970-01-01 .. 08: a file that says "important", a symbolic link
	 * to a recording, a FIFO, a hard link to a recording, a zstd file of
	 * other text, a directory; then a recording and an empty file. */
#define OLD(k) (snprintf(p, sizeof(p), "%s/numatop-tui_1970010%d.zst", dir, k), p)
	FILE *f = fopen(OLD(1), "w");
	CHECK(f != NULL);
	fputs("important\n", f);
	fclose(f);
	CHECK_EQ_INT(symlink(rec, OLD(2)), 0);
	CHECK_EQ_INT(mkfifo(OLD(3), 0600), 0);
	CHECK_EQ_INT(link(rec, OLD(4)), 0);
	unsigned char z[64];
	size_t zn = ZSTD_compress(z, sizeof(z), "hello\n", 6, 3);
	CHECK(!ZSTD_isError(zn));
	f = fopen(OLD(5), "w");
	CHECK(f != NULL);
	fwrite(z, 1, zn, f);
	fclose(f);
	CHECK_EQ_INT(mkdir(OLD(6), 0700), 0);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "cp %s %s", rec, OLD(7));
	CHECK_EQ_INT(system(cmd), 0);
	close(open(OLD(8), O_CREAT | O_WRONLY, 0600));
	CHECK_EQ_INT(rec_prune(dir, fake_now, 28), 2);
	struct stat st;
	for (int k = 1; k <= 6; k++)
		CHECK(lstat(OLD(k), &st) == 0);
	CHECK(lstat(OLD(7), &st) != 0);
	CHECK(lstat(OLD(8), &st) != 0);
	CHECK(lstat(rec, &st) == 0 && st.st_nlink == 2);
#undef OLD
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_EQ_INT(system(cmd), 0);
}

static size_t count(struct rec_reader *r)
{
	struct rec_sample s;
	size_t n = 0;
	for (int rc = rec_reader_first(r, &s); rc == 0; rc = rec_reader_next(r, &s))
		n++;
	return n;
}

static bool warned(const struct rec_reader *r, const char *what)
{
	for (size_t i = 0; i < rec_reader_nwarnings(r); i++)
		if (strstr(rec_reader_warning(r, i), what))
			return true;
	return false;
}

/* A file being recorded ends in an open frame: read whole, without a
 * warning (it is not cut); the same cut inside its last block is. */
static void open_frame(void)
{
	char path[] = "/tmp/numatop-test-rec.XXXXXX", cut[64];
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	unlink(path);
	struct rec_writer *w;
	char err[256], line[512];
	fake_now = 1796342400;
	CHECK_EQ_INT(rec_writer_open(&w, path, 28, "{\"numatop_tui_recording\":1}", fake_clock, NULL,
				     err, sizeof(err)), 0);
	for (int k = 0; k < 5; k++) {
		size_t n = sample_line(line, sizeof(line), fake_now + k, k);
		CHECK_EQ_INT(rec_writer_add(w, line, n, err, sizeof(err)), 0);
	}
	struct rec_reader *r;
	for (int pass = 0; pass < 2; pass++) {
		CHECK_EQ_INT(rec_reader_open(&r, path, err, sizeof(err)), 0);
		CHECK_EQ_INT((int)count(r), 5 + pass);
		CHECK_EQ_INT((int)rec_reader_nwarnings(r), 0);
		rec_reader_close(r);
		/* One more sample, flushed: still open, still whole. */
		size_t n = sample_line(line, sizeof(line), fake_now + 9, 9);
		CHECK_EQ_INT(rec_writer_add(w, line, n, err, sizeof(err)), 0);
	}
	struct stat st;
	CHECK_EQ_INT(stat(path, &st), 0);
	snprintf(cut, sizeof(cut), "%s.cut", path);
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "head -c %lld %s >%s", (long long)st.st_size - 3, path, cut);
	CHECK_EQ_INT(system(cmd), 0);
	CHECK_EQ_INT(rec_reader_open(&r, cut, err, sizeof(err)), 0);
	CHECK_EQ_INT((int)count(r), 6);            /* the last one lost */
	CHECK(warned(r, "is cut"));
	rec_reader_close(r);
	CHECK_EQ_INT(rec_writer_close(w, err, sizeof(err)), 0);
	unlink(path);
	unlink(cut);
}

/* A later recorder session's header of a version this program does not
 * read (0, 1e300, newer): a warning, and its samples are skipped; the
 * samples of the next readable header are read. */
static void later_header_unreadable(void)
{
	static const char *const bad[] = { "0", "1e300", "9" };
	for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
		char path[] = "/tmp/numatop-test-rec.XXXXXX";
		int fd = mkstemp(path);
		CHECK(fd >= 0);
		close(fd);
		unlink(path);
		char err[256], line[512], hdr[64];
		snprintf(hdr, sizeof(hdr), "{\"numatop_tui_recording\":%s}", bad[b]);
		const char *const heads[] = { "{\"numatop_tui_recording\":1}", hdr, "{\"numatop_tui_recording\":1}" };
		fake_now = 1796342400;
		for (int run = 0; run < 3; run++) {
			struct rec_writer *w;
			CHECK_EQ_INT(rec_writer_open(&w, path, 28, heads[run], fake_clock, NULL, err,
						     sizeof(err)), 0);
			for (int k = 0; k < 2; k++) {
				size_t n = sample_line(line, sizeof(line), fake_now++, run * 2 + k);
				CHECK_EQ_INT(rec_writer_add(w, line, n, err, sizeof(err)), 0);
			}
			CHECK_EQ_INT(rec_writer_close(w, err, sizeof(err)), 0);
		}
		struct rec_reader *r;
		CHECK_EQ_INT(rec_reader_open(&r, path, err, sizeof(err)), 0);
		struct rec_sample s;
		int seen[6] = { 0 }, n = 0;
		for (int rc = rec_reader_first(r, &s); rc == 0 && n < 6; rc = rec_reader_next(r, &s))
			seen[n++] = sample_no(&s);
		CHECK_EQ_INT(n, 4);
		CHECK(seen[0] == 0 && seen[1] == 1 && seen[2] == 4 && seen[3] == 5);
		CHECK(warned(r, "format version"));
		rec_reader_close(r);
		unlink(path);
	}
}

int main(void)
{
	RUN_TEST(times);
	RUN_TEST(daily);
	RUN_TEST(frames);
	RUN_TEST(lock);
	RUN_TEST(prune_only_recordings);
	RUN_TEST(open_frame);
	RUN_TEST(later_header_unreadable);
	return CHECK_DONE();
}
