/// A failed system call, as one line naming the call and the C library's
/// message: "timerfd_create failed: Too many open files".
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C function's name, as a reader would search for it in a man page.
    public let call: String
    public let errno: Errno

    public init(call: String, errno: Errno) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call) failed: \(errno.message)" }
}
