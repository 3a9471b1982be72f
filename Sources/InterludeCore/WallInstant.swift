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

    /// `20261129T231500Z` (UTC, whole seconds): sorts by time and is safe in a
    /// file name, as in the names damaged state files are set aside under.
    public var compactUTC: String {
        let seconds = secondsSince1970
        let days = CivilCalendar.floorDivide(seconds, 86_400)
        let rest = seconds - days * 86_400
        let date = CivilCalendar.date(ofDay: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return pad(date.year, 4) + pad(date.month, 2) + pad(date.day, 2) + "T"
            + pad(rest / 3600, 2) + pad(rest % 3600 / 60, 2) + pad(rest % 60, 2) + "Z"
    }
}
