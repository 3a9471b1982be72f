import CLinux
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// Delivers signals to the main loop as a readable file descriptor (signalfd),
/// so no work is ever done inside a signal handler.
///
/// The signals are blocked in the calling thread; create this before starting
/// any other thread, so that threads created later (the audio writer) inherit
/// the mask and never receive them.
package final class SignalChannel {
    package let fd: Int32
    /// Why the channel could not be made, as one line naming the call; nil when
    /// it works. A failed channel blocks nothing (the mask is restored), so the
    /// signals keep their default action instead of being lost.
    package let failure: SystemCallError?
    private let mask: sigset_t

    /// Blocks `signals` and opens the descriptor, or throws naming the call that failed.
    package static func open(_ signals: [Int32]) throws(SystemCallError) -> SignalChannel {
        let channel = SignalChannel(signals)
        if let failure = channel.failure { throw failure }
        return channel
    }

    /// The non-throwing form: a failure is kept in `failure` for the caller to report.
    package init(_ signals: [Int32]) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        self.mask = mask
        var descriptor: Int32 = -1
        var failure: SystemCallError?
        do {
            try SystemCall.blockSignals(mask)
            do {
                descriptor = try SystemCall.signalDescriptor(for: mask)
            } catch {
                failure = error
                try? SystemCall.unblockSignals(mask)
            }
        } catch {
            failure = error
        }
        fd = descriptor
        self.failure = failure
    }

    deinit {
        guard fd >= 0 else { return }
        close(fd)
        // Unblocking can fail only for a bad `how`; nothing is left to report to here.
        try? SystemCall.unblockSignals(mask)
    }

    /// The signals pending now, in arrival order.
    package func take() -> [Int32] {
        var signals: [Int32] = []
        var info = signalfd_siginfo()
        // The descriptor is non-blocking: EAGAIN ends the batch.
        while let count = try? SystemCall.retrying({ read(fd, &info, MemoryLayout<signalfd_siginfo>.size) }),
              count == MemoryLayout<signalfd_siginfo>.size {
            signals.append(Int32(info.ssi_signo))
        }
        return signals
    }
}
