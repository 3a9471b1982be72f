/// Why the tag could not be read from a file (not why the tag is damaged:
/// that is `ID3v2Error`, reported inside the `ChapterList`).
public enum TagFileError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case cannotRead(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open \(path): \(reason)"
        case .cannotRead(let path, let reason): return "cannot read \(path): \(reason)"
        }
    }
}
