#if canImport(CLinux)
import CLinux
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real clocks. Timers are kept in a queue that wakes the application's
/// main loop itself: the loop arms the clock's wake-up (`armWakeUp`, a
/// CLOCK_MONOTONIC timerfd set for the next deadline), sleeps in `poll` with
/// its descriptor among the others, and then calls `runDueTimers()`. (This is
/// the only C clock access in the pure-Swift layer; AudioSession and Alarms
/// see time only through `Clock`.)
public final class SystemClock: Clock {
    private var timers = TimerQueue()
    /// The timerfd that wakes the main loop's `poll` at the next deadline: made
    /// by the first `armWakeUp`, so a clock that is only read makes none.
    private var wakeUp: Int32 = -1
    /// The first failure to make or arm the wake-up, one line naming the call.
    /// A loop whose timers cannot wake it must report it and stop; nothing is
    /// tried again after it.
    public private(set) var wakeUpFailure: SystemCallError?
    /// What the timerfd was last set to: a deadline, or nil for disarmed.
    private var armed = Armed.unknown

    private enum Armed: Equatable {
        case unknown
        case at(MonotonicInstant?)
    }

    public init() {}

    deinit { if wakeUp >= 0 { close(wakeUp) } }

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

    /// The descriptor the main loop polls for input: readable once the deadline
    /// `armWakeUp` set has passed. -1 before that, or when it could not be made.
    public var wakeUpDescriptor: Int32 { wakeUp }

    #if canImport(CLinux)
    /// Sets the wake-up for the next timer, or for `deadline` when that is
    /// sooner (the loop's own: a staged suspension's); `holdingTimers` leaves
    /// the timers out (a suspended session runs none, as a stopped process).
    /// With nothing to wait for, the wake-up is disarmed. The timerfd is set
    /// to the deadline itself (`TFD_TIMER_ABSTIME` on CLOCK_MONOTONIC, the
    /// clock `monotonicNow` reads), so a loop whose next deadline has not
    /// moved since the last turn makes no call: a turn that answers a socket
    /// re-armed the same deadline with a `timerfd_settime` every time.
    public func armWakeUp(orAt deadline: MonotonicInstant? = nil, holdingTimers: Bool = false) {
        guard wakeUpFailure == nil else { return }
        var next = holdingTimers ? nil : timers.earliestDeadline
        if let deadline, next.map({ deadline < $0 }) ?? true { next = deadline }
        if armed == .at(next) { return }
        var spec = itimerspec()
        if let next {
            let (seconds, attoseconds) = next.sinceOrigin.components
            // A zero it_value disarms, so a deadline at the clock's origin (or before it) gets one nanosecond.
            let nanoseconds = max(1, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            spec.it_value = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        }
        do {
            if wakeUp < 0 { wakeUp = try SystemCall.timerDescriptor(clock: CLOCK_MONOTONIC) }
            try SystemCall.setTimer(wakeUp, flags: Int32(TFD_TIMER_ABSTIME), spec)
            armed = .at(next)
        } catch {
            wakeUpFailure = error
        }
    }

    /// After a wait that found the wake-up readable: consumes its expiry, so it
    /// stops being readable until it is armed again.
    public func acknowledgeWakeUp() {
        var expirations: UInt64 = 0
        // Non-blocking: EAGAIN only means another wake-up already consumed it.
        _ = try? SystemCall.retrying { Glibc.read(wakeUp, &expirations, 8) }
        // The timer went off, so it is disarmed now (it does not repeat).
        armed = .at(nil)
    }
    #endif

    /// How long until the next timer is due; nil when no timer is pending.
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
