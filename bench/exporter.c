/* exporter.c - the --serve exporter under the benchmark's load: scrape
 * latency (GET /metrics round trips while it samples) and its CPU per
 * sample (its utime + stime over the samples it took). */
#include "exporter.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

/* One GET /metrics: the body's length, or -1; the whole reply in *body. */
static long scrape(int port, char **body)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
	if (write(fd, req, sizeof(req) - 1) != (ssize_t)sizeof(req) - 1) {
		close(fd);
		return -1;
	}
	size_t len = 0, cap = 1 << 16;
	char *b = malloc(cap + 1);
	ssize_t n;
	while (b && (n = read(fd, b + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len == cap) {
			char *nb = realloc(b, cap * 2 + 1);
			if (!nb)
				break;
			b = nb;
			cap *= 2;
		}
	}
	close(fd);
	if (!b)
		return -1;
	b[len] = '\0';
	*body = b;
	return strstr(b, " 200 ") ? (long)len : -1;
}

static double metric(const char *text, const char *name)
{
	const char *p = text;
	size_t nl = strlen(name);
	while ((p = strstr(p, name)) != NULL) {
		if ((p == text || p[-1] == '\n') && p[nl] == ' ')
			return strtod(p + nl + 1, NULL);
		p += nl;
	}
	return -1;
}

static double proc_cpu_s(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	unsigned long long ut = 0, st = 0;
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int exporter_measure(const char *prog, double delay, int scrapes, struct exporter_cost *out)
{
	memset(out, 0, sizeof(*out));
	int port = bench_free_port();
	if (port < 0)
		return -errno;
	char listen[32], d[32];
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	snprintf(d, sizeof(d), "%g", delay);
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execl(prog, prog, "--serve", listen, "-d", d, (char *)NULL);
		_exit(127);
	}
	/* The first sample: its cost is the full scan's, not the steady one. */
	char *body = NULL;
	double first = -1, cpu0 = -1, t_end = mono_s() + 30;
	while (mono_s() < t_end) {
		free(body);
		body = NULL;
		if (scrape(port, &body) > 0 && (first = metric(body, "numatop_samples_total")) >= 1)
			break;
		usleep(100000);
	}
	cpu0 = proc_cpu_s(pid);
	double *lat = calloc((size_t)scrapes, sizeof(double));
	int got = 0;
	for (int i = 0; lat && i < scrapes; i++) {
		double t0 = mono_s();
		free(body);
		body = NULL;
		long len = scrape(port, &body);
		double dt = mono_s() - t0;
		if (len > 0) {
			lat[got++] = dt * 1000.0;
			out->bytes = len;
		}
		usleep((useconds_t)(delay * 1e6 / 2));
	}
	double last = body ? metric(body, "numatop_samples_total") : -1;
	double cpu1 = proc_cpu_s(pid);
	kill(pid, SIGTERM);
	int status = 0;
	waitpid(pid, &status, 0);
	free(body);
	if (got == 0 || first < 1 || last <= first || cpu0 < 0 || cpu1 < 0) {
		free(lat);
		return -EIO;
	}
	qsort(lat, (size_t)got, sizeof(double), cmp_double);
	out->scrape_p50_ms = lat[got / 2];
	out->scrape_p95_ms = lat[(got * 95) / 100 < got ? (got * 95) / 100 : got - 1];
	out->samples = last - first;
	out->cpu_per_sample_ms = (cpu1 - cpu0) * 1000.0 / out->samples;
	out->scrapes = got;
	free(lat);
	return 0;
}
