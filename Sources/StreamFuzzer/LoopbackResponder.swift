import Glibc
import Synchronization

/// A server on 127.0.0.1 that answers every connection with the fuzzer's
/// current input, as it is (status line, headers and body), then closes:
/// what a station's server sends, for the player's real reader to take.
/// One per process, its listening thread started at first use.
final class LoopbackResponder: Sendable {
    let port: Int
    private let listener: Int32
    private let answer = Mutex<[UInt8]>([])

    static let shared = LoopbackResponder()

    private init() {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(listener >= 0, "socket: \(String(cString: strerror(errno)))")
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        precondition(bound == 0 && listen(listener, 16) == 0, "bind or listen: \(String(cString: strerror(errno)))")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            Unmanaged<LoopbackResponder>.fromOpaque(context!).takeUnretainedValue().serve()
            return nil
        }, context)
        precondition(started == 0, "pthread_create: \(started)")
        pthread_detach(thread)
    }

    /// What every connection is answered from now on.
    func answer(with bytes: [UInt8]) { answer.withLock { $0 = bytes } }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            // The request is read (to its blank line, 8 KB at most, a second at most) and not looked at.
            var timeout = timeval(tv_sec: 1, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var request: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while request.count < 8192, !request.suffix(4).elementsEqual([13, 10, 13, 10]) {
                let count = recv(connection, &chunk, chunk.count, 0)
                if count <= 0 { break }
                request += chunk[0..<count]
            }
            let bytes = answer.withLock { $0 }
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if count <= 0 { break }
                sent += count
            }
            shutdown(connection, Int32(SHUT_WR))
            close(connection)
        }
    }
}
