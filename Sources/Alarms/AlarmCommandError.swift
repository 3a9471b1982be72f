/// A rejected `interlude alarm` request: one sentence naming the bad value,
/// printed on stderr with a non-zero exit; nothing has been saved.
public struct AlarmCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
