/// The 10-byte header that opens every ID3v2 tag: "ID3", version, flags and
/// the syncsafe size of everything after the header (excluding a footer).
/// The same ten bytes in ID3v2.2, 2.3 and 2.4; the flags differ.
public struct ID3v2Header: Equatable, Sendable {
    public static let length = 10
    static let footerLength = 10

    /// 2, 3 or 4 (ID3v2.2, 2.3 or 2.4).
    public let majorVersion: UInt8
    public let revision: UInt8
    /// Bit 7: the tag (2.2, 2.3) or all frames (2.4) are unsynchronised.
    public let isUnsynchronised: Bool
    /// 2.3 and 2.4 only (bit 6).
    public let hasExtendedHeader: Bool
    /// 2.2 only (bit 6): compressed by a scheme the version never defined,
    /// so the frames cannot be read (2.2 §3.1: "the whole tag should be ignored").
    public let isCompressed: Bool
    public let isExperimental: Bool
    /// 2.4 only: a 10-byte "3DI" footer follows the tag.
    public let hasFooter: Bool
    /// Bytes after the header: extended header, frames and padding.
    public let bodySize: Int

    /// Header, body and footer: how many bytes of the file the tag occupies.
    public var totalSize: Int {
        Self.length + bodySize + (hasFooter ? Self.footerLength : 0)
    }

    /// Reads the header from the first 10 bytes.
    public init(bytes: ArraySlice<UInt8>) throws(ID3v2Error) {
        guard bytes.count >= 3, bytes.prefix(3).elementsEqual("ID3".utf8) else { throw .noTag }
        guard bytes.count >= Self.length else { throw .truncatedHeader }
        let start = bytes.startIndex
        let major = bytes[start + 3]
        guard (2...4).contains(major) else { throw .unsupportedVersion(major: major) }
        guard let size = SyncsafeInteger.decode(bytes[(start + 6)..<(start + 10)]) else {
            throw .invalidSyncsafeSize
        }
        let flags = bytes[start + 5]
        majorVersion = major
        revision = bytes[start + 4]
        isUnsynchronised = flags & 0x80 != 0
        hasExtendedHeader = major >= 3 && flags & 0x40 != 0
        isCompressed = major == 2 && flags & 0x40 != 0
        isExperimental = flags & 0x20 != 0
        // The footer flag is defined only for 2.4; in 2.3 the bit is unused
        // and a set bit must not make us expect ten more bytes.
        hasFooter = major == 4 && flags & 0x10 != 0
        bodySize = size
    }
}
