/* ui_guard.c - the guard of the keys that act on the machine (m, B, x,
 * k, L, a cgroup move): refused in a replay, with --readonly and on a
 * recorded tree, and said in the status line; an action's keys as the
 * action table (action_table.h) names them. */
#include <stdio.h>

#include <curses.h>

#include "action.h"
#include "ui_int.h"

/* In a replay: said with the keys that act (u->acting, from the key
 * table when the monitor opened). */
bool ui_replay_refused(struct ui *u)
{
	if (!u->replay)
		return false;
	snprintf(u->msg, sizeof(u->msg), "disabled on a recording: %s act on the live machine", u->acting);
	return true;
}

/* The one guard of every key that acts on the machine (m, B, k, a cgroup
 * move): refused in a replay, with --readonly and on a recorded tree, said
 * in the status line as "WHAT: why". */
bool ui_action_refused(struct ui *u, const char *what)
{
	if (ui_replay_refused(u))
		return true;
	const char *why = action_refusal(u->opt->readonly, u->se.root);
	if (!why)
		return false;
	snprintf(u->msg, sizeof(u->msg), "%s: %s", what, why);
	return true;
}

int ui_action_keycode(int c)
{
	return ACTION_KEY_IS_F(c) ? KEY_F(c - ACTION_KEY_F(0)) : c;
}

bool ui_action_key_is(const struct action_def *d, int ch)
{
	for (int j = 0; j < ACTION_NKEYS; j++)
		if (d->keys[j] && ch == ui_action_keycode(d->keys[j]))
			return true;
	return false;
}
