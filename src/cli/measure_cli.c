/* measure_cli.c - --measure: run, print the matrices, save them. */
#include "measure_cli.h"

#include <errno.h>
#include <json-c/json.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "hmat.h"
#include "format.h"
#include "measure.h"
#include "options.h"
#include "session.h"
#include "sigstop.h"

static atomic_int cancelled;   /* lock-free: safe in a handler */

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&cancelled, 1);
}

static void progress(void *ctx, unsigned done, unsigned total, const char *what)
{
	FILE *err = ctx;
	fprintf(err, "\rmeasuring %u/%u: %-60s", done, total, what);
	if (done == total)
		fputc('\n', err);
	fflush(err);
}

/* One matrix of the text output; v(i, j) < 0 prints "-". */
static void print_matrix(FILE *f, const struct topology *t, const char *title,
			 double (*v)(const void *ctx, size_t i, size_t j), const void *ctx,
			 int decimals, const bool *marks)
{
	fprintf(f, "\n%s\n", title);
	fmt_node_matrix(f, t, &(struct fmt_matrix){ .indent = "  ", .corner = "CPU\\MEM", .left = true,
						    .width = 8, .cpu_rows = true, .decimals = decimals,
						    .get = v, .ctx = ctx, .marks = marks });
}

struct mctx {
	const struct measure_result *res;
	const struct topology *t;
	const struct hmat *h;
};
#define CELL(c, i, j) measure_at(((const struct mctx *)(c))->res, i, j)
static double v_lat(const void *c, size_t i, size_t j) { return CELL(c, i, j)->lat_ns; }
static double v_bw1(const void *c, size_t i, size_t j) { return CELL(c, i, j)->bw1_gbs; }
static double v_bwa(const void *c, size_t i, size_t j) { return CELL(c, i, j)->bwall_gbs; }
static double v_pct(const void *c, size_t i, size_t j) { return CELL(c, i, j)->on_node_pct; }
static double v_factor(const void *c, size_t i, size_t j)
{
	double l = CELL(c, i, j)->lat_ns, loc = CELL(c, i, i)->lat_ns;
	return l > 0 && loc > 0 ? l / loc : -1;
}
#undef CELL
static double v_slit(const void *c, size_t i, size_t j)
{
	return topology_distance(((const struct mctx *)c)->t, i, j);
}
static double v_hlat(const void *c, size_t i, size_t j)
{
	const struct hmat *h = ((const struct mctx *)c)->h;
	return (double)h->lat_ns[i * h->n + j];
}
static double v_hbw(const void *c, size_t i, size_t j)
{
	const struct hmat *h = ((const struct mctx *)c)->h;
	int64_t b = h->bw_mbs[i * h->n + j];
	return b < 0 ? -1 : (double)b / 1000.0;
}

void measure_write_text(FILE *f, const struct topology *t, const struct measure_result *res,
			const struct hmat *h)
{
	struct mctx c = { res, t, h };
	fprintf(f, "numatop-tui measure: host %s, %zu node(s), buffer %lld MiB, %s run, %.1f s\n",
		res->host, t->nnodes, (long long)(res->buf_kb / 1024), res->quick ? "quick" : "full",
		res->seconds);
	if (res->hypervisor[0])
		fprintf(f, "note: inside a virtual machine (%s): these numbers describe where the "
			"host placed this guest's memory, not the guest's nodes\n", res->hypervisor);
	bool *marks = calloc(t->nnodes * t->nnodes + 1, sizeof(bool));
	char dis[200] = "";
	int d = marks ? measure_disagreement(t, res, dis, sizeof(dis), marks) : 0;
	char title[128];
	snprintf(title, sizeof(title), "latency, ns (idle, dependent loads; a %lld KiB buffer that fits in L2: %.1f ns)",
		 (long long)res->l2_kb, res->l2_ns);
	print_matrix(f, t, title, v_lat, &c, 1, d ? marks : NULL);
	print_matrix(f, t, "NUMA factor (latency / the row's local latency)", v_factor, &c, 2, NULL);
	print_matrix(f, t, "read bandwidth, one thread, GB/s", v_bw1, &c, 1, NULL);
	print_matrix(f, t, "read bandwidth, every CPU of the row's node, GB/s", v_bwa, &c, 1, NULL);
	print_matrix(f, t, "placement check: % of the buffer's pages on the memory node", v_pct, &c,
		     0, NULL);
	print_matrix(f, t, "SLIT distance (firmware)", v_slit, &c, 0, NULL);
	if (h && h->ncells) {
		char ht[80];
		snprintf(ht, sizeof(ht), "HMAT read latency, ns (firmware, access%d)", h->access);
		print_matrix(f, t, ht, v_hlat, &c, 0, NULL);
		snprintf(ht, sizeof(ht), "HMAT read bandwidth, GB/s (firmware, access%d)", h->access);
		print_matrix(f, t, ht, v_hbw, &c, 1, NULL);
	}
	if (d)
		fprintf(f, "\n! %s\n", dis);
	free(marks);
}

int measure_cli_run(const struct options *o, FILE *out, FILE *err)
{
	struct session_config sc;
	struct session se;
	char msg[512];
	options_session(o, false, &sc);
	sc.live_only = true;
	sc.hmat = true;
	int rc = session_open(&se, &sc, msg, sizeof(msg));
	if (rc) {
		fprintf(err, "numatop-tui: %s\n", msg);
		return rc == SESSION_EUSAGE ? 2 : 1;
	}
	struct fsroot *root = se.root;
	const struct topology *t = &se.topo;
	sigstop_install(on_signal);
	struct measure_opts mo = { .quick = o->measure_quick, .cancel = &cancelled,
				   .progress = isatty(fileno(err)) ? progress : NULL, .ctx = err };
	struct measure_result res;
	rc = measure_run(root, t, &mo, &res);
	int status = 0;
	if (rc == -ECANCELED) {
		fprintf(err, "numatop-tui: measurement cancelled\n");
		status = 130;
	} else if (rc) {
		fprintf(err, "numatop-tui: measurement failed: %s\n", fsroot_strerror(-rc));
		status = 1;
	} else {
		char path[1024], why[512] = "";
		int sv = measure_cache_path(&res, path, sizeof(path));
		if (sv == 0)
			sv = measure_save(&res, path, why, sizeof(why));
		if (o->json) {
			json_object *j = measure_to_json(&res);
			json_object_object_add(j, "saved", sv == 0 ? json_object_new_string(path) : NULL);
			fprintf(out, "%s\n", json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
			json_object_put(j);
		} else {
			measure_write_text(out, t, &res, se.have_hmat ? &se.hmat : NULL);
			if (sv == 0)
				fprintf(out, "\nsaved to %s (the monitor shows it: key v)\n", path);
		}
		if (sv != 0)
			fprintf(err, "numatop-tui: could not save the measurement: %s\n",
				why[0] ? why : fsroot_strerror(-sv));
		measure_free(&res);
	}
	session_close(&se);
	return status;
}
