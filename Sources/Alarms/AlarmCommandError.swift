/// A rejected `interlude alarm` request: one sentence naming the bad value,
/// printed on stderr with a non-zero exit; nothing has been saved.
public struct AlarmCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    /// True when what was typed was wrong (the command line exits 2, as for
    /// any usage error); false when it was well formed but could not be done
    /// (no such alarm, the file could not be saved: exit 1).
    public let isBadInput: Bool
    public init(_ message: String, isBadInput: Bool = true) {
        self.message = message
        self.isBadInput = isBadInput
    }
    /// The sentence is the error: what it says decides the exit status.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.message == rhs.message }
    public var description: String { message }
}
