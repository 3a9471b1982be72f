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
    /// Play the book at this path (a folder of MP3s or a chaptered MP3).
    case openBook(String)
    case chapterNext
    case chapterPrevious
    /// Play the current book from chapter `index`.
    case jumpToChapter(Int)
    case skipBack
    case skipForward
    /// The next sleep timer setting: off, 5, 10, 15, 30, 45, 60 min, end of chapter, off.
    case cycleSleepTimer
    case addBookmark(note: String?)
    case jumpToBookmark(id: Int)
    case deleteBookmark(id: Int)
    case quit
}
