/// The time source every piece of pure logic takes instead of reading the
/// system clocks itself, so that tests can run hours of schedule in
/// milliseconds on a `VirtualClock`.
///
/// Clocks are used from the main loop only (one thread), hence not `Sendable`.
/// Timers run their action on that loop: `VirtualClock.advance(by:)` in tests,
/// `SystemClock.runDueTimers()` after `poll` returns in the application.
public protocol Clock: AnyObject {
    /// `CLOCK_MONOTONIC`.
    var monotonicNow: MonotonicInstant { get }
    /// `CLOCK_REALTIME`.
    var wallNow: WallInstant { get }
    /// `CLOCK_BOOTTIME - CLOCK_MONOTONIC`: constant while the machine runs,
    /// grows by the time the machine spent asleep. A jump means system sleep.
    var bootTimeMinusMonotonic: Duration { get }

    /// Runs `action` once, on the main loop, when the monotonic clock reaches `deadline`.
    @discardableResult
    func schedule(at deadline: MonotonicInstant, _ action: @escaping () -> Void) -> TimerToken

    /// Cancels a timer that has not fired yet; cancelling a fired or cancelled timer does nothing.
    func cancel(_ token: TimerToken)
}

extension Clock {
    /// Runs `action` once after `delay` of monotonic time.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> TimerToken {
        schedule(at: monotonicNow + delay, action)
    }
}

/// Identifies one scheduled timer, to cancel it.
public struct TimerToken: Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
}
