/// The encoding byte that opens text-bearing frames (ID3v2.4 §4.2). 2.3
/// defines only Latin-1 and UTF-16 with a byte-order mark; 2.4 adds UTF-16BE
/// without a mark and UTF-8. Both versions are read with all four, since
/// writers do mix them up and the meaning of each byte is unambiguous.
public enum ID3v2TextEncoding: UInt8, Sendable {
    case latin1 = 0
    case utf16WithBOM = 1
    case utf16BigEndian = 2
    case utf8 = 3

    /// How many zero bytes end a string: two, aligned, for UTF-16.
    var terminatorWidth: Int {
        switch self {
        case .latin1, .utf8: return 1
        case .utf16WithBOM, .utf16BigEndian: return 2
        }
    }

    /// Splits `bytes` at terminators into the raw strings they hold. A final
    /// terminator is optional, and is not taken as an empty last string.
    func split(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var strings: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = start
        let width = terminatorWidth
        while bytes.endIndex - index >= width {
            if bytes[index] == 0 && (width == 1 || bytes[index + 1] == 0) {
                strings.append(bytes[start..<index])
                index += width
                start = index
            } else {
                index += width
            }
        }
        if start < bytes.endIndex { strings.append(bytes[start...]) }
        return strings
    }

    /// Decodes one string. Invalid sequences become U+FFFD rather than
    /// failing: a damaged title should still show what it can.
    func decode(_ bytes: ArraySlice<UInt8>) -> String {
        switch self {
        case .latin1:
            // ASCII (most tags) is the same bytes in UTF-8; a library scan
            // decodes several of these per file.
            if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
            // Latin-1 bytes are exactly the first 256 Unicode scalars.
            var text = ""
            text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
            return text
        case .utf8:
            return String(decoding: bytes, as: UTF8.self)
        case .utf16BigEndian:
            return Self.decodeUTF16(bytes, bigEndian: true)
        case .utf16WithBOM:
            let bom = Array(bytes.prefix(2))
            if bom == [0xFE, 0xFF] { return Self.decodeUTF16(bytes.dropFirst(2), bigEndian: true) }
            if bom == [0xFF, 0xFE] { return Self.decodeUTF16(bytes.dropFirst(2), bigEndian: false) }
            // The mark is required, but writers that omit it are Windows
            // tools writing little-endian, so that is the better guess.
            return Self.decodeUTF16(bytes, bigEndian: false)
        }
    }

    private static func decodeUTF16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        // An odd trailing byte cannot be a code unit; it is dropped.
        while bytes.endIndex - index >= 2 {
            let first = UInt16(bytes[index]), second = UInt16(bytes[index + 1])
            units.append(bigEndian ? (first << 8 | second) : (second << 8 | first))
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }
}
