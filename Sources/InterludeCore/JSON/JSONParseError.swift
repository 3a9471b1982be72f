/// Why a text is not JSON, and where: line and column count from 1, the
/// column in bytes (enough to find the spot in an editor for ASCII JSON).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let reason: String

    public init(line: Int, column: Int, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    public var description: String { "line \(line), column \(column): \(reason)" }
}
