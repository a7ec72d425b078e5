/* main.c - numatop-tui entry point: options, then batch or interactive. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "action_cli.h"
#include "batch.h"
#include "capture.h"
#include "fsroot.h"
#include "fleet_cli.h"
#include "replay_cli.h"
#include "sanitize.h"
#include "measure_cli.h"
#include "options.h"
#include "serve.h"
#include "ui.h"

/* Output that did not arrive is a failure: a full disk, /dev/full, a
 * closed stdout. (The batch loop checks its own writes: a reader that
 * goes away is a clean end there.) */
static int finish_output(int status)
{
	errno = 0;
	int bad = fflush(stdout) != 0 || ferror(stdout);
	int e = errno;
	if (fclose(stdout) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (!bad)
		return status;
	fprintf(stderr, "numatop-tui: writing to standard output failed%s%s\n",
		e ? ": " : "", e ? strerror(e) : "");
	return status ? status : 1;
}

/* --capture DIR refused, in words (why: what capture_open_dest said). */
static const char *capture_dest_error(int err, const char *why)
{
	if (err == -ENOTEMPTY || err == -EEXIST)
		return "is not empty (a capture goes into a new or empty directory)";
	if (err == -ELOOP)
		return "is a symbolic link (refused: give a new or empty directory)";
	if (err == -ENOTDIR)
		return "exists and is not a directory";
	if (err == -EPERM && why[0])
		return why;
	return fsroot_strerror(err);
}

/* What names people or the machine in a capture: said in its summary. */
static void capture_names(const struct capture_opts *c, const struct capture_stats *st,
			  char *out, size_t n)
{
	if (c->anonymize) {
		snprintf(out, n, "includes: command names, uids, cgroup paths\n"
			 "left out (--capture-anonymize): the host name, user names, command lines "
			 "(command names instead), mapped file paths (file=[anonymized])\n");
		return;
	}
	char users[64] = "", cmds[80] = "", maps[80] = "";
	if (st->users)
		snprintf(users, sizeof(users), "%zu user names, ", st->users);
	if (st->cmdlines)
		snprintf(cmds, sizeof(cmds), "%zu command lines with their arguments, ", st->cmdlines);
	if (st->file_maps)
		snprintf(maps, sizeof(maps), "the mapped file paths of %zu processes, ", st->file_maps);
	snprintf(out, n, "includes: %s%s%s%scommand names, uids, cgroup paths\n"
		 "  (--capture-anonymize leaves out the host name, user names, command lines "
		 "and file paths)\n", st->host ? "the host name, " : "", users, cmds, maps);
}

/* What a capture holds, as a file in it (numatop-tui-capture.txt) and on
 * stdout. */
static int capture_say(const struct options *o, const struct capture_stats *st, double secs,
		       char *text, size_t n)
{
	char mode[32], bad[256] = "", names[512], dir[512], root[512], damon[128] = "";
	const struct capture_opts *c = &o->capture_opts;
	if (c->mode == CAPTURE_TOP)
		snprintf(mode, sizeof(mode), "top %zu", c->top);
	else
		snprintf(mode, sizeof(mode), "%s", c->mode == CAPTURE_NONE ? "none" : "all");
	if (st->unreadable)
		snprintf(bad, sizeof(bad), " (first: %s: %s)", st->first_unreadable,
			 fsroot_strerror(st->unreadable_errno));
	capture_names(c, st, names, sizeof(names));
	if (st->kdamonds)
		snprintf(damon, sizeof(damon), "damon: %zu kdamond%s, as read (the regions its schemes last "
			 "tried; nothing written)\n", st->kdamonds, st->kdamonds == 1 ? "" : "s");
	sanitize_term(o->capture, dir, sizeof(dir));
	sanitize_term(o->root, root, sizeof(root));
	time_t now = time(NULL);
	struct tm tm;
	char when[32];
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	int len = snprintf(text, n,
		"numatop-tui %s capture of %s at %s in %.1f s\n"
		"processes (%s%s): %zu copied, %zu left out (exited while read)\n"
		"files: %zu (%llu bytes), %zu links; %zu unreadable, left out%s\n"
		"%s%s"
		"private: only uid %u can read it (the directory 0700, its files 0600)\n"
		"read it back: numatop-tui --root %s\n",
		NUMATOP_VERSION, root, when, secs, mode, o->npids ? ", -p" : "", st->procs,
		st->vanished, st->files, (unsigned long long)st->bytes, st->links, st->unreadable,
		bad, damon, names, (unsigned)geteuid(), dir);
	return len < 0 ? 0 : (size_t)len < n ? len : (int)n - 1;
}

/* --capture DIR: the rooted layer's files into a new tree. */
static int capture_cli(struct options *o, FILE *out, FILE *err)
{
	struct fsroot *r;
	char dir[512], why[512];
	sanitize_term(o->capture, dir, sizeof(dir));
	int rc = fsroot_open(o->root, &r);
	if (rc) {
		sanitize_term(o->root, why, sizeof(why));
		fprintf(err, "numatop-tui: --root %s: %s\n", why, fsroot_strerror(rc));
		return 1;
	}
	int fd = capture_open_dest(o->capture, why, sizeof(why));
	if (fd < 0) {
		char said[1024];
		sanitize_term(capture_dest_error(fd, why), said, sizeof(said));
		fprintf(err, "numatop-tui: --capture %s: %s\n", dir, said);
		fsroot_close(r);
		return 1;
	}
	o->capture_opts.pids = o->npids ? o->pids : NULL;
	o->capture_opts.npids = o->npids;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct capture_stats st;
	rc = capture_run(r, fd, &o->capture_opts, &st);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	char text[4096];
	int len = capture_say(o, &st, (double)(t1.tv_sec - t0.tv_sec) +
			      (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, text, sizeof(text));
	int nf = rc ? -1 : openat(fd, "numatop-tui-capture.txt",
				  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (nf < 0 && !rc)
		rc = -errno;
	errno = 0;
	if (nf >= 0 && write(nf, text, (size_t)len) != len)
		rc = errno ? -errno : -ENOSPC;
	if (nf >= 0 && close(nf) != 0 && !rc)
		rc = -errno;
	close(fd);
	fsroot_close(r);
	if (rc) {
		fprintf(err, "numatop-tui: --capture %s: writing failed: %s (the capture is "
			"incomplete)\n", dir, fsroot_strerror(rc));
		return 1;
	}
	fputs(text, out);
	return 0;
}

/* Standard descriptors that came closed get a placeholder before
 * anything else is opened: otherwise the next file opened (a recording,
 * a capture's directory) becomes fd 1 or 2 and the program's own messages
 * are written into it. The placeholder is /dev/null opened against the
 * stream's direction (stdin write-only, stdout and stderr read-only), so
 * using it fails as on a closed descriptor (EBADF): a closed stdout is
 * still reported, a closed stdin is still no terminal. */
static void main_hold_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		int h = open("/dev/null", (fd == 0 ? O_WRONLY : O_RDONLY) | O_NOCTTY);
		if (h < 0)      /* no /dev: a directory cannot be written either */
			h = open("/", O_RDONLY | O_DIRECTORY);
		if (h < 0)
			return;
		if (h != fd) {  /* lower ones are open: not expected */
			dup2(h, fd);
			close(h);
		}
	}
}

/* The monitor, told what the options ask of it. */
static int monitor(const struct options *o)
{
	struct ui_config c = {
		.sort = o->sort, .columns = o->columns, .show_age = o->show_age,
		.replay = o->replay, .begin = o->begin,
		.delay = o->delay, .delay_set = o->delay_set, .iterations = o->iterations,
		.readonly = o->readonly, .no_mouse = o->no_mouse, .no_color = o->no_color,
		.ascii = o->ascii, .measure_quick = o->measure_quick,
		.fleet = o->fleet != NULL, .fleet_url = o->fleet, .fleet_match = o->fleet_match,
		.fleet_host = o->fleet_host,
	};
	options_session(o, true, &c.session);
	return ui_run(&c);
}

int main(int argc, char **argv)
{
	struct options o;
	char err[256];
	main_hold_std_fds();
	if (options_parse(argc, argv, getenv("NUMATOP_TUI_ROOT"), &o, err, sizeof(err)) != 0) {
		fprintf(stderr, "numatop-tui: %s\nTry 'numatop-tui --help'.\n", err);
		options_free(&o);
		return 2;
	}
	int status;
	if (o.help) {
		options_usage(stdout);
		status = finish_output(0);
	} else if (o.version) {
		printf("numatop-tui %s\n", NUMATOP_VERSION);
		status = finish_output(0);
	} else if (o.measure) {
		status = finish_output(measure_cli_run(&o, stdout, stderr));
	} else if (o.migrate_cgroup) {
		status = finish_output(action_cli_cgroup(&o, stdout, stderr));
	} else if (o.migrate_pid || o.rebind_pid) {
		status = finish_output(action_cli_run(&o, stdout, stderr));
	} else if (o.capture) {
		status = finish_output(capture_cli(&o, stdout, stderr));
	} else if (o.fleet && o.batch) {
		status = finish_output(fleet_cli_run(&o, stdout, stderr));
	} else if (o.serve) {
		status = serve_run(&o, stdout, stderr);
	} else if (o.replay && (o.batch || o.json)) {
		status = replay_run(&o, stdout, stderr);
	} else if (o.batch || o.record) {
		status = batch_run(&o, stdout, stderr);
	} else {
		status = monitor(&o);
	}
	options_free(&o);
	return status;
}
