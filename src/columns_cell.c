/* columns_cell.c - the cell formats the column table and the tier
 * columns share (columns_cells.h). */
#include "columns_cells.h"

#include <string.h>

#include "format.h"

void col_kb_cell(const struct col_ctx *c, int64_t kb, bool sampled, char *out, size_t n)
{
	if (c->monitor)
		fmt_human_kb(out, n, kb);
	else
		fmt_kb(out, n, kb);
	size_t l = strlen(out);
	if (sampled && kb >= 0 && l + 1 < n) {
		out[l] = '~';
		out[l + 1] = '\0';
	}
}
