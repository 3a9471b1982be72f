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

#include <linux/falloc.h>

/* fallocate(2)'s hole punching without _GNU_SOURCE (the time-shift file,
   TimeShiftFile): the blocks of `length` bytes at `offset` are freed, the
   file's size kept. 0, or -1 with errno set. */
static inline int interlude_punch_hole(int descriptor, long long offset, long long length) {
    return (int)syscall(SYS_fallocate, descriptor, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length);
}
