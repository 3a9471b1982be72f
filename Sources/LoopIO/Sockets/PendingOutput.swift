import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// What waits to be sent to a line server's client. A reply of megabytes
/// leaves in pieces the size of the socket's buffer: the part sent is
/// counted, not removed, so the rest is not moved down after each piece, and
/// a reply made while nothing waits is taken as it is, not copied.
package struct PendingOutput {
    private var bytes: [UInt8] = []
    private var sent = 0

    package var count: Int { bytes.count - sent }
    package var isEmpty: Bool { count == 0 }

    package mutating func append(_ more: [UInt8]) {
        if isEmpty {
            bytes = more
            sent = 0
        } else {
            // The part sent goes once it is most of what is held, so a client that
            // always has something waiting does not hold all it was ever sent.
            if sent > bytes.count / 2 {
                bytes.removeFirst(sent)
                sent = 0
            }
            bytes += more
        }
    }

    package mutating func removeAll() {
        bytes = []
        sent = 0
    }

    /// Sends what the socket takes now: the bytes sent, or nil when the client
    /// is gone (all is dropped then). `MSG_NOSIGNAL`: a client that left must
    /// not kill the player with SIGPIPE.
    package mutating func send(to fd: Int32) -> Int? {
        var total = 0
        while sent < bytes.count {
            let outcome = bytes.withUnsafeBytes { all in
                // Sound: `sent < all.count`, so the pointer and length stay inside the array's bytes.
                UnixSocket.outcome { Glibc.send(fd, all.baseAddress! + sent, all.count - sent, Int32(MSG_NOSIGNAL)) }
            }
            switch outcome {
            case .success(let count):
                sent += count
                total += count
            case .failure(let error):
                if error == .wouldBlock { return total }
                removeAll()
                return nil
            }
        }
        removeAll()
        return total
    }
}
