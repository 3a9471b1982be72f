#ifndef INTERLUDE_SQLITE_H
#define INTERLUDE_SQLITE_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

/* libsqlite3 is loaded with dlopen when the music library is first used (the
   `library` commands, the library pane), not linked: `interlude play` of an
   MP3 maps none of it. The header gives the types and constants; every call
   goes through loader.c, which resolves the functions once in
   interlude_sqlite_load(). Calling a wrapper before a successful load is a
   programming error (it traps).

   Only Sources/Interlude/Library/SQLite*.swift calls these. A connection is
   used by one thread at a time (the library's scan thread or the main loop,
   each with its own connection). */

/* Loads libsqlite3.so.0 and resolves what the wrappers call. Returns 0, or -1
   with dlopen's or dlsym's own message in `message` (NUL-terminated, truncated
   to `capacity`). Idempotent once it has succeeded; safe from several threads. */
int interlude_sqlite_load(char *message, size_t capacity);

int interlude_sqlite3_open(const char *path, sqlite3 **database);
int interlude_sqlite3_close(sqlite3 *database);
const char *interlude_sqlite3_errmsg(sqlite3 *database);
const char *interlude_sqlite3_errstr(int code);
int interlude_sqlite3_extended_errcode(sqlite3 *database);
int interlude_sqlite3_exec(sqlite3 *database, const char *sql);
int interlude_sqlite3_busy_timeout(sqlite3 *database, int milliseconds);
int interlude_sqlite3_prepare(sqlite3 *database, const char *sql, sqlite3_stmt **statement);
int interlude_sqlite3_step(sqlite3_stmt *statement);
int interlude_sqlite3_reset(sqlite3_stmt *statement);
int interlude_sqlite3_clear_bindings(sqlite3_stmt *statement);
int interlude_sqlite3_finalize(sqlite3_stmt *statement);
int interlude_sqlite3_bind_int64(sqlite3_stmt *statement, int index, int64_t value);
int interlude_sqlite3_bind_double(sqlite3_stmt *statement, int index, double value);
int interlude_sqlite3_bind_null(sqlite3_stmt *statement, int index);
/* The text is copied by SQLite (SQLITE_TRANSIENT, a macro Swift cannot import). */
int interlude_sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int length);
int interlude_sqlite3_column_type(sqlite3_stmt *statement, int column);
int64_t interlude_sqlite3_column_int64(sqlite3_stmt *statement, int column);
double interlude_sqlite3_column_double(sqlite3_stmt *statement, int column);
const unsigned char *interlude_sqlite3_column_text(sqlite3_stmt *statement, int column);
int interlude_sqlite3_column_bytes(sqlite3_stmt *statement, int column);
int interlude_sqlite3_changes(sqlite3 *database);
int64_t interlude_sqlite3_last_insert_rowid(sqlite3 *database);

#endif
