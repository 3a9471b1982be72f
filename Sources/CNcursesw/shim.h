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
