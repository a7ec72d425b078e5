/* capture.h - copy what the program reads into a tree that --root reads
 * back (numatop-tui --capture DIR), like hwloc-gather-topology.
 *
 * Every file is read through the rooted layer (regular files only, each
 * bounded in size) from the source root ("/" or a recorded tree) and
 * written below a destination directory that was new or empty, with
 * O_CREAT|O_EXCL|O_NOFOLLOW; directories on the way are opened with
 * O_NOFOLLOW. Copied: the node and CPU files of /sys (nodes, distances,
 * meminfo, numastat, vmstat, huge page pools, HMAT initiators, CPU
 * topology and caches, memory tiers), the cgroup files the cgroup table
 * reads, /proc/{stat,meminfo,vmstat,zoneinfo,cpuinfo}, the kernel's
 * numa_balancing, osrelease and hostname, DAMON's kdamonds (their state,
 * contexts, targets, schemes and the regions the schemes last tried, as
 * damon.c reads them; read only, never asked to update), and per process
 * stat, status, cmdline, numa_maps, cgroup, sched and task/TID/{stat,sched}.
 * A process is copied whole or not at all: one that exits while being
 * read is left out. Users: the names of the captured processes' uids
 * (etc/passwd lines, uid and name only; a recorded tree's own etc/passwd
 * is copied as it is).
 *
 * A capture is private: the destination is made mode 0700 (an existing
 * one must belong to root or the user and be writable by neither group
 * nor others; it is then made 0700 as well), its directories 0700 and
 * its files 0600, so that it is never more readable than the files it
 * copies (another user's numa_maps is EACCES to others in /proc).
 *
 * With anonymize, what names people or the machine is left out: the host
 * name, etc/passwd (the reader shows uids), command lines (each becomes
 * its command name, comm) and the paths of mapped files in numa_maps
 * (file=[anonymized]); command names, uids and cgroup paths stay. */
#ifndef NUMATOP_CAPTURE_H
#define NUMATOP_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fsroot.h"

enum capture_mode { CAPTURE_ALL, CAPTURE_NONE, CAPTURE_TOP };

struct capture_opts {
	enum capture_mode mode;
	size_t top;              /* CAPTURE_TOP: this many processes */
	const int *pids;         /* only these PIDs (NULL: every process) */
	size_t npids;
	bool anonymize;          /* no host name, user names, command lines, file paths */
};

struct capture_stats {
	size_t files, links;     /* written */
	uint64_t bytes;
	size_t procs;            /* processes copied */
	size_t vanished;         /* exited while being read: left out */
	size_t unreadable;       /* files there but not readable: left out */
	char first_unreadable[128];
	int unreadable_errno;
	/* What names people or the machine (for the summary). */
	bool host;               /* the host name was copied */
	size_t users;            /* etc/passwd lines */
	size_t cmdlines;         /* command lines as typed (not anonymized, not empty) */
	size_t file_maps;        /* numa_maps files with mapped file paths */
	size_t kdamonds;         /* DAMON's kdamonds copied */
};

/* --capture-processes top N: at most this many. */
#define CAPTURE_TOP_MAX 10000000

/* One process's rank for "top N": resident memory. */
struct capture_rank {
	int pid;
	int64_t rss_kb;
};
/* Keep the first top of v by rss_kb (largest first; on a tie the lower
 * PID), those sorted by PID. Returns how many are kept (min(n, top)). */
size_t capture_pick_top(struct capture_rank *v, size_t n, size_t top);

/* The destination: DIR is created (mode 0700) when it does not exist; an
 * existing one must be an empty directory, not a symbolic link, owned by
 * root or the effective user and writable by neither group nor others
 * (then made 0700). An open fd of it, or -errno: -ENOTEMPTY, -ELOOP (a
 * symbolic link), -ENOTDIR, -ENOENT (no parent), -EPERM (its owner or
 * mode; why says which), -EACCES ... */
int capture_open_dest(const char *dir, char *why, size_t whysz);

/* Copy from src into the directory destfd (from capture_open_dest).
 * 0, or -errno of a write (a full disk: the capture is incomplete);
 * files that cannot be read are counted in st and left out. */
int capture_run(const struct fsroot *src, int destfd, const struct capture_opts *o,
		struct capture_stats *st);

#endif
