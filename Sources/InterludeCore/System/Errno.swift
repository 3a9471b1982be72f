#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A system call's `errno`, typed, as swift-system's `Errno`: the code to
/// branch on and the C library's own message (`strerror`) to show.
public struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: Int32

    public init(_ code: Int32) { self.code = code }

    /// The calling thread's `errno` now; read it before any other call can change it.
    public static var current: Errno { Errno(errno) }

    /// The C library's sentence for the code ("Too many open files").
    public var message: String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    public var description: String { message }

    public static let interrupted = Errno(EINTR)
    public static let wouldBlock = Errno(EAGAIN)
    public static let noSuchFile = Errno(ENOENT)
    public static let fileExists = Errno(EEXIST)
    public static let canceled = Errno(ECANCELED)
    public static let noSuchProcess = Errno(ESRCH)
}
