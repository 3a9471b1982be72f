/// One thing wrong in a theme file, reported as `PATH:LINE: message` (the
/// form compilers use, so editors and terminals can jump to it).
public struct ThemeProblem: Hashable, Sendable, CustomStringConvertible {
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
