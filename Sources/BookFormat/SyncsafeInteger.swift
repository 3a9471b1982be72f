/// ID3v2's 28-bit "syncsafe" integers: four bytes of seven bits each, so no
/// size field can contain 0xFF and be mistaken for an MPEG frame sync.
enum SyncsafeInteger {
    /// The value, or nil when a byte has its high bit set (not syncsafe).
    static func decode(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count == 4, bytes.allSatisfy({ $0 & 0x80 == 0 }) else { return nil }
        return bytes.reduce(0) { ($0 << 7) | Int($1) }
    }

    /// Reads the low seven bits of each byte whatever the high bit holds, the
    /// way tolerant readers treat a damaged 2.4 frame size.
    static func decodeIgnoringHighBits(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { ($0 << 7) | Int($1 & 0x7F) }
    }
}
