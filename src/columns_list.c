/* columns_list.c - a table's column list: insert, remove, find, and the
 * entries the defaults and the AGE / heat switches put in or take out
 * (columns.h). Below the column table and the tier columns, which both
 * use it. */
#include "columns.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

int col_list_insert(struct col_list *l, size_t pos, struct col_ref r)
{
	struct col_ref *v = buf_grow_array(l->v, &l->cap, l->n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	l->v = v;
	if (pos > l->n)
		pos = l->n;
	memmove(l->v + pos + 1, l->v + pos, (l->n - pos) * sizeof(*l->v));
	l->v[pos] = r;
	l->n++;
	return 0;
}

void col_list_remove(struct col_list *l, size_t pos)
{
	if (pos >= l->n)
		return;
	memmove(l->v + pos, l->v + pos + 1, (l->n - pos - 1) * sizeof(*l->v));
	l->n--;
}

long col_list_find(const struct col_list *l, enum snap_col col)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].col == col)
			return (long)i;
	return -1;
}

int col_list_set_age(struct col_list *l, bool on)
{
	long at = col_list_find(l, COL_AGE);
	if (!on) {
		while (at >= 0) {
			col_list_remove(l, (size_t)at);
			at = col_list_find(l, COL_AGE);
		}
		return 0;
	}
	if (at >= 0)
		return 0;
	long pos = col_list_find(l, COL_POLICY);
	if (pos < 0)
		pos = col_list_find(l, COL_COMMAND);
	return col_list_insert(l, pos < 0 ? l->n : (size_t)pos, (struct col_ref){ COL_AGE, -1 });
}

int col_list_set_access(struct col_list *l, bool on)
{
	static const enum snap_col heat[] = { COL_HOT, COL_HOTREM, COL_HOTREM_PCT };
	for (size_t i = 0; i < 3; i++) {
		long at = col_list_find(l, heat[i]);
		if (!on) {
			if (at >= 0)
				col_list_remove(l, (size_t)at);
			continue;
		}
		if (at >= 0)
			continue;
		long pos = i ? col_list_find(l, heat[i - 1]) : col_list_find(l, COL_REMOTE_PCT);
		if (pos >= 0)
			pos++;
		else {
			static const enum snap_col before[] = { COL_WHY, COL_POLICY, COL_COMMAND };
			for (size_t k = 0; k < 3 && pos < 0; k++)
				pos = col_list_find(l, before[k]);
		}
		int rc = col_list_insert(l, pos < 0 ? l->n : (size_t)pos, (struct col_ref){ heat[i], -1 });
		if (rc)
			return rc;
	}
	return 0;
}

void col_list_free(struct col_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int col_list_default(struct col_list *l, bool monitor, bool age)
{
	/* Batch text: POLICY; the monitor: WHY (the detail has the policy). */
	static const enum snap_col text[] = { COL_PID, COL_USER, COL_HOME, COL_CPU, COL_RSS, COL_NODE,
					      COL_REMOTE, COL_REMOTE_PCT, COL_WHY, COL_POLICY,
					      COL_COMMAND };
	l->n = 0;
	for (size_t i = 0; i < sizeof(text) / sizeof(*text); i++) {
		if ((monitor && text[i] == COL_POLICY) || (!monitor && text[i] == COL_WHY))
			continue;
		int rc = col_list_insert(l, l->n, (struct col_ref){ text[i], -1 });
		if (rc)
			return rc;
	}
	return col_list_set_age(l, age);
}
