/*
 * jsonflat: print JSON as one "path=value" line per scalar, for tests in
 * shells without jq (the busybox initramfs of tests/vm/).
 *
 *   jsonflat < FILE
 *
 * Object members and array elements are joined with '.', arrays counted
 * from 0:
 *
 *   {"nodes":[{"id":0,"cpus":[0,1]}],"x":null}
 *   ->  nodes.0.id=0
 *       nodes.0.cpus.0=0
 *       nodes.0.cpus.1=1
 *       x=null
 *
 * Empty arrays and objects print as "path=[]" and "path={}". Strings are
 * printed as they appear in the JSON text, without the quotes (escapes
 * such as \/ or \u00e9 are left as they are). Several top-level values
 * (NDJSON) are numbered: the second line's paths start with "1.", and so
 * on; the first line's paths have no prefix. Exit status 0, or 1 with a
 * message on stderr when the input is not valid JSON (output so far is
 * kept).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64
#define MAX_PATH 4096

static const char *in;   /* parse position */
static const char *base; /* start of input, for error offsets */
static char path[MAX_PATH];

static void fail(const char *what)
{
	fprintf(stderr, "jsonflat: %s at offset %ld\n", what, (long)(in - base));
	exit(1);
}

static void ws(void)
{
	while (*in == ' ' || *in == '\t' || *in == '\n' || *in == '\r')
		in++;
}

/* Append ".name" (or "name" at the top) to the path; pop() takes it off. */
static void push(const char *name, size_t n)
{
	size_t old = strlen(path);
	if (old + n + 2 >= sizeof(path))
		fail("path too long");
	if (old)
		path[old++] = '.';
	memcpy(path + old, name, n);
	path[old + n] = '\0';
}

static void pop(size_t len) { path[len] = '\0'; }

static void emit(const char *v, size_t n)
{
	printf("%s=%.*s\n", path, (int)n, v);
}

/* A string: returns its contents (between the quotes) via *s, *n. */
static void string(const char **s, size_t *n)
{
	if (*in != '"')
		fail("expected string");
	in++;
	*s = in;
	while (*in != '"') {
		if (*in == '\0')
			fail("unterminated string");
		if ((unsigned char)*in < 0x20)
			fail("control character in string");
		if (*in == '\\') {
			in++;
			if (*in == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)in[i]))
						fail("bad \\u escape");
				in += 4;
			} else if (!strchr("\"\\/bfnrt", *in) || *in == '\0') {
				fail("bad escape");
			}
		}
		in++;
	}
	*n = (size_t)(in - *s);
	in++;
}

static void number(void)
{
	const char *s = in;
	if (*in == '-')
		in++;
	if (!isdigit((unsigned char)*in))
		fail("bad number");
	if (*in == '0')
		in++;
	else
		while (isdigit((unsigned char)*in))
			in++;
	if (*in == '.') {
		in++;
		if (!isdigit((unsigned char)*in))
			fail("bad fraction");
		while (isdigit((unsigned char)*in))
			in++;
	}
	if (*in == 'e' || *in == 'E') {
		in++;
		if (*in == '+' || *in == '-')
			in++;
		if (!isdigit((unsigned char)*in))
			fail("bad exponent");
		while (isdigit((unsigned char)*in))
			in++;
	}
	emit(s, (size_t)(in - s));
}

static void value(int depth)
{
	if (depth > MAX_DEPTH)
		fail("nested too deeply");
	ws();
	if (*in == '{') {
		in++;
		ws();
		if (*in == '}') {
			in++;
			emit("{}", 2);
			return;
		}
		for (;;) {
			const char *k;
			size_t kn;
			ws();
			string(&k, &kn);
			ws();
			if (*in++ != ':')
				fail("expected ':'");
			size_t old = strlen(path);
			push(k, kn);
			value(depth + 1);
			pop(old);
			ws();
			if (*in == ',') {
				in++;
				continue;
			}
			if (*in++ != '}')
				fail("expected ',' or '}'");
			return;
		}
	} else if (*in == '[') {
		in++;
		ws();
		if (*in == ']') {
			in++;
			emit("[]", 2);
			return;
		}
		for (long i = 0;; i++) {
			char idx[32];
			int n = snprintf(idx, sizeof(idx), "%ld", i);
			size_t old = strlen(path);
			push(idx, (size_t)n);
			value(depth + 1);
			pop(old);
			ws();
			if (*in == ',') {
				in++;
				continue;
			}
			if (*in++ != ']')
				fail("expected ',' or ']'");
			return;
		}
	} else if (*in == '"') {
		const char *s;
		size_t n;
		string(&s, &n);
		emit(s, n);
	} else if (!strncmp(in, "true", 4) || !strncmp(in, "null", 4)) {
		emit(in, 4);
		in += 4;
	} else if (!strncmp(in, "false", 5)) {
		emit(in, 5);
		in += 5;
	} else {
		number();
	}
}

int main(void)
{
	size_t cap = 1 << 16, len = 0, got;
	char *buf = malloc(cap);
	if (!buf)
		return 1;
	while ((got = fread(buf + len, 1, cap - len - 1, stdin)) > 0) {
		len += got;
		if (cap - len < 2) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				fprintf(stderr, "jsonflat: out of memory\n");
				return 1;
			}
			buf = nb;
			cap *= 2;
		}
	}
	buf[len] = '\0';
	if (strlen(buf) != len) {
		fprintf(stderr, "jsonflat: NUL byte in input\n");
		return 1;
	}
	base = in = buf;
	ws();
	if (*in == '\0') {
		fprintf(stderr, "jsonflat: empty input\n");
		return 1;
	}
	for (long doc = 0; *in; doc++) {
		path[0] = '\0';
		if (doc > 0)
			snprintf(path, sizeof(path), "%ld", doc);
		value(0);
		ws();
	}
	free(buf);
	return fflush(stdout) == 0 ? 0 : 1;
}
