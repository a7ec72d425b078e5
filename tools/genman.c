/* genman.c - write numatop-tui.1 from doc/numatop-tui.1.in: the options
 * (from --help), formats, keys (the help screen's text) and columns come
 * from the tables the program itself uses, so the man page cannot drift.
 * With --markdown the same markers become Markdown tables: the option and
 * key pages of docs/ (make docs), from doc/options.md.in and
 * doc/keys.md.in, and the metric table of docs/prometheus.md (from the
 * exposition's own family table) from doc/prometheus.md.in.
 *
 *   genman TEMPLATE VERSION DATE > numatop-tui.1
 *   genman --markdown TEMPLATE > docs/NAME.md
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "options.h"
#include "exit_status.h"
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

/* Text in a Markdown table cell: characters that would start markup or
 * HTML, or end the cell, are escaped; "_" only where it could start or
 * end emphasis (numa_maps stays as it is). */
static void md(FILE *f, const char *s)
{
	for (const char *c = s; *c; c++) {
		bool alnum_before = c > s && isalnum((unsigned char)c[-1]);
		bool alnum_after = isalnum((unsigned char)c[1]);
		if (strchr("\\`*|<[]~&", *c) || (*c == '_' && !(alnum_before && alnum_after)))
			fputc('\\', f);
		fputc(*c, f);
	}
}

/* A code span in a Markdown table cell ("F4 \\", "N<id>"): longer fences
 * when it holds a backtick, "|" escaped (the table splits its cells
 * first). */
static void md_code(FILE *f, const char *s)
{
	bool tick = strchr(s, '`') != NULL;
	fputs(tick ? "`` " : "`", f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputs(tick ? " ``" : "`", f);
}

/* "  -b, --batch          print ..." and its continuation lines (indented
 * further than any option): one .TP entry, the flags bold, their argument
 * in italics; in Markdown one table row, the flags a code span. */
static void options(FILE *f, bool markdown)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		exit(1);
	options_usage(m);
	fclose(m);
	if (markdown)
		fputs("| option | meaning |\n|---|---|\n", f);
	bool row = false;           /* a Markdown row is open */
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
			fputc(markdown ? ' ' : '\n', f);
			(markdown ? md : roff)(f, p);
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
		if (markdown) {
			fputs(row ? " |\n| " : "| ", f);
			md_code(f, flags);
			fputs(" | ", f);
			md(f, help);
			row = true;
			continue;
		}
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
	fputs(row ? " |\n" : "\n", f);
	free(text);
}

/* One entry: a man page .TP (the name bold), or a Markdown table row (the
 * name a code span). */
static void entry(FILE *f, bool markdown, const char *name, const char *text)
{
	if (markdown) {
		fputs("| ", f);
		md_code(f, name);
		fputs(" | ", f);
		md(f, text);
		fputs(" |\n", f);
		return;
	}
	fputs(".TP\n.B ", f);
	roff(f, name);
	fputc('\n', f);
	roff(f, text);
	fputc('\n', f);
}

static void formats(FILE *f, bool markdown)
{
	if (markdown)
		fputs("| format | what |\n|---|---|\n", f);
	for (size_t i = 0; i < output_nformats; i++)
		entry(f, markdown, output_formats[i].name, output_formats[i].desc);
}

/* The help screen's keys; a heading starts a subsection (in Markdown a
 * "##" heading and a table of its own). */
static void keys(FILE *f, bool markdown)
{
	const char *label, *text;
	char buf[160];
	bool heading;
	if (markdown)
		fputs("| key | action |\n|---|---|\n", f);
	for (long k = 0; ui_help_entry(k, &label, &text, buf, sizeof(buf), &heading); k++) {
		if (heading) {
			if (strncmp(text, "Columns", 7) == 0)
				break;          /* their own section */
			if (markdown) {
				fputs("\n## ", f);
				md(f, text);
				fputs("\n\n| key | action |\n|---|---|\n", f);
				continue;
			}
			fputs(".SS ", f);
			roff(f, text);
			fputc('\n', f);
			continue;
		}
		entry(f, markdown, label, text);
	}
	/* The Fleet screen's own table. */
	if (markdown)
		fputs("\n## The Fleet screen (--fleet)\n\n| key | action |\n|---|---|\n", f);
	else
		fputs(".SS The Fleet screen (--fleet)\n", f);
	for (long k = 0; ui_fleet_help_entry(k, &label, &text); k++)
		entry(f, markdown, label, text);
}

/* The Prometheus exposition's families (output_prom_family): a Markdown
 * table, or in the man page one entry each. The labels as "node, to";
 * a family with no condition is there "always". */
static void metrics(FILE *f, bool markdown)
{
	struct prom_family m;
	if (markdown)
		fputs("| metric | type | labels | when | what |\n|---|---|---|---|---|\n", f);
	for (size_t i = 0; output_prom_family(i, &m); i++) {
		char labels[128], text[512];
		size_t n = 0;
		for (const char *l = m.labels; *l && n + 3 < sizeof(labels); l++) {
			if (*l == ',')
				labels[n++] = ',', labels[n++] = ' ';
			else
				labels[n++] = *l;
		}
		labels[n] = '\0';
		if (!markdown) {
			snprintf(text, sizeof(text), "%s%s%s%s%s%s", m.help, *labels ? " Labels: " : "",
				 labels, *labels ? "." : "", *m.when ? " Only with " : "", m.when);
			entry(f, false, m.name, text);
			continue;
		}
		fputs("| ", f);
		md_code(f, m.name);
		fprintf(f, " | %s | ", m.type);
		md(f, labels);
		fputs(" | ", f);
		md(f, *m.when ? m.when : "always");
		fputs(" | ", f);
		md(f, m.help);
		fputs(" |\n", f);
	}
}

static void exits(FILE *f, bool markdown)
{
	if (markdown)
		fputs("| status | meaning |\n|---|---|\n", f);
	for (size_t i = 0; i < exit_nstatuses; i++) {
		char code[16], text[600];
		snprintf(code, sizeof(code), "%d", exit_statuses[i].code);
		/* A sentence, as the man page writes them. */
		snprintf(text, sizeof(text), "%c%s.", toupper((unsigned char)exit_statuses[i].text[0]),
			 exit_statuses[i].text + 1);
		entry(f, markdown, code, text);
	}
}

static void columns(FILE *f, bool markdown)
{
	if (markdown)
		fputs("| column | meaning |\n|---|---|\n", f);
	for (int c = 0; c < COL_NCOLS; c++) {
		const struct col_def *d = col_get((enum snap_col)c);
		entry(f, markdown, col_help_name((enum snap_col)c), d->desc);
	}
}

int main(int argc, char **argv)
{
	bool markdown = argc == 3 && strcmp(argv[1], "--markdown") == 0;
	if (argc != 4 && !markdown) {
		fprintf(stderr, "usage: genman TEMPLATE VERSION DATE\n"
			"       genman --markdown TEMPLATE\n");
		return 2;
	}
	const char *tmpl = argv[markdown ? 2 : 1];
	FILE *in = fopen(tmpl, "r");
	if (!in) {
		perror(tmpl);
		return 1;
	}
	char line[4096];
	while (fgets(line, sizeof(line), in)) {
		if (strcmp(line, "@OPTIONS@\n") == 0)
			options(stdout, markdown);
		else if (strcmp(line, "@FORMATS@\n") == 0)
			formats(stdout, markdown);
		else if (strcmp(line, "@KEYS@\n") == 0)
			keys(stdout, markdown);
		else if (strcmp(line, "@COLUMNS@\n") == 0)
			columns(stdout, markdown);
		else if (strcmp(line, "@METRICS@\n") == 0)
			metrics(stdout, markdown);
		else if (strcmp(line, "@EXIT@\n") == 0)
			exits(stdout, markdown);
		else {
			char *v;
			while (!markdown && ((v = strstr(line, "@VERSION@")) || (v = strstr(line, "@DATE@")))) {
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
