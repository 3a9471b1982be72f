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

#include <string.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/uio.h>

/* SCM_RIGHTS, whose CMSG_* macros Swift cannot call: a screen hands the
   player service its terminal (ScreenAttachments). Sends `count` bytes with
   the descriptors `input` and `output`; sendmsg's result. */
static inline long interlude_send_descriptors(int socket, const void *bytes, size_t count, int input, int output) {
    struct iovec part = { (void *)bytes, count };
    union { struct cmsghdr header; char space[CMSG_SPACE(2 * sizeof(int))]; } control;
    memset(&control, 0, sizeof control);
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    message.msg_control = control.space;
    message.msg_controllen = sizeof control.space;
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(2 * sizeof(int));
    int descriptors[2] = { input, output };
    memcpy(CMSG_DATA(header), descriptors, sizeof descriptors);
    return (long)sendmsg(socket, &message, MSG_NOSIGNAL);
}

/* Receives at most `capacity` bytes and the first two descriptors that came
   with them (-1 for none), close-on-exec; any further descriptor is closed at
   once, so a peer cannot fill the table. recvmsg's result. */
static inline long interlude_receive_descriptors(int socket, void *bytes, size_t capacity, int *input, int *output) {
    struct iovec part = { bytes, capacity };
    union { struct cmsghdr header; char space[CMSG_SPACE(8 * sizeof(int))]; } control;
    memset(&control, 0, sizeof control);
    struct msghdr message;
    memset(&message, 0, sizeof message);
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    message.msg_control = control.space;
    message.msg_controllen = sizeof control.space;
    *input = -1;
    *output = -1;
    ssize_t count = recvmsg(socket, &message, MSG_DONTWAIT);
    if (count < 0) return (long)count;
    int taken = 0;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t number = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t index = 0; index < number; index++) {
            int descriptor;
            memcpy(&descriptor, CMSG_DATA(header) + index * sizeof(int), sizeof descriptor);
            fcntl(descriptor, F_SETFD, FD_CLOEXEC);
            if (taken == 0) *input = descriptor;
            else if (taken == 1) *output = descriptor;
            else close(descriptor);
            taken++;
        }
    }
    return (long)count;
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
   again every 100 ms; with a writer open, it stays. A pipe smaller than
   `capacity` bytes is made that large where the system allows (fcntl(2)'s
   F_SETPIPE_SZ, up to /proc/sys/fs/pipe-max-size); where it does not, it
   stays as it is and takes less. */
#ifndef F_SETPIPE_SZ
/* <linux/fcntl.h>'s values, which <fcntl.h> gives only with _GNU_SOURCE. */
#define F_SETPIPE_SZ 1031
#define F_GETPIPE_SZ 1032
#endif
static inline int interlude_open_fifo(const char *path, int capacity) {
    int descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (descriptor < 0) return -errno;
    struct stat status;
    if (fstat(descriptor, &status) != 0 || !S_ISFIFO(status.st_mode)) {
        close(descriptor);
        return -EINVAL;
    }
    if (fcntl(descriptor, F_GETPIPE_SZ) < capacity) (void)fcntl(descriptor, F_SETPIPE_SZ, capacity);
    return descriptor;
}
