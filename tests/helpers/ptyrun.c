/* ptyrun.c - run a terminal program on a pseudo-terminal and drive it
 * from a script, where there is no tmux (the make vmtest guest).
 *
 *   ptyrun COLS ROWS SCRIPT OUT -- PROGRAM [ARG...]
 *
 * SCRIPT has one command per line:
 *   wait TEXT    until TEXT appears in the output after the last match
 *                (escape sequences and control bytes removed); 60 s at most.
 *                curses writes only what changed on a line: wait for words
 *                that are new on the screen, not for a line that differs
 *                from the one before only at its end
 *   send TEXT    write TEXT to the terminal; \r \n \t \e \\ are escapes
 *   sleep MS     pause
 *   signal NAME  send the program SIGNAME (USR1, USR2, ALRM, TERM, HUP, INT)
 *   resize COLS ROWS  a new window size (the program gets SIGWINCH)
 *   log FILE     the file waitlog reads (a log the program writes)
 *   waitlog LINE until a line LINE is in that file after the last one
 *                read; 5 s at most
 * Everything the program writes is kept in OUT, raw, and as text with the
 * escape sequences removed in OUT.txt. Exit status: the program's, 124
 * when a wait timed out (the program is then killed), 125 on setup errors. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct out {
	FILE *raw, *txt;
	char *text;             /* text so far, escapes removed */
	size_t len, cap, mark;  /* mark: where the next wait searches from */
	int esc;                /* 0 text, 1 after ESC, 2 in CSI, 3 in OSC */
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void add_text(struct out *o, char c)
{
	if (o->len + 2 > o->cap) {
		size_t nc = o->cap ? o->cap * 2 : 65536;
		char *n = realloc(o->text, nc);
		if (!n) {
			perror("ptyrun");
			exit(125);
		}
		o->text = n;
		o->cap = nc;
	}
	o->text[o->len++] = c;
	o->text[o->len] = '\0';
	fputc(c, o->txt);
}

/* Escape sequences are dropped; a cursor move becomes a space, so words
 * drawn at different places do not run together (colour changes do not
 * split words). */
static void feed(struct out *o, const char *b, size_t n)
{
	fwrite(b, 1, n, o->raw);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)b[i];
		switch (o->esc) {
		case 0:
			if (c == 0x1b)
				o->esc = 1;
			else if (c == '\n' || c == '\r')
				add_text(o, '\n');
			else if (c >= 0x20 && c != 0x7f)
				add_text(o, (char)c);
			break;
		case 1:
			o->esc = c == '[' ? 2 : c == ']' ? 3 : c == '(' || c == ')' ? 4 : 0;
			break;
		case 2:
			if (c >= 0x40 && c <= 0x7e) {
				o->esc = 0;
				if (strchr("ABCDGHdf`", c))
					add_text(o, ' ');   /* cursor moved */
			}
			break;
		case 3:
			if (c == 0x07)
				o->esc = 0;
			else if (c == 0x1b)
				o->esc = 1;   /* ESC \ ends it: the '\' is eaten there */
			break;
		default:
			o->esc = 0;
			break;
		}
	}
}

/* Read what there is (waiting up to ms for the first bytes). false once
 * the program has closed the terminal (it exited). */
static bool pump(int fd, struct out *o, int ms)
{
	struct pollfd p = { fd, POLLIN, 0 };
	char b[4096];
	int r;
	while ((r = poll(&p, 1, ms)) > 0) {
		ssize_t n = read(fd, b, sizeof(b));
		if (n <= 0)
			return false;
		feed(o, b, (size_t)n);
		ms = 0;
	}
	return r >= 0;
}

static size_t unescape(const char *s, char *out)
{
	size_t n = 0;
	for (; *s; s++) {
		if (*s != '\\' || !s[1]) {
			out[n++] = *s;
			continue;
		}
		s++;
		out[n++] = *s == 'r' ? '\r' : *s == 'n' ? '\n' : *s == 't' ? '\t' :
			   *s == 'e' ? 0x1b : *s;
	}
	return n;
}

int main(int argc, char **argv)
{
	if (argc < 7 || strcmp(argv[5], "--") != 0) {
		fprintf(stderr, "usage: ptyrun COLS ROWS SCRIPT OUT -- PROGRAM [ARG...]\n");
		return 125;
	}
	struct winsize ws = { 0 };
	ws.ws_col = (unsigned short)atoi(argv[1]);
	ws.ws_row = (unsigned short)atoi(argv[2]);
	FILE *script = fopen(argv[3], "r");
	char txtpath[4096];
	snprintf(txtpath, sizeof(txtpath), "%s.txt", argv[4]);
	struct out o = { fopen(argv[4], "w"), fopen(txtpath, "w"), NULL, 0, 0, 0, 0 };
	if (!script || !o.raw || !o.txt) {
		perror("ptyrun");
		return 125;
	}
	int master;
	pid_t pid = forkpty(&master, NULL, NULL, &ws);
	if (pid < 0) {
		perror("ptyrun: forkpty");
		return 125;
	}
	if (pid == 0) {
		execvp(argv[6], argv + 6);
		perror("ptyrun: exec");
		_exit(127);
	}
	char ln[1024];
	int rc = -1;
	FILE *log = NULL;
	char logline[1024] = "";
	while (fgets(ln, sizeof(ln), script)) {
		ln[strcspn(ln, "\n")] = '\0';
		if (strncmp(ln, "wait ", 5) == 0) {
			const char *want = ln + 5;
			double end = now() + 60;
			char *hit = NULL;
			bool open = true;
			while (!(hit = strstr(o.text ? o.text + o.mark : "", want)) && open && now() < end)
				open = pump(master, &o, 100);
			if (!hit) {
				fprintf(stderr, "ptyrun: %s waiting for '%s'\n",
					open ? "timed out" : "the program exited", want);
				kill(pid, SIGKILL);
				rc = 124;
				break;
			}
			o.mark = (size_t)(hit - o.text) + strlen(want);
		} else if (strncmp(ln, "send ", 5) == 0) {
			char b[1024];
			size_t n = unescape(ln + 5, b);
			if (write(master, b, n) != (ssize_t)n)
				perror("ptyrun: write");
			pump(master, &o, 50);
		} else if (strncmp(ln, "resize ", 7) == 0) {
			struct winsize nw = { 0 };
			if (sscanf(ln + 7, "%hu %hu", &nw.ws_col, &nw.ws_row) != 2 ||
			    ioctl(master, TIOCSWINSZ, &nw) != 0)
				fprintf(stderr, "ptyrun: cannot %s\n", ln);
		} else if (strncmp(ln, "log ", 4) == 0) {
			if (log)
				fclose(log);
			/* The program makes it: wait for it as for a line. */
			for (double end = now() + 5; !(log = fopen(ln + 4, "r")) && now() < end;)
				pump(master, &o, 10);
		} else if (strncmp(ln, "waitlog ", 8) == 0) {
			const char *want = ln + 8;
			bool hit = false, open = true;
			for (double end = now() + 5; log && !hit && open && now() < end;) {
				/* A line may be read while it is being written: its
				 * parts are joined up to the newline. */
				size_t k = strlen(logline);
				if (fgets(logline + k, (int)(sizeof(logline) - k), log)) {
					if (!strchr(logline, '\n') && strlen(logline) + 1 < sizeof(logline))
						continue;
					logline[strcspn(logline, "\n")] = '\0';
					hit = strcmp(logline, want) == 0;
					logline[0] = '\0';
				} else {
					clearerr(log);
					open = pump(master, &o, 5);
				}
			}
			if (!hit) {
				fprintf(stderr, "ptyrun: %s waiting for '%s' in the log\n",
					!log ? "no log" : open ? "timed out" : "the program exited", want);
				kill(pid, SIGKILL);
				rc = 124;
				break;
			}
		} else if (strncmp(ln, "signal ", 7) == 0) {
			static const struct { const char *name; int sig; } sigs[] = {
				{ "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "ALRM", SIGALRM },
				{ "TERM", SIGTERM }, { "HUP", SIGHUP }, { "INT", SIGINT },
			};
			size_t k = 0;
			while (k < sizeof(sigs) / sizeof(sigs[0]) && strcmp(ln + 7, sigs[k].name) != 0)
				k++;
			if (k == sizeof(sigs) / sizeof(sigs[0])) {
				fprintf(stderr, "ptyrun: unknown signal '%s'\n", ln + 7);
				kill(pid, SIGKILL);
				rc = 125;
				break;
			}
			kill(pid, sigs[k].sig);
		} else if (strncmp(ln, "sleep ", 6) == 0) {
			double end = now() + atoi(ln + 6) / 1000.0;
			while (now() < end && pump(master, &o, 20))
				;
		}
	}
	/* Drain until the program exits (or 30 s). */
	int st = 0;
	double end = now() + 30;
	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (now() > end) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			if (rc < 0)
				rc = 124;
			break;
		}
		if (!pump(master, &o, 50))
			usleep(20000);   /* closed: only the exit status is left */
	}
	pump(master, &o, 0);
	if (log)
		fclose(log);
	fclose(o.raw);
	fclose(o.txt);
	free(o.text);
	if (rc >= 0)
		return rc;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
