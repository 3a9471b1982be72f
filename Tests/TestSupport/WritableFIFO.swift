import Foundation

/// A FIFO for the tests of readers that must refuse one: made at `path`
/// with a writer and the start of an ID3v2 tag in it, the write end closed
/// after 2 s on a thread of its own. An unchecked reader then opens it
/// without blocking, reads the bytes and the end of file, and its test
/// fails instead of hanging for ever.
public enum WritableFIFO {
    public static func make(_ path: String) throws {
        guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        // O_RDWR opens a FIFO without waiting for a reader (Linux).
        let writer = open(path, O_RDWR | O_NONBLOCK)
        guard writer >= 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path]) }
        _ = "ID3\u{4}\0\0\0\0\0\0".withCString { write(writer, $0, 10) }
        Thread.detachNewThread {
            sleep(2)
            close(writer)
        }
    }
}
