/// Reads big-endian integers from a byte array front to back, as TZif files
/// store them, failing (rather than trapping) at the end of the data so a
/// truncated file becomes an error that names it.
struct TZifByteCursor {
    struct Truncated: Error {}

    private let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - position }

    mutating func take(_ count: Int) throws(Truncated) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw Truncated() }
        defer { position += count }
        return bytes[position..<position + count]
    }

    mutating func skip(_ count: Int) throws(Truncated) {
        _ = try take(count)
    }

    mutating func uint8() throws(Truncated) -> UInt8 {
        try take(1).first!
    }

    mutating func int32() throws(Truncated) -> Int32 {
        Int32(bitPattern: UInt32(truncatingIfNeeded: try unsigned(4)))
    }

    mutating func uint32() throws(Truncated) -> UInt32 {
        UInt32(truncatingIfNeeded: try unsigned(4))
    }

    mutating func int64() throws(Truncated) -> Int64 {
        Int64(bitPattern: try unsigned(8))
    }

    private mutating func unsigned(_ width: Int) throws(Truncated) -> UInt64 {
        var value: UInt64 = 0
        for byte in try take(width) { value = value << 8 | UInt64(byte) }
        return value
    }
}
