import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The main loop never blocks on its output or on a
/// helper. `--events json` into a pipe nobody reads, or the full-screen
/// player on a terminal whose output is stopped (Ctrl-S), delays no alarm; `| head -1` ends the run with
/// the book's place saved; an `on-event` program that hangs is killed.
@Suite(.serialized) struct BlockedOutputTests {
    /// A headless player on a 30 s file (unless told) with `--events json` on `stdout`, its socket under a private runtime directory.
    struct Player {
        let runtime: String
        let process: BackgroundProcess
        var socket: String { runtime + "/interlude/control" }

        init(stdout: String, seconds: Double = 30) throws {
            runtime = try Remote.makeRuntimeDirectory()
            let mp3 = try Fixtures.mp3(.sweep, seconds: seconds, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
            let sink = try PulseServer.shared().makeSink()
            var environment = sink.environment
            environment["XDG_RUNTIME_DIR"] = runtime
            environment["XDG_STATE_HOME"] = runtime + "/state"
            process = try BackgroundProcess.start(InterludeBinary.path(), ["play", mp3, "--device", "pulse", "--events", "json"],
                                                  environment: environment, stdout: .file(stdout), stderr: .file(runtime + "/stderr"))
        }
    }

    /// Floods the player with volume changes (an event line each, `batches` of
    /// 500), then sets an alarm 1 s away and waits for a subscriber on the
    /// socket to see it ring. A player blocked in a write answers neither the
    /// flood nor the alarm. (The subscriber comes after the flood: one that
    /// read nothing during it would be dropped, as a client that stops reading is.)
    func alarmRingsWhileOutputIsBlocked(runtime: String, batches: Int) throws {
        #expect(Remote.waitForPlayer(runtime))
        let socket = runtime + "/interlude/control"
        let answered = try Self.floodWithVolumeChanges(socket, batches: batches)
        #expect(answered == batches * 500, "the player stopped answering after \(answered) requests")
        try Self.expectAlarmRings(runtime: runtime)
    }

    /// Sets an alarm 1 s away and waits for a subscriber on the socket to see
    /// it ring; the player still answers `status` after.
    static func expectAlarmRings(runtime: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let subscriber = try RawControlConnection(runtime + "/interlude/control")
        #expect(subscriber.request(#"{"id":1,"command":"subscribe"}"#)?["ok"] as? Bool == true, sourceLocation: sourceLocation)
        let alarm = try Remote.run(runtime, ["alarm", "in", "1s"])
        #expect(alarm.exitStatus == 0, "\(alarm.summary)", sourceLocation: sourceLocation)
        let seen = subscriber.eventNames(until: "alarmRinging")
        #expect(seen.last == "alarmRinging", "events: \(seen.suffix(20))", sourceLocation: sourceLocation)
        #expect(try Remote.run(runtime, ["status"]).exitStatus == 0, sourceLocation: sourceLocation)
    }

    /// Sends `batches` of 500 volume changes, each batch's answers read before
    /// the next; how many were answered (a player blocked in its write answers
    /// nothing more, and the read gives up after 10 s).
    static func floodWithVolumeChanges(_ socket: String, batches: Int) throws -> Int {
        let flood = try RawControlConnection(socket)
        var answered = 0
        for batch in 0..<batches {
            let lines = (0..<500).map { #"{"id":\#(batch * 500 + $0),"command":"volume","args":[0.\#(($0 % 9) + 1)]}"# + "\n" }
            #expect(flood.send(Array(lines.joined().utf8)))
            for _ in 0..<500 {
                guard flood.readLine() != nil else { return answered }
                answered += 1
            }
        }
        return answered
    }

    /// A FIFO for the player's stdout and its reading end, open (so the
    /// player's open does not wait) and not read until the test says.
    static func unreadPipe(_ name: String) throws -> (path: String, reader: Int32) {
        let fifo = ScratchFiles.makeDirectory(name) + "/events.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        return (fifo, reader)
    }

    /// 24,000 volume changes, about 1.4 MB of event lines: more than the pipe's
    /// 64 KB and the player's 1 MB of lines waiting together, so lines are
    /// dropped, and one line says how many once the reader has caught up.
    @Test("with stdout a pipe nobody reads, the player answers, an alarm rings, and one line counts the lines dropped")
    func pipeNobodyReads() throws {
        let (fifo, reader) = try Self.unreadPipe("blocked-output")
        defer { close(reader) }
        let player = try Player(stdout: fifo)
        defer { _ = player.process.stop() }
        let flood = 48 * 500
        try alarmRingsWhileOutputIsBlocked(runtime: player.runtime, batches: flood / 500)

        try Self.expectDroppedLinesCounted(readingFrom: reader, flood: flood)
    }

    /// The same flood, then SIGTERM before anyone reads: the run ends with the
    /// lines still waiting, and once the reader takes them (the player gives it
    /// 2 s a time) the count of those dropped comes after them.
    @Test("with stdout a pipe read only after the run ended, the lines dropped are counted in one line at the end")
    func pipeReadAfterTheRun() throws {
        let (fifo, reader) = try Self.unreadPipe("blocked-output-end")
        defer { close(reader) }
        let player = try Player(stdout: fifo)
        defer { _ = player.process.stop() }
        #expect(Remote.waitForPlayer(player.runtime))
        let flood = 48 * 500
        #expect(try Self.floodWithVolumeChanges(player.socket, batches: flood / 500) == flood)
        player.process.send(SIGTERM)
        try Self.expectDroppedLinesCounted(readingFrom: reader, flood: flood)
        #expect(player.process.wait(timeout: 10).exitStatus == 0)
    }

    /// Reads what the pipe holds until it is quiet for 1 s: whole lines, and
    /// one line that counts every volume change the pipe did not get, and the
    /// few events after the flood (the alarm's, the end's), dropped while the
    /// lines still waited.
    static func expectDroppedLinesCounted(readingFrom reader: Int32, flood: Int,
                                          sourceLocation: SourceLocation = #_sourceLocation) throws {
        var text = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        var request = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        while poll(&request, 1, 1000) > 0 {
            let count = read(reader, &chunk, chunk.count)
            if count <= 0 { break }
            text.append(contentsOf: chunk[0..<count])
        }
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 1 && lines.dropLast().allSatisfy { InterludeEvent.parse(line: String($0)) != nil },
                "every line printed is whole: \(lines.suffix(2))", sourceLocation: sourceLocation)
        let events = lines.compactMap { InterludeEvent.parse(line: String($0)) }
        let counts = events.filter { $0.event == "error" }.compactMap { event -> Int? in
            let message = event.fields["message"]?.description ?? ""
            // "1 event line was not printed", "N event lines were not printed".
            guard let range = message.range(of: #" event lines? (was|were) not printed"#, options: .regularExpression) else { return nil }
            return Int(message[..<range.lowerBound])
        }
        let missingVolumes = flood - events.filter { $0.event == "volume" }.count
        #expect(missingVolumes > 0, "nothing was dropped: \(events.count) lines", sourceLocation: sourceLocation)
        #expect(counts.count == 1, "\(events.filter { $0.event == "error" }), last \(events.suffix(3))",
                sourceLocation: sourceLocation)
        let count = try #require(counts.first, sourceLocation: sourceLocation)
        #expect(count >= missingVolumes && count < missingVolumes + 100, "\(count) counted, \(missingVolumes) volume lines missing",
                sourceLocation: sourceLocation)
    }

    /// The pane's terminal with its output stopped, as Ctrl-S stops it (IXON).
    static func stopOutput(of session: TUISession) throws -> Int32 {
        let tty = try session.tmux(["display-message", "-p", "#{pane_tty}"]).stdoutText
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let pane = open(tty, O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(pane >= 0, "cannot open \(tty)")
        #expect(tcflow(pane, TCOOFF) == 0)
        return pane
    }

    @Test("the full-screen player with its terminal's output stopped (Ctrl-S: tcflow TCOOFF on tmux's pane) answers, an alarm rings, and the screen catches up once output resumes")
    func fullScreenPlayerWithStoppedTerminal() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 30, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let session = try TUISession(columns: 80, rows: 24, arguments: [mp3])
        let runtime = session.runtimeDirectory
        #expect(Remote.waitForPlayer(runtime))
        let pane = try Self.stopOutput(of: session)
        defer { close(pane) }
        // The clock on screen moves each second: redraws with nowhere to go.
        usleep(2_000_000)
        try Self.expectAlarmRings(runtime: runtime)
        #expect(tcflow(pane, TCOON) == 0)
        let shown = session.waitFor(10) { screen in screen.contains("will resume after alarm") }
        #expect(shown.met, "\(shown.screen)")
    }

    /// `interlude play` shows its progress line on a terminal (stderr): with that
    /// terminal's output stopped, a write would wait until it is started again.
    /// Standard input elsewhere (here /dev/null): read from the same terminal,
    /// it would make the terminal's descriptor non-blocking for every write.
    @Test("the headless player with its terminal's output stopped (Ctrl-S) answers and an alarm rings: the progress line waits, not the loop")
    func headlessPlayerWithStoppedTerminal() throws {
        let mp3 = try Fixtures.mp3(.sweep, seconds: 30, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let session = try TUISession(columns: 80, rows: 24, arguments: ["play", mp3], standardInput: "/dev/null")
        let runtime = session.runtimeDirectory
        #expect(Remote.waitForPlayer(runtime))
        func progressLine(_ screen: String) -> String? {
            screen.split(separator: "\n").first { $0.contains(" / 0:30") }.map(String.init)
        }
        let progress = session.waitFor(10) { progressLine($0) != nil }
        #expect(progress.met, "no progress line: \(progress.screen)")
        let pane = try Self.stopOutput(of: session)
        defer { close(pane) }
        // The progress line is redrawn four times a second, with nowhere to go.
        usleep(2_000_000)
        try Self.expectAlarmRings(runtime: runtime)
        #expect(tcflow(pane, TCOON) == 0)
        // Once output resumes, the line shows where playback is (the alarm holds it
        // there), not what the stopped terminal last took.
        let stopped = progressLine(session.screen())
        let later = session.waitFor(10) { screen in progressLine(screen).map { $0 != stopped } ?? false }
        #expect(later.met, "\(later.screen)")
    }

    @Test("interlude play BOOK --events json | head -1: the player ends at its next line, exit status 0, the place saved and said in one line")
    func headEndsTheRunWithThePlaceSaved() throws {
        let book = try BookUnderTest.folder("head", files: 1, seconds: 30)
        let sink = try PulseServer.shared().makeSink()
        let directory = ScratchFiles.makeDirectory("head-pipe")
        var environment = sink.environment
        environment["XDG_STATE_HOME"] = book.stateHome
        environment["XDG_RUNTIME_DIR"] = directory
        environment["INTERLUDE"] = InterludeBinary.path()
        environment["BOOK"] = book.path
        let script = #"""
            { "$INTERLUDE" play "$BOOK" --device pulse --events json 2>"$0/stderr"; echo $? > "$0/status"; } | { sleep 3; head -1; }
            """#
        let result = try ProcessRunner.run("/bin/bash", ["-c", script, directory], environment: environment, timeout: 60)
        #expect(result.exitStatus == 0, "\(result.summary)")
        #expect(result.stdoutText.split(separator: "\n").count == 1)
        let status = try String(contentsOfFile: directory + "/status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let stderr = (try? String(contentsOfFile: directory + "/stderr", encoding: .utf8)) ?? ""
        #expect(status == "0", "exit status \(status); stderr: \(stderr)")
        #expect(stderr.split(separator: "\n").filter { $0.contains("standard output was closed") }.count == 1, "\(stderr)")
        // Three seconds played before head read: the place is past the start.
        let position = try book.savedPosition()
        #expect(position > 1 && position < 29, "saved at \(position) s")
    }

    @Test("an on-event program that hangs is killed with its process group after 10 s, said once; playback goes on")
    func hungHookIsKilled() throws {
        let directory = ScratchFiles.makeDirectory("hung-hook")
        try FileManager.default.createDirectory(atPath: directory + "/config/interlude", withIntermediateDirectories: true)
        try "on-event = echo $$ >> \(directory)/hook.log; exec sleep 1000\n"
            .write(toFile: directory + "/config/interlude/config", atomically: true, encoding: .utf8)
        let mp3 = try Fixtures.mp3(.sweep, seconds: 14, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let sink = try PulseServer.shared().makeSink()
        var environment = sink.environment
        environment["XDG_CONFIG_HOME"] = directory + "/config"
        environment["XDG_STATE_HOME"] = directory + "/state"
        let result = try ProcessRunner.run(InterludeBinary.path(), ["play", mp3, "--device", "pulse", "--events", "json"],
                                           environment: environment, timeout: 60)
        let pids = ((try? String(contentsOfFile: directory + "/hook.log", encoding: .utf8)) ?? "")
            .split(separator: "\n").compactMap { Int32($0) }
        // Whatever happens below, the hooks go (by the PIDs they wrote).
        defer { for pid in pids { kill(pid, SIGKILL) } }
        #expect(result.exitStatus == 0, "\(result.summary)")
        #expect(!pids.isEmpty, "the hook ran")
        let events = result.stdoutText.split(separator: "\n").compactMap { InterludeEvent.parse(line: String($0)) }
        let killed = events.filter { $0.event == "error" && $0.description.contains("ran longer than 10 s and was killed") }
        #expect(killed.count == 1, "\(events.map(\.description).suffix(8))")
        #expect(events.last?.event == "summary")
        // The first run (at the track's start) killed and reaped: neither process nor zombie
        // is left with its PID. (A run the track's end started outlives the player, as hooks do.)
        #expect(pids.first.map { kill($0, 0) != 0 } == true, "hook \(pids) still exists")
    }
}

extension RawControlConnection {
    /// The names of the subscription's events up to the first `name` (or the
    /// end of the connection, or 10 s without a line).
    func eventNames(until name: String) -> [String] {
        var seen: [String] = []
        while let line = readLine(), let event = InterludeEvent.parse(line: line) {
            seen.append(event.event)
            if event.event == name { break }
        }
        return seen
    }
}
