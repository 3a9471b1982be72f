import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// The few Unix-domain stream socket calls the control socket and its client
/// make, through the one system-call layer: each failure names its call.
package enum UnixSocket {
    /// `sun_path` holds 108 bytes with its terminating NUL.
    package static let maximumPathBytes = 107

    /// A listening socket bound at `path`, non-blocking, readable and writable
    /// by its owner only (the umask at bind time sets the file's mode).
    package static func listen(at path: String) throws(SystemCallError) -> Int32 {
        let fd = try SystemCall.retrying("socket") {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        }
        do {
            var address = try Self.address(path)
            let previous = umask(0o177)
            defer { umask(previous) }
            _ = try SystemCall.retrying("bind") {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
            }
            _ = try SystemCall.retrying("chmod") { chmod(path, 0o600) }
            _ = try SystemCall.retrying("listen") { Glibc.listen(fd, 64) }
            return fd
        } catch {
            close(fd)
            throw error
        }
    }

    /// A non-blocking connection to the socket at `path`, made within
    /// `timeoutMilliseconds`: a listener whose backlog is full (a player that
    /// is stopped, or busy for good) refuses with `ETIMEDOUT` rather than
    /// holding the caller.
    package static func connect(to path: String, timeoutMilliseconds: Int32) throws(SystemCallError) -> Int32 {
        let fd = try SystemCall.retrying("socket") {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        }
        do throws(SystemCallError) {
            var address = try Self.address(path)
            let connected = outcome {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
            }
            if case .failure(let error) = connected {
                // A Unix socket says EAGAIN (not EINPROGRESS) while the backlog is full.
                guard error == .wouldBlock || error.code == EINPROGRESS else { throw SystemCallError(call: "connect", errno: error) }
                guard try wait(fd, for: Int16(POLLOUT), timeoutMilliseconds: timeoutMilliseconds) else {
                    throw SystemCallError(call: "connect", errno: Errno(ETIMEDOUT))
                }
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = try SystemCall.retrying("getsockopt(SO_ERROR)") { getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) }
                if failure != 0 { throw SystemCallError(call: "connect", errno: Errno(failure)) }
            }
            return fd
        } catch {
            close(fd)
            throw error
        }
    }

    /// Waits until `fd` has one of `events` (or a hang-up or error); false when
    /// `timeoutMilliseconds` passed first.
    package static func wait(_ fd: Int32, for events: Int16, timeoutMilliseconds: Int32) throws(SystemCallError) -> Bool {
        var request = pollfd(fd: fd, events: events, revents: 0)
        let ready = try SystemCall.retrying("poll") { poll(&request, 1, timeoutMilliseconds) }
        return ready > 0
    }

    /// The next pending connection, non-blocking, or nil when none waits.
    package static func accept(_ listener: Int32) throws(SystemCallError) -> Int32? {
        // accept4 needs _GNU_SOURCE, which Swift's Glibc leaves out; the flags
        // follow at once, on the main thread that alone spawns children.
        switch outcome({ Glibc.accept(listener, nil, nil) }) {
        case .success(let fd):
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            return fd
        case .failure(let error):
            // ECONNABORTED: the client left before we took it; there may be more.
            if error == .wouldBlock || error.code == ECONNABORTED { return nil }
            throw SystemCallError(call: "accept", errno: error)
        }
    }

    /// What a non-blocking read of a connected socket found.
    package enum Received {
        case bytes(ArraySlice<UInt8>)
        /// The peer closed its side.
        case end
        /// Nothing to read now.
        case nothing
        /// The connection failed.
        case failed
    }

    /// One read of at most 16 KB.
    package static func receive(_ fd: Int32) -> Received {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        switch outcome({ chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }) {
        case .success(let count): return count == 0 ? .end : .bytes(chunk[0..<count])
        case .failure(let error): return error == .wouldBlock ? .nothing : .failed
        }
    }

    /// Writes what `output` holds until the socket takes no more, removing what
    /// was written; the bytes written, or nil when the peer is gone (`output`
    /// emptied). `MSG_NOSIGNAL`: a client that left must not kill the player with SIGPIPE.
    package static func sendPending(_ fd: Int32, _ output: inout [UInt8]) -> Int? {
        var total = 0
        while !output.isEmpty {
            switch outcome({ output.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }) {
            case .success(let count):
                output.removeFirst(count)
                total += count
            case .failure(let error):
                if error == .wouldBlock { return total }
                output = []
                return nil
            }
        }
        return total
    }

    /// A call's result or its errno (EINTR retried), for callers that branch on EAGAIN.
    package static func outcome<R: SignedInteger>(_ call: () -> R) -> Result<R, Errno> {
        do { return .success(try SystemCall.retrying(call)) } catch { return .failure(error) }
    }

    /// The connected peer's user id, from the kernel (`SO_PEERCRED`).
    package static func peerUserID(_ fd: Int32) throws(SystemCallError) -> uid_t {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }: Swift's Glibc
        // leaves it out (it needs _GNU_SOURCE), and its layout is fixed by the ABI.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        _ = try SystemCall.retrying("getsockopt(SO_PEERCRED)") {
            getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length)
        }
        return credentials.uid
    }

    private static func address(_ path: String) throws(SystemCallError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumPathBytes else { throw SystemCallError(call: "socket path", errno: Errno(ENAMETOOLONG)) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
            raw[bytes.count] = 0
        }
        return address
    }
}
