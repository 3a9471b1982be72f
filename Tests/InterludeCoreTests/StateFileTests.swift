import Glibc
import InterludeCore
import Testing

struct StateFileTests {
    private func temporaryPath(_ name: String) -> String {
        "/tmp/interlude-core-tests-\(UInt64.random(in: 0...UInt64.max))/\(name)"
    }

    @Test func atomicWriteCreatesDirectoriesReplacesContentAndLeavesNoTemporaryFile() throws {
        let file = StateFile(path: temporaryPath("nested/state.json"))
        #expect(try file.read() == nil)
        try file.writeAtomically(Array("first".utf8))
        try file.writeAtomically(Array("second".utf8))
        #expect(try file.read() == Array("second".utf8))
        #expect(!StateFile.isReadableFile(file.path + ".tmp-\(0)"))
        let aside = try file.setAside(suffix: ".old")
        #expect(try StateFile(path: aside).read() == Array("second".utf8))
        #expect(try file.read() == nil)
        try StateFile(path: aside).remove()
    }

    /// A `kill -9` between creating the temporary and the rename leaves
    /// `state.json.tmp-PID`; the next load removes it once PID is gone, and
    /// leaves live writers' temporaries and other files' alone.
    @Test func readRemovesTemporariesOfDeadWritersOnly() throws {
        let file = StateFile(path: temporaryPath("state.json"))
        try file.writeAtomically(Array("kept".utf8))
        // Above pid_max no process can exist: kill(2) answers ESRCH.
        let pidMax = try #require(try StateFile(path: "/proc/sys/kernel/pid_max").read())
        let dead = try #require(Int32(String(decoding: pidMax, as: UTF8.self).filter(\.isNumber))) + 1
        let stale = file.path + ".tmp-\(dead)"
        let live = file.path + ".tmp-\(getppid())"
        let own = file.path + ".tmp-\(getpid())"
        let otherFile = file.directory + "/other.json.tmp-\(dead)"
        for path in [stale, live, own, otherFile] { try StateFile(path: path).writeAtomically([1]) }

        #expect(try file.read() == Array("kept".utf8))
        #expect(!StateFile.isReadableFile(stale))
        #expect(StateFile.isReadableFile(live))
        #expect(StateFile.isReadableFile(own))
        #expect(StateFile.isReadableFile(otherFile))
        for path in [live, own, otherFile, file.path] { try StateFile(path: path).remove() }
    }

    /// A book's state is read before every save, each second while it plays:
    /// the directory is listed at the first read of a path only.
    @Test func onlyTheFirstReadOfAPathListsItsDirectory() throws {
        let file = StateFile(path: temporaryPath("state.json"))
        try file.writeAtomically(Array("kept".utf8))
        let pidMax = try #require(try StateFile(path: "/proc/sys/kernel/pid_max").read())
        let dead = try #require(Int32(String(decoding: pidMax, as: UTF8.self).filter(\.isNumber))) + 1
        let first = file.path + ".tmp-\(dead)"
        try StateFile(path: first).writeAtomically([1])
        #expect(try file.read() == Array("kept".utf8))
        #expect(!StateFile.isReadableFile(first), "the first read sweeps")
        let second = file.path + ".tmp-\(dead + 1)"
        try StateFile(path: second).writeAtomically([1])
        #expect(try file.read() == Array("kept".utf8))
        #expect(StateFile.isReadableFile(second), "a later read lists nothing")
        try StateFile(path: second).remove()
        try file.remove()
    }

    @Test func unwritableLocationIsReportedWithItsPath() {
        let file = StateFile(path: "/proc/interlude-cannot-write/state.json")
        #expect(throws: StateFileError.self) { try file.writeAtomically([1, 2, 3]) }
        do {
            try file.writeAtomically([1])
        } catch {
            #expect(error.description.contains("/proc/interlude-cannot-write"))
        }
    }

    @Test func xdgStateHomeDefaultsToLocalStateAndIgnoresRelativePaths() {
        #expect(XDGDirectories(environment: ["HOME": "/home/ann"]).interludeState == "/home/ann/.local/state/interlude")
        #expect(XDGDirectories(environment: ["HOME": "/home/ann", "XDG_STATE_HOME": "/srv/state"]).interludeState == "/srv/state/interlude")
        #expect(XDGDirectories(environment: ["HOME": "/home/ann", "XDG_STATE_HOME": "relative"]).interludeState == "/home/ann/.local/state/interlude")
        #expect(XDGDirectories(environment: ["HOME": "/home/ann"]).interludeConfig == "/home/ann/.config/interlude")
    }
}

/// State is private listening data: what `StateFile` writes is readable by
/// its owner only, whatever the usual umask would allow.
struct StateFilePermissionTests {
    @Test func writtenFilesAre0600AndCreatedDirectories0700UnderUmask022() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let root = "/tmp/interlude-core-tests-\(UInt64.random(in: 0...UInt64.max))"
        let file = StateFile(path: root + "/state/interlude/books/book.json")
        try file.writeAtomically(Array("{}".utf8))
        #expect(mode(of: file.path) == 0o600)
        for directory in [root, root + "/state", root + "/state/interlude", root + "/state/interlude/books"] {
            #expect(mode(of: directory) == 0o700, "\(directory)")
        }
        // A file an older version wrote 0644 becomes 0600 at its next save.
        #expect(chmod(file.path, 0o644) == 0)
        try file.writeAtomically(Array("{\"a\":1}".utf8))
        #expect(mode(of: file.path) == 0o600)
    }

    @Test func anExistingDirectoryKeepsItsMode() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let root = "/tmp/interlude-core-tests-\(UInt64.random(in: 0...UInt64.max))"
        #expect(mkdir(root, 0o755) == 0)
        try StateFile(path: root + "/alarms.json").writeAtomically([0x0A])
        #expect(mode(of: root) == 0o755)
        #expect(mode(of: root + "/alarms.json") == 0o600)
    }

    private func mode(of path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }
}
