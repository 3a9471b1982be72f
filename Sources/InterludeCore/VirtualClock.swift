/// A clock for tests: time stands still until the test advances it, and then
/// every timer due in between fires at exactly its deadline (the clock reads
/// the deadline while the timer's action runs), in deadline order.
///
/// The three clocks move the way the kernel's do: `advance` moves monotonic
/// and wall time together, `stepWallClock` moves only wall time (NTP step,
/// manual change), `sleepMachine` moves wall and boot time but not monotonic
/// time (`CLOCK_MONOTONIC` stops during system sleep).
public final class VirtualClock: Clock {
    public private(set) var monotonicNow: MonotonicInstant
    public private(set) var wallNow: WallInstant
    public private(set) var bootTimeMinusMonotonic: Duration = .zero

    /// How many timer actions have run since the clock was made; lets a test
    /// show that nothing fired (no polling) while it waited for an event.
    public private(set) var firedTimerCount = 0

    private var timers = TimerQueue()

    public init(monotonic: MonotonicInstant = .origin, wall: WallInstant) {
        self.monotonicNow = monotonic
        self.wallNow = wall
    }

    public var pendingTimerCount: Int { timers.count }
    public var nextTimerDeadline: MonotonicInstant? { timers.earliestDeadline }

    @discardableResult
    public func schedule(at deadline: MonotonicInstant, _ action: @escaping () -> Void) -> TimerToken {
        timers.insert(deadline: deadline, action: action)
    }

    public func cancel(_ token: TimerToken) {
        timers.remove(token)
    }

    /// Moves time forward by `duration`, firing every timer that falls due on the way
    /// (including timers that those timers schedule within the interval).
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "monotonic time cannot go backwards")
        let target = monotonicNow + duration
        while let timer = timers.popDue(atOrBefore: target) {
            if timer.deadline > monotonicNow { move(to: timer.deadline) }
            firedTimerCount += 1
            timer.action()
        }
        move(to: target)
    }

    /// Fires the timers already due without moving time.
    public func runDueTimers() { advance(by: .zero) }

    /// The process was stopped (SIGSTOP) for `duration`: monotonic and wall
    /// time pass but no timer runs; overdue timers fire at the next
    /// `runDueTimers()` or `advance`, as they would when the process continues.
    public func passTimeWhileStopped(_ duration: Duration) {
        precondition(duration >= .zero, "monotonic time cannot go backwards")
        move(to: monotonicNow + duration)
    }

    /// Steps the wall clock only, as `settimeofday` or an NTP step would.
    public func stepWallClock(by offset: Duration) {
        wallNow = wallNow + offset
    }

    /// The machine slept for `duration`: wall and boot time move, monotonic time does not.
    public func sleepMachine(for duration: Duration) {
        wallNow = wallNow + duration
        bootTimeMinusMonotonic += duration
    }

    private func move(to instant: MonotonicInstant) {
        wallNow = wallNow + (instant - monotonicNow)
        monotonicNow = instant
    }
}
