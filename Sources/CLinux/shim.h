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

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <errno.h>

/* FIONREAD through ioctl(2), which is variadic (Swift cannot call it, and a
   boxed argument would allocate on the audio writer): the bytes a pipe holds
   unread, whichever end `descriptor` is. 0, or -1 with errno set. */
static inline int interlude_unread_bytes(int descriptor, int *bytes) {
    return ioctl(descriptor, FIONREAD, bytes);
}

/* A named pipe opened without blocking, for reading and writing (open(2) is
   variadic): the descriptor, or -errno. ENOENT: it is not there; EINVAL: the
   path is not a FIFO (a regular file would take everything at once and pace
   nothing). Read and write, as Linux allows for a FIFO (fifo(7)): opened for
   writing alone it fails (ENXIO) unless a reader has it open at that moment,
   and snapserver's pipe source, finding no writer, closes it and opens it
   again every 100 ms; with a writer open, it stays. */
static inline int interlude_open_fifo(const char *path) {
    int descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (descriptor < 0) return -errno;
    struct stat status;
    if (fstat(descriptor, &status) != 0 || !S_ISFIFO(status.st_mode)) {
        close(descriptor);
        return -EINVAL;
    }
    return descriptor;
}
