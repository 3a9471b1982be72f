/// What the scheduler reports to the application (the screen and the engine's alarm voice).
public enum AlarmEvent: Sendable, Equatable {
    /// Alarms started ringing together: one alarm session, one interruption.
    case ringingBegan([AlarmID])
    /// Another alarm fell due while ringing and joined the same interruption.
    case ringingJoined(AlarmID)
    case ringingEnded(RingingEnd)
    /// Alarms that fell due while the program was not running (or while the
    /// clock jumped over them), too long ago to ring now.
    case missed([MissedAlarm])
    /// Alarms that rang (just reported by `ringingBegan`/`ringingJoined`)
    /// after their time, within the grace window, with why.
    case rangLate([LateRing])
    /// The alarm file was damaged or could not be saved; one sentence with the path.
    case storeProblem(String)
}

public enum RingingEnd: Sendable, Equatable {
    case dismissed
    case snoozed(until: Int64)
    case timedOut
}

public struct MissedAlarm: Sendable, Equatable {
    public let id: AlarmID
    public let label: String
    /// The wall instant (seconds) of the latest occurrence that was missed.
    public let dueAt: Int64
    /// How late it was found (seconds after `dueAt`) and why.
    public let lateSeconds: Int64
    public let reason: LateReason

    public init(id: AlarmID, label: String, dueAt: Int64, lateSeconds: Int64 = 0, reason: LateReason = .notRunning) {
        self.id = id
        self.label = label
        self.dueAt = dueAt
        self.lateSeconds = lateSeconds
        self.reason = reason
    }

    /// "missed alarm 3 wake: 3 h late, the computer was asleep".
    public var line: String {
        let label = label.isEmpty ? "" : " \(label)"
        return "missed alarm \(id)\(label): \(lateness)"
    }

    /// "3 h late, the computer was asleep".
    public var lateness: String { "\(AlarmDurationText.text(seconds: lateSeconds)) late, \(reason.text)" }
}
