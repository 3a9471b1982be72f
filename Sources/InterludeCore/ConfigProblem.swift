/// One line of a configuration file (a keys file, a theme) that was skipped,
/// reported as `PATH:LINE: message`: the form compilers use, so editors and
/// terminals can jump to it.
public struct ConfigProblem: Hashable, Sendable, CustomStringConvertible {
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
