import InterludeCore
import PlayerModel

/// The numbers inside player commands, checked once before `perform` acts:
/// keys send fixed steps, but standard input, the control socket and the
/// screen's prompts carry what someone typed, and a seek of NaN or 1e300
/// seconds would trap where it becomes milliseconds.
extension PlayerRuntime {
    /// A seek either way by at most a thousand hours (longer than any book).
    static let seekRange = DurationRange(seconds: 0...1000 * 3600)
    /// An alarm in at most a week, as `alarm add in` allows.
    static let alarmDelayRange = CountRange(1...7 * 24 * 3600, unit: "seconds")

    /// Why `command` cannot be carried out as given, or nil when its numbers are in range.
    static func rangeProblem(_ command: PlayerCommand) -> String? {
        switch command {
        case .seek(let seconds):
            seekRange.contains(abs(seconds)) ? nil : "a seek of \(seconds) s is not \(seekRange.accepts), either way"
        case .setVolume(let volume):
            volume.isFinite && (0...1).contains(volume) ? nil : "volume \(volume) is not from 0 to 1"
        case .addAlarm(let seconds):
            alarmDelayRange.contains(Int64(seconds)) ? nil : "an alarm in \(seconds) s: give \(alarmDelayRange.accepts)"
        case .addBookmark(let note):
            note.flatMap(TextLimit.note.problem)
        default:
            nil
        }
    }
}
