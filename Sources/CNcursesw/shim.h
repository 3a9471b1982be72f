#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <sys/ioctl.h>
#include <ncursesw/curses.h>

/* Static inline wrappers for what Swift cannot import from curses.h: the
   attribute and colour-pair bits are function-like macros over NCURSES_BITS,
   and a few calls are macros over stdscr. Every symbol carries the
   interlude_ prefix. They live here rather than in CInterludeShims so that
   curses.h (which defines names like clear, refresh and timeout) reaches
   only the TUI module, not everything that imports the ALSA shims. */

static inline attr_t interlude_attr_bold(void) { return A_BOLD; }
static inline attr_t interlude_attr_dim(void) { return A_DIM; }
static inline attr_t interlude_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t interlude_attr_reverse(void) { return A_REVERSE; }
static inline attr_t interlude_attr_standout(void) { return A_STANDOUT; }
static inline attr_t interlude_attr_blink(void) { return A_BLINK; }
static inline attr_t interlude_attr_italic(void) { return A_ITALIC; }

/* The screen size ncurses believes in (LINES and COLS are macros over
   functions in some builds). */
static inline int interlude_lines(void) { return LINES; }
static inline int interlude_cols(void) { return COLS; }
static inline int interlude_colors(void) { return COLORS; }
static inline int interlude_color_pairs(void) { return COLOR_PAIRS; }

/* The terminal's own size, after a SIGWINCH that ncurses did not see (the
   player takes signals through a signalfd, so ncurses' handler never runs). */
static inline int interlude_terminal_size(int fd, int *rows, int *cols) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *cols = size.ws_col;
    return 0;
}

/* stdscr, stdin and stdout are mutable C globals, which Swift 6 refuses to
   touch from Swift code; read here, on the one thread that draws. */
static inline WINDOW *interlude_stdscr(void) { return stdscr; }
static inline SCREEN *interlude_newterm_stdio(void) { return newterm(NULL, stdout, stdin); }

/* Columns a character takes in the current locale (-1: not printable). */
static inline int interlude_wcwidth(unsigned int scalar) { return wcwidth((wchar_t)scalar); }
