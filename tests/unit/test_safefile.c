/* test_safefile.c - the measurement cache's file rules (src/safefile.c):
 * no symbolic link is written through or read, only directories owned by
 * root or this user are used, special and oversized files are refused. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "safefile.h"

static char base[64];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int same_text(const char *path, const char *text)
{
	char got[256] = "";
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(got, 1, sizeof(got) - 1, f);
	fclose(f);
	got[n] = '\0';
	return strcmp(got, text) == 0;
}

static void write_replaces_symlink(void)
{
	char dir[128], victim[128], link[160];
	snprintf(dir, sizeof(dir), "%s/cache/numatop-tui", base);
	snprintf(victim, sizeof(victim), "%s/victim", base);
	put(victim, "precious");
	char why[256];
	int fd = safefile_open_dir(dir, 1, why, sizeof(why));
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	snprintf(link, sizeof(link), "%s/m.json", dir);
	CHECK_EQ_INT(symlink(victim, link), 0);
	CHECK_EQ_INT(safefile_write(fd, "m.json", "{}", 2), 0);
	CHECK(same_text(victim, "precious"));
	struct stat st;
	CHECK(lstat(link, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 2);
	/* Created 0700 on the way. */
	CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700);
	struct buf b = { 0 };
	CHECK_EQ_INT(safefile_read(fd, "m.json", &b, 100), 0);
	CHECK(b.len == 2 && strcmp(b.data, "{}") == 0);
	/* A symlink is never read, a FIFO never blocks, size is bounded. */
	CHECK_EQ_INT(symlinkat(victim, fd, "l.json"), 0);
	CHECK_EQ_INT(safefile_read(fd, "l.json", &b, 100), -ELOOP);
	CHECK_EQ_INT(mkfifoat(fd, "f.json", 0600), 0);
	CHECK_EQ_INT(safefile_read(fd, "f.json", &b, 100), -EMEDIUMTYPE);
	CHECK_EQ_INT(safefile_read(fd, "m.json", &b, 1), -EFBIG);
	CHECK_EQ_INT(safefile_read(fd, "none.json", &b, 100), -ENOENT);
	/* No temporary file is left behind. */
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "test $(ls -A %s | wc -l) -eq 3", dir);
	CHECK_EQ_INT(system(cmd), 0);
	buf_free(&b);
	close(fd);
}

static void untrusted_dirs(void)
{
	char dir[128], why[256];
	/* World-writable without the sticky bit: anyone could plant. */
	snprintf(dir, sizeof(dir), "%s/open", base);
	mkdir(dir, 0777);
	chmod(dir, 0777);
	CHECK_EQ_INT(safefile_open_dir(dir, 0, why, sizeof(why)), -EPERM);
	CHECK(strstr(why, "writable by every user") != NULL);
	chmod(dir, 01777);
	int fd = safefile_open_dir(dir, 0, why, sizeof(why));
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK_EQ_INT(safefile_open_dir("relative/dir", 0, why, sizeof(why)), -EINVAL);
	snprintf(dir, sizeof(dir), "%s/../x", base);
	CHECK_EQ_INT(safefile_open_dir(dir, 0, why, sizeof(why)), -EINVAL);
	if (geteuid() != 0) {
		SKIP_TEST("untrusted_owner", "needs root to give a directory to another user");
		return;
	}
	/* Owned by another user (nobody): refused, and nothing created. */
	snprintf(dir, sizeof(dir), "%s/evil", base);
	mkdir(dir, 0755);
	CHECK_EQ_INT(chown(dir, 65534, 65534), 0);
	char sub[160];
	snprintf(sub, sizeof(sub), "%s/numatop-tui", dir);
	CHECK_EQ_INT(safefile_open_dir(sub, 1, why, sizeof(why)), -EPERM);
	CHECK(strstr(why, "owned by uid 65534") != NULL);
	struct stat st;
	CHECK(stat(sub, &st) != 0);
	/* A symlink on the way: followed when root made it, not when
	 * another user did. */
	char target[128], ln[128];
	snprintf(target, sizeof(target), "%s/real", base);
	mkdir(target, 0755);
	snprintf(ln, sizeof(ln), "%s/link", base);
	CHECK_EQ_INT(symlink(target, ln), 0);
	fd = safefile_open_dir(ln, 0, why, sizeof(why));
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK_EQ_INT(lchown(ln, 65534, 65534), 0);
	CHECK_EQ_INT(safefile_open_dir(ln, 0, why, sizeof(why)), -ELOOP);
	CHECK(strstr(why, "symbolic link") != NULL);
}

static void split(void)
{
	char dir[16];
	const char *name;
	CHECK_EQ_INT(safefile_split("/a/b/c.json", dir, sizeof(dir), &name), 0);
	CHECK_EQ_STR(dir, "/a/b");
	CHECK_EQ_STR(name, "c.json");
	CHECK_EQ_INT(safefile_split("/c", dir, sizeof(dir), &name), 0);
	CHECK_EQ_STR(dir, "/");
	CHECK_EQ_INT(safefile_split("/a/", dir, sizeof(dir), &name), -EINVAL);
	CHECK_EQ_INT(safefile_split("/aaaaaaaaaaaaaaaaaaaaa/c", dir, sizeof(dir), &name), -ENAMETOOLONG);
}

int main(void)
{
	snprintf(base, sizeof(base), "/tmp/numatop-safefile-XXXXXX");
	if (!mkdtemp(base)) {
		printf("FAIL safefile: mkdtemp\n");
		return 1;
	}
	chmod(base, 0755);
	RUN_TEST(write_replaces_symlink);
	RUN_TEST(untrusted_dirs);
	RUN_TEST(split);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", base);
	if (system(cmd) != 0)
		printf("  could not remove %s\n", base);
	return CHECK_DONE();
}
