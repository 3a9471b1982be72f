/* ncursesw through dlopen: see interlude_curses.h for why. */
#define _GNU_SOURCE 1  /* wcwidth */
#include "interlude_curses.h"
#include "interlude_shims.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* The functions and variables the wrappers use, resolved once. Field names
   carry a prefix because curses.h defines function-like macros (refresh,
   erase, ...) that would otherwise rewrite `api.refresh()`. */
static struct {
    void *library;
    SCREEN *(*f_newterm)(const char *, FILE *, FILE *);
    SCREEN *(*f_set_term)(SCREEN *);
    void (*f_delscreen)(SCREEN *);
    int (*f_endwin)(void);
    int (*f_reset_prog_mode)(void);
    int (*f_cbreak)(void);
    int (*f_noecho)(void);
    int (*f_nonl)(void);
    int (*f_keypad)(WINDOW *, bool);
    int (*f_nodelay)(WINDOW *, bool);
    int (*f_set_escdelay)(int);
    int (*f_curs_set)(int);
    bool (*f_has_colors)(void);
    int (*f_start_color)(void);
    int (*f_use_default_colors)(void);
    int (*f_init_pair)(short, short, short);
    int (*f_resizeterm)(int, int);
    int (*f_wattr_set)(WINDOW *, attr_t, short, void *);
    int (*f_wmove)(WINDOW *, int, int);
    int (*f_waddnwstr)(WINDOW *, const wchar_t *, int);
    int (*f_werase)(WINDOW *);
    int (*f_clearok)(WINDOW *, bool);
    int (*f_wrefresh)(WINDOW *);
    int (*f_wget_wch)(WINDOW *, wint_t *);
    WINDOW **v_stdscr;
    int *v_LINES;
    int *v_COLS;
    int *v_COLORS;
    int *v_COLOR_PAIRS;
} api;

int interlude_curses_load(char *message, size_t capacity) {
    if (api.library != NULL) return 0;
    /* The runtime library's soname first; the development symlink covers a
       system whose ncurses has another ABI number. */
    void *library = dlopen("libncursesw.so.6", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libncursesw.so", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        interlude_copy_message(message, capacity, dlerror());
        return -1;
    }
    const struct interlude_symbol symbols[] = {
#define SYMBOL(field, name) { name, (void **)&api.field }
        SYMBOL(f_newterm, "newterm"),
        SYMBOL(f_set_term, "set_term"),
        SYMBOL(f_delscreen, "delscreen"),
        SYMBOL(f_endwin, "endwin"),
        SYMBOL(f_reset_prog_mode, "reset_prog_mode"),
        SYMBOL(f_cbreak, "cbreak"),
        SYMBOL(f_noecho, "noecho"),
        SYMBOL(f_nonl, "nonl"),
        SYMBOL(f_keypad, "keypad"),
        SYMBOL(f_nodelay, "nodelay"),
        SYMBOL(f_set_escdelay, "set_escdelay"),
        SYMBOL(f_curs_set, "curs_set"),
        SYMBOL(f_has_colors, "has_colors"),
        SYMBOL(f_start_color, "start_color"),
        SYMBOL(f_use_default_colors, "use_default_colors"),
        SYMBOL(f_init_pair, "init_pair"),
        SYMBOL(f_resizeterm, "resizeterm"),
        SYMBOL(f_wattr_set, "wattr_set"),
        SYMBOL(f_wmove, "wmove"),
        SYMBOL(f_waddnwstr, "waddnwstr"),
        SYMBOL(f_werase, "werase"),
        SYMBOL(f_clearok, "clearok"),
        SYMBOL(f_wrefresh, "wrefresh"),
        SYMBOL(f_wget_wch, "wget_wch"),
        /* Variables; dlsym on the handle also searches libtinfo, which
           libncursesw brings in and which holds LINES and COLS. */
        SYMBOL(v_stdscr, "stdscr"),
        SYMBOL(v_LINES, "LINES"),
        SYMBOL(v_COLS, "COLS"),
        SYMBOL(v_COLORS, "COLORS"),
        SYMBOL(v_COLOR_PAIRS, "COLOR_PAIRS"),
#undef SYMBOL
    };
    if (interlude_resolve_symbols(library, symbols, sizeof symbols / sizeof symbols[0], message, capacity) != 0) {
        memset(&api, 0, sizeof api);
        dlclose(library);
        return -1;
    }
    api.library = library;
    return 0;
}

#define CALL(field) ((__typeof__(api.field))interlude_need((void *)api.field))
#define STDSCR (*(WINDOW **)interlude_need((void *)api.v_stdscr))

SCREEN *interlude_newterm_stdio(void) { return CALL(f_newterm)(NULL, stdout, stdin); }
SCREEN *interlude_set_term(SCREEN *screen) { return CALL(f_set_term)(screen); }
void interlude_delscreen(SCREEN *screen) { CALL(f_delscreen)(screen); }
int interlude_endwin(void) { return CALL(f_endwin)(); }
int interlude_reset_prog_mode(void) { return CALL(f_reset_prog_mode)(); }
int interlude_cbreak(void) { return CALL(f_cbreak)(); }
int interlude_noecho(void) { return CALL(f_noecho)(); }
int interlude_nonl(void) { return CALL(f_nonl)(); }
int interlude_keypad(bool enabled) { return CALL(f_keypad)(STDSCR, enabled); }
int interlude_nodelay(bool enabled) { return CALL(f_nodelay)(STDSCR, enabled); }
int interlude_set_escdelay(int milliseconds) { return CALL(f_set_escdelay)(milliseconds); }
int interlude_curs_set(int visibility) { return CALL(f_curs_set)(visibility); }
bool interlude_has_colors(void) { return CALL(f_has_colors)(); }
int interlude_start_color(void) { return CALL(f_start_color)(); }
int interlude_use_default_colors(void) { return CALL(f_use_default_colors)(); }
int interlude_init_pair(short pair, short foreground, short background) {
    return CALL(f_init_pair)(pair, foreground, background);
}
int interlude_resizeterm(int rows, int columns) { return CALL(f_resizeterm)(rows, columns); }
int interlude_lines(void) { return *(int *)interlude_need(api.v_LINES); }
int interlude_cols(void) { return *(int *)interlude_need(api.v_COLS); }
int interlude_colors(void) { return *(int *)interlude_need(api.v_COLORS); }
int interlude_color_pairs(void) { return *(int *)interlude_need(api.v_COLOR_PAIRS); }

int interlude_attr_set(attr_t attributes, short pair) {
    return CALL(f_wattr_set)(STDSCR, attributes, pair, NULL);
}
/* As curses.h's mvaddnwstr: a failed move skips the write. */
int interlude_mvaddnwstr(int row, int column, const wchar_t *text, int count) {
    WINDOW *window = STDSCR;
    if (CALL(f_wmove)(window, row, column) == ERR) return ERR;
    return CALL(f_waddnwstr)(window, text, count);
}
int interlude_erase(void) { return CALL(f_werase)(STDSCR); }
int interlude_clearok(bool enabled) { return CALL(f_clearok)(STDSCR, enabled); }
int interlude_refresh(void) { return CALL(f_wrefresh)(STDSCR); }
int interlude_get_wch(wint_t *character) { return CALL(f_wget_wch)(STDSCR, character); }

/* libc's, not ncurses': the text width the layout uses, in any build. */
int interlude_wcwidth(unsigned int scalar) { return wcwidth((wchar_t)scalar); }
