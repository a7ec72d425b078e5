/* test_capture.c - the capture core: "top N" by resident memory, the
 * destination's checks, and capture_run on a small tree (what is copied,
 * what is left out, a link inside the destination never followed). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "check.h"

static char base[64], why[256];

/* Run a shell script in base: 0 when it succeeded. */
static int sh(const char *script)
{
	char cmd[2048];
	snprintf(cmd, sizeof(cmd), "cd %s && %s", base, script);
	int rc = system(cmd);
	if (rc != 0)
		printf("  failed: %s\n", cmd);
	return rc;
}

static int exists(const char *rel)
{
	char p[512];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", base, rel);
	return lstat(p, &st) == 0 ? (S_ISLNK(st.st_mode) ? 2 : 1) : 0;
}

static void pick_top(void)
{
	struct capture_rank v[] = { { 5, 100 }, { 3, 900 }, { 9, 900 }, { 1, 0 }, { 7, 500 } };
	size_t n = capture_pick_top(v, 5, 3);
	CHECK_EQ_INT(n, 3);
	CHECK_EQ_INT(v[0].pid, 3);       /* 3, 9 (900 each), 7 (500): by PID */
	CHECK_EQ_INT(v[1].pid, 7);
	CHECK_EQ_INT(v[2].pid, 9);
	struct capture_rank w[] = { { 2, 1 }, { 1, 1 } };
	CHECK_EQ_INT(capture_pick_top(w, 2, 10), 2);
	CHECK_EQ_INT(w[0].pid, 1);
	CHECK_EQ_INT(capture_pick_top(NULL, 0, 4), 0);
}

static void dest_checks(void)
{
	char p[256], q[256];
	snprintf(p, sizeof(p), "%s/new", base);
	int fd = capture_open_dest(p, why, sizeof(why));
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	fd = capture_open_dest(p, why, sizeof(why));       /* now it exists, empty: fine */
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	snprintf(q, sizeof(q), "%s/new/x", base);
	close(open(q, O_WRONLY | O_CREAT, 0644));
	CHECK_EQ_INT(capture_open_dest(p, why, sizeof(why)), -ENOTEMPTY);
	snprintf(q, sizeof(q), "%s/empty", base);
	mkdir(q, 0755);
	snprintf(p, sizeof(p), "%s/link", base);
	CHECK_EQ_INT(symlink(q, p), 0);
	CHECK_EQ_INT(capture_open_dest(p, why, sizeof(why)), -ELOOP);
	snprintf(p, sizeof(p), "%s/new/x", base);
	CHECK_EQ_INT(capture_open_dest(p, why, sizeof(why)), -ENOTDIR);
	snprintf(p, sizeof(p), "%s/no/such", base);
	CHECK_EQ_INT(capture_open_dest(p, why, sizeof(why)), -ENOENT);
}

static unsigned mode_of(const char *rel)
{
	char p[512];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", base, rel);
	return lstat(p, &st) == 0 ? (unsigned)(st.st_mode & 07777) : 0xffff;
}

/* A destination someone else could change or read is refused or made
 * private: owned by another user, writable by group or others (sticky
 * too); one made, or an existing one of root's, ends 0700. */
static void dest_private(void)
{
	char p[256];
	static const struct { const char *make, *say; } refused[] = {
		{ "mkdir nb && chown 65534 nb", "owned by uid 65534" },
		{ "mkdir nb && chmod 0777 nb", "writable by every user" },
		{ "mkdir nb && chmod 1777 nb", "writable by every user" },
		{ "mkdir nb && chmod 0770 nb", "writable by its group" },
		{ "mkdir nb && chmod 0702 nb", "writable by every user" },
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		sh("rm -rf nb");
		sh(refused[i].make);
		snprintf(p, sizeof(p), "%s/nb", base);
		unsigned before = mode_of("nb");
		CHECK_EQ_INT(capture_open_dest(p, why, sizeof(why)), -EPERM);
		CHECK(strstr(why, refused[i].say) != NULL);
		CHECK_EQ_INT(mode_of("nb"), before);
	}
	sh("rm -rf nb mine && mkdir mine && chmod 0755 mine");
	snprintf(p, sizeof(p), "%s/mine", base);
	int fd = capture_open_dest(p, why, sizeof(why));
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK_EQ_INT(mode_of("mine"), 0700);
	snprintf(p, sizeof(p), "%s/made", base);
	umask(0);
	fd = capture_open_dest(p, why, sizeof(why));
	umask(022);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK_EQ_INT(mode_of("made"), 0700);
}

#define STAT9 "S 1 0 0 0 -1 0 0 0 0 0 5 0 0 20 0 1 0 100 0 3 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0"

static void run_tree(void)
{
	sh("mkdir -p src/sys/devices/system/node/node0/access1/initiators "
	   "src/sys/devices/system/cpu/cpu0/topology src/sys/devices/system/cpu/cpu0/cache/index0 "
	   "src/sys/devices/system/cpu/cpufreq src/proc/7/task/7 src/proc/8 src/proc/9 src/etc && "
	   "echo 0 >src/sys/devices/system/node/online && echo 0 >src/sys/devices/system/node/node0/cpulist && "
	   "echo 10 >src/sys/devices/system/node/node0/distance && "
	   "echo 80 >src/sys/devices/system/node/node0/access1/initiators/read_latency && "
	   "ln -s ../../../node0 src/sys/devices/system/node/node0/access1/initiators/node0 && "
	   "echo 0 >src/sys/devices/system/cpu/cpu0/topology/core_id && "
	   "echo 1 >src/sys/devices/system/cpu/cpu0/cache/index0/level && "
	   "echo x >src/sys/devices/system/cpu/cpufreq/online && echo 'cpu 1 2 3 4' >src/proc/stat && "
	   "echo 'root:x:0:0::/:/bin/sh' >src/etc/passwd && mkdir -p src/proc/sys/kernel && "
	   "echo myhost >src/proc/sys/kernel/hostname");
	sh("cd src/proc && echo '7 (a b) " STAT9 "' >7/stat && cp 7/stat 7/task/7/stat && "
	   "printf 'Name:\\ta b\\nUid:\\t0\\t0\\t0\\t0\\n' >7/status && printf 'a\\0b\\0' >7/cmdline && "
	   "printf '7f00 default file=/home/alice/secret\\\\040db mapped=1 N0=1\\n"
	   "7f10 default heap anon=2 N0=2\\n7f20 default file=/usr/lib/libc.so.6\\n' >7/numa_maps && "
	   "echo '9 (c) " STAT9 "' >9/stat && mkfifo 9/numa_maps");
	char src[128], dst[128], away[128];
	snprintf(src, sizeof(src), "%s/src", base);
	snprintf(dst, sizeof(dst), "%s/dst", base);
	struct fsroot *r;
	CHECK_EQ_INT(fsroot_open(src, &r), 0);
	if (!r)
		return;
	int fd = capture_open_dest(dst, why, sizeof(why));
	CHECK(fd >= 0);
	struct capture_opts o = { .mode = CAPTURE_ALL };
	struct capture_stats st;
	CHECK_EQ_INT(capture_run(r, fd, &o, &st), 0);
	close(fd);
	CHECK_EQ_INT(st.procs, 2);
	CHECK_EQ_INT(st.vanished, 0);
	CHECK_EQ_INT(st.unreadable, 1);                   /* the FIFO */
	CHECK_EQ_STR(st.first_unreadable, "/proc/9/numa_maps");
	CHECK_EQ_INT(st.links, 1);
	/* What names people or the machine, for the summary. */
	CHECK(st.host);
	CHECK_EQ_INT(st.users, 1);
	CHECK_EQ_INT(st.cmdlines, 1);
	CHECK_EQ_INT(st.file_maps, 1);
	/* Private: every directory 0700, every file 0600 (the links aside). */
	CHECK_EQ_INT(sh("test -z \"$(find dst ! -type l -perm /077)\" && test -z \"$(find dst -type d ! -perm 0700)\" && "
	   "test -z \"$(find dst -type f ! -perm 0600)\" || { echo '  modes:'; find dst ! -type l -printf '  %m %p\\n'; false; }"), 0);
	CHECK_EQ_INT(mode_of("dst/proc/7/numa_maps"), 0600);
	CHECK_EQ_INT(mode_of("dst/proc/7"), 0700);
	CHECK_EQ_INT(exists("dst/proc/sys/kernel/hostname"), 1);
	CHECK_EQ_INT(exists("dst/proc/7/stat"), 1);
	CHECK_EQ_INT(exists("dst/proc/7/task/7/stat"), 1);
	CHECK_EQ_INT(exists("dst/proc/7/cmdline"), 1);
	CHECK_EQ_INT(exists("dst/proc/8"), 0);            /* no stat: no process */
	CHECK_EQ_INT(exists("dst/proc/9/numa_maps"), 0);
	CHECK_EQ_INT(exists("dst/proc/stat"), 1);
	CHECK_EQ_INT(exists("dst/etc/passwd"), 1);
	CHECK_EQ_INT(exists("dst/sys/devices/system/node/node0/access1/initiators/node0"), 2);
	CHECK_EQ_INT(exists("dst/sys/devices/system/node/node0/access1/initiators/read_latency"), 1);
	CHECK_EQ_INT(exists("dst/sys/devices/system/cpu/cpu0/cache/index0/level"), 1);
	CHECK_EQ_INT(exists("dst/sys/devices/system/cpu/cpufreq"), 0);
	/* -p and none. */
	int only[] = { 9 };
	o = (struct capture_opts){ .mode = CAPTURE_ALL, .pids = only, .npids = 1 };
	snprintf(dst, sizeof(dst), "%s/dst-p", base);
	fd = capture_open_dest(dst, why, sizeof(why));
	CHECK_EQ_INT(capture_run(r, fd, &o, &st), 0);
	close(fd);
	CHECK_EQ_INT(st.procs, 1);
	CHECK_EQ_INT(exists("dst-p/proc/9/stat"), 1);
	CHECK_EQ_INT(exists("dst-p/proc/7"), 0);
	/* A link planted in the destination is not followed. */
	snprintf(dst, sizeof(dst), "%s/dst-l", base);
	snprintf(away, sizeof(away), "%s/away", base);
	fd = capture_open_dest(dst, why, sizeof(why));
	mkdir(away, 0755);
	CHECK_EQ_INT(symlinkat(away, fd, "proc"), 0);
	o = (struct capture_opts){ .mode = CAPTURE_ALL };
	CHECK(capture_run(r, fd, &o, &st) < 0);
	close(fd);
	CHECK_EQ_INT(exists("away/stat"), 0);
	CHECK_EQ_INT(exists("away/7"), 0);
	/* Anonymized: no host name, no etc/passwd, the command line is the
	 * command name, numa_maps names no file; all else as it was. */
	snprintf(dst, sizeof(dst), "%s/dst-a", base);
	fd = capture_open_dest(dst, why, sizeof(why));
	o = (struct capture_opts){ .mode = CAPTURE_ALL, .anonymize = true };
	CHECK_EQ_INT(capture_run(r, fd, &o, &st), 0);
	close(fd);
	CHECK_EQ_INT(st.procs, 2);
	CHECK(!st.host);
	CHECK_EQ_INT(st.users + st.cmdlines + st.file_maps, 0);
	CHECK_EQ_INT(exists("dst-a/proc/sys/kernel/hostname"), 0);
	CHECK_EQ_INT(exists("dst-a/etc/passwd"), 0);
	CHECK_EQ_INT(exists("dst-a/proc/7/status"), 1);
	CHECK_EQ_INT(sh("printf 'a b\\0' | cmp -s - dst-a/proc/7/cmdline || { echo '  cmdline:'; od -c dst-a/proc/7/cmdline; false; }"), 0);
	CHECK_EQ_INT(sh("printf '7f00 default file=[anonymized] mapped=1 N0=1\\n7f10 default heap anon=2 N0=2\\n"
	   "7f20 default file=[anonymized]\\n' | cmp -s - dst-a/proc/7/numa_maps || "
	   "{ echo '  numa_maps:'; cat dst-a/proc/7/numa_maps; false; }"), 0);
	CHECK_EQ_INT(sh("test -z \"$(grep -rl -e alice -e myhost -e libc dst-a)\" || { grep -r -e alice -e myhost -e libc dst-a; false; }"), 0);
	CHECK_EQ_INT(sh("rm -r dst/etc dst/proc/sys && diff -r --no-dereference -x cmdline -x numa_maps dst dst-a"), 0);
	fsroot_close(r);
}

int main(void)
{
	snprintf(base, sizeof(base), "/tmp/numatop-capture-XXXXXX");
	if (!mkdtemp(base)) {
		printf("FAIL capture: mkdtemp\n");
		return 1;
	}
	RUN_TEST(pick_top);
	RUN_TEST(dest_checks);
	RUN_TEST(dest_private);
	RUN_TEST(run_tree);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", base);
	if (system(cmd) != 0)
		printf("  could not remove %s\n", base);
	return CHECK_DONE();
}
