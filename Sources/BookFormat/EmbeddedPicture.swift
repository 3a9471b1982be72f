/// A picture a file carries (ID3 APIC, FLAC PICTURE, Vorbis/Opus
/// `METADATA_BLOCK_PICTURE`, MP4 `covr`), as a reference: what it is and
/// where its bytes are. Opening a file never loads a picture (a cover is
/// often larger than the tags and the first second of audio together);
/// `bytes(path:)` reads it when it is to be shown.
public struct EmbeddedPicture: Equatable, Sendable {
    /// The picture types of ID3v2's APIC and FLAC's PICTURE (the same list).
    public enum Kind: Equatable, Sendable {
        case other
        case fileIcon
        case frontCover
        case backCover
        case leaflet
        case media
        case artist
        /// Any other type of the list (lead artist, band, illustration, ...), by its number 0-20.
        case numbered(Int)

        /// nil for a number outside the list's 0-20.
        public init?(number: Int) {
            switch number {
            case 0: self = .other
            case 1: self = .fileIcon
            case 3: self = .frontCover
            case 4: self = .backCover
            case 5: self = .leaflet
            case 6: self = .media
            case 8: self = .artist
            case 2, 7, 9...20: self = .numbered(number)
            default: return nil
            }
        }
    }

    /// Where the picture's bytes are.
    public enum Location: Equatable, Sendable {
        /// `length` bytes at `offset` from the file's start, as stored: FLAC's
        /// PICTURE block, MP4's `covr` data, an APIC frame not unsynchronised.
        case range(offset: Int, length: Int)
        /// Stored transformed (an unsynchronised ID3 tag, base64 in an Ogg
        /// comment spread over pages): the `ordinal`-th picture (from 0) that
        /// reading the file's tags again with pictures loaded gives.
        case transformed(ordinal: Int, length: Int)
    }

    public let kind: Kind
    /// As the tag says ("image/jpeg"); ID3v2.2-style "JPG"/"PNG" become MIME types.
    public let mimeType: String
    public let description: String
    public let location: Location

    public init(kind: Kind, mimeType: String, description: String, location: Location) {
        self.kind = kind
        self.mimeType = mimeType
        self.description = description
        self.location = location
    }

    /// The length of the picture's bytes.
    public var length: Int {
        switch location {
        case .range(_, let length), .transformed(_, let length): length
        }
    }

    /// The largest picture referenced: a cover is rarely over a few MB, and
    /// a length beyond this is a damaged field.
    public static let maximumLength = 64 << 20

    /// The picture's bytes from the file at `path`; nil when the file has
    /// changed (fewer bytes than the reference says) or cannot be read.
    public func bytes(path: String) -> [UInt8]? {
        switch location {
        case .range(let offset, let length):
            let bytes = TagFile(path: path).bytes(at: offset, count: length)
            return bytes.count == length ? bytes : nil
        case .transformed(let ordinal, let length):
            let bytes = ContainerTagReader.read(TagFile(path: path), loadingPicture: ordinal).loadedPicture
            return bytes?.count == length ? bytes : nil
        }
    }
}
