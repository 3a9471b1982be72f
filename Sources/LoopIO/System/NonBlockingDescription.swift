#if canImport(Glibc)
import Glibc
#endif

/// The loop's writes to standard output and standard error never wait: a
/// pipe or a terminal is written through a second, non-blocking open file
/// description of the same object (`/proc/self/fd/N`), since setting
/// `O_NONBLOCK` on the descriptor itself would change it for the shell that
/// shares it.
package enum NonBlockingDescription {
    /// What `fd` is open on, as far as writing without waiting goes.
    package enum Kind { case socket, pipeOrTerminal, other }

    package static func kind(of fd: Int32) -> Kind {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFSOCK: return .socket
        case S_IFIFO, S_IFCHR: return .pipeOrTerminal
        default: return .other
        }
    }

    /// A non-blocking description of `fd`'s pipe or terminal, or nil without
    /// /proc (the writes then block as before).
    package static func reopen(_ fd: Int32) -> Int32? {
        let reopened = open("/proc/self/fd/\(fd)", O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        return reopened >= 0 ? reopened : nil
    }
}
