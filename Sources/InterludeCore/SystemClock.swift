#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real clocks. Timers are kept in a queue that the application's main
/// loop drives: it sleeps in `poll` for at most `timeUntilNextTimer` and then
/// calls `runDueTimers()`. (This is the only C clock access in the pure-Swift
/// layer; AudioSession and Alarms see time only through `Clock`.)
public final class SystemClock: Clock {
    private var timers = TimerQueue()

    public init() {}

    public var monotonicNow: MonotonicInstant {
        MonotonicInstant(sinceOrigin: Self.read(CLOCK_MONOTONIC))
    }

    public var wallNow: WallInstant {
        WallInstant(sinceEpoch: Self.read(CLOCK_REALTIME))
    }

    public var bootTimeMinusMonotonic: Duration {
        #if os(Linux)
        // Monotonic first: the gap between the reads then adds a few hundred
        // nanoseconds (never a negative offset), far below the sleep threshold.
        let monotonic = Self.read(CLOCK_MONOTONIC)
        let boot = Self.read(CLOCK_BOOTTIME)
        return boot - monotonic
        #else
        return .zero
        #endif
    }

    @discardableResult
    public func schedule(at deadline: MonotonicInstant, _ action: @escaping () -> Void) -> TimerToken {
        timers.insert(deadline: deadline, action: action)
    }

    public func cancel(_ token: TimerToken) {
        timers.remove(token)
    }

    /// How long the main loop may sleep before a timer is due; nil when no timer is pending.
    public var timeUntilNextTimer: Duration? {
        guard let deadline = timers.earliestDeadline else { return nil }
        return max(.zero, deadline - monotonicNow)
    }

    /// Runs every timer whose deadline has passed, earliest first.
    public func runDueTimers() {
        while let timer = timers.popDue(atOrBefore: monotonicNow) {
            timer.action()
        }
    }

    private static func read(_ clock: clockid_t) -> Duration {
        var spec = timespec()
        // clock_gettime cannot fail for these clock ids on Linux; a zero reading would be
        // harmless anyway (every deadline would look due).
        _ = clock_gettime(clock, &spec)
        return .seconds(Int64(spec.tv_sec)) + .nanoseconds(Int64(spec.tv_nsec))
    }
}
