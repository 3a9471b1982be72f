/// The words `interlude play` reads on standard input, one per line: the
/// rows of `CommandTable` that standard input offers, by their one name or
/// an alias (`toggle`, `next-chapter`, as scripts wrote them before).
public enum StandardInputVocabulary {
    /// In the table's order, as the complaint about an unknown word lists them.
    public static var words: [(word: String, command: PlayerCommand)] {
        CommandTable.offered(by: .standardInput).compactMap { entry in entry.plainCommand.map { (entry.name, $0) } }
    }

    /// The command a line's first word stands for (any case), or nil.
    public static func command(for word: String) -> PlayerCommand? {
        CommandTable.offered(by: .standardInput).first { $0.isCalled(word) }?.plainCommand
    }

    /// "unknown command 'WORD' (play, pause, ...)".
    public static func unknown(_ word: String) -> String {
        "unknown command '\(word)' (\(words.map(\.word).joined(separator: ", ")))"
    }
}
