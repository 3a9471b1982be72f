import CLinux
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// A one-shot CLOCK_MONOTONIC timerfd: the main loop's `poll` wakes when the
/// next timer (an alarm, a scheduled resume, a ring timeout) is due.
final class MonotonicTimerDescriptor {
    let fd: Int32
    /// The first failure of `timerfd_create` or `timerfd_settime`, as one line
    /// naming the call; nil while the timer works. A timer that cannot be set
    /// never wakes the loop, so the caller must report this and stop.
    private(set) var failure: SystemCallError?

    /// Creates the timer, or throws naming the call that failed.
    static func open() throws(SystemCallError) -> MonotonicTimerDescriptor {
        let timer = MonotonicTimerDescriptor()
        if let failure = timer.failure { throw failure }
        return timer
    }

    /// The non-throwing form: a failure is kept in `failure` for the caller to report.
    init() {
        do {
            fd = try SystemCall.timerDescriptor(clock: CLOCK_MONOTONIC)
        } catch {
            fd = -1
            failure = error
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Arms the timer `delay` from now; nil disarms it.
    func set(after delay: Duration?) throws(SystemCallError) {
        var spec = itimerspec()
        if let delay {
            let (seconds, attoseconds) = delay.components
            // A zero it_value disarms, so a due-now timer gets one nanosecond.
            let nanoseconds = max(1, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            spec.it_value = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        }
        try SystemCall.setTimer(fd, spec)
    }

    /// `set(after:)` without throwing: a failure is kept in `failure`.
    func arm(after delay: Duration?) {
        do {
            try set(after: delay)
        } catch {
            if failure == nil { failure = error }
        }
    }

    /// Consumes an expiry so the descriptor stops being readable.
    func acknowledge() {
        var expirations: UInt64 = 0
        // Non-blocking: EAGAIN only means another wake-up already consumed it.
        _ = try? SystemCall.retrying { read(fd, &expirations, 8) }
    }
}

/// Wakes the main loop when the wall clock is set (NTP step, manual change,
/// resume from suspend): a CLOCK_REALTIME timerfd far in the future with
/// TFD_TIMER_CANCEL_ON_SET, whose read fails with ECANCELED when the clock
/// jumps. Clock-time alarms are then re-planned.
final class WallClockChangeDescriptor {
    let fd: Int32
    /// The first failure of `timerfd_create` or `timerfd_settime`, as one line
    /// naming the call; nil while it works. Without it a clock change goes
    /// unnoticed until the next alarm is re-planned for another reason.
    private(set) var failure: SystemCallError?

    /// Creates and arms the descriptor, or throws naming the call that failed.
    static func open() throws(SystemCallError) -> WallClockChangeDescriptor {
        let descriptor = WallClockChangeDescriptor()
        if let failure = descriptor.failure { throw failure }
        return descriptor
    }

    /// The non-throwing form: a failure is kept in `failure` for the caller to report.
    init() {
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
    func clockWasSet() -> Bool {
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
