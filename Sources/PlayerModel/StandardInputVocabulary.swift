/// The words `interlude play` reads on standard input, one per line, and
/// the player command each stands for.
public enum StandardInputVocabulary {
    /// In the order the complaint about an unknown word lists them.
    public static let words: [(word: String, command: PlayerCommand)] = [
        ("play", .play), ("pause", .pause), ("toggle", .togglePlayPause), ("dismiss", .dismissAlarm),
        ("snooze", .snoozeAlarm), ("quit", .quit),
        // Books.
        ("next-chapter", .chapterNext), ("prev-chapter", .chapterPrevious), ("skip-back", .skipBack),
        ("skip-forward", .skipForward),
        // Music.
        ("shuffle", .toggleShuffle), ("repeat", .cycleRepeat),
    ]

    /// The command a line's first word stands for (any case), or nil.
    public static func command(for word: String) -> PlayerCommand? {
        let lowered = word.lowercased()
        return words.first { $0.word == lowered }?.command
    }

    /// "unknown command 'WORD' (play, pause, ...)".
    public static func unknown(_ word: String) -> String {
        "unknown command '\(word)' (\(words.map(\.word).joined(separator: ", ")))"
    }
}
