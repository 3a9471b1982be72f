#include "interlude_shims.h"

// The Makefile's version-generated.c (ignored by git) defines the strong one.
__attribute__((weak)) const char *interlude_version(void) { return "0~unknown"; }
