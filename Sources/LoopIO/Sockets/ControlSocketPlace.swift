import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// Where the control sockets live: `$XDG_RUNTIME_DIR/interlude/`, a directory
/// only its owner may enter. The first player is `control`; a second one
/// (`--new`, or a headless `play` beside a running player) takes
/// `control.2`, `control.3`, ... A socket nobody listens on any more (a
/// player that was killed) is taken over.
package struct ControlSocketPlace: Sendable {
    package let directory: String

    /// Nil without `XDG_RUNTIME_DIR`: there is no private per-user place to
    /// put a socket (a shared /tmp would let others see or squat the name).
    package init?(environment: [String: String]) {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        directory = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/interlude"
    }

    package static var current: ControlSocketPlace? {
        guard let runtime = getenv("XDG_RUNTIME_DIR") else { return nil }
        return ControlSocketPlace(environment: ["XDG_RUNTIME_DIR": String(cString: runtime)])
    }

    /// The first player's socket, which `interlude remote` talks to by default.
    package var primary: String { directory + "/control" }

    package func path(instance: Int) -> String { instance <= 1 ? primary : "\(primary).\(instance)" }

    /// The sockets that exist now, in instance order (for the "no player" message and `--all`).
    package func existingSockets() -> [String] {
        (1...32).map(path(instance:)).filter { access($0, F_OK) == 0 }
    }

    /// Makes the directory (0700) or checks the one there: ours, a real
    /// directory, nobody else's way in.
    package func prepareDirectory() throws(ControlSocketError) {
        if mkdir(directory, 0o700) != 0 {
            let error = Errno.current
            guard error == .fileExists else { throw .directory(directory, "mkdir failed: \(error.message)") }
        }
        var status = stat()
        guard lstat(directory, &status) == 0 else { throw .directory(directory, "stat failed: \(Errno.current.message)") }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .directory(directory, "not a directory") }
        guard status.st_uid == getuid() else { throw .directory(directory, "owned by another user") }
        if status.st_mode & 0o077 != 0 {
            guard chmod(directory, 0o700) == 0 else { throw .directory(directory, "chmod failed: \(Errno.current.message)") }
        }
    }

    /// A live player answers at `path`.
    package static func isLive(_ path: String) -> Bool {
        do {
            close(try UnixSocket.connect(to: path, timeoutMilliseconds: 0))
            return true
        } catch {
            // A full backlog: someone listens (a player that is stopped, or busy).
            return error.errno.code == ETIMEDOUT
        }
    }

    /// Binds the first free instance from `instance` on: a stale socket is
    /// replaced, a live one skipped. Returns the path and listening descriptor.
    package func bindFirstFree(from instance: Int = 1) throws(ControlSocketError) -> (path: String, fd: Int32) {
        try prepareDirectory()
        for number in instance...99 {
            let path = path(instance: number)
            if access(path, F_OK) == 0 {
                if Self.isLive(path) { continue }
                // Nobody listens: a player that died without cleaning up.
                unlink(path)
            }
            do {
                return (path, try UnixSocket.listen(at: path))
            } catch {
                // Another player bound it between our check and our bind: try the next.
                if error.errno.code == EADDRINUSE { continue }
                throw .socket(path, error.description)
            }
        }
        throw .socket(directory, "99 players run already")
    }
}

package enum ControlSocketError: Error, CustomStringConvertible {
    case directory(String, String)
    case socket(String, String)

    package var description: String {
        switch self {
        case .directory(let path, let problem): "control socket off: \(path): \(problem)"
        case .socket(let path, let problem): "control socket off: \(path): \(problem)"
        }
    }
}
