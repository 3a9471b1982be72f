/// Identifies one session opened with the arbiter.
public struct SessionID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { "session \(rawValue)" }
}

/// Identifies one interruption, shared by its `began` and its `ended`.
public struct InterruptionID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { "interruption \(rawValue)" }
}
