/// A CHAP frame (ID3v2 Chapter Frame Addendum §3): a chapter's element ID,
/// its start and end in milliseconds and in bytes, and embedded frames that
/// describe it (TIT2 title, TIT3 description, WXXX link).
public struct ChapterFrame: Equatable, Sendable {
    /// Byte offsets of 0xFFFFFFFF mean "not given; use the times".
    static let noOffset: UInt32 = 0xFFFF_FFFF

    public let elementID: String
    public let startMilliseconds: UInt32
    public let endMilliseconds: UInt32
    public let startByteOffset: UInt32?
    public let endByteOffset: UInt32?
    public let subframes: [ID3v2Frame]
    /// The first problem inside the embedded frames, if any.
    public let damage: ID3v2Error?

    public var title: String? { EmbeddedFrames.text(of: "TIT2", in: subframes) }
    public var subtitle: String? { EmbeddedFrames.text(of: "TIT3", in: subframes) }
    public var url: String? { EmbeddedFrames.userURL(in: subframes) }

    /// Embedded frames honour only their own unsynchronisation flag: the
    /// tag-level flag of 2.4 was already applied to this frame as a whole.
    public init(body: [UInt8], majorVersion: UInt8) throws(ID3v2Error) {
        var cursor = TagByteCursor(body[...])
        let id = cursor.readNulTerminated()
        guard let start = cursor.readUInt32BigEndian(), let end = cursor.readUInt32BigEndian(),
              let startOffset = cursor.readUInt32BigEndian(), let endOffset = cursor.readUInt32BigEndian()
        else {
            throw .malformedFrame(id: "CHAP", reason: "shorter than its element ID and four times")
        }
        elementID = ID3v2TextEncoding.latin1.decode(id)
        startMilliseconds = start
        endMilliseconds = end
        startByteOffset = startOffset == Self.noOffset ? nil : startOffset
        endByteOffset = endOffset == Self.noOffset ? nil : endOffset
        let embedded = ID3v2FrameList(
            bytes: cursor.rest, majorVersion: majorVersion, tagIsUnsynchronised: false)
        subframes = embedded.frames
        damage = embedded.damage
    }
}
