/* ui_replay_move.c - moving through a recording (t T Home End, b to a
 * time): the sample rebuilt by the replay (ui_replay.c), taken in as a
 * live one is (ui_sample), and said in the status line. */
#include <stdio.h>
#include <time.h>

#include "record.h"
#include "ui_int.h"

void ui_replay_to(struct ui *u, enum replay_to to, time_t when, const char *none)
{
	if (!ui_replay_go(u, to, when, none))
		return;
	ui_sample(u);
	if (!ui_replay_say(u) && !u->msg[0])
		ui_replay_status(u, u->msg, sizeof(u->msg));
}

void ui_replay_jump(struct ui *u, const char *text)
{
	time_t when;
	if (rec_parse_time(text, ui_replay_when(u), &when) != 0) {
		snprintf(u->msg, sizeof(u->msg), "not a time: use HH:MM[:SS] or YYYY-MM-DD HH:MM");
		return;
	}
	ui_replay_to(u, REPLAY_AT, when, "no sample there can be read");
	/* A time in a gap of the recording (the recorder stopped): said,
	 * with where the monitor went instead. */
	time_t got = ui_replay_when(u);
	double iv = u->snap.interval_s > 0 ? u->snap.interval_s : 1;
	struct tm a, b;
	if (got > when && (double)(got - when) > 1.5 * iv + 1 && localtime_r(&when, &a) &&
	    localtime_r(&got, &b)) {
		char from[16], to[16];
		strftime(from, sizeof(from), "%H:%M:%S", &a);
		strftime(to, sizeof(to), "%H:%M:%S", &b);
		snprintf(u->msg, sizeof(u->msg), "no samples %s-%s: showing %s", from, to, to);
	}
}
