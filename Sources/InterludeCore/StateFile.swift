#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading, atomically replacing and setting aside one state file.
///
/// Writes go to a temporary file in the same directory, are fsync'ed, then
/// renamed over the old file, and the directory is fsync'ed: after a crash or
/// `kill -9` the path holds either the old or the new content, never a mix.
/// Every call retries `EINTR` and reports failures as `StateFileError`.
public struct StateFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The file's bytes, or nil when it does not exist. Removes the temporary
    /// files of writers that died before their rename first (see
    /// `removeStaleTemporaries`).
    public func read() throws(StateFileError) -> [UInt8]? {
        removeStaleTemporaries()
        let fd = retryingEINTR { open(path, O_RDONLY | O_CLOEXEC) }
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw failure("read")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retryingEINTR { systemRead(fd, buffer.baseAddress, buffer.count) }
            }
            if count < 0 { throw failure("read") }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Replaces the file's content atomically, creating missing parent directories.
    public func writeAtomically(_ bytes: [UInt8]) throws(StateFileError) {
        try Self.makeDirectories(directory)
        let temporary = path + ".tmp-\(getpid())"
        let fd = retryingEINTR { open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        if fd < 0 { throw failure("create", temporary) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                retryingEINTR { write(fd, buffer.baseAddress! + written, buffer.count - written) }
            }
            if count < 0 {
                let error = failure("write", temporary)
                close(fd)
                unlink(temporary)
                throw error
            }
            written += count
        }
        // Without fsync before rename, a crash can leave the new name pointing at an empty file.
        if fsync(fd) != 0 {
            let error = failure("sync", temporary)
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        if rename(temporary, path) != 0 {
            let error = failure("replace")
            unlink(temporary)
            throw error
        }
        // The rename itself is durable only once the directory entry is synced.
        let directoryFD = retryingEINTR { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    /// Deletes `path.tmp-PID` files left by a writer killed between creating its
    /// temporary and the rename (`kill -9`, a power cut): those whose process no
    /// longer exists. A live writer's temporary, this process's own included, is
    /// left alone. Best effort: a directory that cannot be read is skipped.
    public func removeStaleTemporaries() {
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        let prefix = name + ".tmp-"
        guard let listing = opendir(directory) else { return }
        defer { closedir(listing) }
        var stale: [String] = []
        while let entry = readdir(listing) {
            let entryName = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            guard entryName.hasPrefix(prefix), let pid = Int32(entryName.dropFirst(prefix.count)), pid > 0,
                  pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { stale.append(entryName) }
        }
        for entryName in stale { unlink(directory + "/" + entryName) }
    }

    /// Moves the file to `path + suffix` (keeping it for inspection) and returns the new path.
    public func setAside(suffix: String) throws(StateFileError) -> String {
        let destination = path + suffix
        if rename(path, destination) != 0 { throw failure("move aside") }
        return destination
    }

    public func remove() throws(StateFileError) {
        if unlink(path) != 0 && errno != ENOENT { throw failure("remove") }
    }

    /// Whether a regular file exists and is readable at `path` (used to validate sound files).
    public static func isReadableFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFREG && access(path, R_OK) == 0
    }

    private static func makeDirectories(_ directory: String) throws(StateFileError) {
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw StateFileError(path: prefix, operation: "create directory", systemMessage: Self.message(errno))
            }
        }
    }

    private func failure(_ operation: String, _ subject: String? = nil) -> StateFileError {
        StateFileError(path: subject ?? path, operation: operation, systemMessage: Self.message(errno))
    }

    private static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

private func retryingEINTR<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}

// `read` inside `StateFile` would name the method, so the system call gets its own name.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
