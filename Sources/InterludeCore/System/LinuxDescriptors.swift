#if canImport(CLinux)
import CLinux
import Glibc

/// Throwing wrappers for the Linux descriptors the main loop and the writer
/// wait on: signalfd, timerfd and eventfd (and the signal mask a signalfd
/// needs). Each failure names its call, so a start-up that runs out of
/// descriptors says which one it could not make.
extension SystemCall {
    /// Blocks `mask` in the calling thread (threads created later inherit it).
    public static func blockSignals(_ mask: sigset_t) throws(SystemCallError) {
        try changeSignalMask(SIG_BLOCK, mask)
    }

    public static func unblockSignals(_ mask: sigset_t) throws(SystemCallError) {
        try changeSignalMask(SIG_UNBLOCK, mask)
    }

    /// `pthread_sigmask(how, mask, nil)`; `how` is SIG_BLOCK, SIG_UNBLOCK or SIG_SETMASK.
    public static func changeSignalMask(_ how: Int32, _ mask: sigset_t) throws(SystemCallError) {
        var mask = mask
        try checkingReturnedError("pthread_sigmask") { pthread_sigmask(how, &mask, nil) }
    }

    /// A new signalfd reading the signals in `mask` (which should be blocked first).
    public static func signalDescriptor(
        for mask: sigset_t, flags: Int32 = Int32(SFD_CLOEXEC | SFD_NONBLOCK)
    ) throws(SystemCallError) -> Int32 {
        var mask = mask
        return try retrying("signalfd") { signalfd(-1, &mask, flags) }
    }

    /// A new timerfd on `clock` (CLOCK_MONOTONIC, CLOCK_REALTIME), disarmed.
    public static func timerDescriptor(
        clock: clockid_t, flags: Int32 = Int32(TFD_CLOEXEC | TFD_NONBLOCK)
    ) throws(SystemCallError) -> Int32 {
        try retrying("timerfd_create") { timerfd_create(clock, flags) }
    }

    /// Arms (or, with a zero `it_value`, disarms) the timerfd `descriptor`.
    public static func setTimer(
        _ descriptor: Int32, flags: Int32 = 0, _ specification: itimerspec
    ) throws(SystemCallError) {
        var specification = specification
        _ = try retrying("timerfd_settime") { timerfd_settime(descriptor, flags, &specification, nil) }
    }

    /// A new eventfd counter starting at `initialValue`.
    public static func eventDescriptor(
        initialValue: UInt32 = 0, flags: Int32 = Int32(EFD_NONBLOCK | EFD_CLOEXEC)
    ) throws(SystemCallError) -> Int32 {
        try retrying("eventfd") { eventfd(initialValue, flags) }
    }
}
#endif
