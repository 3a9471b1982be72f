import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// A listening TCP socket at an IPv4 address, non-blocking, for the MPD
/// front end's `mpd = IPV4:PORT`: each failure names its call.
package enum TCPListener {
    package static func listen(host: String, port: Int) throws(SystemCallError) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw SystemCallError(call: "inet_pton(\(host))", errno: Errno(EINVAL))
        }
        let fd = try SystemCall.retrying("socket") {
            socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        }
        do {
            var on: Int32 = 1
            _ = try SystemCall.retrying("setsockopt(SO_REUSEADDR)") {
                setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            }
            _ = try SystemCall.retrying("bind") {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
            }
            _ = try SystemCall.retrying("listen") { Glibc.listen(fd, 64) }
            return fd
        } catch {
            close(fd)
            throw error
        }
    }
}
