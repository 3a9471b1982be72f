import Foundation
#if canImport(Glibc)
import Glibc
#endif

public enum StreamServerError: Error, CustomStringConvertible, Sendable {
    case notInstalled(String)
    case startFailed(String)
    case requestFailed(String)

    public var description: String {
        switch self {
        case .notInstalled(let tool): return "\(tool) is not installed (scripts/install-deps.sh installs it)"
        case .startFailed(let message): return message
        case .requestFailed(let message): return message
        }
    }
}

/// Plain HTTP/1.0 to a server on 127.0.0.1, for the tests' own calls (Icecast's
/// status and admin pages): one request, the reply read to the end. No
/// URLSession, so nothing in the test process keeps connections or threads.
public enum LoopbackHTTP {
    public struct Reply: Sendable {
        public var status: Int
        public var headers: String
        public var body: Data
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    /// `GET path` with Basic authorization when `user` is given; each socket
    /// call bounded by `timeout` seconds.
    public static func get(port: Int, path: String, user: (name: String, password: String)? = nil,
                           timeout: Double = 5) throws(StreamServerError) -> Reply {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw .requestFailed("socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw .requestFailed("connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }
        var request = "GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: interlude-tests\r\n"
        if let user {
            request += "Authorization: Basic \(Data("\(user.name):\(user.password)".utf8).base64EncodedString())\r\n"
        }
        request += "\r\n"
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw .requestFailed("send to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
        var reply = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw .requestFailed("read from 127.0.0.1:\(port)\(path): \(String(cString: strerror(errno)))")
            }
            reply.append(contentsOf: buffer[0..<count])
        }
        guard let end = reply.range(of: Data("\r\n\r\n".utf8)) else { throw .requestFailed("no HTTP reply from 127.0.0.1:\(port)\(path)") }
        let head = String(decoding: reply[..<end.lowerBound], as: UTF8.self)
        let statusWords = head.split(separator: "\r\n").first?.split(separator: " ") ?? []
        guard statusWords.count >= 2, let status = Int(statusWords[1]) else { throw .requestFailed("bad status line: \(head.prefix(80))") }
        return Reply(status: status, headers: head, body: reply[end.upperBound...])
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now: bound to 0 and
    /// closed again. For servers that cannot be told to pick their own (Icecast);
    /// one that loses the race fails to start and is started again on another.
    public static func freePort() throws(StreamServerError) -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw .startFailed("socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw .startFailed("bind: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// `text` percent-encoded for a query value (UTF-8, everything but unreserved characters).
    public static func queryEncoded(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
