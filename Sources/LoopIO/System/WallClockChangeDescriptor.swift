import CLinux
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// Wakes the main loop when the wall clock is set (NTP step, manual change,
/// resume from suspend): a CLOCK_REALTIME timerfd far in the future with
/// TFD_TIMER_CANCEL_ON_SET, whose read fails with ECANCELED when the clock
/// jumps. Clock-time alarms are then re-planned.
package final class WallClockChangeDescriptor {
    package let fd: Int32
    /// The first failure of `timerfd_create` or `timerfd_settime`, as one line
    /// naming the call; nil while it works. Without it a clock change goes
    /// unnoticed until the next alarm is re-planned for another reason.
    package private(set) var failure: SystemCallError?

    /// Creates and arms the descriptor, or throws naming the call that failed.
    package static func open() throws(SystemCallError) -> WallClockChangeDescriptor {
        let descriptor = WallClockChangeDescriptor()
        if let failure = descriptor.failure { throw failure }
        return descriptor
    }

    /// The non-throwing form: a failure is kept in `failure` for the caller to report.
    package init() {
        do {
            fd = try SystemCall.timerDescriptor(clock: CLOCK_REALTIME)
        } catch {
            fd = -1
            failure = error
            return
        }
        arm()
    }

    deinit { if fd >= 0 { close(fd) } }

    private func arm() {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var spec = itimerspec()
        // A year ahead: it never fires by time, only by being cancelled.
        spec.it_value = timespec(tv_sec: now.tv_sec + 365 * 24 * 3600, tv_nsec: 0)
        do {
            try SystemCall.setTimer(fd, flags: Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), spec)
        } catch {
            if failure == nil { failure = error }
        }
    }

    /// True when the wall clock was set since the last call; re-arms.
    package func clockWasSet() -> Bool {
        var expirations: UInt64 = 0
        do {
            _ = try SystemCall.retrying { read(fd, &expirations, 8) }
            return false
        } catch {
            guard error == .canceled else { return false }
            arm()
            return true
        }
    }
}
