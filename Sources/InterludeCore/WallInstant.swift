/// A point on the wall clock (`CLOCK_REALTIME`), as time since the Unix epoch.
/// It can be stepped (NTP, manual change), so nothing waits on it directly:
/// wall deadlines are converted to monotonic ones and re-planned on a step.
public struct WallInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var sinceEpoch: Duration

    public init(sinceEpoch: Duration) { self.sinceEpoch = sinceEpoch }
    public init(secondsSince1970 seconds: Int64) { self.sinceEpoch = .seconds(seconds) }

    /// Whole seconds since the epoch, rounded down (also for instants before 1970).
    public var secondsSince1970: Int64 {
        let (seconds, attoseconds) = sinceEpoch.components
        return attoseconds < 0 ? seconds - 1 : seconds
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.sinceEpoch < rhs.sinceEpoch }
    public static func + (lhs: Self, rhs: Duration) -> Self { Self(sinceEpoch: lhs.sinceEpoch + rhs) }
    public static func - (lhs: Self, rhs: Duration) -> Self { Self(sinceEpoch: lhs.sinceEpoch - rhs) }
    public static func - (lhs: Self, rhs: Self) -> Duration { lhs.sinceEpoch - rhs.sinceEpoch }

    public var description: String { "wall@\(sinceEpoch)" }
}
