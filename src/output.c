/* output.c - the output formats as one table: --format NAME (and -b,
 * --json) pick a row. A new format is one file with its writer and one
 * row here. */
#include "output.h"

#include <stdio.h>
#include <strings.h>

const struct output_format output_formats[] = {
	{ "text", "text snapshots, like top -b (-b)", output_text_write, SAMPLER_CG_OFF },
	{ "json", "one JSON object per sample, NDJSON (--json)", output_json_write,
	  SAMPLER_CG_ALL },
	{ "prometheus", "Prometheus text exposition per sample (node_exporter's textfile collector)",
	  output_prom_write, SAMPLER_CG_OFF },
	{ "openmetrics", "OpenMetrics text per sample (--openmetrics)", output_openmetrics_write,
	  SAMPLER_CG_OFF },
};
const size_t output_nformats = sizeof(output_formats) / sizeof(output_formats[0]);

const struct output_format *output_format_find(const char *name)
{
	for (size_t i = 0; i < output_nformats; i++)
		if (strcasecmp(name, output_formats[i].name) == 0)
			return &output_formats[i];
	return NULL;
}

void output_format_names(char *out, size_t n)
{
	size_t o = 0;
	out[0] = '\0';
	for (size_t i = 0; i < output_nformats && o < n; i++)
		o += (size_t)snprintf(out + o, n - o, "%s%s", i ? " " : "", output_formats[i].name);
}
