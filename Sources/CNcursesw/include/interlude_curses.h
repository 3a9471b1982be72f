#ifndef INTERLUDE_CURSES_H
#define INTERLUDE_CURSES_H

#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <wchar.h>
#include <sys/ioctl.h>
#include <ncursesw/curses.h>
#include "interlude_shims.h"

/* ncursesw is loaded with dlopen by the full-screen player, not linked: the
   headless `interlude play` then maps neither libncursesw nor libtinfo (about
   0.25 MB resident that the player's 12 MB budget cannot spare). curses.h still
   gives the types and constants; every call goes through loader.c, which
   resolves the functions once in interlude_curses_load(). Calling any of the
   wrappers below before a successful load is a programming error (it traps).

   Only the full-screen player's terminal (NcursesTerminal) calls these, all
   on the one thread that draws. */

/* Loads libncursesw.so.6 and resolves what the wrappers call:
   interlude_library_load's rule (0, or -1 with "<file>: <why>" in `message`). */
int interlude_curses_load(char *message, size_t capacity);

/* The library as the loader sees it (its list, whether it loaded): for tests. */
struct interlude_library *interlude_curses_library(void);

#define INTERLUDE_LIST "interlude_curses_functions.h"
#include "interlude_list_declare.h"
#undef INTERLUDE_LIST

int interlude_lines(void);
int interlude_cols(void);
int interlude_colors(void);
int interlude_color_pairs(void);
/* wattr_set with a pair number past a short's (alloc_pair's may be). */
int interlude_attr_set_pair(attr_t attributes, int pair);
/* As curses.h's mvaddnwstr: a failed move skips the write. */
int interlude_mvaddnwstr(int row, int column, const wchar_t *text, int count);

static inline attr_t interlude_attr_bold(void) { return A_BOLD; }
static inline attr_t interlude_attr_dim(void) { return A_DIM; }
static inline attr_t interlude_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t interlude_attr_reverse(void) { return A_REVERSE; }
static inline attr_t interlude_attr_standout(void) { return A_STANDOUT; }
static inline attr_t interlude_attr_blink(void) { return A_BLINK; }
static inline attr_t interlude_attr_italic(void) { return A_ITALIC; }

/* The terminal's own size, after a SIGWINCH that ncurses did not see (the
   player takes signals through a signalfd, so ncurses' handler never runs). */
static inline int interlude_terminal_size(int fd, int *rows, int *cols) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *cols = size.ws_col;
    return 0;
}

/* Columns a character takes in the current locale (-1: not printable). */
int interlude_wcwidth(unsigned int scalar);

/* A crash (a Swift trap is SIGILL or SIGTRAP, a bad pointer SIGSEGV or
   SIGBUS, abort() SIGABRT) must not leave the terminal raw and on the
   alternate screen. The handler does only async-signal-safe things: puts
   back the terminal modes saved before ncurses changed them, writes the
   escape sequences that leave the alternate screen and show the cursor,
   and dies of the same signal (SA_RESETHAND restored the default action). */
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

/* Function-local statics: a header's file-scope statics are not emitted
   for Swift, but those of an inline function it calls are. */
static inline struct termios *interlude_saved_modes(void) {
    static struct termios modes;
    return &modes;
}

static inline volatile sig_atomic_t *interlude_saved_modes_valid(void) {
    static volatile sig_atomic_t valid = 0;
    return &valid;
}

static inline void interlude_fatal_signal(int number) {
    if (*interlude_saved_modes_valid()) tcsetattr(0, TCSANOW, interlude_saved_modes());
    static const char reset[] = "\033[0m\033[?1049l\033[?25h\r\n";
    ssize_t ignored = write(1, reset, sizeof reset - 1);
    (void)ignored;
    raise(number);
}

static inline void interlude_restore_terminal_on_fatal_signals(void) {
    if (tcgetattr(0, interlude_saved_modes()) == 0) *interlude_saved_modes_valid() = 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = interlude_fatal_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = (int)SA_RESETHAND;
    int signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) sigaction(signals[i], &action, NULL);
}

#endif
