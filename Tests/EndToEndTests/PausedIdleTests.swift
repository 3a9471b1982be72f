import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A paused player with alarms armed costs next to nothing, and still plays
/// at once when asked. A second after a pause's fade (or an alarm's voice)
/// has gone silent, the writer's device sleeps: the native output's stream is
/// corked (the sound server stops asking for data), ALSA's is dropped, and
/// the writer waits for the engine alone; no thread of the process wakes by
/// itself. A resume or an alarm wakes the device, and the silence it held is
/// given up so the media continues at the frame heard last and the voice
/// sounds at once. Headless `interlude play` through the private PulseAudio
/// server, natively and through ALSA's plugin, and the user service
/// (`interlude service`) with its alarms in alarms.json.
@Suite(.serialized) struct PausedIdleTests {
    static let rate = 44100
    /// The budget: 10 ms of the whole process's CPU over 60 s ...
    static let budgetPerSecond = 0.010 / 60
    /// ... held over this window.
    static let window = 12.0

    /// The one stream on `sink` as the server lists it (`pactl list sink-inputs`): nil with none.
    static func stream(_ sink: NullSink) throws -> String? {
        let sinks = try sink.server.pactl(["list", "short", "sinks"]).stdoutText
        guard let sinkIndex = sinks.split(separator: "\n")
            .first(where: { $0.split(separator: "\t").dropFirst().first == Substring(sink.name) })?
            .split(separator: "\t").first else { return nil }
        let listing = try sink.server.pactl(["list", "sink-inputs"]).stdoutText
        return listing.components(separatedBy: "Sink Input #").first { block in
            block.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "Sink: \(sinkIndex)" }
        }
    }

    /// Whether the stream on `sink` is corked; nil with no stream (released, or not made yet).
    static func corked(_ sink: NullSink) throws -> Bool? {
        guard let line = try stream(sink)?.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("Corked:") })
        else { return nil }
        return line.hasSuffix("yes")
    }

    /// Paused: the stream corked a second after the fade, then released five seconds later.
    static func waitUntilReleased(_ sink: NullSink) throws -> (corked: Bool, released: Bool) {
        let corked = try Remote.waitUntil(10) { try Self.corked(sink) == true }
        return (corked, try Remote.waitUntil(10) { try Self.corked(sink) == nil })
    }

    /// Nanoseconds on a CPU of every thread of `pid` so far (`/proc/PID/task/*/schedstat`'s first
    /// field), but those named `skipping` (`comm`).
    static func processNanoseconds(_ pid: pid_t, skipping: String? = nil) throws -> UInt64 {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").reduce(0) { total, task in
            let name = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? ""
            if let skipping, name.trimmingCharacters(in: .whitespacesAndNewlines) == skipping { return total }
            let text = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)
            return total + (try #require(text.split(separator: " ").first.flatMap { UInt64($0) }, "schedstat: \(text)"))
        }
    }

    /// A paused player with three alarms: `interlude play` on `device`, or the user service.
    struct Paused {
        let pid: pid_t
        let runtime: String
        let stop: () -> Void
    }

    /// The headless player on `device`: one alarm given at the start, two through the socket.
    static func pausedHeadless(_ music: String, device: String, sink: NullSink) throws -> Paused {
        let player = try PulseOutputTests.Player([music, "--device", device, "--alarm-in", "2h"], sink: sink)
        #expect(player.waitFor("trackStarted"))
        #expect(Remote.waitForPlayer(player.runtime))
        try player.remote(["alarm", "in", "3h"]).check()
        try player.remote(["alarm", "in", "4h"]).check()
        usleep(1_000_000)
        player.type("pause")
        #expect(player.waitFor("paused"))
        return Paused(pid: player.process.pid, runtime: player.runtime) { withExtendedLifetime(player) {} }
    }

    /// `interlude service` through the native output: three alarms added with
    /// `interlude alarm add` (to alarms.json, which the service reads), a
    /// track handed to it with `interlude FILE --play`, then `pause`.
    static func pausedService(_ music: String, sink: NullSink) throws -> Paused {
        let runtime = try Remote.makeRuntimeDirectory()
        let home = ScratchFiles.makeDirectory("idle-service-home")
        var environment = sink.environment
        for (key, value) in ["XDG_RUNTIME_DIR": runtime, "HOME": home, "XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": home + "/config",
                             "XDG_DATA_HOME": home + "/data", "XDG_CACHE_HOME": home + "/cache", "DBUS_SESSION_BUS_ADDRESS": ""] {
            environment[key] = value
        }
        let service = try InterludeBinary.start(["service", "--device", "pulse"], environment: environment)
        func interlude(_ arguments: [String]) throws -> ProcessResult {
            try ProcessRunner.run(InterludeBinary.path(), arguments, environment: environment, timeout: 30)
        }
        #expect(Remote.waitForPlayer(runtime))
        for alarm in [["in", "2h"], ["in", "3h"], ["23:59", "--repeat", "daily"]] {
            try interlude(["alarm", "add"] + alarm).check()
        }
        try interlude([music, "--play"]).check()
        #expect(try Remote.waitUntil { try Remote.status(runtime)["state"] as? String == "playing" })
        usleep(1_000_000)
        try interlude(["remote", "pause"]).check()
        return Paused(pid: service.pid, runtime: runtime) {
            _ = try? interlude(["quit"])
            _ = service.stop()
        }
    }

    /// Through ALSA's pulse plugin the device is dropped and no thread of the
    /// player's wakes, but the plugin's own libpulse thread (`threaded-ml`)
    /// keeps asking the server for timing every 1.5 s while the PCM is open
    /// (about 1 ms of CPU in 10 s), which the player cannot stop short of
    /// closing the device: there the bound holds for every other thread.
    @Test("paused with three alarms armed, the whole process stays under 10 ms of CPU a minute, every thread counted",
          arguments: ["pulse", "alsa:pulse", "service"])
    func aPausedPlayerWithAlarmsArmedSleeps(run: String) throws {
        let music = try Fixtures.mp3(.tone(frequency: 440), seconds: 60)
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let paused = run == "service" ? try Self.pausedService(music, sink: sink) : try Self.pausedHeadless(music, device: run, sink: sink)
        defer { paused.stop() }
        #expect(try Remote.waitUntil { try Remote.status(paused.runtime)["state"] as? String == "paused" })
        let alarms = try Remote.run(paused.runtime, ["alarm", "list"]).check().stdoutText.split(separator: "\n").filter { $0.contains("(on)") }
        #expect(alarms.count == 3, "\(alarms)")
        // The fade, a second of silence, the stream corked, and five seconds later released.
        let plugin = run == "alsa:pulse" ? "threaded-ml" : nil
        if plugin == nil {
            let sleep = try Self.waitUntilReleased(sink)
            #expect(sleep.corked && sleep.released, "\(run): the stream was \(sleep.corked ? "corked but never released" : "never corked")")
        } else {
            usleep(8_000_000)
        }
        let before = try Self.processNanoseconds(paused.pid, skipping: plugin)
        usleep(UInt32(Self.window * 1_000_000))
        let used = Double(try Self.processNanoseconds(paused.pid, skipping: plugin) - before) / 1e9
        let budget = Self.budgetPerSecond * Self.window
        let threads = plugin.map { "every thread but \($0)" } ?? "the process"
        print("\(run): paused, \(threads) used \(used * 1000) ms of CPU in \(Self.window) s (budget \(budget * 1000) ms)")
        #expect(used < budget, "\(run): paused, \(threads) used \(used * 1000) ms of CPU in \(Self.window) s, over \(budget * 1000) ms")
        #expect(try Remote.status(paused.runtime)["state"] as? String == "paused")
    }

    @Test("after the device slept, and after it let go of its stream, play continues at the frame heard last; an alarm's tone sounds with the alarm's role",
          arguments: ["pulse", "alsa:pulse"])
    func aSleepingDeviceWakesForAResumeAndAnAlarm(device: String) throws {
        let music = try Fixtures.mp3(.sweep, seconds: 30, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(music))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let player = try PulseOutputTests.Player([music, "--device", device, "--fade", "30ms"], sink: sink)
        #expect(player.waitFor("trackStarted"))
        let native = device == "pulse"
        /// Plays 2 s, pauses, and waits until the device sleeps (its stream corked), or has let go of its stream too.
        func pauseUntilAsleep(_ round: Int, released: Bool) throws {
            usleep(2_000_000)
            player.type("pause")
            #expect(player.waitFor("paused", moreThan: round))
            guard native else {
                usleep(released ? 8_000_000 : 3_000_000)
                return
            }
            #expect(try Remote.waitUntil(10) { try Self.corked(sink) == true }, "round \(round): the stream was never corked")
            if released { #expect(try Remote.waitUntil(10) { try Self.corked(sink) == nil }, "round \(round): the stream was never released") }
        }
        // Corked, then played: the stream uncorked. (`resumed` is the main
        // thread's; the writer uncorks when it next turns, and the server
        // lists it after: on a loaded machine, later than the event.)
        try pauseUntilAsleep(0, released: false)
        player.type("play")
        #expect(player.waitFor("resumed"))
        if native { #expect(try Remote.waitUntil(5) { try Self.corked(sink) == false }, "round 0: the stream stayed corked after play") }
        // Released, then played: a new stream.
        try pauseUntilAsleep(1, released: true)
        player.type("play")
        #expect(player.waitFor("resumed", moreThan: 1))
        if native { #expect(try Remote.waitUntil(5) { try Self.corked(sink) == false }, "round 1: no playing stream after play") }
        // Released, then an alarm: its tone, on a stream made with the alarm's role.
        try pauseUntilAsleep(2, released: true)
        #expect(try player.remote(["alarm", "in", "1s"]).succeeded)
        #expect(player.waitFor("alarmRinging", timeout: 15))
        if native {
            let listed = try Remote.waitUntil(5) { try Self.stream(sink)?.contains("media.role = \"phone\"") == true }
            let shown = try Self.stream(sink) ?? "no stream"
            #expect(listed, "\(shown)")
        }
        usleep(1_500_000)
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        let capture = try recorder.stop()
        #expect(result.succeeded, "\(result.summary)")
        let log = EventLog(stdout: result.stdoutText)
        #expect(log.underrunCount == 0, "\(log.named("underrun"))")
        let stops = log.named("paused").compactMap { $0.number("position") }.map { Int(($0 * Double(Self.rate)).rounded()) }
        let resumes = log.named("resumed").compactMap { $0.number("position") }.map { Int(($0 * Double(Self.rate)).rounded()) }
        try #require(stops.count == 3 && resumes.count == 2, "\(log.events)")
        #expect(resumes == Array(stops.prefix(2)))

        // The music's stretches in the capture: before the first pause, after each resume; then the alarm's beeps.
        // Told apart by the pauses' seconds of silence: through ALSA's pulse plugin, whose thread carries the
        // audio to the server at normal priority, a loaded machine can leave a few silent milliseconds inside
        // the music (the plugin tells the writer of no underrun); split there, the stretches after were taken
        // one for another (in a loaded whole run the resumed music was looked for in pieces 0.25 and 0.6 s long).
        let heard = PulseOutputTests.soundStretches(capture)
        let sounds = Self.joined(heard, across: Self.rate / 2)
        try #require(sounds.count >= 4, "\(device): \(sounds)")
        for (round, stop) in stops.prefix(2).enumerated() {
            // Where the source's frame `stop` is heard again: the music a tenth of a second on, aligned.
            let after = sounds[round + 1]
            let searched = max(0, after.lowerBound - Self.rate / 2)..<min(capture.frameCount, after.upperBound)
            let tail = SignalAnalysis.align(reference: source.frames((stop + Self.rate / 10)..<(stop + Self.rate)),
                                            signal: capture.frames(searched), minimumOverlap: 0.5)
            #expect(tail.correlation > 0.98, "\(device), round \(round): \(tail); the capture's sounds: \(sounds)")
            let returned = searched.lowerBound + tail.lag - Self.rate / 10
            // The 50 ms after the fade-in are the source's from the stop, the 50 ms before it not the music before the stop.
            let fade = Self.rate * 30 / 1000, window = Self.rate / 20
            let resumedHead = SignalAnalysis.correlation(reference: source.frames((stop + fade)..<(stop + fade + window)),
                                                         signal: capture.frames((returned + fade)..<(returned + fade + window)), lag: 0)
            #expect(resumedHead > 0.9, "\(device), round \(round): the music after the resume is not the source from the stop (\(resumedHead))")
            let repeated = SignalAnalysis.correlation(reference: source.frames((stop - window)..<stop),
                                                      signal: capture.frames((returned - window)..<returned), lag: 0)
            #expect(abs(repeated) < 0.3, "\(device), round \(round): the music before the stop is heard again (\(repeated))")
            // Within 10 ms: the best match of the music around the stop puts the stop frame where it came back.
            let fine = SignalAnalysis.align(reference: source.frames((stop - Self.rate / 2)..<(stop + Self.rate / 2)),
                                            signal: capture.frames((returned - Self.rate / 4)..<min(capture.frameCount, returned + Self.rate)),
                                            minimumOverlap: 0.5)
            let resumedAt = stop - Self.rate / 2 + (Self.rate / 4 - fine.lag)
            #expect(abs(resumedAt - stop) <= Self.rate / 100,
                    "\(device), round \(round): resumed at source frame \(resumedAt), stopped at \(stop) (\((resumedAt - stop) * 1000 / Self.rate) ms)")
        }
        // What sounds after that is the alarm's tone (its beeps; the music stayed paused).
        let tone = heard.filter { $0.lowerBound >= sounds[2].upperBound }.reduce(0) { $0 + $1.count }
        #expect(tone > Self.rate / 5, "\(device): \(tone) frames of the alarm's tone in \(heard)")
    }

    /// `stretches` with those less than `gap` frames apart joined into one.
    static func joined(_ stretches: [Range<Int>], across gap: Int) -> [Range<Int>] {
        stretches.reduce(into: []) { joined, stretch in
            if let last = joined.last, stretch.lowerBound - last.upperBound < gap {
                joined[joined.count - 1] = last.lowerBound..<stretch.upperBound
            } else {
                joined.append(stretch)
            }
        }
    }
}
