import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The player as a user service: `interlude` on a terminal attaches a screen
/// to it (starting it when none runs), `q` leaves the screen while playback
/// goes on, several screens show one player, and an alarm added with no
/// terminal anywhere rings. Real binary, private PulseAudio, screens in tmux.
@Suite(.serialized) struct PlayerServiceTests {
    static func track(seconds: Double = 60) throws -> String {
        try Fixtures.mp3(.tone(frequency: 440), seconds: seconds, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
    }

    /// Whether process `pid` has a terminal: a controlling one, or a descriptor open on one.
    static func holdsTerminal(_ pid: Int32) -> Bool {
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
           let close = stat.lastIndex(of: ")") {
            // Field 7, tty_nr, counted after the command's closing parenthesis (fields 3 on).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 4, fields[4] != "0" { return true }
        }
        let folder = "/proc/\(pid)/fd"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)")) ?? ""
            if target.hasPrefix("/dev/pts/") || target.hasPrefix("/dev/tty") { return true }
        }
        return false
    }

    static func elapsed(_ runtime: String) -> Double? {
        (try? Remote.status(runtime))?["elapsed"] as? Double
    }

    @Test("q leaves the screen while the music goes on in a service with no terminal; a new screen's first frame shows the same track where it is heard")
    func leavingKeepsPlayingAndANewScreenShowsTheSameTrack() throws {
        let mp3 = try Self.track()
        let session = try TUISession(columns: 100, rows: 30, arguments: [mp3], service: true)
        let playing = session.waitFor(20) { $0.contains("playing") && $0.contains("? help") }
        #expect(playing.met, "\(playing.screen)")
        #expect(Remote.waitUntil(15) { (Self.elapsed(session.runtimeDirectory) ?? 0) > 2 })
        let pid = try #require(session.servicePID(), "no service.pid in \(session.runtimeDirectory)")
        // The screen in the pane is not the player: the player is the service, in a session of its own.
        #expect(getsid(pid) == pid, "the service leads no session of its own")

        try session.press("q")
        let left = session.waitFor(10) { $0.contains("goes on in the background") && $0.contains("'interlude' to come back") }
        #expect(left.met, "\(left.screen)")
        #expect(session.servicePID() == pid, "the service ended with its screen")
        // Nothing of a terminal is left in the service once its only screen left.
        #expect(Remote.waitUntil(5) { !Self.holdsTerminal(pid) }, "the service still holds a terminal")

        // The music goes on: the position moves, and the tone is in the capture.
        let recorder = try session.sink.startRecorder()
        let before = Self.elapsed(session.runtimeDirectory) ?? 0
        #expect(Remote.waitUntil(10) { (Self.elapsed(session.runtimeDirectory) ?? 0) > before + 1.5 })
        let heard = try recorder.stop()
        let lastHalf = SignalAnalysis.rms(heard, frames: heard.frameCount / 2..<heard.frameCount)
        #expect(SignalAnalysis.dBFS(lastHalf) > -30, "\(heard.frameCount) frames at \(SignalAnalysis.dBFS(lastHalf)) dBFS")

        // A new screen in the same pane: the same track at the position heard.
        try session.tmux(["send-keys", "-l", "clear; " + session.interludeCommand])
        try session.tmux(["send-keys", "Enter"])
        let shown = session.waitFor(15) { $0.contains("? help") && TUISession.elapsed($0) != nil }
        #expect(shown.met, "\(shown.screen)")
        let heardAt = Self.elapsed(session.runtimeDirectory) ?? 0
        let onScreen = Double(TUISession.elapsed(shown.screen) ?? -10)
        // The screen shows whole seconds and draws at most 250 ms late.
        #expect(abs(onScreen - heardAt) <= 1.5, "screen \(onScreen) s, heard \(heardAt) s:\n\(shown.screen)")
        let title = try #require((try? Remote.status(session.runtimeDirectory))?["title"] as? String)
        #expect(!title.isEmpty && shown.screen.contains(String(title.prefix(20))), "'\(title)' not on the screen:\n\(shown.screen)")
        #expect(session.servicePID() == pid, "a second service started")

        // Paused, the place holds still: a screen's first frame shows it to within 0.5 s (whole seconds shown).
        try session.press("q")
        #expect(session.waitFor(10) { $0.contains("'interlude' to come back") }.met, "\(session.screen())")
        try Remote.run(session.runtimeDirectory, ["pause"]).check()
        #expect(Remote.waitUntil(10) { (try? Remote.status(session.runtimeDirectory))?["state"] as? String == "paused" })
        let pausedAt = try #require((try? Remote.status(session.runtimeDirectory))?["elapsed"] as? Double)
        try session.tmux(["send-keys", "-l", "clear; " + session.interludeCommand])
        try session.tmux(["send-keys", "Enter"])
        let still = session.waitFor(15) { $0.contains("? help") && $0.contains("‖ paused") && TUISession.elapsed($0) != nil }
        #expect(still.met, "\(still.screen)")
        let shownPaused = TUISession.elapsed(still.screen) ?? -10
        #expect([Int((pausedAt - 0.5).rounded(.down)), Int((pausedAt + 0.5).rounded(.down))].contains(shownPaused),
                "screen \(shownPaused) s, paused at \(pausedAt) s:\n\(still.screen)")
        try session.press("Q")
        let stopped = session.waitFor(10) { $0.contains("the player stopped") }
        #expect(stopped.met, "\(stopped.screen)")
        #expect(Remote.waitUntil(10) { kill(pid, 0) != 0 }, "Q left the service running")
    }

    @Test("two screens show one player: a key in one shows in the other, and one killed with its terminal leaves the other and the music")
    func twoScreensShowOnePlayer() throws {
        let mp3 = try Self.track()
        let first = try TUISession(columns: 100, rows: 30, arguments: [mp3], service: true)
        #expect(first.waitFor(20) { $0.contains("playing") && $0.contains("? help") }.met, "\(first.screen())")
        let second = try TUISession(columns: 90, rows: 28, arguments: [], environment: ["XDG_RUNTIME_DIR": first.runtimeDirectory],
                                    service: true)
        let attached = second.waitFor(20) { $0.contains("playing") && $0.contains("? help") }
        #expect(attached.met, "\(attached.screen)")
        let pid = try #require(first.servicePID())

        try first.press("Space")
        let paused = second.waitFor(10) { $0.contains("‖ paused") }
        #expect(paused.met, "the second screen did not show the pause made in the first:\n\(paused.screen)")
        try second.press("Space")
        let resumed = first.waitFor(10) { $0.contains("▶ playing") }
        #expect(resumed.met, "the first screen did not show the play made in the second:\n\(resumed.screen)")

        // The first screen's terminal goes away (its tmux server killed, the window with it).
        _ = try? first.tmux(["kill-server"])
        let before = Self.elapsed(first.runtimeDirectory) ?? 0
        #expect(Remote.waitUntil(10) { (Self.elapsed(first.runtimeDirectory) ?? 0) > before + 1.5 }, "the music stopped")
        #expect(first.servicePID() == pid, "the service ended with a screen")
        try second.press("Space")
        let stillThere = second.waitFor(10) { $0.contains("‖ paused") }
        #expect(stillThere.met, "the second screen stopped answering:\n\(stillThere.screen)")
        try second.press("Q")
        #expect(Remote.waitUntil(10) { kill(pid, 0) != 0 }, "Q left the service running")
    }

    @Test("a screen started with a book beside a running service shows the book's now-playing pane first, with files the queue, as a player started with them does")
    func aScreenStartedWithABookOrFilesShowsWhatItHanded() throws {
        let mp3 = try Self.track()
        let first = try TUISession(columns: 100, rows: 30, arguments: [mp3], service: true)
        #expect(first.waitFor(20) { $0.contains("playing") && $0.contains("? help") }.met, "\(first.screen())")
        let book = try BookUnderTest.folder("attach-focus", files: 2, seconds: 20)
        // 60 columns: one pane at a time, its title on the screen.
        let withBook = try TUISession(columns: 60, rows: 24, arguments: ["--book", book.path],
                                      environment: ["XDG_RUNTIME_DIR": first.runtimeDirectory], service: true)
        let nowPlaying = withBook.waitFor(20) { $0.contains("3 Now playing") && $0.contains("chapter 1/2") }
        #expect(nowPlaying.met, "\(nowPlaying.screen)")
        try withBook.press("q")
        let other = try Self.track(seconds: 30)
        // --play: with the book playing, files queued would be refused (the book keeps its place).
        let withFile = try TUISession(columns: 60, rows: 24, arguments: ["--play", other],
                                      environment: ["XDG_RUNTIME_DIR": first.runtimeDirectory], service: true)
        let queue = withFile.waitFor(20) { $0.contains("2 Queue (") && $0.contains("playing") }
        #expect(queue.met, "\(queue.screen)")
        try withFile.press("Q")
    }

    @Test("a screen that comes while the service goes away is attached to a new service, not told the player ended")
    func aScreenComingAsTheServiceGoesIsAttachedToANewOne() throws {
        let mp3 = try Self.track()
        let first = try TUISession(columns: 100, rows: 30, arguments: [mp3], service: true)
        #expect(first.waitFor(20) { $0.contains("playing") && $0.contains("? help") }.met, "\(first.screen())")
        let pid = try #require(first.servicePID())
        // The service stopped where it would be on its way out: its socket takes the
        // connection into its backlog, and nobody answers it.
        kill(pid, SIGSTOP)
        let second = try TUISession(columns: 90, rows: 28, arguments: [], environment: ["XDG_RUNTIME_DIR": first.runtimeDirectory],
                                    service: true)
        usleep(1_000_000)
        kill(pid, SIGKILL)
        #expect(Self.waitForExit(pid))
        let attached = second.waitFor(20) { $0.contains("? help") }
        #expect(attached.met, "\(attached.screen)")
        #expect(!attached.screen.contains("the player service ended"), "\(attached.screen)")
        let newPID = try #require(second.servicePID())
        #expect(newPID != pid)
        try second.press("Q")
        #expect(Remote.waitUntil(10) { kill(newPID, 0) != 0 }, "Q left the service running")
    }

    @Test("an alarm added with no player and no terminal starts the service, which rings it at its time; alarm list says it will ring")
    func anAlarmAddedWithNoPlayerRings() throws {
        let runtime = try Remote.makeRuntimeDirectory()
        defer { ScratchFiles.stopPlayerServices(below: runtime) }
        let home = ScratchFiles.makeDirectory("service-home")
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        var environment = sink.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["XDG_STATE_HOME"] = home + "/state"
        environment["XDG_CONFIG_HOME"] = home + "/config"
        environment["XDG_CACHE_HOME"] = home + "/cache"
        environment["HOME"] = home
        environment["TZ"] = "UTC"
        let recorder = try sink.startRecorder()
        let added = try ProcessRunner.run(InterludeBinary.path(), ["alarm", "add", "in", "6s", "--label", "service test"],
                                          environment: environment, timeout: 20).check()
        #expect(added.stdoutText.contains("added"), "\(added.stdoutText)")
        #expect(added.stdoutText.contains("started in the background"), "\(added.stdoutText)")
        let listed = try ProcessRunner.run(InterludeBinary.path(), ["alarm", "list"], environment: environment, timeout: 20).check()
        #expect(listed.stdoutText.contains("the player runs"), "\(listed.stdoutText)")
        // Per alarm, whether it wakes the computer (here, with no user manager, only while awake, and why).
        #expect(Remote.waitUntil(10) {
            let again = (try? ProcessRunner.run(InterludeBinary.path(), ["alarm", "list"], environment: environment, timeout: 20))?.stdoutText ?? ""
            return again.contains("alarm 1 rings only while the computer is awake (") || again.contains("alarm 1 wakes the computer")
        }, "\((try? ProcessRunner.run(InterludeBinary.path(), ["alarm", "list"], environment: environment, timeout: 20).stdoutText) ?? "")")

        let rang = Remote.waitUntil(30) { ((try? Remote.status(runtime))?["alarmRinging"] as? Bool) == true }
        #expect(rang, "the alarm did not ring: \(String(describing: try? Remote.status(runtime)))")
        usleep(1_000_000)
        let heard = try recorder.stop()
        let lastSecond = SignalAnalysis.rms(heard, frames: max(0, heard.frameCount - heard.sampleRate)..<heard.frameCount)
        #expect(SignalAnalysis.dBFS(lastSecond) > -40, "the alarm is not in the capture: \(SignalAnalysis.dBFS(lastSecond)) dBFS")
        let quit = try ProcessRunner.run(InterludeBinary.path(), ["quit"], environment: environment, timeout: 20).check()
        #expect(quit.stdoutText.contains("the player stopped"), "\(quit.stdoutText)")
    }

    @Test("a remote whose player ends as it takes the request starts the service and asks it again")
    func aRemoteMeetingAnEndingPlayerStartsTheService() throws {
        let runtime = try Remote.makeRuntimeDirectory()
        defer { ScratchFiles.stopPlayerServices(below: runtime) }
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let environment = Self.userEnvironment(sink, runtime: runtime)
        mkdir(runtime + "/interlude", 0o700)
        // A player in its last moments: it takes one connection and its
        // request, closes both without a word, and leaves its socket behind
        // as a killed one does.
        let script = """
            import socket, sys
            listener = socket.socket(socket.AF_UNIX)
            listener.bind(sys.argv[1])
            listener.listen(1)
            open(sys.argv[2], "w").close()
            connection, _ = listener.accept()
            connection.recv(65536)
            connection.close()
            listener.close()
            """
        let ready = runtime + "/listening"
        let ending = try BackgroundProcess.start("python3", ["-c", script, runtime + "/interlude/control", ready])
        defer { _ = ending.stop() }
        #expect(Remote.waitUntil(10) { access(ready, F_OK) == 0 }, "the stand-in never listened")
        let result = try ProcessRunner.run(InterludeBinary.path(), ["remote", "status"], environment: environment, timeout: 30)
        #expect(result.exitStatus == 0, "\(result.summary) \(result.stderrText)")
        #expect(!result.stderrText.contains("without a reply"), "\(result.stderrText)")
        #expect(result.stderrText.contains("started the player service in the background"), "\(result.stderrText)")
        #expect(["stopped", "paused", "playing", "interrupted"].contains { result.stdoutText.hasPrefix($0) }, "\(result.stdoutText)")
        #expect(ending.wait(timeout: 10).exitStatus == 0, "the stand-in took no request")
        #expect(Self.servicePID(runtime) != nil, "no service recorded its pid")
    }

    /// The pid the service recorded under `runtime`, if any.
    static func servicePID(_ runtime: String) -> Int32? {
        (try? String(contentsOfFile: runtime + "/interlude/service.pid", encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// A killed process gone (or a zombie awaiting its parent), 10 s at most.
    /// Every thread gone, not only the first: the first thread of a killed
    /// process can be a zombie while the others still exit, holding the
    /// process's descriptors, so its socket still took a connection (the
    /// remote's was closed with no reply as the last thread went).
    static func waitForExit(_ pid: Int32) -> Bool {
        Remote.waitUntil(10) {
            guard kill(pid, 0) == 0 else { return true }
            let zombie = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.contains(") Z") == true
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"))?.count ?? 0
            return zombie && threads <= 1
        }
    }

    /// The environment of a user with no player running: private folders, the test's sink.
    static func userEnvironment(_ sink: NullSink, runtime: String) -> [String: String] {
        let home = ScratchFiles.makeDirectory("service-home")
        var environment = sink.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["XDG_STATE_HOME"] = home + "/state"
        environment["XDG_CONFIG_HOME"] = home + "/config"
        environment["XDG_CACHE_HOME"] = home + "/cache"
        environment["HOME"] = home
        environment["TZ"] = "UTC"
        return environment
    }

    static func status(_ environment: [String: String]) -> [String: Any] {
        statusSaying(environment).status
    }

    /// `remote status --json`, and what the remote said on its standard error
    /// and the service's log's last lines when it gave no status.
    static func statusSaying(_ environment: [String: String]) -> (status: [String: Any], problem: String) {
        guard let result = try? ProcessRunner.run(InterludeBinary.path(), ["remote", "status", "--json"],
                                                  environment: environment, timeout: 20) else { return ([:], "remote did not run") }
        let status = result.succeeded ? ((try? JSONSerialization.jsonObject(with: result.stdout)) as? [String: Any]) ?? [:] : [:]
        guard status.isEmpty else { return (status, "") }
        let log = (try? String(contentsOfFile: (environment["XDG_STATE_HOME"] ?? "") + "/interlude/service.log", encoding: .utf8)) ?? ""
        return ([:], "remote: \(result.summary) \(result.stderrText); the service's log ends: \(log.suffix(600))")
    }

    @Test("kill -9 of the service while a book plays: interlude remote status starts a new one with the book at the place heard and its bookmark")
    func aKilledServiceComesBackWithItsBook() throws {
        let runtime = try Remote.makeRuntimeDirectory()
        defer { ScratchFiles.stopPlayerServices(below: runtime) }
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let book = try BookUnderTest.folder("service-book", files: 3, seconds: 20)
        var environment = Self.userEnvironment(sink, runtime: runtime)
        environment["XDG_STATE_HOME"] = book.stateHome
        func bookPlace(_ status: [String: Any]) -> (path: String?, elapsed: Double) {
            ((status["book"] as? [String: Any])?["path"] as? String, status["elapsed"] as? Double ?? -1)
        }
        // The remote starts the service with the book; past its first file, a bookmark, then killed.
        try ProcessRunner.run(InterludeBinary.path(), ["remote", "book-open", book.path], environment: environment, timeout: 20).check()
        #expect(Remote.waitUntil(30) { let place = bookPlace(Self.status(environment)); return place.path == book.path && place.elapsed > 23 },
                "\(Self.status(environment))")
        try ProcessRunner.run(InterludeBinary.path(), ["remote", "bookmark-add", "before the crash"], environment: environment,
                              timeout: 20).check()
        #expect(Remote.waitUntil(10) { (try? book.bookmark("list").stdoutText.contains("before the crash")) == true },
                "the bookmark was not saved: \((try? book.bookmark("list").stdoutText) ?? "")")
        let first = try #require(Self.servicePID(runtime))
        let heard = bookPlace(Self.status(environment)).elapsed
        kill(first, SIGKILL)
        #expect(Self.waitForExit(first), "the killed service is still there")

        // The place the crash left: saved every second while the book plays.
        let saved = try book.savedPosition()
        #expect(saved <= heard + 0.5 && saved >= heard - 1.5, "saved \(saved) s, heard \(heard) s")

        // A new service, started by the remote, has the book at that place, less the smart rewind of the
        // seconds since (2 s at most this soon), and its bookmark.
        let (back, problem) = Self.statusSaying(environment)
        let second = try #require(Self.servicePID(runtime))
        #expect(second != first, "no new service: \(problem)")
        let place = bookPlace(back)
        #expect(place.path == book.path, "\(back)")
        #expect(place.elapsed <= saved + 0.05 && place.elapsed >= saved - 2.05,
                "place \(place.elapsed) s, saved \(saved) s: \(back)")
        let marks = try book.bookmark("list")
        #expect(marks.succeeded && marks.stdoutText.contains("before the crash"), "\(marks.stdoutText)\(marks.stderrText)")
        try ProcessRunner.run(InterludeBinary.path(), ["quit"], environment: environment, timeout: 20).check()
    }

    @Test("kill -9 of the service while music plays and while an alarm rings: interlude remote status starts a new one with the queue, its place and the alarm, which rings again")
    func aKilledServiceComesBackWithItsPlaceAndItsRingingAlarm() throws {
        let runtime = try Remote.makeRuntimeDirectory()
        defer { ScratchFiles.stopPlayerServices(below: runtime) }
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let environment = Self.userEnvironment(sink, runtime: runtime)
        let mp3 = try Self.track()
        // Music: started by the remote, played past 8 s, then killed.
        try ProcessRunner.run(InterludeBinary.path(), ["remote", "play-files", mp3], environment: environment, timeout: 20).check()
        #expect(Remote.waitUntil(30) { (Self.status(environment)["elapsed"] as? Double ?? 0) > 8 })
        let heard = Self.status(environment)["elapsed"] as? Double ?? 0
        let first = try #require(Self.servicePID(runtime))
        kill(first, SIGKILL)
        #expect(Self.waitForExit(first), "the killed service is still there")
        let (back, problem) = Self.statusSaying(environment)
        let second = try #require(Self.servicePID(runtime))
        #expect(second != first, "no new service: \(problem)")
        #expect(back["path"] as? String == mp3, "\(back)")
        let place = back["elapsed"] as? Double ?? -1
        // Saved every 5 s while playing: the place is at most that far behind what was heard.
        #expect(place <= heard + 0.5 && place >= heard - 6, "place \(place) s, heard \(heard) s")

        // An alarm rings, and the service dies while it rings.
        try ProcessRunner.run(InterludeBinary.path(), ["alarm", "add", "in", "3s", "--label", "killed"], environment: environment,
                              timeout: 20).check()
        #expect(Remote.waitUntil(20) { Self.status(environment)["alarmRinging"] as? Bool == true }, "the alarm did not ring")
        kill(second, SIGKILL)
        #expect(Self.waitForExit(second), "the killed service is still there")
        // The next start rings it again (late, with the reason), never dropping it.
        #expect(Remote.waitUntil(20) { Self.status(environment)["alarmRinging"] as? Bool == true }, "the interrupted alarm did not ring again")
        #expect(Self.servicePID(runtime) != second)
        let quit = try ProcessRunner.run(InterludeBinary.path(), ["quit"], environment: environment, timeout: 20).check()
        #expect(quit.stdoutText.contains("the player stopped"), "\(quit.stdoutText)")
    }
}
