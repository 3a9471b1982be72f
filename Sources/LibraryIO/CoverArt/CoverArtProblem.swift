/// Why a picture is not shown, in the words of the one line that says so.
package enum CoverArtProblem: Error, Equatable, CustomStringConvertible {
    /// Not a JPEG or PNG: what it is, when `FileKind` knows.
    case notAnImage(String?)
    case truncated
    case damaged(String)
    case tooLarge(String)
    /// The bytes are more than the cover art reads.
    case tooManyBytes(Int)
    /// A library would not load, or failed: its own message.
    case library(String)
    case unreadable(String)

    package var description: String {
        switch self {
        case .notAnImage(let kind?): "not a JPEG or PNG picture (\(kind))"
        case .notAnImage(nil): "not a JPEG or PNG picture"
        case .truncated: "the picture is cut short"
        case .damaged(let why): "the picture is damaged: \(why)"
        case .tooLarge(let size): "the picture is too large to show (\(size))"
        case .tooManyBytes(let count):
            "the picture is \(count >> 20) MB, more than the \(CoverArtSource.byteLimit >> 20) MB read for a cover"
        case .library(let message): message
        case .unreadable(let why): "cannot read the picture: \(why)"
        }
    }
}
