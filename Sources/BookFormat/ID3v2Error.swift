/// Why a tag, or part of one, could not be read. A parser that meets one of
/// these keeps what it had read before it (see `ID3v2Tag.damage`), so a tag
/// damaged near its end still yields its earlier chapters.
public enum ID3v2Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes do not start with "ID3": the file simply has no ID3v2 tag.
    case noTag
    /// Fewer than the 10 header bytes are present.
    case truncatedHeader
    /// Versions above 4 may change the layout, so the spec says to ignore
    /// them rather than guess; below 2 there is no ID3v2.
    case unsupportedVersion(major: UInt8)
    /// An ID3v2.2 tag with its compression flag: no scheme was ever defined.
    case compressedTag
    /// The header's size field has a byte with its high bit set, which a
    /// syncsafe integer never has.
    case invalidSyncsafeSize
    /// The header declares more bytes than the buffer or file holds.
    case truncatedTag(declared: Int, available: Int)
    /// The extended header's size points outside the tag or is too small.
    case invalidExtendedHeader(size: Int)
    /// A frame header is followed by fewer bytes than it declares.
    case frameOverrunsTag(id: String, offset: Int, declared: Int, available: Int)
    /// A frame ID with characters outside A-Z and 0-9: the frame walk lost
    /// its place, so nothing after it can be trusted.
    case invalidFrameID(offset: Int)
    /// A frame whose body does not have the layout its ID requires.
    case malformedFrame(id: String, reason: String)

    public var description: String {
        switch self {
        case .noTag:
            return "no ID3v2 tag (the data does not start with \"ID3\")"
        case .truncatedHeader:
            return "the ID3v2 header is cut short (fewer than 10 bytes)"
        case .unsupportedVersion(let major):
            return "ID3v2.\(major) is not supported (only ID3v2.2, 2.3 and 2.4)"
        case .compressedTag:
            return "the ID3v2.2 tag is compressed (a scheme the version never defined)"
        case .invalidSyncsafeSize:
            return "the ID3v2 tag size is not a syncsafe integer"
        case .truncatedTag(let declared, let available):
            return "the ID3v2 tag declares \(declared) bytes but only \(available) are present"
        case .invalidExtendedHeader(let size):
            return "the ID3v2 extended header has an impossible size (\(size) bytes)"
        case .frameOverrunsTag(let id, let offset, let declared, let available):
            return "frame \(id) at byte \(offset) declares \(declared) bytes but only \(available) remain"
        case .invalidFrameID(let offset):
            return "an invalid frame ID at byte \(offset) (the tag is damaged from there on)"
        case .malformedFrame(let id, let reason):
            return "frame \(id) is malformed: \(reason)"
        }
    }
}
