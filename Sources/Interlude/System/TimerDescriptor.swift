import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A one-shot CLOCK_MONOTONIC timerfd: the main loop's `poll` wakes when the
/// next timer (an alarm, a scheduled resume, a ring timeout) is due.
final class MonotonicTimerDescriptor {
    let fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))

    deinit { if fd >= 0 { close(fd) } }

    /// Arms the timer `delay` from now; nil disarms it.
    func arm(after delay: Duration?) {
        var spec = itimerspec()
        if let delay {
            let (seconds, attoseconds) = delay.components
            // A zero it_value disarms, so a due-now timer gets one nanosecond.
            let nanoseconds = max(1, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            spec.it_value = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        }
        timerfd_settime(fd, 0, &spec, nil)
    }

    /// Consumes an expiry so the descriptor stops being readable.
    func acknowledge() {
        var expirations: UInt64 = 0
        _ = read(fd, &expirations, 8)
    }
}

/// Wakes the main loop when the wall clock is set (NTP step, manual change,
/// resume from suspend): a CLOCK_REALTIME timerfd far in the future with
/// TFD_TIMER_CANCEL_ON_SET, whose read fails with ECANCELED when the clock
/// jumps. Clock-time alarms are then re-planned.
final class WallClockChangeDescriptor {
    let fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))

    init() { arm() }

    deinit { if fd >= 0 { close(fd) } }

    private func arm() {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var spec = itimerspec()
        // A year ahead: it never fires by time, only by being cancelled.
        spec.it_value = timespec(tv_sec: now.tv_sec + 365 * 24 * 3600, tv_nsec: 0)
        timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), &spec, nil)
    }

    /// True when the wall clock was set since the last call; re-arms.
    func clockWasSet() -> Bool {
        var expirations: UInt64 = 0
        let result = read(fd, &expirations, 8)
        guard result < 0, errno == ECANCELED else { return false }
        arm()
        return true
    }
}
