// Linux interfaces that Swift's Glibc module does not include.
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>
