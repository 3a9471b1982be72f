/* libsqlite3's functions, each named once: see interlude_list_declare.h. */
/* FULLMUTEX is not needed: each connection stays on one thread. */
INTERLUDE_CALL_AS(int, sqlite3_open, (const char *path, sqlite3 **database), sqlite3_open_v2,
                  (path, database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL))
INTERLUDE_CALL_AS(int, sqlite3_close, (sqlite3 *database), sqlite3_close_v2, (database))
INTERLUDE_CALL(const char *, sqlite3_errmsg, (sqlite3 *database), (database))
INTERLUDE_CALL(const char *, sqlite3_errstr, (int code), (code))
INTERLUDE_CALL(int, sqlite3_extended_errcode, (sqlite3 *database), (database))
INTERLUDE_CALL(int, sqlite3_exec, (sqlite3 *database, const char *sql), (database, sql, NULL, NULL, NULL))
INTERLUDE_CALL(int, sqlite3_busy_timeout, (sqlite3 *database, int milliseconds), (database, milliseconds))
INTERLUDE_CALL_AS(int, sqlite3_prepare, (sqlite3 *database, const char *sql, sqlite3_stmt **statement), sqlite3_prepare_v2,
                  (database, sql, -1, statement, NULL))
INTERLUDE_CALL(int, sqlite3_step, (sqlite3_stmt *statement), (statement))
INTERLUDE_CALL(int, sqlite3_reset, (sqlite3_stmt *statement), (statement))
INTERLUDE_CALL(int, sqlite3_clear_bindings, (sqlite3_stmt *statement), (statement))
INTERLUDE_CALL(int, sqlite3_finalize, (sqlite3_stmt *statement), (statement))
INTERLUDE_CALL(int, sqlite3_bind_int64, (sqlite3_stmt *statement, int index, int64_t value), (statement, index, value))
INTERLUDE_CALL(int, sqlite3_bind_double, (sqlite3_stmt *statement, int index, double value), (statement, index, value))
INTERLUDE_CALL(int, sqlite3_bind_null, (sqlite3_stmt *statement, int index), (statement, index))
/* The text is copied by SQLite (SQLITE_TRANSIENT, a macro Swift cannot import). */
INTERLUDE_CALL(int, sqlite3_bind_text, (sqlite3_stmt *statement, int index, const char *text, int length),
               (statement, index, text, length, SQLITE_TRANSIENT))
INTERLUDE_CALL(int, sqlite3_column_type, (sqlite3_stmt *statement, int column), (statement, column))
INTERLUDE_CALL(int64_t, sqlite3_column_int64, (sqlite3_stmt *statement, int column), (statement, column))
INTERLUDE_CALL(double, sqlite3_column_double, (sqlite3_stmt *statement, int column), (statement, column))
INTERLUDE_CALL(const unsigned char *, sqlite3_column_text, (sqlite3_stmt *statement, int column), (statement, column))
INTERLUDE_CALL(int, sqlite3_column_bytes, (sqlite3_stmt *statement, int column), (statement, column))
INTERLUDE_CALL(int, sqlite3_changes, (sqlite3 *database), (database))
INTERLUDE_CALL(int64_t, sqlite3_last_insert_rowid, (sqlite3 *database), (database))
INTERLUDE_USE(sqlite3_config)
