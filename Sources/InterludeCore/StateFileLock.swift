#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StateFile {
    /// The lock file beside the state file (`alarms.json.lock`): every writer
    /// of the state file holds it while it reads, merges and replaces the file.
    /// It is never removed: a lock file unlinked while another process waits on
    /// it would let a third lock a new file of the same name at the same time.
    public var lockPath: String { path + ".lock" }

    /// How long a writer waits for another's lock before giving up. Writers
    /// hold it for one read and one atomic write of a small file
    /// (milliseconds); a holder stopped with SIGSTOP must not freeze the
    /// player's main loop for good, so the wait is bounded.
    public static let lockWait: Duration = .seconds(2)

    /// Runs `body` while holding an exclusive `flock` on `lockPath`, so that
    /// no other process (or thread) that also locks it reads or writes the
    /// state file in between: read, change, write is one step. Throws, without
    /// running `body`, when the lock cannot be had within `lockWait`.
    ///
    /// Not reentrant: `flock` on a second descriptor of the same lock file
    /// waits for the first, even within one process.
    public func locked<T>(_ body: () -> T) throws(StateFileError) -> T {
        try Self.makeDirectories(directory)
        let fd: Int32
        do {
            // Read-only is enough for flock, and opens the existing lock file on
            // a file system remounted read-only (the save then names the cause).
            fd = try SystemCall.retrying { open(lockPath, O_RDONLY | O_CREAT | O_CLOEXEC, Self.fileMode) }
        } catch {
            throw StateFileError(path: lockPath, operation: "lock", systemMessage: error.message)
        }
        // Closing the descriptor releases the lock, also when the process dies.
        defer { close(fd) }
        let pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
        var waited = Duration.zero
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { break }
            let error = Errno.current
            guard error == .wouldBlock || error == .interrupted else {
                throw StateFileError(path: lockPath, operation: "lock", systemMessage: error.message)
            }
            guard waited < Self.lockWait else {
                throw StateFileError(path: path, operation: "lock",
                                     systemMessage: "another process has held \(lockPath) for \(Self.lockWait.components.seconds) s")
            }
            var rest = pause
            _ = nanosleep(&rest, nil)
            waited += .milliseconds(2)
        }
        return body()
    }
}

extension StateFile {
    /// Creates the file's folder (and missing parents, 0700), as a save would:
    /// for a watch on the folder before anything was saved in it.
    public func makeDirectory() throws(StateFileError) {
        try Self.makeDirectories(directory)
    }
}
