/// One line of a keys file that was skipped, reported as `PATH:LINE: message`.
public struct KeyConfigProblem: Hashable, Sendable, CustomStringConvertible {
    public let path: String
    /// 1-based.
    public let line: Int
    public let message: String

    public init(path: String, line: Int, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String { "\(path):\(line): \(message)" }
}
