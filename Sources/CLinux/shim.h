// Linux interfaces that Swift's Glibc module does not include.
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

/* pidfd_open(2) has no glibc wrapper before 2.36 and syscall(2) is variadic,
   which Swift cannot call: a descriptor that polls readable when the child exits. */
static inline int interlude_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}
