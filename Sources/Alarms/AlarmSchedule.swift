/// When an alarm rings.
public enum AlarmSchedule: Hashable, Sendable {
    /// A time of day in the local zone: the next occurrence, or on each of `repeatDays`.
    case clockTime(time: LocalTime, repeatDays: RepeatDays)
    /// Once, at a local date and time.
    case date(date: LocalDate, time: LocalTime)
    /// Once, a duration after it was set (`in 90s`). In a running program it
    /// is timed on the monotonic clock; `firesAt` is the wall time it
    /// corresponds to, kept for the file and for listing.
    case relative(firesAt: Int64)

    /// Whether the alarm ends disabled after it rang (not snoozed).
    public var isOneShot: Bool {
        switch self {
        case .clockTime(_, let repeatDays): repeatDays.isEmpty
        case .date, .relative: true
        }
    }
}

/// What an alarm sounds like.
public enum AlarmSound: Hashable, Sendable, CustomStringConvertible {
    /// A tone pattern the engine synthesises.
    case tone(name: String)
    /// An MP3 file.
    case file(path: String)

    public static let builtInTones = ["beep", "chime", "classic"]
    public static let `default` = AlarmSound.tone(name: "classic")

    public var description: String {
        switch self {
        case .tone(let name): name
        case .file(let path): path
        }
    }
}
