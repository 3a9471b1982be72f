/* ncursesw through dlopen: see interlude_curses.h for why. */
#define _GNU_SOURCE 1  /* wcwidth */
#include "interlude_curses.h"

/* The list's symbols are pasted into names of their own (curses.h defines
   function-like macros, refresh, erase, ..., that would rewrite a call). */
#define STDSCR (*INTERLUDE_RESOLVED(stdscr))
#define INTERLUDE_LIST "interlude_curses_functions.h"
#include "interlude_list_define.h"

/* The runtime library's soname; the development symlink covers a system
   whose ncurses has another ABI number. */
static const char *const files[] = { "libncursesw.so.6" };
static struct interlude_library library = {
    .files = files, .file_count = 1, .fallback = "libncursesw.so", INTERLUDE_LIBRARY_LIST,
};

int interlude_curses_load(char *message, size_t capacity) { return interlude_library_load(&library, message, capacity); }
struct interlude_library *interlude_curses_library(void) { return &library; }

int interlude_lines(void) { return *INTERLUDE_RESOLVED(LINES); }
int interlude_cols(void) { return *INTERLUDE_RESOLVED(COLS); }
int interlude_colors(void) { return *INTERLUDE_RESOLVED(COLORS); }
int interlude_color_pairs(void) { return *INTERLUDE_RESOLVED(COLOR_PAIRS); }

int interlude_attr_set_pair(attr_t attributes, int pair) {
    return INTERLUDE_RESOLVED(wattr_set)(STDSCR, attributes, 0, &pair);
}

int interlude_mvaddnwstr(int row, int column, const wchar_t *text, int count) {
    WINDOW *window = STDSCR;
    if (INTERLUDE_RESOLVED(wmove)(window, row, column) == ERR) return ERR;
    return INTERLUDE_RESOLVED(waddnwstr)(window, text, count);
}

/* libc's, not ncurses': the text width the layout uses, in any build. */
int interlude_wcwidth(unsigned int scalar) { return wcwidth((wchar_t)scalar); }
