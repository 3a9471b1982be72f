import Synchronization
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

    /// Paths whose directory has been swept in this process. The sweep lists
    /// the whole directory (the books folder holds a file per book), and a
    /// playing book's state is read and saved every second, on the main loop.
    private static let swept = Mutex<Set<String>>([])

    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The most `read` takes by default: the largest state file (a queue of
    /// thousands of paths) is a few megabytes; more is not one of ours.
    public static let readLimit = 16 << 20

    /// The file's bytes, or nil when it does not exist. The first read of a
    /// path in this process removes the temporary files of writers that died
    /// before their rename (see `removeStaleTemporaries`). A FIFO, a device or
    /// a directory at the path is refused without blocking, and a file larger
    /// than `limit` bytes is refused (`/dev/zero` renamed, a huge file where a
    /// small one belongs).
    public func read(limit: Int = StateFile.readLimit) throws(StateFileError) -> [UInt8]? {
        if Self.swept.withLock({ $0.insert(path).inserted }) { removeStaleTemporaries() }
        let fd: Int32
        do {
            fd = try AudioPathCheck.open(path)
        } catch {
            if error == .failed(.noSuchFile) { return nil }
            throw StateFileError(path: path, operation: "read", systemMessage: error.reason)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            // `withUnsafeMutableBytes` rethrows untyped; a `Result` keeps the `Errno`.
            let result = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try SystemCall.retrying { systemRead(fd, buffer.baseAddress, buffer.count) } }
            }
            let count: Int
            do { count = try result.get() } catch { throw failure("read", error) }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit {
                throw StateFileError(path: path, operation: "read", systemMessage: "larger than \(limit >> 20) MB, more than such a file holds")
            }
        }
    }

    /// Replaces the file's content atomically, creating missing parent
    /// directories. State is private listening data (books, bookmarks with
    /// notes, alarms): the file is made 0600 and new directories 0700, so
    /// other users on the machine cannot read it. The temporary is created
    /// 0600, so no moment exists when the content is readable by others.
    /// A failure (a full disk, a read-only folder) names the state file, not
    /// the temporary, and leaves the old content in place: the temporary is
    /// removed and the rename never happens.
    public func writeAtomically(_ bytes: [UInt8]) throws(StateFileError) {
        try Self.makeDirectories(directory)
        let temporary = path + ".tmp-\(getpid())"
        let fd: Int32
        do {
            fd = try SystemCall.retrying { open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, Self.fileMode) }
        } catch {
            throw failure("save", error)
        }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Result { () throws(Errno) in
                    try SystemCall.retrying { write(fd, buffer.baseAddress! + written, buffer.count - written) }
                }
            }
            do {
                written += try result.get()
            } catch {
                close(fd)
                unlink(temporary)
                throw failure("save", error)
            }
        }
        // Without fsync before rename, a crash can leave the new name pointing at an empty file.
        do {
            _ = try SystemCall.retrying { fsync(fd) }
        } catch {
            close(fd)
            unlink(temporary)
            throw failure("save", error)
        }
        close(fd)
        do {
            _ = try SystemCall.retrying { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw failure("replace", error)
        }
        // The rename itself is durable only once the directory entry is synced.
        if let directoryFD = try? SystemCall.retrying({ open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }) {
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
            do {
                _ = try SystemCall.retrying { kill(pid, 0) }
            } catch {
                if error == .noSuchProcess { stale.append(entryName) }
            }
        }
        for entryName in stale { unlink(directory + "/" + entryName) }
    }

    /// Moves the file to `path + suffix` (keeping it for inspection) and returns the new path.
    public func setAside(suffix: String) throws(StateFileError) -> String {
        let destination = path + suffix
        do {
            _ = try SystemCall.retrying { rename(path, destination) }
        } catch {
            throw failure("move aside", error)
        }
        return destination
    }

    public func remove() throws(StateFileError) {
        do {
            _ = try SystemCall.retrying { unlink(path) }
        } catch {
            if error != .noSuchFile { throw failure("remove", error) }
        }
    }

    /// Whether a regular file exists and is readable at `path` (used to validate sound files).
    public static func isReadableFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFREG && access(path, R_OK) == 0
    }

    /// Modes for what `writeAtomically` creates (before the umask, which can only narrow them).
    static let fileMode: mode_t = 0o600
    private static let directoryMode: mode_t = 0o700

    /// Creates the missing directories of the path, each 0700; existing ones
    /// keep their mode (a user's own `~/.local/state` is not ours to change).
    public static func makeDirectories(_ directory: String) throws(StateFileError) {
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            do {
                _ = try SystemCall.retrying { mkdir(prefix, directoryMode) }
            } catch {
                if error != .fileExists {
                    throw StateFileError(path: prefix, operation: "create directory", systemMessage: error.message)
                }
            }
        }
    }

    private func failure(_ operation: String, _ error: Errno, _ subject: String? = nil) -> StateFileError {
        StateFileError(path: subject ?? path, operation: operation, systemMessage: error.message)
    }
}

// `read` inside `StateFile` would name the method, so the system call gets its own name.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
