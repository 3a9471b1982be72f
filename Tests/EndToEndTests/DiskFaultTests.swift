import Foundation
import InterludeCore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The state folder fills up, or turns read-only, while a
/// book plays. Playback goes on, one clear line says the position is not being
/// kept, the last good state file stays as it was, and saving resumes by
/// itself once there is room (or the folder is writable) again.
///
/// The folder is a 64 KB tmpfs mounted for the test, which needs root (or
/// CAP_SYS_ADMIN); without it the test does not run and says why.
@Suite(.serialized) struct DiskFaultTests {
    /// A tmpfs mounted for one test, unmounted by `unmount()`.
    final class SmallDisk {
        let path: String
        init(size: String = "64k") throws {
            path = ScratchFiles.makeDirectory("small-disk")
            let result = try ProcessRunner.run("mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", path], timeout: 10)
            guard result.succeeded else { throw ProcessError.failed(result) }
        }
        func remount(_ mode: String) throws { try ProcessRunner.check("mount", ["-o", "remount,\(mode)", path]) }
        func unmount() { _ = try? ProcessRunner.run("umount", [path], timeout: 10) }

        /// Writes zeros to `fill` until the file system refuses (ENOSPC).
        func fill() -> Int {
            let fd = open(path + "/fill", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            defer { close(fd) }
            let block = [UInt8](repeating: 0, count: 4096)
            var total = 0
            while true {
                let written = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if written <= 0 { return total }
                total += written
            }
        }

        func makeRoom() { unlink(path + "/fill") }
    }

    /// Whether this process may mount a tmpfs (tried once, on a scratch directory).
    static let mountPermitted: Bool = {
        guard let disk = try? SmallDisk(size: "4k") else { return false }
        disk.unmount()
        return true
    }()

    @Test("a full, then read-only, state folder: playback goes on, one line each, the file intact, saving resumes",
          .enabled(if: mountPermitted, "mounting a tmpfs is not permitted here (needs root or CAP_SYS_ADMIN)"))
    func fullAndReadOnlyStateFolder() throws {
        let disk = try SmallDisk()
        defer { disk.unmount() }
        let folder = try BookUnderTest.folder("Disk", files: 1, seconds: 30)
        let book = BookUnderTest(path: folder.path, stateHome: disk.path)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        defer { _ = try? recorder.stop() }
        let player = try InterludeBinary.start(["play", book.path, "--device", "pulse", "--latency", "100", "--events", "json"],
                                               environment: sink.environment.merging(book.environment) { $1 })
        defer { _ = player.stop(signal: SIGKILL, grace: 1) }

        func waitFor(_ timeout: Double = 10, _ condition: () -> Bool) -> Bool {
            let deadline = monotonicSeconds() + timeout
            while monotonicSeconds() < deadline {
                if condition() { return true }
                usleep(20_000)
            }
            return condition()
        }
        func saves() -> [Double] { player.eventsSoFar().named("positionSaved").compactMap { $0.number("position") } }
        func errors() -> [String] { player.eventsSoFar().named("error").compactMap { $0.fields["message"]?.description } }
        func fileBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: try #require(book.stateFile))) }

        #expect(waitFor { saves().count >= 1 }, "no position saved: \(player.eventsSoFar().events)")
        let stateFile = try #require(book.stateFile)
        let mode = try FileManager.default.attributesOfItem(atPath: stateFile)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // Full: the saves stop, one error names the file and the reason.
        #expect(disk.fill() > 0)
        let savedBeforeFull = saves().count
        #expect(waitFor { errors().count == 1 }, "\(player.eventsSoFar().events)")
        let kept = try fileBytes()
        let positionKept = try book.savedPosition()
        let fullError = errors().first ?? ""
        #expect(fullError.contains(stateFile) && fullError.contains("No space left on device")
                && fullError.contains("position is not being kept"), "\(fullError)")
        usleep(2_500_000)
        #expect(player.isRunning)
        #expect(errors().count == 1, "one line per outage: \(errors())")
        #expect(saves().count <= savedBeforeFull + 1, "positionSaved reported while nothing could be saved")
        #expect(try fileBytes() == kept, "the last good state file changed")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: book.booksDirectory).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "\(leftovers)")

        // Room again: saving resumes by itself, and the position went on while nothing was saved.
        disk.makeRoom()
        let resumedAfter = saves().count
        #expect(waitFor { saves().count > resumedAfter }, "saving did not resume: \(player.eventsSoFar().events)")
        let positionAfter = try book.savedPosition()
        #expect(positionAfter >= positionKept + 2.0, "playback did not go on: \(positionKept) -> \(positionAfter)")

        // Read-only: the same, with its own single line.
        try disk.remount("ro")
        #expect(waitFor { errors().count == 2 }, "\(errors())")
        let readOnlyKept = try fileBytes()
        #expect(errors().last?.contains("Read-only file system") == true, "\(errors())")
        usleep(2_000_000)
        #expect(player.isRunning && errors().count == 2, "\(errors())")
        #expect(try fileBytes() == readOnlyKept)
        try disk.remount("rw")
        let beforeWritable = saves().count
        #expect(waitFor { saves().count > beforeWritable }, "saving did not resume after remounting rw")
        #expect(player.eventsSoFar().named("trackEnded").isEmpty && player.isRunning, "playback stopped")
    }
}
