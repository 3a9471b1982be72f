/* A loader's public header includes this with INTERLUDE_LIST naming its list
   (`interlude_*_functions.h`, lines of the three forms below), to declare the
   wrappers Swift calls. No include guard: a list per header.

   INTERLUDE_CALL(result, symbol, (parameters), (arguments)): the wrapper
   interlude_<symbol>(parameters) returns symbol(arguments);
   INTERLUDE_CALL_AS(result, wrapper, (parameters), symbol, (arguments)): the
   same wrapper named interlude_<wrapper>;
   INTERLUDE_USE(symbol): resolved for the loader's own C (a function or a
   variable), no wrapper.
   Each symbol's type is its declaration's in the library's own header. */
#define INTERLUDE_CALL(result, symbol, parameters, arguments) result interlude_##symbol parameters;
#define INTERLUDE_CALL_AS(result, wrapper, parameters, symbol, arguments) result interlude_##wrapper parameters;
#define INTERLUDE_USE(symbol)
#include INTERLUDE_LIST
#undef INTERLUDE_CALL
#undef INTERLUDE_CALL_AS
#undef INTERLUDE_USE
