/// An ID3v2.2, 2.3 or 2.4 tag read from bytes: its header and its frames in
/// tag order. Parsing never reads outside the given bytes and allocates at
/// most a small multiple of their size, whatever the size fields claim.
public struct ID3v2Tag: Equatable, Sendable {
    public let header: ID3v2Header
    public let frames: [ID3v2Frame]
    /// The first problem met after the header. The frames before it are in
    /// `frames`; nil for an intact tag.
    public let damage: ID3v2Error?

    /// Parses a tag that starts at the first byte. Throws only when there is
    /// no usable header (`.noTag` for data without "ID3"); damage further in
    /// yields a tag with the frames before it and `damage` set.
    public init(bytes: ArraySlice<UInt8>) throws(ID3v2Error) {
        let header = try ID3v2Header(bytes: bytes)
        self.header = header
        var damage: ID3v2Error?
        let bodyStart = bytes.startIndex + ID3v2Header.length
        let available = bytes.endIndex - bodyStart
        if available < header.bodySize {
            damage = .truncatedTag(declared: header.bodySize, available: available)
        }
        let stored = bytes[bodyStart..<(bodyStart + min(available, header.bodySize))]

        if header.isCompressed {
            self.frames = []
            self.damage = damage ?? .compressedTag
            return
        }
        // ID3v2.2 and 2.3 unsynchronise everything after the header, extended
        // header included (2.3 §5); 2.4 does it per frame.
        let wholeTagUnsynchronised = header.majorVersion < 4 && header.isUnsynchronised
        let body: ArraySlice<UInt8> = wholeTagUnsynchronised ? Unsynchronisation.decode(stored)[...] : stored

        var framesStart = body.startIndex
        if header.hasExtendedHeader {
            switch Self.extendedHeaderLength(body, majorVersion: header.majorVersion) {
            case .success(let length):
                framesStart += length
            case .failure(let error):
                self.frames = []
                self.damage = damage ?? error
                return
            }
        }
        let list = ID3v2FrameList(
            bytes: body[framesStart...], majorVersion: header.majorVersion,
            tagIsUnsynchronised: header.isUnsynchronised, offsetsAreStored: !wholeTagUnsynchronised)
        self.frames = list.frames
        // A truncation explains any frame damage it causes, so report it first.
        self.damage = damage ?? list.damage
    }

    public init(bytes: [UInt8]) throws(ID3v2Error) {
        try self.init(bytes: bytes[...])
    }

    /// The frames with this ID, in tag order.
    public func frames(withID id: String) -> [ID3v2Frame] {
        frames.filter { $0.id == id }
    }

    /// How many bytes the extended header takes. 2.3 (§3.2): a big-endian
    /// size that excludes its own four bytes, 6 or 10. 2.4 (§3.2): a
    /// syncsafe size that includes itself, at least 6.
    private static func extendedHeaderLength(_ body: ArraySlice<UInt8>, majorVersion: UInt8)
        -> Result<Int, ID3v2Error>
    {
        var cursor = TagByteCursor(body)
        guard let sizeBytes = cursor.read(count: 4) else { return .failure(.invalidExtendedHeader(size: body.count)) }
        let length: Int
        if majorVersion == 3 {
            length = FrameSizeEncoding.bigEndian.decode(sizeBytes) + 4
        } else {
            guard let size = SyncsafeInteger.decode(sizeBytes) else {
                return .failure(.invalidExtendedHeader(size: FrameSizeEncoding.bigEndian.decode(sizeBytes)))
            }
            length = size
        }
        guard length >= 6, length <= body.count else { return .failure(.invalidExtendedHeader(size: length)) }
        return .success(length)
    }
}
