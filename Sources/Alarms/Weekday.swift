/// Days of the week, Monday first (ISO 8601), named as the command line spells them.
public enum Weekday: String, CaseIterable, Sendable, Hashable {
    case mon, tue, wed, thu, fri, sat, sun
}

/// The days a clock-time alarm repeats on; empty means "once, at the next occurrence".
public struct RepeatDays: Hashable, Sendable, CustomStringConvertible {
    public private(set) var days: Set<Weekday>

    public init(_ days: Set<Weekday>) { self.days = days }

    public static let never = RepeatDays([])
    public static let daily = RepeatDays(Set(Weekday.allCases))
    public static let weekdays = RepeatDays([.mon, .tue, .wed, .thu, .fri])
    public static let weekends = RepeatDays([.sat, .sun])

    public var isEmpty: Bool { days.isEmpty }
    public func contains(_ day: Weekday) -> Bool { days.contains(day) }

    /// "daily", "weekdays", "weekends", "never" or "mon,wed,fri".
    public var description: String {
        switch self {
        case .never: "never"
        case .daily: "daily"
        case .weekdays: "weekdays"
        case .weekends: "weekends"
        default: Weekday.allCases.filter(days.contains).map(\.rawValue).joined(separator: ",")
        }
    }
}
