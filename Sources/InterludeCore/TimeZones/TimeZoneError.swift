/// A time zone that cannot be used: one sentence naming the file (or the
/// `TZ` value) and what is wrong with it.
public struct TimeZoneError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The zone file's path, or `TZ=...` for a rule string from the environment.
    public let subject: String
    public let reason: String

    public init(subject: String, reason: String) {
        self.subject = subject
        self.reason = reason
    }

    public var description: String { "cannot use time zone \(subject): \(reason)" }
}
