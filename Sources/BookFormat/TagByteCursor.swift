/// A bounds-checked reader over an ID3v2 tag's bytes (frame headers, CHAP
/// and CTOC bodies, NUL-terminated strings). Every read checks the remaining
/// length first and returns nil instead of trapping, so no length field in a
/// damaged tag can make the parser read outside its buffer. (The TZif reader
/// in InterludeCore throws at the end instead: a truncated zone file is one
/// error, a damaged tag keeps what it could read.)
struct TagByteCursor {
    private let bytes: ArraySlice<UInt8>
    private(set) var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    var remaining: Int { bytes.endIndex - position }
    var isAtEnd: Bool { position >= bytes.endIndex }

    /// The bytes not yet read, without consuming them.
    var rest: ArraySlice<UInt8> { bytes[position...] }

    mutating func readByte() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func readUInt32BigEndian() -> UInt32? {
        guard let four = read(count: 4) else { return nil }
        return four.reduce(0) { ($0 << 8) | UInt32($1) }
    }

    mutating func read(count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, remaining >= count else { return nil }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    mutating func skip(_ count: Int) -> Bool {
        read(count: count) != nil
    }

    /// Bytes up to a single NUL, consuming the NUL. Without a NUL the rest of
    /// the buffer is taken: writers that drop the final terminator exist, and
    /// the string is still the best reading of the data.
    mutating func readNulTerminated() -> ArraySlice<UInt8> {
        let end = rest.firstIndex(of: 0) ?? bytes.endIndex
        let field = bytes[position..<end]
        position = min(end + 1, bytes.endIndex)
        return field
    }
}
