import Glibc
import InterludeCore

/// Reads just the ID3v2 tag at the start of a file: the 10-byte header, then
/// as many bytes as it declares (plus a 2.4 footer). A three-hour book is
/// tens of megabytes; its tag is usually a few kilobytes. This,
/// `TagFile` and `CueTrack`'s sheet reading are the only code in
/// the module that touches the system; the parsers see bytes only.
public enum TagFileReader {
    /// The tag's bytes, or fewer when the file ends early (the parser then
    /// reports a truncated tag). Empty when the file does not start with
    /// "ID3"; just the header when the header itself is unusable (another
    /// version, a broken size), so the parser can say which.
    public static func tagBytes(atPath path: String) throws(TagFileError) -> [UInt8] {
        let descriptor: Int32
        do {
            descriptor = try AudioPathCheck.open(path)
        } catch {
            throw .cannotOpen(path: path, reason: error.reason)
        }
        defer { close(descriptor) }
        var bytes = try read(descriptor, count: ID3v2Header.length, path: path)
        guard let header = try? ID3v2Header(bytes: bytes[...]) else {
            return bytes.starts(with: "ID3".utf8) ? bytes : []
        }
        try checkSize(header, path: path)
        bytes += try read(descriptor, count: header.totalSize - ID3v2Header.length, path: path)
        return bytes
    }

    /// The chapters of the file's tag; a file without a tag has none.
    public static func chapters(atPath path: String) throws(TagFileError) -> ChapterList {
        let bytes = try tagBytes(atPath: path)
        return bytes.isEmpty ? .empty : ChapterList(tagBytes: bytes[...])
    }

    /// The largest tag read: covers and chapter images make tags of a few
    /// megabytes; the format allows 256 MB, which is no tag anyone wrote.
    public static let tagLimit = 32 << 20

    private static func checkSize(_ header: ID3v2Header, path: String) throws(TagFileError) {
        guard header.totalSize <= tagLimit else {
            throw .cannotRead(path: path, reason: "its ID3v2 tag declares \(header.totalSize) bytes, more than the \(tagLimit >> 20) MB read")
        }
    }

    /// Reads up to `count` bytes, stopping early at end of file. Memory grows
    /// with what is actually read, in 64 KiB steps, never with the declared
    /// size alone: a corrupt header claiming 256 MB in a 1 kB file costs 1 kB.
    private static func read(_ descriptor: Int32, count: Int, path: String) throws(TagFileError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < count {
            let wanted = min(chunk.count, count - bytes.count)
            // Sound: `wanted` never exceeds the chunk's allocated length.
            let result = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try SystemCall.retrying { Glibc.read(descriptor, buffer.baseAddress, wanted) } }
            }
            let got: Int
            do { got = try result.get() } catch { throw .cannotRead(path: path, reason: error.message) }
            if got == 0 { break }
            bytes += chunk[0..<got]
        }
        return bytes
    }
}
