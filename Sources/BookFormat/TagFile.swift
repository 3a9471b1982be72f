import Glibc
import InterludeCore

/// A file as the tag readers read it: by offset, the first bytes served from
/// what the caller already read (a decoder's `FileHead`), the rest by
/// `pread` on a descriptor opened at the first read past them, so a file
/// whose tags lie in its first 4 KB is not opened again for them.
final class TagFile {
    let path: String
    private let head: [UInt8]
    private var descriptor: Int32 = -1
    private var openFailed = false

    init(path: String, head: [UInt8] = []) {
        self.path = path
        self.head = head
    }

    deinit {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }

    /// Up to `count` bytes at `offset`; fewer at the end of the file or on an
    /// error. Memory grows with what is read, in 64 KiB steps, never with
    /// `count` alone: a damaged length claiming 2 GB in a 1 kB file costs 1 kB.
    func bytes(at offset: Int, count: Int) -> [UInt8] {
        guard count > 0, offset >= 0, offset <= Int.max - count else { return [] }
        if offset + count <= head.count { return Array(head[offset..<offset + count]) }
        guard let descriptor = openedDescriptor() else {
            return offset < head.count ? Array(head[offset...]) : []
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(count, 64 * 1024))
        while bytes.count < count {
            let wanted = min(chunk.count, count - bytes.count)
            let position = off_t(offset + bytes.count)
            // Sound: `wanted` never exceeds the chunk's allocated length.
            let got = chunk.withUnsafeMutableBytes { buffer in
                (try? SystemCall.retrying { pread(descriptor, buffer.baseAddress, wanted, position) }) ?? 0
            }
            guard got > 0 else { break }
            bytes += chunk[0..<got]
        }
        return bytes
    }

    /// The file's length in bytes: the head's where the file cannot be
    /// opened (a caller's bytes alone, as the fuzz targets give them).
    func length() -> Int {
        var info = stat()
        guard let descriptor = openedDescriptor(), fstat(descriptor, &info) == 0, info.st_size > 0 else { return head.count }
        return Int(info.st_size)
    }

    private func openedDescriptor() -> Int32? {
        if descriptor >= 0 { return descriptor }
        guard !openFailed else { return nil }
        // A FIFO or a device named like audio is refused before a blocking open.
        guard let opened = try? AudioPathCheck.open(path) else {
            openFailed = true
            return nil
        }
        descriptor = opened
        return opened
    }
}
