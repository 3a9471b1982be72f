/// Why a file could not be decoded, as one sentence a user can act on.
/// `message` names the file; the library's own words are kept where it has them.
public struct DecoderError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case missing, directory, empty, unreadable, notMPEGAudio, library
        /// No decoder recognised the content (FFmpeg's probe found no format it trusts).
        case unrecognised
    }

    public let kind: Kind
    public let path: String
    public let detail: String

    public init(_ kind: Kind, path: String, detail: String) {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    public var description: String { "\(path): \(detail)" }
}
