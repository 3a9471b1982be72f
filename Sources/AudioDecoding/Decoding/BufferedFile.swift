import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// A file read through a 64 KB buffer, handed to libmpg123 as its I/O
/// (`mpg123_replace_reader_handle`).
///
/// Why: libmpg123's own reader makes a `read()` per MPEG frame header and
/// another per frame body. Seeking past the end of its frame index means
/// reading every header up to the target: in a 3-hour 64 kbps file that is
/// some 400,000 frames, 613 ms through single reads and 27 ms through this
/// buffer (measured, `make bench` seek section). Plain decoding gains about
/// 20% too.
///
/// Lives in manually allocated memory so libmpg123 can hold a plain pointer to
/// it; `Mpg123Decoder` allocates one per libmpg123 handle and frees it after
/// the handle is closed, and holds the reader callbacks. Knows nothing of
/// libmpg123 itself.
struct BufferedFile {
    static let capacity = 65536

    let descriptor: Int32
    let buffer: UnsafeMutableRawPointer
    /// Valid bytes in `buffer`.
    var length = 0
    /// Next byte of `buffer` to hand out.
    var offset = 0
    /// The descriptor's position: the file offset just after `buffer`'s valid bytes.
    var filePosition = 0

    /// The logical position: what the reader has handed out so far.
    var position: Int { filePosition - length + offset }

    /// Opens `path` for reading, only a regular file (`AudioPathCheck.open`: a
    /// FIFO put in the checked file's place would block the open).
    static func open(_ path: String) throws(RegularFileError) -> UnsafeMutablePointer<BufferedFile> {
        let descriptor = try AudioPathCheck.open(path)
        let file = UnsafeMutablePointer<BufferedFile>.allocate(capacity: 1)
        file.initialize(to: BufferedFile(descriptor: descriptor,
                                         buffer: UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)))
        return file
    }

    static func close(_ file: UnsafeMutablePointer<BufferedFile>) {
        _ = Glibc.close(file.pointee.descriptor)
        file.pointee.buffer.deallocate()
        file.deinitialize(count: 1)
        file.deallocate()
    }

    /// `read()` retried on EINTR, with `read`'s own way of failing (-1 and
    /// `errno`), which is what libmpg123's reader callback must return.
    private static func readRetrying(_ descriptor: Int32, _ destination: UnsafeMutableRawPointer, _ count: Int) -> Int {
        do throws(Errno) {
            return try SystemCall.retrying { Glibc.read(descriptor, destination, count) }
        } catch {
            errno = error.code
            return -1
        }
    }

    /// POSIX `read` semantics over the buffer.
    mutating func read(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        if offset == length {
            // A large request with nothing buffered goes straight to the file: no copy.
            if count >= Self.capacity {
                let result = Self.readRetrying(descriptor, destination, count)
                if result > 0 { filePosition += result; length = 0; offset = 0 }
                return result
            }
            let result = Self.readRetrying(descriptor, buffer, Self.capacity)
            guard result > 0 else { return result }
            filePosition += result
            length = result
            offset = 0
        }
        let available = min(count, length - offset)
        destination.copyMemory(from: buffer + offset, byteCount: available)
        offset += available
        return available
    }

    /// POSIX `lseek` semantics; a target inside the buffer costs no system call.
    mutating func seek(to requested: Int, whence: Int32) -> Int {
        let target: Int
        switch whence {
        case SEEK_SET: target = requested
        case SEEK_CUR: target = position + requested
        default:
            let result = Int(lseek(descriptor, off_t(requested), whence))
            if result >= 0 { filePosition = result; length = 0; offset = 0 }
            return result
        }
        guard target >= 0 else { errno = EINVAL; return -1 }
        if target >= filePosition - length && target <= filePosition {
            offset = target - (filePosition - length)
            return target
        }
        let result = Int(lseek(descriptor, off_t(target), SEEK_SET))
        if result >= 0 { filePosition = result; length = 0; offset = 0 }
        return result
    }
}
