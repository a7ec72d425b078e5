/* options_usage.c - the --help text: the options (the actions' from their
 * table, action_table.h), then the formats and columns from the program's
 * own tables (tools/genman.c makes the man page's OPTIONS from it, the
 * bash completion reads its options). */
#include <stdio.h>
#include <string.h>

#include "action_table.h"
#include "columns.h"
#include "options.h"
#include "ui.h"
#include "exit_status.h"
#include "output.h"

/* "  3      text ..." cut into lines of at most 78 columns; the text's
 * lines indented 8 (bash completion takes a line indented 1-7 that
 * starts with "--" for an option). */
static void wrapped(FILE *f, int code, const char *text)
{
	int col = fprintf(f, "  %-6d", code);
	const char *p = text;
	while (*p) {
		size_t w = strcspn(p, " ");
		if (col + 1 + (int)w > 78 && col > 8) {
			fputs("\n        ", f);
			col = 8;
		} else if (col > 8) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)w, p);
		col += (int)w;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

void options_usage(FILE *f)
{
	fputs(
"Usage: numatop-tui [OPTIONS]\n"
"NUMA-aware process monitor: where each process's pages live and where its\n"
"threads run. Without -b or --json it opens the interactive monitor.\n"
"\n"
"  -b, --batch          print text snapshots (like top -b)\n"
"  -j, --json           print one JSON object per sample (NDJSON)\n"
"      --format NAME    print samples in format NAME (see Formats below)\n"
"  -n, --iterations N   stop after N samples (batch default: until killed)\n"
"  -d, --delay SECS     seconds between samples (decimals allowed; 2)\n"
"  -p, --pid PID[,PID]  only these processes\n"
"  -u, --user USER      only processes of USER (name or uid)\n"
"  -s, --sort COLUMN    sort by a column below (default REMOTE, descending)\n"
"  -c, --full-command   batch text: COMMAND is the command line, not the\n"
"                       name (as top -c; the monitor always shows it)\n"
"  -o, --columns LIST   the process table's columns, comma-separated (batch\n"
"                       text and the monitor; N = one column per node)\n"
"  -r, --root DIR       read /sys and /proc below DIR (a recorded tree);\n"
"                       also NUMATOP_TUI_ROOT; default /\n"
"      --proc-files     read /proc/PID files by path each sample instead of\n"
"                       libproc2 and kept descriptors\n"
"      --budget MS      milliseconds of numa_maps reading per sample (20);\n"
"                       the rest keep their last numbers, shown with AGE\n"
"      --full           read every process's numa_maps every sample (the\n"
"                       default for -b or --json with -n 1)\n"
"      --access MODE    access heat (HOT, HOTREM): on (the default) lets\n"
"                       DAMON watch the most remote processes when no one\n"
"                       else uses it (root); off: never\n"
"      --age            show the AGE column (age of each placement sample)\n"
"      --cgroups        batch text: a cgroup table after the nodes (the top\n"
"                       20 by memory; JSON always has \"cgroups\")\n"
"      --kernel-threads show kernel threads (hidden by default, as in htop;\n"
"                       a PID given with -p is always shown)\n"
"      --measure        measure latency and bandwidth between every CPU node\n"
"                       and memory node (about 2 s a pair); with --json as\n"
"                       JSON; saved for the monitor's heatmap (key v)\n"
"      --measure-quick  the same, coarse and faster\n"
"", f);
	action_usage(f);
	char keys[96];
	ui_keys_acting(keys, sizeof(keys));
	fprintf(f, "      --readonly       disable every action (keys %s; --migrate ...)\n", keys);
	fputs(
"      --openmetrics    print OpenMetrics text per sample (--format openmetrics;\n"
"                       --format prometheus for the Prometheus text format)\n"
"      --serve [ADDR:]PORT  serve GET /metrics (Prometheus / OpenMetrics) over\n"
"                       HTTP, sampling every -d in the background; ADDR\n"
"                       127.0.0.1 unless given ([::1], 0.0.0.0 ...)\n"
"      --metrics-top N  processes in the metrics: the top N by remote\n"
"                       bytes (50; 0: none)\n"
"      --metrics-min-remote SIZE  only processes with more remote memory\n"
"                       than SIZE in the metrics (bytes, or K, M, G, T; 1M)\n"
"      --metrics-by KEY series per process (KEY pid, the default) or summed\n"
"                       per command name and user (comm)\n"
"  -w, --record FILE    record samples (-d, default 10 s; -n or until\n"
"                       stopped) to FILE, a zstd stream of NDJSON\n"
"                       (zstdcat FILE); FILE ending in / is a directory of\n"
"                       daily files numatop-tui_YYYYMMDD.zst\n"
"      --keep-days N    daily files: remove those older than N days (28)\n"
"      --replay FILE    a recording (FILE or a directory of daily files):\n"
"                       the monitor on it; with -b, --json (the recorded\n"
"                       lines) or --format, printed\n"
"      --begin TIME     replay from TIME (HH:MM[:SS], YYYY-MM-DD HH:MM; local\n"
"                       time, as the text header and the monitor show it)\n"
"      --end TIME       replay up to TIME\n"
"      --capture DIR    for a bug report: copy the /sys, /proc and cgroup files\n"
"                       the program reads (of / or --root) into DIR, new or\n"
"                       empty, made private (0700); --root DIR reads it back\n"
"      --capture-processes WHICH  all (default), none, or top:N (the N with\n"
"                       the most resident memory); with -p only those PIDs\n"
"      --capture-anonymize  leave the host name, user names, command lines\n"
"                       and mapped file paths out of the capture (command\n"
"                       names and uids stay): for a capture handed to others\n"
"      --fleet [URL]    the Fleet screen: one row per numatop-tui --serve\n"
"                       host that the Prometheus server at URL (alone: the\n"
"                       settings' fleet=URL) scrapes: remote and hot remote\n"
"                       bytes, the worst processes, scrape health; Enter a\n"
"                       host. With -b or --json the table (-n N: N tables)\n"
"      --fleet-match MATCHER  only the series of MATCHER, a PromQL label\n"
"                       matcher ('{job=\"numa\",dc=\"x\"}')\n"
"      --fleet-host INSTANCE  the host whose instance label is INSTANCE,\n"
"                       opened: its nodes and processes (Enter on its row)\n"
"  -M, --no-mouse       interactive: do not use the mouse\n"
"  -C, --no-color       interactive: monochrome (also NO_COLOR)\n"
"  -U, --no-unicode     interactive: ASCII instead of block characters\n"
"  -h, --help           this text\n"
"  -V, --version        print the version\n"
"\nFormats (--format):\n", f);
	for (size_t i = 0; i < output_nformats; i++)
		fprintf(f, "  %-12s %s\n", output_formats[i].name, output_formats[i].desc);
	fputs("\nColumns (-s, -o; case-insensitive):\n", f);
	for (int c = 0; c < COL_NCOLS; c++) {
		const struct col_def *d = col_get((enum snap_col)c);
		fprintf(f, "  %-9s %s\n", col_help_name((enum snap_col)c), d->desc);
	}
	fputs("\nExit status:\n", f);
	for (size_t i = 0; i < exit_nstatuses; i++)
		wrapped(f, exit_statuses[i].code, exit_statuses[i].text);
}
