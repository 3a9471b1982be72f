// libsonic (Debian libsonic-dev 0.2.0): speech speed change with pitch kept.
// It ships no pkg-config file; the module map links -lsonic itself.
#include <sonic.h>
