/// A point on the monotonic clock (`CLOCK_MONOTONIC`): never stepped, does not
/// advance while the machine sleeps. Timers and relative alarms live here so
/// that wall-clock changes cannot move them.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Time since the clock's arbitrary origin (boot, or the start of a test).
    public var sinceOrigin: Duration

    public init(sinceOrigin: Duration) { self.sinceOrigin = sinceOrigin }

    public static let origin = MonotonicInstant(sinceOrigin: .zero)

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.sinceOrigin < rhs.sinceOrigin }
    public static func + (lhs: Self, rhs: Duration) -> Self { Self(sinceOrigin: lhs.sinceOrigin + rhs) }
    public static func - (lhs: Self, rhs: Duration) -> Self { Self(sinceOrigin: lhs.sinceOrigin - rhs) }
    public static func - (lhs: Self, rhs: Self) -> Duration { lhs.sinceOrigin - rhs.sinceOrigin }

    public var description: String { "monotonic+\(sinceOrigin)" }
}
