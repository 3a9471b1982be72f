/* A loader.c includes this once, with INTERLUDE_LIST naming its list (see
   interlude_list_declare.h), for: an index per symbol, `interlude_symbols`
   (the names to resolve), `interlude_symbol_files` (the file of each:
   INTERLUDE_FROM where the list line is read, 0 unless the list says),
   `interlude_table` (their addresses), INTERLUDE_LIBRARY_LIST (those as
   struct interlude_library's fields), INTERLUDE_RESOLVED(symbol) (a symbol's
   address as its declaration's type, a trap before the load), and the
   wrappers' definitions. */
#ifndef INTERLUDE_FROM
#define INTERLUDE_FROM 0
#endif

#define INTERLUDE_CALL(result, symbol, parameters, arguments) INTERLUDE_INDEX_##symbol,
#define INTERLUDE_CALL_AS(result, wrapper, parameters, symbol, arguments) INTERLUDE_INDEX_##symbol,
#define INTERLUDE_USE(symbol) INTERLUDE_INDEX_##symbol,
enum {
#include INTERLUDE_LIST
    INTERLUDE_SYMBOL_COUNT
};
#undef INTERLUDE_CALL
#undef INTERLUDE_CALL_AS
#undef INTERLUDE_USE

#define INTERLUDE_CALL(result, symbol, parameters, arguments) #symbol,
#define INTERLUDE_CALL_AS(result, wrapper, parameters, symbol, arguments) #symbol,
#define INTERLUDE_USE(symbol) #symbol,
static const char *const interlude_symbols[] = {
#include INTERLUDE_LIST
};
#undef INTERLUDE_CALL
#undef INTERLUDE_CALL_AS
#undef INTERLUDE_USE

#define INTERLUDE_CALL(result, symbol, parameters, arguments) INTERLUDE_FROM,
#define INTERLUDE_CALL_AS(result, wrapper, parameters, symbol, arguments) INTERLUDE_FROM,
#define INTERLUDE_USE(symbol) INTERLUDE_FROM,
static const unsigned char interlude_symbol_files[] = {
#include INTERLUDE_LIST
};
#undef INTERLUDE_CALL
#undef INTERLUDE_CALL_AS
#undef INTERLUDE_USE

static void *interlude_table[INTERLUDE_SYMBOL_COUNT];

#define INTERLUDE_LIBRARY_LIST \
    .symbols = interlude_symbols, .symbol_files = interlude_symbol_files, .table = interlude_table, \
    .count = INTERLUDE_SYMBOL_COUNT

#define INTERLUDE_RESOLVED(symbol) ((__typeof__(symbol) *)interlude_need(interlude_table[INTERLUDE_INDEX_##symbol]))

#define INTERLUDE_CALL(result, symbol, parameters, arguments) \
    result interlude_##symbol parameters { return INTERLUDE_RESOLVED(symbol) arguments; }
#define INTERLUDE_CALL_AS(result, wrapper, parameters, symbol, arguments) \
    result interlude_##wrapper parameters { return INTERLUDE_RESOLVED(symbol) arguments; }
#define INTERLUDE_USE(symbol)
#include INTERLUDE_LIST
#undef INTERLUDE_CALL
#undef INTERLUDE_CALL_AS
#undef INTERLUDE_USE
