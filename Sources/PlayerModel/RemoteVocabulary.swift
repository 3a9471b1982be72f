/// The control socket's commands: the rows of `CommandTable` that the
/// socket offers, by their one name or an alias (`toggle` for `play-pause`).
/// `interlude remote` sends what it reads through here too.
public enum RemoteVocabulary {
    public static var entries: [CommandSpec] { CommandTable.offered(by: .socket) }

    /// The row `name` (the one name or an alias) stands for on the socket.
    public static func entry(named name: String) -> CommandSpec? {
        entries.first { $0.isCalled(name) }
    }

    /// Every name, comma-separated, in the table's order.
    public static var names: String { entries.map(\.name).joined(separator: ", ") }
}
