/* settings.c - the monitor's settings file: parse, write, load, save. */
#include "settings.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "safefile.h"
#include "session.h"

const char *const settings_layer_names[] = {
	"slit", "latency", "bandwidth", "hmat_latency", "hmat_bandwidth",
};
const size_t settings_nlayers = sizeof(settings_layer_names) / sizeof(settings_layer_names[0]);

#define SETTINGS_MAX_FILE (64u << 10)

void settings_init(struct settings *s)
{
	memset(s, 0, sizeof(*s));
	s->sort_descending = s->show_nodes = s->show_heatmap = -1;
	s->kernel_threads = s->tree = -1;
	s->delay = s->fleet_timeout = -1;
}

static int parse_bool(const char *v, int *out)
{
	if (strcmp(v, "1") == 0 || strcmp(v, "true") == 0 || strcmp(v, "yes") == 0)
		*out = 1;
	else if (strcmp(v, "0") == 0 || strcmp(v, "false") == 0 || strcmp(v, "no") == 0)
		*out = 0;
	else
		return -EINVAL;
	return 0;
}

/* A name or list: printable ASCII without blanks. */
static int parse_word(const char *v, char *out, size_t n)
{
	size_t len = strlen(v);
	if (len == 0)
		return -EINVAL;
	for (const char *p = v; *p; p++)
		if (*p <= ' ' || *p > '~')
			return -EINVAL;
	if (len >= n)
		return -E2BIG;
	memcpy(out, v, len + 1);
	return 0;
}

static int set_value(struct settings *s, const char *key, const char *v)
{
	if (strcmp(key, "sort") == 0)
		return parse_word(v, s->sort, sizeof(s->sort));
	if (strcmp(key, "columns") == 0) {
		size_t names = 1;
		for (const char *p = v; *p; p++)
			names += *p == ',';
		return names > SETTINGS_MAX_COLUMNS ? -E2BIG : parse_word(v, s->columns, sizeof(s->columns));
	}
	if (strcmp(key, "sort_descending") == 0)
		return parse_bool(v, &s->sort_descending);
	if (strcmp(key, "show_nodes") == 0)
		return parse_bool(v, &s->show_nodes);
	if (strcmp(key, "show_heatmap") == 0)
		return parse_bool(v, &s->show_heatmap);
	if (strcmp(key, "kernel_threads") == 0)
		return parse_bool(v, &s->kernel_threads);
	if (strcmp(key, "tree") == 0)
		return parse_bool(v, &s->tree);
	if (strcmp(key, "heatmap_layer") == 0) {
		for (size_t i = 0; i < settings_nlayers; i++)
			if (strcmp(v, settings_layer_names[i]) == 0) {
				snprintf(s->heatmap_layer, sizeof(s->heatmap_layer), "%s", v);
				return 0;
			}
		return -EINVAL;
	}
	if (strcmp(key, "delay") == 0) {
		char *end;
		double d = strtod(v, &end);
		if (*end || !isfinite(d) || d < SESSION_DELAY_MIN || d > SESSION_DELAY_MAX)
			return -EINVAL;
		s->delay = d;
		return 0;
	}
	if (strcmp(key, "fleet") == 0) {
		size_t len = strlen(v);
		for (const char *p = v; *p; p++)
			if ((unsigned char)*p <= ' ' || *p == 0x7f)
				return -EINVAL;
		if (strncmp(v, "http://", 7) != 0 && strncmp(v, "https://", 8) != 0)
			return -EINVAL;
		if (len >= sizeof(s->fleet))
			return -E2BIG;
		memcpy(s->fleet, v, len + 1);
		return 0;
	}
	if (strcmp(key, "fleet_match") == 0 || strcmp(key, "fleet_token_file") == 0 ||
	    strcmp(key, "fleet_basic_auth_file") == 0) {
		char *out = key[6] == 'm' ? s->fleet_match : key[6] == 't' ? s->fleet_token_file :
			    s->fleet_basic_auth_file;
		size_t len = strlen(v);
		for (const char *p = v; *p; p++)
			if ((unsigned char)*p < ' ' || *p == 0x7f)
				return -EINVAL;
		if (len == 0 || (key[6] != 'm' && v[0] != '/'))
			return -EINVAL;     /* a file: an absolute path */
		if (len >= sizeof(s->fleet_match))
			return -E2BIG;
		memcpy(out, v, len + 1);
		return 0;
	}
	if (strcmp(key, "fleet_timeout") == 0) {
		char *end;
		double d = strtod(v, &end);
		if (*end || end == v || !isfinite(d) || d < 0.1 || d > 300)
			return -EINVAL;
		s->fleet_timeout = d;
		return 0;
	}
	return 1;     /* not a key of this version: skipped */
}

/* A value refused, in words: a list by its names, a name by its length. */
static void say_bad_value(int lineno, const char *key, const char *v, int rc, char *err, size_t errsz)
{
	size_t names = 1, len = strlen(v);
	for (const char *p = v; *p; p++)
		names += *p == ',';
	if (rc == -E2BIG && strcmp(key, "columns") == 0 && names > SETTINGS_MAX_COLUMNS)
		snprintf(err, errsz, "line %d: columns: %zu names, at most %d", lineno, names,
			 SETTINGS_MAX_COLUMNS);
	else if (rc == -E2BIG)
		snprintf(err, errsz, "line %d: %s: %zu characters, at most %zu", lineno, key, len,
			 strcmp(key, "sort") == 0 ? sizeof(((struct settings *)0)->sort) - 1 :
			 strncmp(key, "fleet", 5) == 0 ? sizeof(((struct settings *)0)->fleet_match) - 1 :
			 sizeof(((struct settings *)0)->columns) - 1);
	else
		snprintf(err, errsz, "line %d: bad value for %.40s", lineno, key);
}

int settings_parse(const char *buf, size_t len, struct settings *s, char *err, size_t errsz)
{
	const char *p = buf, *end = buf + len;
	int rc = 0;
	char *line = NULL;
	for (int lineno = 1; p < end && rc == 0; lineno++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		size_t n = (size_t)(le - p);
		if (memchr(p, '\0', n)) {
			snprintf(err, errsz, "line %d: not text (a NUL byte)", lineno);
			rc = -EINVAL;
			break;
		}
		free(line);
		if (!(line = strndup(p, n))) {
			snprintf(err, errsz, "out of memory");
			rc = -ENOMEM;
			break;
		}
		p = nl ? nl + 1 : end;
		/* Blanks around key and value are allowed. */
		char *a = line;
		while (*a == ' ' || *a == '\t')
			a++;
		char *z = a + strlen(a);
		while (z > a && (z[-1] == ' ' || z[-1] == '\t' || z[-1] == '\r'))
			*--z = '\0';
		if (!*a || *a == '#')
			continue;
		char *eq = strchr(a, '=');
		if (!eq || eq == a) {
			snprintf(err, errsz, "line %d: not key=value", lineno);
			rc = -EINVAL;
			break;
		}
		char *k = eq;
		while (k > a && (k[-1] == ' ' || k[-1] == '\t'))
			k--;
		*k = '\0';
		char *v = eq + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		int vrc = set_value(s, a, v);
		if (vrc < 0) {
			say_bad_value(lineno, a, v, vrc, err, errsz);
			rc = -EINVAL;
		}
	}
	free(line);
	return rc;
}

void settings_write(FILE *f, const struct settings *s)
{
	fputs("# numatop-tui settings: written when the monitor quits after a change.\n"
	      "# Options on the command line win over these.\n", f);
	if (s->sort[0])
		fprintf(f, "sort=%s\n", s->sort);
	if (s->sort_descending >= 0)
		fprintf(f, "sort_descending=%d\n", s->sort_descending);
	if (s->columns[0])
		fprintf(f, "columns=%s\n", s->columns);
	if (s->show_nodes >= 0)
		fprintf(f, "show_nodes=%d\n", s->show_nodes);
	if (s->show_heatmap >= 0)
		fprintf(f, "show_heatmap=%d\n", s->show_heatmap);
	if (s->heatmap_layer[0])
		fprintf(f, "heatmap_layer=%s\n", s->heatmap_layer);
	if (s->delay >= 0)
		fprintf(f, "delay=%g\n", s->delay);
	if (s->kernel_threads >= 0)
		fprintf(f, "kernel_threads=%d\n", s->kernel_threads);
	if (s->tree >= 0)
		fprintf(f, "tree=%d\n", s->tree);
	if (s->fleet[0])
		fprintf(f, "fleet=%s\n", s->fleet);
	if (s->fleet_match[0])
		fprintf(f, "fleet_match=%s\n", s->fleet_match);
	if (s->fleet_token_file[0])
		fprintf(f, "fleet_token_file=%s\n", s->fleet_token_file);
	if (s->fleet_basic_auth_file[0])
		fprintf(f, "fleet_basic_auth_file=%s\n", s->fleet_basic_auth_file);
	if (s->fleet_timeout >= 0)
		fprintf(f, "fleet_timeout=%g\n", s->fleet_timeout);
}

int settings_path(char *out, size_t n)
{
	const char *x = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int l;
	if (x && *x == '/')
		l = snprintf(out, n, "%s/numatop-tui/numatop-tuirc", x);
	else if (home && *home == '/')
		l = snprintf(out, n, "%s/.config/numatop-tui/numatop-tuirc", home);
	else
		return -ENOENT;
	return l > 0 && (size_t)l < n ? 0 : -ENAMETOOLONG;
}

int settings_load(const char *path, struct settings *s, char *err, size_t errsz)
{
	err[0] = '\0';
	struct buf b = { 0 };
	int rc = safefile_load_path(path, &b, SETTINGS_MAX_FILE, err, errsz);
	if (rc == 0)
		rc = settings_parse(b.data ? b.data : "", b.len, s, err, errsz);
	buf_free(&b);
	return rc;
}

int settings_save(const char *path, const struct settings *s, char *why, size_t whysz)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return -ENOMEM;
	settings_write(m, s);
	int rc = fclose(m) == 0 ? safefile_save_path(path, text, len, why, whysz) : -ENOMEM;
	free(text);
	return rc;
}
