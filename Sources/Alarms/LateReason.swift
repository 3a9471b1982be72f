/// Why an alarm was found after its time: what the scheduler knew when it
/// looked (logind's sleep signal or the boot clock, a timer that fired late,
/// the start of the player, a step of the wall clock).
public enum LateReason: Sendable, Equatable {
    case asleep
    /// The monotonic clock ran on without a sleep: the process was stopped (SIGSTOP) or starved.
    case stopped
    case notRunning
    case clockChanged
    /// It was ringing when the player that rang it died: rung again by the next.
    case interrupted

    public var text: String {
        switch self {
        case .asleep: "the computer was asleep"
        case .stopped: "the player was stopped"
        case .notRunning: "the player was not running"
        case .clockChanged: "the clock was changed"
        case .interrupted: "the player stopped while it rang"
        }
    }
}

/// An alarm that rang late, within the grace window.
public struct LateRing: Sendable, Equatable {
    public let id: AlarmID
    public let lateSeconds: Int64
    public let reason: LateReason

    public init(id: AlarmID, lateSeconds: Int64, reason: LateReason) {
        self.id = id
        self.lateSeconds = lateSeconds
        self.reason = reason
    }

    /// "alarm 3 rang 7 min late: the computer was asleep".
    public var line: String { "alarm \(id) rang \(AlarmDurationText.text(seconds: lateSeconds)) late: \(reason.text)" }
}

/// Spans as the alarm lines say them: "45 s", "12 min", "7 h 12 min", "2 d 3 h".
public enum AlarmDurationText {
    public static func text(seconds: Int64) -> String {
        let seconds = max(0, seconds)
        if seconds < 60 { return "\(seconds) s" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes) min" }
        let hours = minutes / 60
        if hours < 24 { return minutes % 60 == 0 ? "\(hours) h" : "\(hours) h \(minutes % 60) min" }
        return hours % 24 == 0 ? "\(hours / 24) d" : "\(hours / 24) d \(hours % 24) h"
    }
}
