import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking client of one of the player's Unix sockets (the control
/// socket's JSON lines, the MPD front end's text protocol) for what the
/// command line would never send: raw bytes, one line, a binary reply's
/// bytes, and an MPD reply whole. The end-to-end tests and the bench share
/// this one copy. Reads give up after 10 s without a byte.
public final class RawControlConnection {
    public let fd: Int32
    private var buffer: [UInt8] = []

    public init(_ path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            // One byte kept for the terminating zero: a longer path is cut, and the connect fails, not the write.
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let problem = String(cString: strerror(errno))
            close(fd)
            throw ProcessError.notReady("connect \(path): \(problem)")
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// A TCP client of `port` on the loopback address (MPD's `mpd = 127.0.0.1:PORT`).
    public init(loopbackPort port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let problem = String(cString: strerror(errno))
            close(fd)
            throw ProcessError.notReady("connect 127.0.0.1:\(port): \(problem)")
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Sends all of `bytes`; false when the player closed the connection first.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    public func send(_ line: String) { send(Array((line + "\n").utf8)) }

    /// Reads more into the buffer; false at the end of the connection (or after 10 s).
    private func fill(_ chunk: inout [UInt8]) -> Bool {
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer += chunk[0..<count]
        return true
    }

    /// The next line, or nil at the end of the connection (or after 10 s).
    public func readLine() -> String? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeFirst(newline + 1)
                return line
            }
            guard fill(&chunk) else { return nil }
        }
    }

    /// The next `count` bytes as they are (a binary reply's), or nil when the connection ended first.
    public func readBytes(_ count: Int) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while buffer.count < count {
            guard fill(&chunk) else { return nil }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// An MPD reply as bytes, up to and including its line `OK` or `ACK ...`
    /// (nil when the connection ended first). Each byte is looked at once, so
    /// a reply of megabytes costs the reader no more than reading it (the
    /// bench times replies with this).
    public func readMPDReply() -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var scanned = 0
        var lineStart = 0
        while true {
            while let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                let line = buffer[lineStart..<newline]
                scanned = newline + 1
                lineStart = scanned
                if line.elementsEqual("OK".utf8) || line.starts(with: "ACK ".utf8) {
                    let reply = Array(buffer[..<scanned])
                    buffer.removeFirst(scanned)
                    return reply
                }
            }
            scanned = buffer.count
            guard fill(&chunk) else { return nil }
        }
    }

    /// The reply to `line`, parsed (the control socket's JSON).
    public func request(_ line: String) -> [String: Any]? {
        send(line)
        guard let reply = readLine() else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any]
    }
}
