import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// MPRIS's Stop, seek and queue clear as a listener sees them: Stop reports
/// Stopped, a seek while paused is the position at once (with `Seeked`), and
/// `queue clear` drops a next track the engine had already begun for the
/// gapless join. The real binary through a PulseAudio null sink in real time,
/// `playerctl` on a private session bus (stopped by its PID), the remote socket.
@Suite(.serialized) struct MprisStopSeekQueueTests {
    static let available = ["dbus-daemon", "dbus-monitor", "playerctl"].allSatisfy { ProcessRunner.which($0) != nil }

    struct Player {
        let process: BackgroundProcess
        let runtime: String
        let events: String

        var parsed: [InterludeEvent] {
            let text = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { InterludeEvent.parse(line: String($0)) }
        }
    }

    func start(_ paths: [String], bus: MprisTests.SessionBus?) throws -> Player {
        let runtime = try Remote.makeRuntimeDirectory()
        let sink = try PulseServer.shared().makeSink()
        var environment = sink.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus?.address ?? ""
        let events = runtime + "/events.jsonl"
        let process = try BackgroundProcess.start(InterludeBinary.path(), ["play"] + paths + ["--device", "pulse", "--events", "json"],
                                                  environment: environment, stdout: .file(events))
        return Player(process: process, runtime: runtime, events: events)
    }

    func playerctl(_ bus: MprisTests.SessionBus, _ arguments: [String]) throws -> String {
        try ProcessRunner.run("playerctl", ["-p", "interlude"] + arguments, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address],
                              timeout: 10).check().stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("playerctl stop: status Stopped at position 0 (remote status too); play after it plays from the start")
    func stopReportsStopped() throws {
        guard Self.available else { return }
        let bus = try MprisTests.SessionBus()
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let player = try start(["\(library)/Tones/1 Morning.mp3"], bus: bus)
        defer { _ = player.process.stop() }
        #expect(Remote.waitUntil { (try? playerctl(bus, ["status"])) == "Playing" })
        #expect(try Remote.waitUntil { (try Remote.status(player.runtime)["elapsed"] as? Double ?? 0) > 1.5 })

        _ = try playerctl(bus, ["stop"])
        #expect(try Remote.waitUntil { try playerctl(bus, ["status"]) == "Stopped" })
        #expect(try Remote.status(player.runtime)["state"] as? String == "stopped")
        #expect(Double(try playerctl(bus, ["position"])) == 0)
        // Still stopped once the fade has ended (the status is not a moment's).
        #expect(Remote.waitUntil { player.parsed.contains { $0.event == "paused" } })
        #expect(try playerctl(bus, ["status"]) == "Stopped")

        _ = try playerctl(bus, ["play"])
        #expect(try Remote.waitUntil { try playerctl(bus, ["status"]) == "Playing" })
        #expect(try Remote.waitUntil { (try Remote.status(player.runtime)["elapsed"] as? Double ?? 0) > 0.3 })
        let elapsed = try #require(try Remote.status(player.runtime)["elapsed"] as? Double)
        #expect(elapsed < 1.5, "from the start again: \(elapsed)")
        // The remote's stop is the same command.
        try Remote.run(player.runtime, ["stop"]).check()
        #expect(try Remote.waitUntil { try playerctl(bus, ["status"]) == "Stopped" })
        #expect(!player.parsed.contains { $0.event == "error" })
    }

    @Test("playerctl shuffle and loop set shuffle and repeat, read back as set; a change made elsewhere (the remote) reads back too")
    func shuffleAndLoopStatus() throws {
        guard Self.available else { return }
        let bus = try MprisTests.SessionBus()
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(3)), seconds: 30)
        let paths = try FileManager.default.contentsOfDirectory(atPath: "\(library)/Tones").sorted().map { "\(library)/Tones/\($0)" }
        let player = try start(paths, bus: bus)
        defer { _ = player.process.stop() }
        #expect(Remote.waitUntil { (try? playerctl(bus, ["status"])) == "Playing" })
        #expect(try playerctl(bus, ["shuffle"]) == "Off")
        #expect(try playerctl(bus, ["loop"]) == "None")
        func order() -> [String] {
            player.parsed.filter { $0.event == "orderChanged" }.map { "\($0.fields["shuffle"]?.description ?? "?") \($0.fields["repeat"]?.description ?? "?")" }
        }

        _ = try playerctl(bus, ["shuffle", "On"])
        #expect(try Remote.waitUntil { try playerctl(bus, ["shuffle"]) == "On" })
        // Each loop status from each: repeat cycles off -> all -> one, so some take two steps.
        for status in ["Track", "Playlist", "None", "Playlist", "Track", "None"] {
            _ = try playerctl(bus, ["loop", status])
            #expect(try Remote.waitUntil { try playerctl(bus, ["loop"]) == status }, "\(status)")
        }
        _ = try playerctl(bus, ["shuffle", "Off"])
        #expect(try Remote.waitUntil { try playerctl(bus, ["shuffle"]) == "Off" })
        // Setting what is already so changes nothing.
        let before = order().count
        _ = try playerctl(bus, ["shuffle", "Off"])
        _ = try playerctl(bus, ["loop", "None"])
        #expect(order().count == before)
        #expect(order().last == "false off", "\(order())")

        // The remote's shuffle and repeat: MPRIS reads what they did.
        try Remote.run(player.runtime, ["shuffle"]).check()
        try Remote.run(player.runtime, ["repeat"]).check()
        #expect(try Remote.waitUntil { try playerctl(bus, ["shuffle"]) == "On" && playerctl(bus, ["loop"]) == "Playlist" })
        #expect(!player.parsed.contains { $0.event == "error" })
    }

    @Test("xesam:url names the file that plays: a plain file's own path, a cue sheet's track its image file's")
    func urlNamesTheMediaFile() throws {
        guard Self.available else { return }
        let bus = try MprisTests.SessionBus()
        let album = try CueAlbumFixture.make("mpris-url")
        let player = try start([album.sheet], bus: bus)
        defer { _ = player.process.stop() }
        #expect(Remote.waitUntil { (try? playerctl(bus, ["status"])) == "Playing" })
        let url = try playerctl(bus, ["metadata", "xesam:url"])
        #expect(url.hasPrefix("file://") && String(url.dropFirst("file://".count)).removingPercentEncoding == album.image,
                "\(url) for \(album.image)")
        #expect(try playerctl(bus, ["metadata", "xesam:title"]) == CueAlbumFixture.tracks[0].title)
        // A plain file: its own path.
        let mp3 = try Fixtures.mp3(.sweep, seconds: 20, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        try Remote.run(player.runtime, ["play-files", mp3]).check()
        #expect(try Remote.waitUntil { try playerctl(bus, ["metadata", "xesam:url"]).hasSuffix("/" + (mp3 as NSString).lastPathComponent) })
    }

    @Test("a seek while paused: playerctl position reads the new place at once, Seeked is sent, the remote's status agrees")
    func seekWhilePausedIsThePositionAtOnce() throws {
        guard Self.available else { return }
        let bus = try MprisTests.SessionBus()
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        let player = try start(["\(library)/Tones/1 Morning.mp3"], bus: bus)
        defer { _ = player.process.stop() }
        #expect(Remote.waitUntil { (try? playerctl(bus, ["status"])) == "Playing" })
        let monitor = try BackgroundProcess.start("dbus-monitor", ["--address", bus.address,
                                                                   "type='signal',interface='org.mpris.MediaPlayer2.Player',member='Seeked'"])
        defer { _ = monitor.stop() }
        _ = try playerctl(bus, ["pause"])
        #expect(try Remote.waitUntil { try playerctl(bus, ["status"]) == "Paused" })

        _ = try playerctl(bus, ["position", "10"])
        #expect(try Remote.waitUntil { abs((Double(try playerctl(bus, ["position"])) ?? 0) - 10) < 0.05 })
        #expect(try playerctl(bus, ["status"]) == "Paused", "still paused")
        let status = try Remote.status(player.runtime)
        #expect(abs((status["elapsed"] as? Double ?? 0) - 10) < 0.05 && status["state"] as? String == "paused", "\(status)")
        #expect(Remote.waitUntil { String(decoding: monitor.currentStdout(), as: UTF8.self).contains("int64 10000000") },
                "Seeked(10 s): \(String(decoding: monitor.currentStdout(), as: UTF8.self))")
        // A second relative seek starts from there, not from where the pause stopped.
        _ = try playerctl(bus, ["position", "5+"])
        #expect(try Remote.waitUntil { abs((Double(try playerctl(bus, ["position"])) ?? 0) - 15) < 0.05 })
        _ = try playerctl(bus, ["play"])
        #expect(try Remote.waitUntil { try playerctl(bus, ["status"]) == "Playing" })
        let resumed = try #require(player.parsed.last { $0.event == "resumed" })
        #expect(resumed.number("offset").map { abs($0 - 15) < 0.05 } == true, "\(resumed)")
    }

    @Test("queue clear after the engine began the next track for the gapless join: the current track ends the run, the cleared one never plays")
    func queueClearDropsTheDecodedNextTrack() throws {
        let first = try Fixtures.mp3(.sweep, seconds: 4, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let second = try Fixtures.mp3(.music, seconds: 4, sampleRate: 44100, channels: 2, encoding: .cbr(kbps: 128))
        let player = try start([first], bus: nil)
        defer { _ = player.process.stop() }
        #expect(Remote.waitForPlayer(player.runtime))
        try Remote.run(player.runtime, ["queue", "add", second]).check()
        try Remote.run(player.runtime, ["pause"]).check()
        #expect(Remote.waitUntil { player.parsed.contains { $0.event == "paused" } })
        // 0.3 s before the end: resuming there refills the media ring (about 0.43 s on
        // this path) past the end of the first file, into the second.
        try Remote.run(player.runtime, ["seek-to", "3.7"]).check()
        let connection = try RawControlConnection(player.runtime + "/interlude/control")
        #expect(connection.request(#"{"id":1,"command":"play"}"#)?["ok"] as? Bool == true)
        usleep(100_000)
        let cleared = connection.request(#"{"id":2,"command":"queue-clear"}"#)
        #expect(cleared?["ok"] as? Bool == true, "\(String(describing: cleared))")
        let result = player.process.wait(timeout: 20)
        #expect(result.exitStatus == 0, "\(result.summary)")

        let events = player.parsed
        let started = events.filter { $0.event == "trackStarted" }.compactMap { $0.number("index") }
        // (The resume after the seek starts the first track's entry again: index 0 twice.)
        #expect(!started.isEmpty && started.allSatisfy { $0 == 0 },
                "the cleared track must not start: \(events.map(\.description).joined(separator: "\n"))")
        #expect(!events.contains { $0.path == second }, "no event names the cleared track")
        #expect(events.contains { $0.event == "trackEnded" && $0.number("index") == 0 })
        #expect(events.last?.event == "summary")
    }
}
