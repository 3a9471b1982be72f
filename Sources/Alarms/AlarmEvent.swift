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

    public init(id: AlarmID, label: String, dueAt: Int64) {
        self.id = id
        self.label = label
        self.dueAt = dueAt
    }
}
