/// An APEv2 tag, as WavPack, Monkey's Audio, Musepack and TTA files carry
/// it: at the file's end (before an ID3v1 tag when there is one) or at its
/// start. A 32-byte header and/or footer ("APETAGEX", version, the tag's size
/// without the header, the item count, flags), and items: a value's length,
/// the item's flags, a key (printable ASCII, NUL-terminated), the value.
/// Text values hold several values separated by NUL. Pure: every size is
/// checked against the bytes there are.
public struct APEv2Tag: Equatable, Sendable {
    public struct Item: Equatable, Sendable {
        /// As written (keys are case-insensitive: "Title", "ARTIST").
        public let key: String
        /// A text item's values; empty for binary and link items.
        public let values: [String]
        public let isText: Bool
    }

    public let items: [Item]

    /// The 32 bytes of a header or footer.
    public struct Frame: Equatable, Sendable {
        public static let length = 32
        /// The items and the footer, without the header.
        public let size: Int
        public let itemCount: Int
        public let hasHeader: Bool
        public let hasFooter: Bool
        public let isHeader: Bool

        public init?(_ bytes: ArraySlice<UInt8>) {
            guard bytes.count >= Self.length, bytes.prefix(8).elementsEqual("APETAGEX".utf8) else { return nil }
            func u32(_ at: Int) -> Int {
                let start = bytes.startIndex + at
                return (0..<4).reduce(0) { $0 | Int(bytes[start + $1]) << (8 * $1) }
            }
            let version = u32(8)
            let flags = u32(20)
            guard version == 1000 || version == 2000 else { return nil }
            size = u32(12)
            itemCount = u32(16)
            // Version 1.0 has no header and no flags.
            hasHeader = version == 2000 && flags & (1 << 31) != 0
            hasFooter = version == 1000 || flags & (1 << 30) == 0
            isHeader = version == 2000 && flags & (1 << 29) != 0
            // The size counts the footer; items cannot be fewer bytes than 11 each.
            guard size >= Self.length, itemCount <= (size - Self.length) / 11 else { return nil }
        }
    }

    /// The largest tag read: a cover inside one can be a few MB; more is damage.
    public static let sizeLimit = 16 << 20

    /// The items in `bytes` (the tag's body, between header and footer).
    public init(items bytes: ArraySlice<UInt8>, count: Int) {
        var items: [Item] = []
        var cursor = bytes.startIndex
        for _ in 0..<count {
            guard bytes.endIndex - cursor >= 8 else { break }
            let length = (0..<4).reduce(0) { $0 | Int(bytes[cursor + $1]) << (8 * $1) }
            let flags = (0..<4).reduce(0) { $0 | Int(bytes[cursor + 4 + $1]) << (8 * $1) }
            let keyStart = cursor + 8
            guard let keyEnd = bytes[keyStart...].prefix(256).firstIndex(of: 0) else { break }
            let key = bytes[keyStart..<keyEnd]
            let valueStart = keyEnd + 1
            guard key.count >= 2, key.allSatisfy({ (0x20...0x7E).contains($0) }),
                  length <= bytes.endIndex - valueStart else { break }
            let value = bytes[valueStart..<valueStart + length]
            cursor = valueStart + length
            let isText = (flags >> 1) & 3 == 0
            let values = isText
                ? value.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
                : []
            items.append(Item(key: String(decoding: key, as: UTF8.self), values: values, isText: isText))
        }
        self.items = items
    }

    /// The tag of a file `length` bytes long, read through `read(offset,
    /// count)`: at its end, before an ID3v1 tag, or at its start; nil where
    /// it has none.
    public static func read(length: Int, _ read: (Int, Int) -> [UInt8]) -> APEv2Tag? {
        // A footer at the end, or before ID3v1's 128 bytes.
        for end in [length, length - 128] where end >= Frame.length {
            if end != length && !read(end, 3).elementsEqual("TAG".utf8) { continue }
            let footerAt = end - Frame.length
            guard let footer = Frame(read(footerAt, Frame.length)[...]), !footer.isHeader,
                  footer.size <= min(sizeLimit, end) else { continue }
            let body = end - footer.size
            return APEv2Tag(items: read(body, footer.size - Frame.length)[...], count: footer.itemCount)
        }
        // A header at the start, the items after it.
        if let header = Frame(read(0, Frame.length)[...]), header.isHeader, header.size <= sizeLimit {
            let body = header.size - (header.hasFooter ? Frame.length : 0)
            return APEv2Tag(items: read(Frame.length, body)[...], count: header.itemCount)
        }
        return nil
    }

    /// The text items as `NAME = VALUE` fields, one per value, under their
    /// keys in upper case (APEv2's names are the Vorbis comments' but for
    /// "Year", "Track", "Disc" and "Album Artist", which that mapping knows).
    public var fields: [(name: String, value: String)] {
        items.filter(\.isText).flatMap { item in item.values.map { (item.key.uppercased(), $0) } }
    }
}
