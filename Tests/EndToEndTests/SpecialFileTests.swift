import Foundation
import Testing
import TestSupport

/// Special files and wild numbers at the real binary: a FIFO, a device or a socket
/// named like audio is refused in one line naming it and what it is, before
/// anything opens it blocking (a FIFO would wait for a writer for ever), and
/// numbers from files (a modification time in 2300, a saved position of
/// 1e300) are checked before the arithmetic that would trap on them.
@Suite(.enabled(if: InterludeBinary.isAvailable()))
struct SpecialFileTests {
    static func fifo(_ path: String) throws {
        try ProcessRunner.check("mkfifo", [path])
    }

    @Test("play: a FIFO named like an MP3 gets one line naming it a FIFO, and the file after it plays")
    func playRefusesAFIFOAndPlaysOn() throws {
        let directory = ScratchFiles.makeDirectory("special-play")
        let pipe = directory + "/00.mp3"
        try Self.fifo(pipe)
        let good = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let result = try InterludeBinary.play([pipe, "/dev/zero", good], output: .null, timeout: 60)
        #expect(!result.process.timedOut && result.process.exitStatus == 0, "\(result.process.summary)")
        let lines = result.process.stderrText.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains(pipe) } == ["interlude: \(pipe): is a FIFO (named pipe), not an audio file (skipped)"],
                "\(lines)")
        #expect(lines.filter { $0.contains("/dev/zero") }.count == 1 && lines.joined().contains("character device"), "\(lines)")
        #expect(result.events.named("trackStarted").compactMap(\.path) == [good])
    }

    @Test("info on a FIFO answers in one line and exits non-zero instead of waiting for a writer")
    func infoRefusesAFIFO() throws {
        let pipe = ScratchFiles.makeDirectory("special-info") + "/book.m4b"
        try Self.fifo(pipe)
        let result = try InterludeBinary.run(["info", pipe], timeout: 30)
        #expect(!result.timedOut && result.exitStatus == 1, "\(result.summary)")
        let lines = (result.stdoutText + result.stderrText).split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(pipe) && lines[0].contains("FIFO"), "\(lines)")
    }

    @Test("library scan: a file dated 2300 is indexed (it died with SIGILL), a FIFO named 00.mp3 is skipped in one line")
    func scanTakesAFarFutureFileAndSkipsAFIFO() throws {
        let directory = ScratchFiles.makeDirectory("special-scan")
        let music = directory + "/music"
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        let future = music + "/future.mp3", past = music + "/past.mp3"
        let source = try Fixtures.mp3(.sweep, seconds: 1, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        try FileManager.default.copyItem(atPath: source, toPath: future)
        try FileManager.default.copyItem(atPath: source, toPath: past)
        try ProcessRunner.check("touch", ["-d", "2300-01-01", future])
        // Before 1677: nanoseconds since 1970 below Int64.min.
        try ProcessRunner.check("touch", ["-d", "1600-01-01", past])
        let pipe = music + "/00.mp3"
        try Self.fifo(pipe)
        try FileManager.default.createDirectory(atPath: directory + "/config/interlude", withIntermediateDirectories: true)
        try "library = \(music)\n".write(toFile: directory + "/config/interlude/config", atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": directory + "/config", "XDG_CACHE_HOME": directory + "/cache", "HOME": directory]

        let scan = try InterludeBinary.run(["library", "scan"], environment: environment, timeout: 60)
        #expect(!scan.timedOut && scan.exitStatus == 0, "\(scan.summary)")
        let problems = scan.stderrText.split(separator: "\n").filter { !$0.contains("no library index") }
        #expect(problems == ["interlude: library: skipped \(pipe): is a FIFO (named pipe), not an audio file"], "\(problems)")
        let search = try InterludeBinary.run(["library", "search", "path:"], environment: environment)
        #expect(search.exitStatus == 0 && search.stdoutText.contains(future) && search.stdoutText.contains(past),
                "\(search.summary)")
        // Scanned again, neither is taken for changed.
        let again = try InterludeBinary.run(["library", "scan"], environment: environment, timeout: 60)
        #expect(again.exitStatus == 0 && again.stdoutText.contains("2 unchanged"), "\(again.summary)")
    }
}
