/* libsqlite3 through dlopen: see interlude_sqlite.h for why. */
#include "interlude_sqlite.h"

#define INTERLUDE_LIST "interlude_sqlite_functions.h"
#include "interlude_list_define.h"

/* Memory statistics (which nothing here reads) take a global mutex on every
   SQLite allocation: 6% of a first scan's samples. Only possible before
   SQLite initializes; later it answers SQLITE_MISUSE and keeps its
   statistics, which is harmless. */
static void configure(struct interlude_library *library, int loaded) {
    (void)library;
    if (loaded) INTERLUDE_RESOLVED(sqlite3_config)(SQLITE_CONFIG_MEMSTATUS, 0);
}

static const char *const files[] = { "libsqlite3.so.0" };
static struct interlude_library library = {
    .files = files, .file_count = 1, INTERLUDE_LIBRARY_LIST, .after = configure,
};

int interlude_sqlite_load(char *message, size_t capacity) { return interlude_library_load(&library, message, capacity); }
struct interlude_library *interlude_sqlite_library(void) { return &library; }
