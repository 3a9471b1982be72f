import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// One player per user: with a full-screen player running (in tmux), every
/// way of starting `interlude` on a terminal (paths, a folder, a station's
/// URL, `--play`, `--book`, options, nothing at all) reaches that player over
/// its control socket and exits, and no second player (no `control.2`)
/// appears; `--new` does start one.
@Suite(.serialized) struct OnePlayerTests {
    /// The running player's world: what a second `interlude` in another terminal of the same user sees.
    struct Beside {
        let session: TUISession
        var runtime: String { session.runtimeDirectory }
        var environment: [String: String] {
            var variables = session.sink.environment
            variables["XDG_RUNTIME_DIR"] = runtime
            variables["XDG_CONFIG_HOME"] = session.configHome
            variables["XDG_STATE_HOME"] = session.directory + "/state"
            variables["XDG_CACHE_HOME"] = session.directory + "/cache"
            variables["LANG"] = "C.UTF-8"
            variables["TERM"] = "xterm-256color"
            return variables
        }

        /// `interlude ARGUMENTS` on a terminal of its own (`script` gives it a pseudo-terminal),
        /// its output with the terminal's carriage returns taken out.
        func start(_ arguments: [String]) throws -> (status: Int32?, output: String) {
            let command = ([InterludeBinary.path()] + arguments).map(TUISession.quoted).joined(separator: " ")
            let run = try ProcessRunner.run("/usr/bin/script", ["-qec", command, "/dev/null"], environment: environment, timeout: 30)
            return (run.timedOut ? nil : run.exitStatus, run.stdoutText.replacingOccurrences(of: "\r", with: ""))
        }

        /// The control sockets in the runtime folder ("control", "control.2", ...).
        var controlSockets: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: runtime + "/interlude")) ?? []).filter { $0.hasPrefix("control") }.sorted()
        }

        func status() throws -> [String: Any] { try Remote.status(runtime) }

        func queuePaths() throws -> [String] {
            let result = try Remote.run(runtime, ["queue-list", "--json"]).check()
            let entries = (try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]]) ?? []
            return entries.compactMap { $0["path"] as? String }
        }
    }

    @Test("paths, a folder, a URL, --play, --speed, other options and no argument at all reach the running player; --book opens the book there; --new starts a second")
    func everyEntryPointReachesTheRunningPlayer() throws {
        let first = try Fixtures.mp3(.sweep, seconds: 30, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let second = try Fixtures.mp3(.tone(frequency: 330), seconds: 30, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let given = try Fixtures.mp3(.tone(frequency: 550), seconds: 20, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let album = ScratchFiles.makeDirectory("one-player-album")
        for (index, name) in ["02 Two.mp3", "01 One.mp3", "10 Ten.mp3"].enumerated() {
            try FileManager.default.copyItem(atPath: index == 0 ? first : second, toPath: album + "/" + name)
        }
        let book = try BookUnderTest.folder("one-player", files: 3, seconds: 20)
        let station = "http://127.0.0.1:9/one-player-station"

        let session = try TUISession(columns: 120, rows: 40, arguments: [first, second])
        let beside = Beside(session: session)
        #expect(Remote.waitForPlayer(beside.runtime), "no player at \(beside.runtime)")
        #expect(session.waitFor { (TUISession.elapsed($0) ?? 0) >= 1 }.met, "\(session.screen())")
        #expect(beside.controlSockets == ["control"])

        func expectReached(_ arguments: [String], saying words: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let run = try beside.start(arguments)
            #expect(run.status == 0, "interlude \(arguments): \(run.output)", sourceLocation: sourceLocation)
            #expect(run.output.hasPrefix("interlude: the running player ") && run.output.contains(words),
                    "interlude \(arguments): \(run.output)", sourceLocation: sourceLocation)
            #expect(beside.controlSockets == ["control"], "interlude \(arguments) left \(beside.controlSockets)",
                    sourceLocation: sourceLocation)
        }

        // Nothing asked: the running player says what it does.
        try expectReached([], saying: "is playing")

        // A file, a folder (its audio files in natural order, as e queues them), a station: queued.
        try expectReached([given], saying: "queued \((given as NSString).lastPathComponent)")
        #expect(try beside.queuePaths() == [first, second, given])
        try expectReached([album], saying: "queued 3 files")
        #expect(try beside.queuePaths() == [first, second, given, album + "/01 One.mp3", album + "/02 Two.mp3", album + "/10 Ten.mp3"])
        try expectReached([station], saying: "queued \(station)")
        #expect(try beside.queuePaths().last == station)

        // --play: played now, in place of what was queued after the entry that played.
        try expectReached(["--play", given], saying: "plays \((given as NSString).lastPathComponent) now")
        #expect(Remote.waitUntil { (try? beside.status())?["path"] as? String == given }, "\((try? beside.status()) ?? [:])")
        let played = try beside.queuePaths()
        #expect(played.last == given && !played.contains(station), "\(played)")

        // An option the running player takes, and ones only a starting player can: the first set, the others named.
        try expectReached(["--speed", "1.5"], saying: "plays at 1.5x")
        let speed = try beside.status()["speed"] as? String
        #expect(speed == "1.5x", "\(speed ?? "none")")
        try expectReached(["--theme", "light", "--device", "pulse"], saying: "--device, --theme apply only to a player starting")
        try expectReached(["--latency", "200", second], saying: "--latency applies only to a player starting")
        let queued = try beside.queuePaths()
        #expect(queued == played + [second], "\(queued)")

        // A path that is not there: said, nothing sent, no player started.
        let missing = try beside.start([album + "/missing.mp3"])
        #expect(missing.status == 1 && missing.output.contains("missing.mp3") && missing.output.contains("nothing was sent"),
                "\(missing.output)")
        #expect(beside.controlSockets == ["control"])

        // --book: the running player opens the book.
        try expectReached(["--book", book.path], saying: "opened the book \(book.path)")
        let opened = Remote.waitUntil { ((try? beside.status())?["book"] as? [String: Any])?["path"] as? String == book.path }
        #expect(opened, "\((try? beside.status()) ?? [:])")
        #expect(session.waitFor("chapter 1/3").met, "\(session.screen())")

        // --new: a second player, on control.2 (the check above would see one).
        let command = ([InterludeBinary.path(), "--new", given, "--device", "pulse"]).map(TUISession.quoted).joined(separator: " ")
        let newPlayer = try BackgroundProcess.start("/usr/bin/script", ["-qec", command, "/dev/null"], environment: beside.environment)
        defer { _ = newPlayer.stop(signal: SIGKILL, grace: 1) }
        #expect(Remote.waitForPlayer(beside.runtime, instance: 2), "--new started no second player: \(beside.controlSockets)")
        #expect(beside.controlSockets == ["control", "control.2"])
        _ = try Remote.run(beside.runtime, ["--instance", "2", "quit"])
        #expect(newPlayer.wait(timeout: 15).exitStatus == 0)
        try session.press("q")
        #expect(session.waitFor("EXITED 0").met)
    }
}
