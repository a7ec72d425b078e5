/* options.c - parse the command line. */
#include "options.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "columns.h"
#include "output.h"
#include "record.h"
#include "sanitize.h"
#include "session.h"

/* Every name of a -o list or -s must exist (nodes are checked once the
 * topology is read). */
static int check_columns(const char *opt, const char *spec, bool list, char *err, size_t errsz)
{
	struct col_list l = { 0 };
	int rc;
	if (list) {
		char e[512];
		rc = col_list_parse(NULL, spec, &l, e, sizeof(e));
		if (rc)
			snprintf(err, errsz, "%s: %s", opt, e);
	} else {
		struct sort_key k;
		rc = col_parse_sort(NULL, spec, &k);
		if (rc) {
			char names[256];
			col_valid_names(names, sizeof(names));
			snprintf(err, errsz, "%s: unknown column '%s' (columns: %s)", opt, spec, names);
		}
	}
	col_list_free(&l);
	return rc ? -EINVAL : 0;
}

static int parse_pids(struct options *o, const char *arg, char *err, size_t errsz)
{
	const char *p = arg;
	while (*p) {
		char *end;
		errno = 0;
		long v = strtol(p, &end, 10);
		if (end == p || errno || v <= 0 || v > 0x7fffffff ||
		    (*end && *end != ',')) {
			snprintf(err, errsz, "-p: not a PID list: '%s'", arg);
			return -EINVAL;
		}
		int *n = realloc(o->pids, (o->npids + 1) * sizeof(int));
		if (!n)
			return -ENOMEM;
		o->pids = n;
		o->pids[o->npids++] = (int)v;
		p = *end ? end + 1 : end;
	}
	if (!o->npids) {
		snprintf(err, errsz, "-p: empty PID list");
		return -EINVAL;
	}
	return 0;
}

/* --capture-processes: "all", "none", "top N", "top:N", "top=N" or
 * "topN" (N from 1 to CAPTURE_TOP_MAX). 0, or -EINVAL. */
static int parse_capture_procs(const char *spec, struct capture_opts *o)
{
	o->mode = strcmp(spec, "none") == 0 ? CAPTURE_NONE : CAPTURE_ALL;
	if (strcmp(spec, "all") == 0 || strcmp(spec, "none") == 0)
		return 0;
	if (strncmp(spec, "top", 3) != 0)
		return -EINVAL;
	const char *p = spec + 3 + (spec[3] == ' ' || spec[3] == ':' || spec[3] == '=');
	char *end;
	errno = 0;
	long v = strtol(p, &end, 10);
	if (*p < '1' || *p > '9' || *end || errno || v > CAPTURE_TOP_MAX)
		return -EINVAL;
	o->mode = CAPTURE_TOP;
	o->top = (size_t)v;
	return 0;
}

int options_parse_listen(const char *spec, char *addr, size_t addrsz, int *port)
{
	const char *colon = strrchr(spec, ':');
	const char *ps = colon ? colon + 1 : spec;
	char *end;
	errno = 0;
	long v = strtol(ps, &end, 10);
	if (*end || errno || end == ps || v < 1 || v > 65535)
		return -EINVAL;
	*port = (int)v;
	/* Localhost unless an address is given: [::1]:9000, 0.0.0.0:9000. */
	size_t n = colon ? (size_t)(colon - spec) : 0;
	if (n >= 2 && spec[0] == '[' && spec[n - 1] == ']')
		spec++, n -= 2;
	if (!colon)
		spec = "127.0.0.1", n = strlen(spec);
	if (n == 0 || n >= addrsz)
		return -EINVAL;
	memcpy(addr, spec, n);
	addr[n] = '\0';
	/* Numbers only (the server binds what it is given, never looks a
	 * name up): a name is a usage error here, not a failure later. */
	unsigned char sa[sizeof(struct in6_addr)];
	if (inet_pton(AF_INET, addr, sa) != 1 && inet_pton(AF_INET6, addr, sa) != 1)
		return -EADDRNOTAVAIL;
	return 0;
}

/* -u: a uid (0 to 4294967294; (uid_t)-1 is no uid) or a name without
 * control characters. 0, or -EINVAL with the reason. */
/* "1048576", "512K", "1M", "2G", "1T" (binary multiples; a lower-case
 * letter too): bytes from 0 to 1 TiB. 0, or -EINVAL. */
static int parse_size(const char *s, int64_t *out)
{
	static const char units[] = "KMGT";
	if (*s < '0' || *s > '9')
		return -EINVAL;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || v > (1ULL << 40))
		return -EINVAL;
	if (*end) {
		const char *u = strchr(units, toupper((unsigned char)*end));
		if (!u || !*u || end[1])
			return -EINVAL;
		for (long k = 0; k <= u - units; k++)
			if ((v *= 1024) > (1ULL << 40))
				return -EINVAL;
	}
	*out = (int64_t)v;
	return 0;
}

static int check_user(const char *u, char *err, size_t errsz)
{
	errno = 0;
	if (*u && !u[strspn(u, "0123456789")] && (strtoull(u, NULL, 10) >= (uid_t)-1 || errno)) {
		snprintf(err, errsz, "-u: uid %s is out of range (0 to %u)", u, (unsigned)(uid_t)-1 - 1);
		return -EINVAL;
	}
	bool bad = !*u;
	for (const unsigned char *p = (const unsigned char *)u; *p; p++)
		bad |= *p < ' ' || *p == 0x7f || *p == ':';
	if (bad)
		snprintf(err, errsz, "-u: not a user name or uid: '%s'", u);
	return bad ? -EINVAL : 0;
}

/* --begin after --end selects nothing: said. Times of day are on the
 * recording's first day and dates are absolute, so two of one kind
 * compare here (a time of day against a date waits for the recording). */
static int check_span(const struct options *o, char *err, size_t errsz)
{
	time_t now = time(NULL), b, e;
	if (!o->begin || !o->end || !strchr(o->begin, '-') != !strchr(o->end, '-') ||
	    rec_parse_time(o->begin, now, &b) != 0 || rec_parse_time(o->end, now, &e) != 0 || b <= e)
		return 0;
	snprintf(err, errsz, "--begin %s is after --end %s: nothing to replay", o->begin, o->end);
	return -EINVAL;
}

static int parse_args(int argc, char **argv, const char *env_root,
		      struct options *o, char *err, size_t errsz)
{
	static const struct option longopts[] = {
		{ "batch", no_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "format", required_argument, NULL, 'O' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "delay", required_argument, NULL, 'd' },
		{ "pid", required_argument, NULL, 'p' },
		{ "user", required_argument, NULL, 'u' },
		{ "sort", required_argument, NULL, 's' },
		{ "columns", required_argument, NULL, 'o' },
		{ "root", required_argument, NULL, 'r' },
		{ "proc-files", no_argument, NULL, 'F' },
		{ "migrate", required_argument, NULL, 'm' },
		{ "rebind", required_argument, NULL, 'B' },
		{ "to", required_argument, NULL, 't' },
		{ "readonly", no_argument, NULL, 'R' },
		{ "migrate-cgroup", required_argument, NULL, 'X' },
		{ "full-command", no_argument, NULL, 'c' },
		{ "budget", required_argument, NULL, 'G' },
		{ "full", no_argument, NULL, 'f' },
		{ "age", no_argument, NULL, 'A' },
		{ "cgroups", no_argument, NULL, 'g' },
		{ "kernel-threads", no_argument, NULL, 'K' },
		{ "measure", no_argument, NULL, 'L' },
		{ "measure-quick", no_argument, NULL, 'Q' },
		{ "no-mouse", no_argument, NULL, 'M' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "no-unicode", no_argument, NULL, 'U' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "openmetrics", no_argument, NULL, 'E' },
		{ "serve", required_argument, NULL, 'S' },
		{ "metrics-top", required_argument, NULL, 'T' },
		{ "metrics-min-remote", required_argument, NULL, 'I' },
		{ "metrics-by", required_argument, NULL, 'H' },
		{ "access", required_argument, NULL, 'x' },
		{ "hot", no_argument, NULL, 'W' },
		{ "cold", no_argument, NULL, 'Z' },
		{ "record", required_argument, NULL, 'w' },
		{ "keep-days", required_argument, NULL, 'k' },
		{ "replay", required_argument, NULL, 'P' },
		{ "begin", required_argument, NULL, 'e' },
		{ "end", required_argument, NULL, 'z' },
		{ "capture", required_argument, NULL, 'Y' },
		{ "capture-processes", required_argument, NULL, 'y' },
		{ "capture-anonymize", no_argument, NULL, 'a' },
		{ "fleet", optional_argument, NULL, 'l' },
		{ "fleet-match", required_argument, NULL, 'q' },
		{ "fleet-host", required_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 },
	};
	memset(o, 0, sizeof(*o));
	o->root = env_root && *env_root ? env_root : "/";
	o->delay = SESSION_DELAY_DEFAULT;
	o->to_node = -1;
	o->budget_ms = NMSCHED_BUDGET_MS;
	o->keep_days = REC_KEEP_DAYS_DEFAULT;
	o->metrics = (struct output_metrics)OUTPUT_METRICS_DEFAULT;
	err[0] = '\0';
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":bjcn:d:p:u:s:o:r:w:MCUhV", longopts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'b': o->batch = true; break;
		case 'j': o->json = true; o->batch = true; o->format = "json"; break;
		case 'O': {
			const struct output_format *fmt = output_format_find(optarg);
			if (!fmt) {
				char names[128];
				output_format_names(names, sizeof(names));
				snprintf(err, errsz, "--format: unknown format '%s' (formats: %s)", optarg, names);
				return -EINVAL;
			}
			o->format = fmt->name;
			o->batch = true;
			o->json = strcmp(fmt->name, "json") == 0;
			break;
		}
		case 'n':
			errno = 0;
			o->iterations = strtol(optarg, &end, 10);
			if (*end || errno || o->iterations < 1) {
				snprintf(err, errsz, "-n: need a count of 1 or more, not '%s'", optarg);
				return -EINVAL;
			}
			break;
		case 'd':
			errno = 0;
			o->delay = strtod(optarg, &end);
			o->delay_set = true;
			if (*end || errno || !(o->delay >= SESSION_DELAY_MIN && o->delay <= SESSION_DELAY_MAX)) {
				snprintf(err, errsz, "-d: need seconds between %g and %g, not '%s'",
					 SESSION_DELAY_MIN, SESSION_DELAY_MAX, optarg);
				return -EINVAL;
			}
			break;
		case 'p': {
			int rc = parse_pids(o, optarg, err, errsz);
			if (rc)
				return rc;
			break;
		}
		case 'u':
			o->user = optarg;
			if (check_user(optarg, err, errsz))
				return -EINVAL;
			break;
		case 's':
			o->sort = optarg;
			if (check_columns("-s", optarg, false, err, errsz))
				return -EINVAL;
			break;
		case 'o':
			o->columns = optarg;
			if (check_columns("-o", optarg, true, err, errsz))
				return -EINVAL;
			break;
		case 'r': o->root = optarg; break;
		case 'F': o->proc_files = true; break;
		case 'R': o->readonly = true; break;
		case 'X': o->migrate_cgroup = optarg; break;
		case 'c': o->full_command = true; break;
		case 'f': o->full = true; break;
		case 'A': o->show_age = true; break;
		case 'g': o->cgroups = true; break;
		case 'K': o->kernel_threads = true; break;
		case 'L': o->measure = true; break;
		case 'Q': o->measure = o->measure_quick = true; break;
		case 'G':
			errno = 0;
			o->budget_ms = strtod(optarg, &end);
			if (*end || errno || end == optarg ||
			    !(o->budget_ms >= SESSION_BUDGET_MIN_MS && o->budget_ms <= SESSION_BUDGET_MAX_MS)) {
				snprintf(err, errsz, "--budget: need milliseconds between %g and %g, not '%s'",
					 SESSION_BUDGET_MIN_MS, SESSION_BUDGET_MAX_MS, optarg);
				return -EINVAL;
			}
			break;
		case 'm':
		case 'B':
		case 't': {
			errno = 0;
			long v = strtol(optarg, &end, 10);
			bool node = c == 't';
			if (*end || errno || end == optarg || v < (node ? 0 : 1) || v > 0x7fffffff) {
				snprintf(err, errsz, "--%s: not a %s: '%s'",
					 c == 'm' ? "migrate" : c == 'B' ? "rebind" : "to",
					 node ? "node id" : "PID", optarg);
				return -EINVAL;
			}
			if (c == 'm')
				o->migrate_pid = (int)v;
			else if (c == 'B')
				o->rebind_pid = (int)v;
			else
				o->to_node = (int)v;
			break;
		}
		case 'E':
			o->format = "openmetrics";
			o->batch = true;
			break;
		case 'S': {
			o->serve = optarg;
			int lrc = options_parse_listen(optarg, o->listen_addr, sizeof(o->listen_addr),
						       &o->listen_port);
			if (lrc == -EADDRNOTAVAIL) {
				snprintf(err, errsz, "--serve: '%s' is not an IPv4 or IPv6 address (names "
					 "are not looked up: 127.0.0.1, [::1], 0.0.0.0)", o->listen_addr);
				return -EINVAL;
			}
			if (lrc != 0) {
				snprintf(err, errsz, "--serve: need [ADDR:]PORT (PORT 1-65535), not '%s'", optarg);
				return -EINVAL;
			}
			break;
		}
		case 'T': {
			errno = 0;
			long v = strtol(optarg, &end, 10);
			if (*end || errno || end == optarg || v < 0 || v > 100000) {
				snprintf(err, errsz, "--metrics-top: need a count from 0 to 100000, not '%s'", optarg);
				return -EINVAL;
			}
			o->metrics.top = (size_t)v;
			break;
		}
		case 'I':
			if (parse_size(optarg, &o->metrics.min_remote) != 0) {
				snprintf(err, errsz, "--metrics-min-remote: need a size in bytes from 0 to 1T, "
					 "with K, M, G or T for KiB ... TiB (1M, 512K, 1048576), not '%s'", optarg);
				return -EINVAL;
			}
			break;
		case 'W':
			o->migrate_hot = true;
			break;
		case 'Z':
			o->migrate_cold = true;
			break;
		case 'x':
			if (strcmp(optarg, "on") == 0)
				o->access_off = false;
			else if (strcmp(optarg, "off") == 0)
				o->access_off = true;
			else {
				snprintf(err, errsz, "--access: need on or off, not '%s'", optarg);
				return -EINVAL;
			}
			break;
		case 'H':
			if (strcmp(optarg, "pid") == 0)
				o->metrics.by = OUTPUT_BY_PID;
			else if (strcmp(optarg, "comm") == 0)
				o->metrics.by = OUTPUT_BY_COMM;
			else {
				snprintf(err, errsz, "--metrics-by: need pid or comm, not '%s'", optarg);
				return -EINVAL;
			}
			break;
		case 'w':
			if (!*optarg) {
				snprintf(err, errsz, "-w: need a file or a directory/");
				return -EINVAL;
			}
			o->record = optarg;
			break;
		case 'k':
			errno = 0;
			o->keep_days = strtol(optarg, &end, 10);
			if (*end || errno || end == optarg || o->keep_days < 1 || o->keep_days > 36500) {
				snprintf(err, errsz, "--keep-days: need a count of days from 1 to 36500, not '%s'", optarg);
				return -EINVAL;
			}
			break;
		case 'P': o->replay = optarg; break;
		case 'e':
		case 'z': {
			time_t t;
			int trc = rec_parse_time(optarg, time(NULL), &t);
			if (trc == -ERANGE) {
				snprintf(err, errsz, "--%s: no such date: '%s'", c == 'e' ? "begin" : "end", optarg);
				return -EINVAL;
			}
			if (trc != 0) {
				snprintf(err, errsz, "--%s: need HH:MM[:SS] or YYYY-MM-DD HH:MM[:SS], not '%s'",
					 c == 'e' ? "begin" : "end", optarg);
				return -EINVAL;
			}
			if (c == 'e')
				o->begin = optarg;
			else
				o->end = optarg;
			break;
		}
		case 'Y': o->capture = optarg; break;
		case 'y':
			if (parse_capture_procs(optarg, &o->capture_opts) != 0) {
				snprintf(err, errsz, "--capture-processes: need all, none or top:N "
					 "(N from 1), not '%s'", optarg);
				return -EINVAL;
			}
			o->capture_procs_set = true;
			break;
		case 'a': o->capture_opts.anonymize = true; break;
		case 'l':
			/* --fleet URL, --fleet=URL, or --fleet alone: the
			 * settings file's fleet=URL. */
			if (!optarg && optind < argc && (strncmp(argv[optind], "http://", 7) == 0 ||
							 strncmp(argv[optind], "https://", 8) == 0))
				optarg = argv[optind++];
			if (!optarg) {
				o->fleet = "";
				break;
			}
			if (strncmp(optarg, "http://", 7) != 0 && strncmp(optarg, "https://", 8) != 0) {
				snprintf(err, errsz, "--fleet: need a Prometheus server's URL (http://HOST:9090), "
					 "not '%s'", optarg);
				return -EINVAL;
			}
			o->fleet = optarg;
			break;
		case 'q': o->fleet_match = optarg; break;
		case 'J': o->fleet_host = optarg; break;
		case 'M': o->no_mouse = true; break;
		case 'C': o->no_color = true; break;
		case 'U': o->ascii = true; break;
		case 'h': o->help = true; break;
		case 'V': o->version = true; break;
		case ':':
			snprintf(err, errsz, "option '%s' needs a value", argv[optind - 1]);
			return -EINVAL;
		default:
			snprintf(err, errsz, "unknown option '%s'", argv[optind - 1]);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		snprintf(err, errsz, "unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	if (o->migrate_hot && !o->migrate_pid) {
		snprintf(err, errsz, "--hot goes with --migrate PID");
		return -EINVAL;
	}
	if (o->migrate_hot && o->access_off) {
		snprintf(err, errsz, "--hot needs access heat: not with --access off");
		return -EINVAL;
	}
	if (o->migrate_cold && (!o->migrate_pid || o->migrate_hot || o->access_off)) {
		snprintf(err, errsz, "--cold goes with --migrate PID, not with --hot or --access off");
		return -EINVAL;
	}
	if (o->migrate_cgroup && (o->migrate_pid || o->rebind_pid)) {
		snprintf(err, errsz, "--migrate-cgroup runs alone: not with --migrate or --rebind");
		return -EINVAL;
	}
	if (o->serve && (o->batch || o->migrate_pid || o->rebind_pid || o->measure ||
			 o->migrate_cgroup)) {
		snprintf(err, errsz, "--serve runs alone: not with -b, --json, --format, --migrate, "
			 "--rebind or --measure");
		return -EINVAL;
	}
	if (o->record && (o->serve || o->replay || o->migrate_pid || o->rebind_pid || o->measure ||
			  o->migrate_cgroup || (o->format && strcmp(o->format, "json") != 0))) {
		snprintf(err, errsz, "-w runs alone: it records what --json prints (not with --serve, "
			 "--replay, --format, --migrate, --rebind or --measure)");
		return -EINVAL;
	}
	if (o->replay && (o->serve || o->migrate_pid || o->rebind_pid || o->measure ||
			  o->migrate_cgroup)) {
		snprintf(err, errsz, "--replay runs alone: not with --serve, --migrate, --rebind or --measure");
		return -EINVAL;
	}
	if (o->capture && (o->batch || o->serve || o->record || o->replay || o->migrate_pid ||
			   o->rebind_pid || o->measure || o->migrate_cgroup)) {
		snprintf(err, errsz, "--capture runs alone: not with -b, --json, --format, --serve, "
			 "-w, --replay, --migrate, --rebind, --migrate-cgroup or --measure");
		return -EINVAL;
	}
	if ((o->capture_procs_set || o->capture_opts.anonymize) && !o->capture) {
		snprintf(err, errsz, "%s needs --capture DIR",
			 o->capture_procs_set ? "--capture-processes" : "--capture-anonymize");
		return -EINVAL;
	}
	if ((o->fleet_match || o->fleet_host) && !o->fleet) {
		snprintf(err, errsz, "%s needs --fleet URL", o->fleet_match ? "--fleet-match" : "--fleet-host");
		return -EINVAL;
	}
	if (o->fleet && (o->serve || o->record || o->replay || o->capture || o->migrate_pid ||
			 o->rebind_pid || o->measure || o->migrate_cgroup ||
			 (o->format && strcmp(o->format, "json") != 0))) {
		snprintf(err, errsz, "--fleet runs alone, with -b or --json (not with --serve, -w, "
			 "--replay, --capture, --format, --migrate, --rebind or --measure)");
		return -EINVAL;
	}
	if ((o->begin || o->end) && !o->replay) {
		snprintf(err, errsz, "--begin and --end need --replay FILE");
		return -EINVAL;
	}
	if (check_span(o, err, errsz))
		return -EINVAL;
	bool act = o->migrate_pid || o->rebind_pid || o->migrate_cgroup;
	if (act && o->to_node < 0) {
		snprintf(err, errsz, "--migrate, --rebind and --migrate-cgroup need --to NODE");
		return -EINVAL;
	}
	if (!act && o->to_node >= 0) {
		snprintf(err, errsz, "--to needs --migrate PID, --rebind PID or --migrate-cgroup PATH");
		return -EINVAL;
	}
	if (o->migrate_pid && o->rebind_pid && o->migrate_pid != o->rebind_pid) {
		snprintf(err, errsz, "--migrate and --rebind name different PIDs");
		return -EINVAL;
	}
	return 0;
}

int options_parse(int argc, char **argv, const char *env_root,
		  struct options *o, char *err, size_t errsz)
{
	int rc = parse_args(argc, argv, env_root, o, err, errsz);
	if (rc && errsz) {
		/* The messages echo what was typed: a newline or an escape
		 * sequence in it is shown as \x0a, \x1b, never sent. */
		char raw[1024];
		snprintf(raw, sizeof(raw), "%s", err);
		sanitize_term(raw, err, errsz);
	}
	return rc;
}

bool options_full_scan(const struct options *o)
{
	return o->full || (o->batch && o->iterations == 1);
}

void options_session(const struct options *o, bool sampler, struct session_config *c)
{
	*c = (struct session_config){
		.root = o->root, .sampler = sampler,
		.backend = o->proc_files ? PROC_BACKEND_FILES : PROC_BACKEND_AUTO,
		.filter = { o->pids, o->npids, o->user, o->kernel_threads },
		.full = options_full_scan(o), .budget_ms = o->budget_ms,
		.access = !o->access_off,
	};
}

int options_columns(const struct options *o, const struct topology *t, struct sort_key *key,
		    struct col_list *cols, char *err, size_t errsz)
{
	return col_setup(t, o->sort, o->columns, o->show_age, key, cols, err, errsz);
}

void options_free(struct options *o)
{
	free(o->pids);
	o->pids = NULL;
	o->npids = 0;
}
