/* libsqlite3 through dlopen: see interlude_sqlite.h for why. */
#include "interlude_sqlite.h"
#include "interlude_shims.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static struct {
    int loaded;
    int (*open_v2)(const char *, sqlite3 **, int, const char *);
    int (*close_v2)(sqlite3 *);
    const char *(*errmsg)(sqlite3 *);
    const char *(*errstr)(int);
    int (*extended_errcode)(sqlite3 *);
    int (*exec)(sqlite3 *, const char *, int (*)(void *, int, char **, char **), void *, char **);
    int (*busy_timeout)(sqlite3 *, int);
    int (*prepare_v2)(sqlite3 *, const char *, int, sqlite3_stmt **, const char **);
    int (*step)(sqlite3_stmt *);
    int (*reset)(sqlite3_stmt *);
    int (*clear_bindings)(sqlite3_stmt *);
    int (*finalize)(sqlite3_stmt *);
    int (*bind_int64)(sqlite3_stmt *, int, sqlite3_int64);
    int (*bind_double)(sqlite3_stmt *, int, double);
    int (*bind_null)(sqlite3_stmt *, int);
    int (*bind_text)(sqlite3_stmt *, int, const char *, int, void (*)(void *));
    int (*column_type)(sqlite3_stmt *, int);
    sqlite3_int64 (*column_int64)(sqlite3_stmt *, int);
    double (*column_double)(sqlite3_stmt *, int);
    const unsigned char *(*column_text)(sqlite3_stmt *, int);
    int (*column_bytes)(sqlite3_stmt *, int);
    int (*changes)(sqlite3 *);
    sqlite3_int64 (*last_insert_rowid)(sqlite3 *);
    int (*config)(int, ...);
} api;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

#define SYMBOL(name) { "sqlite3_" #name, (void **)&api.name }

static int load_locked(char *message, size_t capacity) {
    void *library = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        interlude_copy_message(message, capacity, dlerror());
        return -1;
    }
    const struct interlude_symbol symbols[] = {
        SYMBOL(open_v2), SYMBOL(close_v2), SYMBOL(errmsg), SYMBOL(errstr), SYMBOL(extended_errcode),
        SYMBOL(exec), SYMBOL(busy_timeout), SYMBOL(prepare_v2), SYMBOL(step), SYMBOL(reset),
        SYMBOL(clear_bindings), SYMBOL(finalize), SYMBOL(bind_int64), SYMBOL(bind_double),
        SYMBOL(bind_null), SYMBOL(bind_text), SYMBOL(column_type), SYMBOL(column_int64),
        SYMBOL(column_double), SYMBOL(column_text), SYMBOL(column_bytes), SYMBOL(changes),
        SYMBOL(last_insert_rowid),
        SYMBOL(config),
    };
    if (interlude_resolve_symbols(library, symbols, sizeof symbols / sizeof symbols[0], message, capacity) != 0) {
        memset(&api, 0, sizeof api);
        dlclose(library);
        return -1;
    }
    /* Memory statistics (which nothing here reads) take a global mutex on
       every SQLite allocation: 6% of a first scan's samples. Only possible
       before SQLite initializes; later it answers SQLITE_MISUSE and keeps
       its statistics, which is harmless. */
    api.config(SQLITE_CONFIG_MEMSTATUS, 0);
    api.loaded = 1;
    return 0;
}

int interlude_sqlite_load(char *message, size_t capacity) {
    pthread_mutex_lock(&load_lock);
    int result = api.loaded ? 0 : load_locked(message, capacity);
    pthread_mutex_unlock(&load_lock);
    return result;
}

#define CALL(field) ((__typeof__(api.field))interlude_need((void *)api.field))

int interlude_sqlite3_open(const char *path, sqlite3 **database) {
    /* FULLMUTEX is not needed: each connection stays on one thread. */
    return CALL(open_v2)(path, database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
}
int interlude_sqlite3_close(sqlite3 *database) { return CALL(close_v2)(database); }
const char *interlude_sqlite3_errmsg(sqlite3 *database) { return CALL(errmsg)(database); }
const char *interlude_sqlite3_errstr(int code) { return CALL(errstr)(code); }
int interlude_sqlite3_extended_errcode(sqlite3 *database) { return CALL(extended_errcode)(database); }
int interlude_sqlite3_exec(sqlite3 *database, const char *sql) { return CALL(exec)(database, sql, NULL, NULL, NULL); }
int interlude_sqlite3_busy_timeout(sqlite3 *database, int milliseconds) { return CALL(busy_timeout)(database, milliseconds); }
int interlude_sqlite3_prepare(sqlite3 *database, const char *sql, sqlite3_stmt **statement) {
    return CALL(prepare_v2)(database, sql, -1, statement, NULL);
}
int interlude_sqlite3_step(sqlite3_stmt *statement) { return CALL(step)(statement); }
int interlude_sqlite3_reset(sqlite3_stmt *statement) { return CALL(reset)(statement); }
int interlude_sqlite3_clear_bindings(sqlite3_stmt *statement) { return CALL(clear_bindings)(statement); }
int interlude_sqlite3_finalize(sqlite3_stmt *statement) { return CALL(finalize)(statement); }
int interlude_sqlite3_bind_int64(sqlite3_stmt *statement, int index, int64_t value) {
    return CALL(bind_int64)(statement, index, value);
}
int interlude_sqlite3_bind_double(sqlite3_stmt *statement, int index, double value) {
    return CALL(bind_double)(statement, index, value);
}
int interlude_sqlite3_bind_null(sqlite3_stmt *statement, int index) { return CALL(bind_null)(statement, index); }
int interlude_sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return CALL(bind_text)(statement, index, text, length, SQLITE_TRANSIENT);
}
int interlude_sqlite3_column_type(sqlite3_stmt *statement, int column) { return CALL(column_type)(statement, column); }
int64_t interlude_sqlite3_column_int64(sqlite3_stmt *statement, int column) {
    return CALL(column_int64)(statement, column);
}
double interlude_sqlite3_column_double(sqlite3_stmt *statement, int column) {
    return CALL(column_double)(statement, column);
}
const unsigned char *interlude_sqlite3_column_text(sqlite3_stmt *statement, int column) {
    return CALL(column_text)(statement, column);
}
int interlude_sqlite3_column_bytes(sqlite3_stmt *statement, int column) { return CALL(column_bytes)(statement, column); }
int interlude_sqlite3_changes(sqlite3 *database) { return CALL(changes)(database); }
int64_t interlude_sqlite3_last_insert_rowid(sqlite3 *database) { return CALL(last_insert_rowid)(database); }
