/// Which of a file's ReplayGain values applies: the track's own (shuffled or
/// mixed listening), the album's (an album heard in order keeps its quiet and
/// loud songs as mastered), or none.
public enum ReplayGainMode: String, CaseIterable, Equatable, Sendable {
    case off, track, album

    /// "track|album|off" for the config file's and the command line's complaints.
    public static let choices = "track, album or off"
}
