/* ncursesw's functions and variables, each named once: see
   interlude_list_declare.h. The wrappers of a window's calls draw on the
   standard screen (STDSCR, loader.c). */
/* newterm rather than initscr, which exits the process on failure. */
INTERLUDE_CALL(SCREEN *, newterm, (const char *type, FILE *output, FILE *input), (type, output, input))
INTERLUDE_CALL(SCREEN *, set_term, (SCREEN *screen), (screen))
INTERLUDE_CALL(void, delscreen, (SCREEN *screen), (screen))
INTERLUDE_CALL(int, endwin, (void), ())
INTERLUDE_CALL(int, reset_prog_mode, (void), ())
INTERLUDE_CALL(int, cbreak, (void), ())
INTERLUDE_CALL(int, noecho, (void), ())
INTERLUDE_CALL(int, nonl, (void), ())
INTERLUDE_CALL(int, keypad, (bool enabled), (STDSCR, enabled))
INTERLUDE_CALL(int, nodelay, (bool enabled), (STDSCR, enabled))
INTERLUDE_CALL(int, set_escdelay, (int milliseconds), (milliseconds))
INTERLUDE_CALL(int, curs_set, (int visibility), (visibility))
INTERLUDE_CALL(bool, has_colors, (void), ())
INTERLUDE_CALL(int, start_color, (void), ())
INTERLUDE_CALL(int, use_default_colors, (void), ())
INTERLUDE_CALL(int, init_pair, (short pair, short foreground, short background), (pair, foreground, background))
/* A picture's cells (cover art): a pair for each two colours met, found or made by ncurses. */
INTERLUDE_CALL(int, alloc_pair, (int foreground, int background), (foreground, background))
INTERLUDE_CALL(int, resizeterm, (int rows, int columns), (rows, columns))
INTERLUDE_CALL_AS(int, attr_set, (attr_t attributes, short pair), wattr_set, (STDSCR, attributes, pair, NULL))
INTERLUDE_USE(wmove)
INTERLUDE_USE(waddnwstr)
INTERLUDE_CALL_AS(int, erase, (void), werase, (STDSCR))
INTERLUDE_CALL(int, clearok, (bool enabled), (STDSCR, enabled))
INTERLUDE_CALL_AS(int, refresh, (void), wrefresh, (STDSCR))
INTERLUDE_CALL_AS(int, get_wch, (wint_t *character), wget_wch, (STDSCR, character))
/* Keys typed while the terminal's answers were read (cover art's query), given back. */
INTERLUDE_CALL(int, ungetch, (int character), (character))
/* Variables; dlsym on the handle also searches libtinfo, which libncursesw
   brings in and which holds LINES and COLS. */
INTERLUDE_USE(stdscr)
INTERLUDE_USE(LINES)
INTERLUDE_USE(COLS)
INTERLUDE_USE(COLORS)
INTERLUDE_USE(COLOR_PAIRS)
