/// A time of day on the wall clock, minute precision (as alarms are set).
public struct LocalTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int

    public init(hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    public var secondsIntoDay: Int64 { Int64(hour * 3600 + minute * 60) }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.secondsIntoDay < rhs.secondsIntoDay }

    public var description: String { "\(String(hour).leftPadded(to: 2)):\(String(minute).leftPadded(to: 2))" }
}
