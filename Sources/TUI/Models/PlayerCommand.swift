/// What a key asks of the player; the application carries it out on the
/// runtime. Kept as data so key dispatch is tested without a player.
public enum PlayerCommand: Equatable, Sendable {
    case togglePlayPause
    case next
    case previous
    case seek(seconds: Double)
    case setVolume(Double)
    /// One speed step (0.05x) faster or slower, pitch kept.
    case speedUp
    case speedDown
    /// Replace the queue with `paths` and play from `startAt`.
    case playQueue([String], startAt: Int)
    case enqueue([String])
    case fireTestAlarm
    case addAlarm(afterSeconds: Int)
    /// A new alarm from what the user typed ("07:30", "in 10m", ...).
    case addAlarmSchedule(String)
    case editAlarm(id: Int, schedule: String)
    case setAlarmEnabled(id: Int, Bool)
    case deleteAlarm(id: Int)
    case snoozeAlarm
    case dismissAlarm
    case toggleSessionSuspended
    case toggleCall
    case notificationChime
    case simulateDeviceLoss
    case cycleTheme
    case quit
}
