/* ui_out.h - the curses calls that write text, through one place: with
 * NUMATOP_TEST_WRAPS=FILE in the environment (the tests), a write that
 * passes the right edge of the window or goes on in another row (curses
 * wraps it onto the line below) is written to FILE with the screen it was
 * drawn on, and so is each screen drawn (ui_out_frame). Without it, the
 * calls are curses's own. ui/ sources get this through ui_int.h. */
#ifndef NUMATOP_UI_OUT_H
#define NUMATOP_UI_OUT_H

#include <curses.h>

int ui_out_mvaddnstr(int y, int x, const char *s, int n);
int ui_out_mvaddstr(int y, int x, const char *s);
int ui_out_mvprintw(int y, int x, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int ui_out_mvaddch(int y, int x, chtype c);
int ui_out_addch(chtype c);
int ui_out_move(int y, int x);
/* What is drawn from now on ("Processes v0"): said in FILE once per
 * size and screen. */
void ui_out_frame(const char *what);

#ifndef UI_OUT_REAL
#undef mvaddnstr
#undef mvaddstr
#undef mvprintw
#undef mvaddch
#undef addch
#undef move
#define mvaddnstr ui_out_mvaddnstr
#define mvaddstr ui_out_mvaddstr
#define mvprintw ui_out_mvprintw
#define mvaddch ui_out_mvaddch
#define addch ui_out_addch
#define move ui_out_move
#endif

#endif
