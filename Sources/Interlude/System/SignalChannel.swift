import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Delivers signals to the main loop as a readable file descriptor (signalfd),
/// so no work is ever done inside a signal handler.
///
/// The signals are blocked in the calling thread; create this before starting
/// any other thread, so that threads created later (the audio writer) inherit
/// the mask and never receive them.
final class SignalChannel {
    let fd: Int32
    private var mask = sigset_t()

    init(_ signals: [Int32]) {
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        pthread_sigmask(SIG_BLOCK, &mask, nil)
        fd = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
    }

    deinit {
        if fd >= 0 { close(fd) }
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    /// The signals pending now, in arrival order.
    func take() -> [Int32] {
        var signals: [Int32] = []
        var info = signalfd_siginfo()
        while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            signals.append(Int32(info.ssi_signo))
        }
        return signals
    }
}

/// Waits until one of `fds` is readable or `timeoutMilliseconds` passes (-1: forever).
/// Returns the readable descriptors.
func waitReadable(_ fds: [Int32], timeoutMilliseconds: Int) -> [Int32] {
    var polls = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let count = poll(&polls, nfds_t(polls.count), Int32(clamping: timeoutMilliseconds))
    guard count > 0 else { return [] }
    return polls.filter { $0.revents != 0 }.map(\.fd)
}
