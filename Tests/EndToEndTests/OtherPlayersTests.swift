import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The desktop's other players while an
/// alarm rings. Real MPRIS players, mpv with Debian's `mpv-mpris` plugin, on
/// a private session bus (`dbus-daemon`, stopped by its PID), playing into a
/// null sink of the harness's sound server; `playerctl` reads and drives them
/// as a listener would. The alarm pauses those that play and resumes exactly
/// those it paused and that are still paused by it. Each test runs against
/// PulseAudio and against PipeWire with WirePlumber and pipewire-pulse
/// (the `server` argument names which).
@Suite(.serialized) struct OtherPlayersTests {
    static let plugin = "/usr/lib/mpv-mpris/mpris.so"
    static let available = ["dbus-daemon", "playerctl", "mpv", "paplay", "pactl"].allSatisfy { ProcessRunner.which($0) != nil }
        && access(plugin, R_OK) == 0

    /// mpv playing a tone in a loop, its MPRIS name on `bus`.
    final class Mpv {
        let process: BackgroundProcess
        let name: String

        init(_ bus: MprisTests.SessionBus, sink: NullSink, known: Set<String> = []) throws {
            let tone = try Fixtures.wav(.tone(frequency: 330), seconds: 20, sampleRate: 44100, channels: 1)
            var environment = sink.environment
            environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            process = try BackgroundProcess.start("mpv", ["--no-config", "--no-video", "--ao=pulse", "--script=\(OtherPlayersTests.plugin)",
                                                          "--loop-file=inf", "--input-terminal=no", "--really-quiet", tone],
                                                  environment: environment)
            var found: String?
            _ = try Remote.waitUntil(20) {
                found = try OtherPlayersTests.players(bus).first { $0.hasPrefix("mpv") && !known.contains($0) }
                return found != nil
            }
            guard let found else { throw ProcessError.notReady("mpv is not on the bus: \(process.stop().summary)") }
            name = found
            guard try Remote.waitUntil(20, { try status(bus) == "Playing" }) else {
                throw ProcessError.notReady("mpv does not play: \(process.stop().summary)")
            }
        }

        deinit { _ = process.stop(signal: SIGKILL, grace: 1) }

        func status(_ bus: MprisTests.SessionBus) throws -> String { try OtherPlayersTests.playerctl(bus, ["-p", name, "status"]) }
    }

    static func playerctl(_ bus: MprisTests.SessionBus, _ arguments: [String]) throws -> String {
        try ProcessRunner.run("playerctl", arguments, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], timeout: 10)
            .stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func players(_ bus: MprisTests.SessionBus) throws -> [String] {
        try playerctl(bus, ["-l"]).split(separator: "\n").map(String.init)
    }

    /// `interlude play` of a book-length tone with an alarm `in 2s`, on the bus.
    static func interlude(_ bus: MprisTests.SessionBus, sink: NullSink, runtime: String, extra: [String]) throws -> BackgroundProcess {
        let library = try TaggedLibrary.make(Array(TaggedLibrary.standard.prefix(1)), seconds: 30)
        var environment = sink.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        return try InterludeBinary.start(["play", "\(library)/Tones/1 Morning.mp3", "--device", "pulse", "--events", "json",
                                          "--alarm-in", "2s"] + extra, environment: environment)
    }

    @Test("acceptance 4: the alarm pauses a playing mpv and plays it again when it times out", arguments: SoundServerKind.allCases)
    func timeoutResumesMpv(server: SoundServerKind) throws {
        guard Self.available else { return }
        let bus = try MprisTests.SessionBus()
        let sink = try server.shared().makeSink()
        defer { sink.remove() }
        let mpv = try Mpv(bus, sink: sink)
        let player = try Self.interlude(bus, sink: sink, runtime: try Remote.makeRuntimeDirectory(), extra: ["--alarm-ring", "3s"])
        defer { _ = player.stop() }
        #expect(player.waitForEvent(named: "alarmRinging", timeout: 20) != nil)
        #expect(try Remote.waitUntil { try mpv.status(bus) == "Paused" }, "the alarm did not pause mpv")
        let ended = try #require(player.waitForEvent(named: "alarmEnded", timeout: 20))
        #expect(ended.fields["reason"] == .string("timedOut"), "\(ended)")
        #expect(try Remote.waitUntil { try mpv.status(bus) == "Playing" }, "mpv was not resumed after the timeout")
        #expect(!player.eventsSoFar().events.contains { $0.event == "error" }, "\(player.eventsSoFar().events.filter { $0.event == "error" })")
    }

    @Test("acceptance 4: dismissed, the alarm resumes the player it paused and not one the listener played and paused meanwhile",
          arguments: SoundServerKind.allCases)
    func dismissResumesOnlyWhatTheAlarmPaused(server: SoundServerKind) throws {
        guard Self.available else { return }
        let bus = try MprisTests.SessionBus()
        let sink = try server.shared().makeSink()
        defer { sink.remove() }
        let untouched = try Mpv(bus, sink: sink)
        let taken = try Mpv(bus, sink: sink, known: [untouched.name])
        // The listener's view of `taken`: every PlaybackStatus it announces on the bus.
        let follow = try BackgroundProcess.start("playerctl", ["-p", taken.name, "--follow", "status"],
                                                 environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { _ = follow.stop(signal: SIGKILL, grace: 1) }
        func announced() -> [String] { String(decoding: follow.currentStdout(), as: UTF8.self).split(separator: "\n").map(String.init) }
        #expect(Remote.waitUntil { announced().last == "Playing" })

        let runtime = try Remote.makeRuntimeDirectory()
        let player = try Self.interlude(bus, sink: sink, runtime: runtime, extra: [])
        var stopped = false
        defer { if !stopped { _ = player.stop() } }
        #expect(player.waitForEvent(named: "alarmRinging", timeout: 20) != nil)
        #expect(try Remote.waitUntil { try untouched.status(bus) == "Paused" && taken.status(bus) == "Paused" },
                "the alarm did not pause both players")
        #expect(Remote.waitUntil { announced().suffix(1) == ["Paused"] }, "\(announced())")

        // The listener plays `taken` during the alarm, then pauses it again: it is theirs now.
        _ = try Self.playerctl(bus, ["-p", taken.name, "play"])
        #expect(Remote.waitUntil { announced().suffix(2) == ["Paused", "Playing"] }, "\(announced())")
        _ = try Self.playerctl(bus, ["-p", taken.name, "pause"])
        #expect(Remote.waitUntil { announced().suffix(3) == ["Paused", "Playing", "Paused"] }, "\(announced())")
        let heard = announced().count
        // A round trip through the player over the bus: the changes mpv announced before it have reached it.
        #expect(try Self.playerctl(bus, ["-p", "interlude", "status"]) == "Paused")

        try Remote.run(runtime, ["dismiss"]).check()
        #expect(player.waitForEvent(named: "alarmEnded", timeout: 10) != nil)
        #expect(try Remote.waitUntil { try untouched.status(bus) == "Playing" }, "the player the alarm paused was not resumed")
        #expect(try Remote.waitUntil { try Self.playerctl(bus, ["-p", "interlude", "status"]) == "Playing" })
        // Once the player has exited, nothing more can be asked of `taken`; a
        // call from it would have reached mpv before this status read does.
        let result = player.stop()
        stopped = true
        #expect(try taken.status(bus) == "Paused", "the alarm resumed a player the listener had paused")
        #expect(announced().count == heard, "\(announced())")
        #expect(!result.stdoutText.contains("\"event\":\"error\""), "\(result.stdoutText)")
    }

    /// The alarm's stream takes the `phone` role while it rings
    /// (`PulseOutput.alarmRole`), on the player's one live stream. PulseAudio's
    /// `module-role-cork` watches a stream's properties change and corks the
    /// music stream for as long as the role lasts. On PipeWire the server's
    /// role policy, WirePlumber's role-based endpoints (configured by
    /// `PipeWireServer`; `DesktopInterruptionTests` acceptance 5 shows them
    /// corking a music stream for a stream that opens as `phone`), does not act
    /// on it: WirePlumber 0.4 places a stream on its role's endpoint when the
    /// stream appears and never looks at its role again. What this checks there
    /// is what the player does: the role change reaches the server through
    /// pipewire-pulse while the alarm rings and is undone after it, and the
    /// music stream is playing again after the alarm; the cork during the alarm
    /// is checked on PulseAudio only. Players with MPRIS are paused on both
    /// (the tests above).
    @Test("acceptance 4: the alarm's stream is a phone stream while it rings; with module-role-cork loaded a paplay music stream is corked meanwhile (PulseAudio)",
          arguments: SoundServerKind.allCases)
    func roleCorkQuietsAMusicStream(server: SoundServerKind) throws {
        guard Self.available else { return }
        // A server of its own: the role policy acts on every client of a server.
        let sound = try server.start(rolePolicy: true)
        defer { sound.stop() }
        let tone = try Fixtures.wav(.tone(frequency: 550), seconds: 40, sampleRate: 44100, channels: 1)
        let music = try BackgroundProcess.start("paplay", ["--property=media.role=music", tone],
                                                environment: sound.defaultSink.environment)
        defer { _ = music.stop(signal: SIGKILL, grace: 1) }
        // The block of the paplay stream (its application is paplay) and of the player's.
        func stream(_ application: String) throws -> String? {
            try sound.sinkInputs().first { $0.contains("application.name = \"\(application)\"") }
        }
        func corked() throws -> Bool? { try stream("paplay").map { $0.contains("Corked: yes") } }
        func playerRole() throws -> String? {
            guard let block = try sound.sinkInputs().first(where: { $0.contains("application.id = \"interlude\"") }) else { return nil }
            return block.split(separator: "\n").first { $0.contains("media.role = ") }
                .map { $0.split(separator: "\"").dropFirst().first.map(String.init) ?? "" }
        }
        #expect(try Remote.waitUntil { try corked() == false }, "the music stream did not start")

        let bus = try MprisTests.SessionBus()
        let runtime = try Remote.makeRuntimeDirectory()
        let player = try Self.interlude(bus, sink: sound.defaultSink, runtime: runtime, extra: [])
        defer { _ = player.stop() }
        #expect(player.waitForEvent(named: "trackStarted", timeout: 20) != nil)
        #expect(try Remote.waitUntil { try playerRole() == "music" }, "\((try? sound.sinkInputs()) ?? [])")
        #expect(try corked() == false, "the player's own music corks nothing")
        #expect(player.waitForEvent(named: "alarmRinging", timeout: 20) != nil)
        #expect(try Remote.waitUntil { try playerRole() == "phone" }, "the alarm's stream is not a phone stream: \((try? sound.sinkInputs()) ?? [])")
        if server == .pulseAudio {
            #expect(try Remote.waitUntil { try corked() == true }, "the alarm's stream did not cork the music stream")
        }
        try Remote.run(runtime, ["dismiss"]).check()
        #expect(player.waitForEvent(named: "alarmEnded", timeout: 10) != nil)
        #expect(try Remote.waitUntil { try playerRole() == "music" }, "\((try? sound.sinkInputs()) ?? [])")
        #expect(try Remote.waitUntil { try corked() == false }, "the music stream stayed corked after the alarm")
    }
}
