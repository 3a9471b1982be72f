import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// MPRIS2: the real binary on a private session bus (a
/// `dbus-daemon` started here and stopped by its PID), driven by Debian's
/// `playerctl`, audio through a PulseAudio null sink in real time.
@Suite(.serialized) struct MprisTests {
    /// `dbus-daemon --session --fork`: its address, stopped by the PID it printed.
    final class SessionBus {
        let address: String
        let pid: pid_t

        init() throws {
            let result = try ProcessRunner.run("dbus-daemon", ["--session", "--print-address", "--fork", "--print-pid"],
                                               timeout: 15).check()
            let lines = result.stdoutText.split(separator: "\n").map(String.init)
            guard lines.count >= 2, let pid = pid_t(lines[1]) else { throw ProcessError.notReady("dbus-daemon said \(lines)") }
            address = lines[0]
            self.pid = pid
        }

        deinit { kill(pid, SIGTERM) }
    }

    struct Player {
        let process: BackgroundProcess
        let runtime: String
        let events: String
    }

    static let available = ["dbus-daemon", "playerctl"].allSatisfy { ProcessRunner.which($0) != nil }

    func startPlayer(_ bus: SessionBus, runtime: String? = nil, library: String) throws -> Player {
        let runtime = try runtime ?? Remote.makeRuntimeDirectory()
        let sink = try PulseServer.shared().makeSink()
        var environment = sink.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let events = ScratchFiles.directory + "/mpris-events-\(UUID().uuidString).jsonl"
        let process = try BackgroundProcess.start(InterludeBinary.path(),
                                                  ["play", "\(library)/Tones/1 Morning.mp3", "\(library)/Tones/2 Noon.mp3",
                                                   "--device", "pulse", "--events", "json"],
                                                  environment: environment, stdout: .file(events))
        return Player(process: process, runtime: runtime, events: events)
    }

    func playerctl(_ bus: SessionBus, _ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run("playerctl", arguments, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], timeout: 10)
    }

    func output(_ bus: SessionBus, _ arguments: [String]) throws -> String {
        try playerctl(bus, arguments).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func waitForName(_ bus: SessionBus, count: Int = 1) throws -> [String] {
        var names: [String] = []
        _ = try Remote.waitUntil(15) {
            names = try output(bus, ["-l"]).split(separator: "\n").map(String.init).filter { $0.hasPrefix("interlude") }
            return names.count >= count
        }
        return names
    }

    @Test("acceptance 1: playerctl status, play-pause, next, previous, position, position 10+, volume, metadata and --follow; Paused during an alarm")
    func playerctlDrivesThePlayer() throws {
        guard Self.available else { return }
        let bus = try SessionBus()
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(2)), seconds: 30)
        let player = try startPlayer(bus, library: library)
        #expect(try waitForName(bus) == ["interlude"])
        #expect(try Remote.waitUntil { try output(bus, ["-p", "interlude", "status"]) == "Playing" })
        #expect(try output(bus, ["-p", "interlude", "metadata", "--format", "{{title}}"]) == "Morning")
        // The desktop entry `make install` puts in share/applications, interlude.desktop.
        let entry = try ProcessRunner.run("busctl", ["--address=\(bus.address)", "get-property", "org.mpris.MediaPlayer2.interlude",
                                                     "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2", "DesktopEntry"], timeout: 10)
        #expect(entry.stdoutText == "s \"interlude\"\n", "\(entry.summary)")
        let follow = try BackgroundProcess.start("playerctl", ["-p", "interlude", "metadata", "--format", "{{title}}", "--follow"],
                                                 environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { _ = follow.stop() }
        #expect(Remote.waitUntil { String(decoding: follow.currentStdout(), as: UTF8.self).contains("Morning") })

        // Paused, the position is the heard one, where the fade stopped.
        try playerctl(bus, ["-p", "interlude", "play-pause"]).check()
        #expect(try Remote.waitUntil { try output(bus, ["-p", "interlude", "status"]) == "Paused" })
        let pausedAt = try #require(Remote.waitUntil { Self.events(player).contains { $0.event == "paused" } } ? 
                                    Self.events(player).last { $0.event == "paused" }?.number("position") : nil)
        let position = try #require(Double(try output(bus, ["-p", "interlude", "position"])))
        #expect(abs(position - pausedAt) < 0.1, "playerctl \(position), heard \(pausedAt)")
        // 10 s on, while paused; the next pause shows where it went, heard.
        try playerctl(bus, ["-p", "interlude", "position", "10+"]).check()
        #expect(Remote.waitUntil { Self.events(player).contains { $0.event == "jump" } })
        try playerctl(bus, ["-p", "interlude", "play-pause"]).check()
        #expect(try Remote.waitUntil { try output(bus, ["-p", "interlude", "status"]) == "Playing" })
        try playerctl(bus, ["-p", "interlude", "play-pause"]).check()
        #expect(Remote.waitUntil { Self.events(player).filter { $0.event == "paused" }.count == 2 })
        // (The event's position counts the stream since the start, jumps included: the track's is the status's.)
        let heardAgain = try #require(try Remote.status(player.runtime)["elapsed"] as? Double)
        let positionAgain = try #require(Double(try output(bus, ["-p", "interlude", "position"])))
        #expect(positionAgain >= pausedAt + 10 && positionAgain < pausedAt + 12, "\(pausedAt) then \(positionAgain)")
        #expect(abs(positionAgain - heardAgain) < 0.1, "playerctl \(positionAgain), heard \(heardAgain)")
        try playerctl(bus, ["-p", "interlude", "play-pause"]).check()
        #expect(try Remote.waitUntil { try output(bus, ["-p", "interlude", "status"]) == "Playing" })

        try playerctl(bus, ["-p", "interlude", "volume", "0.5"]).check()
        #expect(try Remote.waitUntil { try Remote.status(player.runtime)["volume"] as? Double == 0.5 })
        #expect(try output(bus, ["-p", "interlude", "volume"]) == "0.500000")

        try playerctl(bus, ["-p", "interlude", "next"]).check()
        #expect(try Remote.waitUntil { try output(bus, ["-p", "interlude", "metadata", "--format", "{{title}}"]) == "Noon" })
        try playerctl(bus, ["-p", "interlude", "previous"]).check()
        #expect(try Remote.waitUntil { try output(bus, ["-p", "interlude", "metadata", "--format", "{{title}}"]) == "Morning" })
        #expect(Remote.waitUntil {
            String(decoding: follow.currentStdout(), as: UTF8.self).split(separator: "\n") == ["Morning", "Noon", "Morning"]
        }, "\(String(decoding: follow.currentStdout(), as: UTF8.self))")

        // An alarm holds playback: Paused, then Playing once it is dismissed.
        try Remote.run(player.runtime, ["alarm", "fire"]).check()
        #expect(try Remote.waitUntil { try output(bus, ["-p", "interlude", "status"]) == "Paused" })
        try Remote.run(player.runtime, ["dismiss"]).check()
        #expect(try Remote.waitUntil { try output(bus, ["-p", "interlude", "status"]) == "Playing" })
        #expect(!Self.events(player).contains { $0.event == "error" }, "\(Self.events(player).filter { $0.event == "error" })")
    }

    @Test("acceptance 2: two players are on the bus under distinct names and playerctl -p controls each")
    func twoPlayers() throws {
        guard Self.available else { return }
        let bus = try SessionBus()
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(2)), seconds: 30)
        let runtime = try Remote.makeRuntimeDirectory()
        let first = try startPlayer(bus, runtime: runtime, library: library)
        #expect(try waitForName(bus) == ["interlude"])
        let second = try startPlayer(bus, runtime: runtime, library: library)
        let names = try waitForName(bus, count: 2)
        let other = "interlude.instance\(second.process.pid)"
        #expect(Set(names) == ["interlude", other], "\(names)")
        #expect(Remote.waitForPlayer(runtime, instance: 2))
        try playerctl(bus, ["-p", other, "pause"]).check()
        #expect(try Remote.waitUntil { try Remote.status(runtime, instance: 2)["state"] as? String == "paused" })
        #expect(try Remote.status(runtime)["state"] as? String == "playing")
        #expect(try output(bus, ["-p", "interlude", "status"]) == "Playing")
        try playerctl(bus, ["-p", "interlude", "pause"]).check()
        #expect(try Remote.waitUntil { try Remote.status(runtime)["state"] as? String == "paused" })
        _ = first
    }

    @Test("acceptance 5: without a session bus the player starts, plays and says once that MPRIS is off")
    func noSessionBus() throws {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 2)
        let sink = try PulseServer.shared().makeSink()
        var environment = sink.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(ScratchFiles.directory)/no-bus-here"
        let result = try ProcessRunner.run(InterludeBinary.path(),
                                           ["play", "\(library)/Tones/1 Morning.mp3", "--device", "pulse", "--events", "json"],
                                           environment: environment, timeout: 30)
        #expect(result.exitStatus == 0, "\(result.summary)")
        let lines = result.stderrText.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("MPRIS is off"), "\(result.stderrText)")
        let events = result.stdoutText.split(separator: "\n").compactMap { InterludeEvent.parse(line: String($0)) }
        #expect(events.contains { $0.event == "trackEnded" } && events.last?.event == "summary")
    }

    static func events(_ player: Player) -> [InterludeEvent] {
        let text = (try? String(contentsOfFile: player.events, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { InterludeEvent.parse(line: String($0)) }
    }
}
