/// A CTOC frame (ID3v2 Chapter Frame Addendum §4): a table of contents whose
/// children are element IDs of CHAP frames or of other CTOC frames.
public struct TableOfContentsFrame: Equatable, Sendable {
    public let elementID: String
    /// Flags bit 1: the root of the table-of-contents tree.
    public let isTopLevel: Bool
    /// Flags bit 0: the children are in playing order.
    public let isOrdered: Bool
    public let childElementIDs: [String]
    public let subframes: [ID3v2Frame]
    public let damage: ID3v2Error?

    public var title: String? { EmbeddedFrames.text(of: "TIT2", in: subframes) }

    /// Embedded frames honour only their own unsynchronisation flag: the
    /// tag-level flag of 2.4 was already applied to this frame as a whole.
    public init(body: [UInt8], majorVersion: UInt8) throws(ID3v2Error) {
        var cursor = TagByteCursor(body[...])
        let id = cursor.readNulTerminated()
        guard let flags = cursor.readByte(), let count = cursor.readByte() else {
            throw .malformedFrame(id: "CTOC", reason: "shorter than its element ID, flags and entry count")
        }
        elementID = ID3v2TextEncoding.latin1.decode(id)
        isTopLevel = flags & 0x02 != 0
        isOrdered = flags & 0x01 != 0
        var children: [String] = []
        // The count is one byte, so at most 255 children: bounded work.
        for _ in 0..<count {
            guard !cursor.isAtEnd else {
                throw .malformedFrame(id: "CTOC", reason: "declares \(count) children but holds \(children.count)")
            }
            children.append(ID3v2TextEncoding.latin1.decode(cursor.readNulTerminated()))
        }
        childElementIDs = children
        let embedded = ID3v2FrameList(
            bytes: cursor.rest, majorVersion: majorVersion, tagIsUnsynchronised: false)
        subframes = embedded.frames
        damage = embedded.damage
    }
}
