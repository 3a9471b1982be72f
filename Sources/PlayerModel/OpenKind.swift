/// How a path given to the player opens: as a book (spoken audio, its place
/// kept) or as music (the queue). The player guesses (`OpenKind.guess` in
/// the core); the listener can say which: `--book`, `--music`, the socket's
/// `open PATH book|music`.
public enum OpenKind: String, Sendable, CaseIterable {
    case book
    case music
}
