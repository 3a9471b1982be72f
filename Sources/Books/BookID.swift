/// A book's stable name for its state file: a 64-bit FNV-1a hash of its
/// absolute path, as 16 hex digits. The same folder or file always maps to
/// the same state, whatever directory `interlude` is started from (the
/// application resolves the path first); a book that is moved starts over,
/// which is what BookPlayer and Voice do too.
public struct BookID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// `absolutePath` without a trailing slash ("/books/Dune/" and
    /// "/books/Dune" are the same book).
    public init(absolutePath: String) {
        var path = Substring(absolutePath)
        while path.count > 1 && path.hasSuffix("/") { path = path.dropLast() }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        rawValue = String(repeating: "0", count: 16 - hex.count) + hex
    }

    public var description: String { rawValue }
}
