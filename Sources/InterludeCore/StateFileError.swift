/// A failed read or write of a state file, as one sentence naming the path.
public struct StateFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let operation: String
    public let systemMessage: String

    public init(path: String, operation: String, systemMessage: String) {
        self.path = path
        self.operation = operation
        self.systemMessage = systemMessage
    }

    public var description: String { "cannot \(operation) \(path): \(systemMessage)" }
}
