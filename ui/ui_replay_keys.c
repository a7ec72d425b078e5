/* ui_replay_keys.c - the replay's keys (--replay): t T (next / previous
 * sample), b (a time, in the prompt), Home End (first / last), taken
 * before the main key table on the screens that show a sample. */
#include <curses.h>

#include "ui_int.h"

static void k_next(struct ui *u, int ch) { (void)ch; ui_replay_to(u, REPLAY_NEXT, 0, "the last sample"); }
static void k_prev(struct ui *u, int ch) { (void)ch; ui_replay_to(u, REPLAY_PREV, 0, "the first sample"); }
static void k_first(struct ui *u, int ch) { (void)ch; ui_replay_to(u, REPLAY_FIRST, 0, "no samples"); }
static void k_last(struct ui *u, int ch) { (void)ch; ui_replay_to(u, REPLAY_LAST, 0, "no samples"); }
static void k_jump(struct ui *u, int ch) { (void)ch; ui_prompt_open(u, UI_PROMPT_TIME); }

/* In replay these come before the main table (t is the tree there, T the
 * time sort, Home/End the first/last process: F5 and F6 still do those). */
const struct ui_key ui_replay_keys[] = {
	{ 't', k_next, "t T", "replay: next / previous sample", NULL, false, NULL },
	{ 'T', k_prev, NULL, NULL, NULL, false, NULL },
	{ 'b', k_jump, "b", "replay: jump to a time (HH:MM, YYYY-MM-DD HH:MM)", NULL, false, NULL },
	{ KEY_HOME, k_first, "Home End", "replay: first / last sample", NULL, false, NULL },
	{ KEY_END, k_last, NULL, NULL, NULL, false, NULL },
};
const size_t ui_nreplay_keys = sizeof(ui_replay_keys) / sizeof(ui_replay_keys[0]);

bool ui_replay_key(struct ui *u, int ch)
{
	if (!u->replay || (u->screen != SCR_PROCESSES && u->screen != SCR_NODES && u->screen != SCR_DETAIL))
		return false;
	for (size_t i = 0; i < ui_nreplay_keys; i++)
		if (ui_replay_keys[i].key == ch) {
			u->msg[0] = '\0';
			ui_replay_keys[i].fn(u, ch);
			return true;
		}
	return false;
}
