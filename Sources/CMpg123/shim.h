// Without _FILE_OFFSET_BITS, mpg123 1.31 exposes its plain (off_t) names such as
// mpg123_open and mpg123_seek as real functions rather than macros, so they
// import into Swift directly.
#include <sys/types.h>
#include <mpg123.h>
