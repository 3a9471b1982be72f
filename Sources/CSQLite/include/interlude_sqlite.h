#ifndef INTERLUDE_SQLITE_H
#define INTERLUDE_SQLITE_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>
#include "interlude_shims.h"

/* libsqlite3 is loaded with dlopen when the music library is first used (the
   `library` commands, the library pane), not linked: `interlude play` of an
   MP3 maps none of it. The header gives the types and constants; every call
   goes through loader.c, which resolves the functions once in
   interlude_sqlite_load(). Calling a wrapper before a successful load is a
   programming error (it traps).

   Only Sources/Interlude/Library/SQLite*.swift calls these. A connection is
   used by one thread at a time (the library's scan thread or the main loop,
   each with its own connection). */

/* Loads libsqlite3.so.0 and resolves what the wrappers call:
   interlude_library_load's rule (0, or -1 with "<file>: <why>" in `message`). */
int interlude_sqlite_load(char *message, size_t capacity);

/* The library as the loader sees it (its list, whether it loaded): for tests. */
struct interlude_library *interlude_sqlite_library(void);

#define INTERLUDE_LIST "interlude_sqlite_functions.h"
#include "interlude_list_declare.h"
#undef INTERLUDE_LIST

#endif
