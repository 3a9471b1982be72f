#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place that turns a C call's `-1` and `errno` into a thrown `Errno`,
/// as swift-system's `valueOrErrno` does, so no other code reads `errno` or
/// writes its own `EINTR` loop.
public enum SystemCall {
    /// Runs `call` until it does not fail with `EINTR`, and returns its result;
    /// a negative result throws the `errno` it left. For calls that report
    /// failure as `-1` with `errno` set (`open`, `read`, `write`, the descriptor
    /// calls). Not for `close`: on Linux a `close` that reports `EINTR` has
    /// already released the descriptor, and repeating it could close another.
    @inlinable
    public static func retrying<Result: SignedInteger>(_ call: () -> Result) throws(Errno) -> Result {
        while true {
            let result = call()
            if result >= 0 { return result }
            // Read at once: the next C call (even a `String` allocation) may overwrite it.
            let code = errno
            if code != EINTR { throw Errno(code) }
        }
    }

    /// `retrying`, with a failure named after the call for a one-line report.
    @inlinable
    public static func retrying<Result: SignedInteger>(
        _ name: String, _ call: () -> Result
    ) throws(SystemCallError) -> Result {
        do {
            return try retrying(call)
        } catch {
            throw SystemCallError(call: name, errno: error)
        }
    }

    /// For the pthread family, which returns the error number instead of
    /// setting `errno` (`pthread_sigmask`): zero is success.
    @inlinable
    public static func checkingReturnedError(_ name: String, _ call: () -> Int32) throws(SystemCallError) {
        let code = call()
        if code != 0 { throw SystemCallError(call: name, errno: Errno(code)) }
    }
}
