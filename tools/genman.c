/* genman.c - write numatop-tui.1 from doc/numatop-tui.1.in: the options
 * (from --help), formats, keys (the help screen's text) and columns come
 * from the tables the program itself uses, so the man page cannot drift.
 *
 *   genman TEMPLATE VERSION DATE > numatop-tui.1
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "options.h"
#include "output.h"
#include "ui.h"

/* Text as roff: backslash and hyphen escaped, no line starting with a
 * control character. */
static void roff(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

/* "  -b, --batch          print ..." and its continuation lines (indented
 * further than any option): one .TP entry, the flags bold, their argument
 * in italics. */
static void options(FILE *f)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		exit(1);
	options_usage(m);
	fclose(m);
	/* The options are the lines between the first and the second
	 * empty line of the usage text. */
	int blank = 0;
	for (char *line = text, *next; line && blank < 2; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!*line) {
			blank++;
			continue;
		}
		if (blank != 1)
			continue;
		const char *p = line;
		while (*p == ' ')
			p++;
		/* Options start within the first 8 columns ("  -b, --batch",
		 * "      --full"); a line indented further continues the
		 * help text above (it may start with "--format"). */
		if (p - line >= 8 || *p != '-') {
			fputc('\n', f);
			roff(f, p);
			continue;
		}
		/* The flags end at the first run of two or more blanks
		 * ("--migrate-cgroup PATH  move ..."), or, when they fill
		 * the column and one blank separates them from the help
		 * ("--kernel-threads show ..."), before the first word that
		 * is neither an option nor an argument (arguments have no
		 * lower-case letters: COLUMN, [ADDR:]PORT, PID[,PID]). */
		const char *gap = p;
		while (*gap && !(gap[0] == ' ' && gap[1] == ' ')) {
			if (*gap == ' ' && gap[1] != '-') {
				const char *w = gap + 1, *we = w;
				while (*we && *we != ' ')
					we++;
				int lower = 0;
				for (const char *c = w; c < we; c++)
					lower |= *c >= 'a' && *c <= 'z';
				if (lower)
					break;
			}
			gap++;
		}
		const char *help = gap;
		while (*help == ' ')
			help++;
		char flags[64];
		snprintf(flags, sizeof(flags), "%.*s", (int)(gap - p), p);
		fputs("\n.TP\n", f);
		/* "-s, --sort COLUMN": each flag bold, the argument italic. */
		char *arg = strchr(flags, ' ');
		while (arg && arg[-1] == ',')
			arg = strchr(arg + 1, ' ');
		if (arg)
			*arg++ = '\0';
		fputs("\\fB", f);
		roff(f, flags);
		fputs("\\fR", f);
		if (arg) {
			fputs(" \\fI", f);
			roff(f, arg);
			fputs("\\fR", f);
		}
		fputc('\n', f);
		roff(f, help);
	}
	fputc('\n', f);
	free(text);
}

static void formats(FILE *f)
{
	for (size_t i = 0; i < output_nformats; i++) {
		fputs(".TP\n.B ", f);
		roff(f, output_formats[i].name);
		fputc('\n', f);
		roff(f, output_formats[i].desc);
		fputc('\n', f);
	}
}

static void keys(FILE *f)
{
	const char *label, *text;
	char buf[160];
	bool heading;
	for (long k = 0; ui_help_entry(k, &label, &text, buf, sizeof(buf), &heading); k++) {
		if (heading) {
			if (strncmp(text, "Columns", 7) == 0)
				break;          /* their own section */
			fputs(".SS ", f);
			roff(f, text);
			fputc('\n', f);
			continue;
		}
		fputs(".TP\n.B ", f);
		roff(f, label);
		fputc('\n', f);
		roff(f, text);
		fputc('\n', f);
	}
}

static void columns(FILE *f)
{
	for (int c = 0; c < COL_NCOLS; c++) {
		const struct col_def *d = col_get((enum snap_col)c);
		fputs(".TP\n.B ", f);
		roff(f, c == COL_NODE ? "N<id>" : d->name);
		fputc('\n', f);
		roff(f, d->desc);
		fputc('\n', f);
	}
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: genman TEMPLATE VERSION DATE\n");
		return 2;
	}
	FILE *in = fopen(argv[1], "r");
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	char line[4096];
	while (fgets(line, sizeof(line), in)) {
		if (strcmp(line, "@OPTIONS@\n") == 0)
			options(stdout);
		else if (strcmp(line, "@FORMATS@\n") == 0)
			formats(stdout);
		else if (strcmp(line, "@KEYS@\n") == 0)
			keys(stdout);
		else if (strcmp(line, "@COLUMNS@\n") == 0)
			columns(stdout);
		else {
			char *v;
			while ((v = strstr(line, "@VERSION@")) || (v = strstr(line, "@DATE@"))) {
				const char *with = v[1] == 'V' ? argv[2] : argv[3];
				size_t cut = v[1] == 'V' ? 9 : 6;
				char rest[4096];
				snprintf(rest, sizeof(rest), "%s", v + cut);
				snprintf(v, sizeof(line) - (size_t)(v - line), "%s%s", with, rest);
			}
			fputs(line, stdout);
		}
	}
	fclose(in);
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
