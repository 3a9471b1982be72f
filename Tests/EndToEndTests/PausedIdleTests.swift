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

    /// Whether the one stream on `sink` is corked, as the server says it (`pactl list sink-inputs`); nil with no stream.
    static func corked(_ sink: NullSink) throws -> Bool? {
        let sinks = try sink.server.pactl(["list", "short", "sinks"]).stdoutText
        guard let sinkIndex = sinks.split(separator: "\n")
            .first(where: { $0.split(separator: "\t").dropFirst().first == Substring(sink.name) })?
            .split(separator: "\t").first else { return nil }
        let listing = try sink.server.pactl(["list", "sink-inputs"]).stdoutText
        let block = listing.components(separatedBy: "Sink Input #").first { block in
            block.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "Sink: \(sinkIndex)" }
        }
        guard let line = block?.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("Corked:") })
        else { return nil }
        return line.hasSuffix("yes")
    }

    /// Nanoseconds on a CPU of every thread of `pid` so far (`/proc/PID/task/*/schedstat`'s first field).
    static func processNanoseconds(_ pid: pid_t) throws -> UInt64 {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").reduce(0) { total, task in
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
        // The fade, the second of silence after it, the device put to sleep.
        if run != "alsa:pulse" {
            #expect(try Remote.waitUntil(10) { try Self.corked(sink) == true }, "the stream was never corked")
        }
        usleep(3_000_000)
        let before = try Self.processNanoseconds(paused.pid)
        usleep(UInt32(Self.window * 1_000_000))
        let used = Double(try Self.processNanoseconds(paused.pid) - before) / 1e9
        let budget = Self.budgetPerSecond * Self.window
        print("\(run): paused, the process used \(used * 1000) ms of CPU in \(Self.window) s (budget \(budget * 1000) ms)")
        #expect(used < budget, "\(run): the paused process used \(used * 1000) ms of CPU in \(Self.window) s, over \(budget * 1000) ms")
        #expect(try Remote.status(paused.runtime)["state"] as? String == "paused")
    }

    @Test("after the device slept, play continues at the frame heard last and an alarm's tone sounds",
          arguments: ["pulse", "alsa:pulse"])
    func aSleepingDeviceWakesForAResumeAndAnAlarm(device: String) throws {
        let music = try Fixtures.mp3(.sweep, seconds: 30, sampleRate: Self.rate, channels: 2, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(music))
        let sink = try PulseServer.shared().makeSink()
        defer { sink.remove() }
        let recorder = try sink.startRecorder()
        let player = try PulseOutputTests.Player([music, "--device", device, "--fade", "30ms"], sink: sink)
        #expect(player.waitFor("trackStarted"))
        usleep(2_000_000)
        player.type("pause")
        #expect(player.waitFor("paused"))
        // Long enough for the device to sleep: the fade, a second of silence, the buffer.
        if device == "pulse" {
            #expect(try Remote.waitUntil(10) { try Self.corked(sink) == true }, "the stream was never corked")
        }
        usleep(3_000_000)
        player.type("play")
        #expect(player.waitFor("resumed"))
        if device == "pulse" { #expect(try Self.corked(sink) == false) }
        usleep(2_000_000)
        player.type("pause")
        #expect(player.waitFor("paused", moreThan: 1))
        if device == "pulse" {
            #expect(try Remote.waitUntil(10) { try Self.corked(sink) == true }, "the stream was never corked again")
        }
        usleep(3_000_000)
        // An alarm now, while the device sleeps: its tone is heard.
        #expect(try player.remote(["alarm", "in", "1s"]).succeeded)
        #expect(player.waitFor("alarmRinging", timeout: 15))
        usleep(1_500_000)
        player.type("quit")
        let result = player.process.wait(timeout: 10)
        let capture = try recorder.stop()
        #expect(result.succeeded, "\(result.summary)")
        let log = EventLog(stdout: result.stdoutText)
        #expect(log.underrunCount == 0, "\(log.named("underrun"))")
        let stops = log.named("paused").compactMap { $0.number("position") }.map { Int(($0 * Double(Self.rate)).rounded()) }
        let resumes = log.named("resumed").compactMap { $0.number("position") }.map { Int(($0 * Double(Self.rate)).rounded()) }
        try #require(stops.count == 2 && resumes.count == 1, "\(log.events)")
        #expect(resumes[0] == stops[0])

        // The music's stretches in the capture: before the first pause, after the resume; then the alarm.
        let sounds = PulseOutputTests.soundStretches(capture)
        try #require(sounds.count >= 3, "\(device): \(sounds)")
        // Where source frame 0 sits in the capture, from the first stretch.
        let head = SignalAnalysis.align(reference: source.frames(0..<Self.rate),
                                        signal: capture.frames(sounds[0].lowerBound..<min(sounds[0].upperBound, sounds[0].lowerBound + Self.rate * 2)),
                                        minimumOverlap: 0.99)
        #expect(head.correlation > 0.98, "\(device): \(head)")
        // After the resume, the music from the stop frame, within 10 ms, nothing repeated.
        // Where the source's frame `stop` is heard again: the music a tenth of a second on, aligned.
        let stop = stops[0]
        let after = sounds[1]
        let searched = (after.lowerBound - Self.rate / 2)..<min(capture.frameCount, after.upperBound)
        let tail = SignalAnalysis.align(reference: source.frames((stop + Self.rate / 10)..<(stop + Self.rate)),
                                        signal: capture.frames(searched), minimumOverlap: 0.5)
        #expect(tail.correlation > 0.98, "\(device): \(tail)")
        let returned = searched.lowerBound + tail.lag - Self.rate / 10
        // The 50 ms after the fade-in are the source's from the stop, the 50 ms before it not the music before the stop.
        let fade = Self.rate * 30 / 1000, window = Self.rate / 20
        let resumedHead = SignalAnalysis.correlation(reference: source.frames((stop + fade)..<(stop + fade + window)),
                                                     signal: capture.frames((returned + fade)..<(returned + fade + window)), lag: 0)
        #expect(resumedHead > 0.9, "\(device): the music after the resume is not the source from the stop (\(resumedHead))")
        let repeated = SignalAnalysis.correlation(reference: source.frames((stop - window)..<stop),
                                                  signal: capture.frames((returned - window)..<returned), lag: 0)
        #expect(abs(repeated) < 0.3, "\(device): the music before the stop is heard again (\(repeated))")
        let fine = SignalAnalysis.align(reference: source.frames((stop - Self.rate / 2)..<(stop + Self.rate / 2)),
                                        signal: capture.frames((returned - Self.rate / 4)..<min(capture.frameCount, returned + Self.rate)),
                                        minimumOverlap: 0.5)
        let resumedAt = stop - Self.rate / 2 + (Self.rate / 4 - fine.lag)
        #expect(abs(resumedAt - stop) <= Self.rate / 100,
                "\(device): resumed at source frame \(resumedAt), stopped at \(stop) (\((resumedAt - stop) * 1000 / Self.rate) ms)")
        // What sounds after that is the alarm's tone (its beeps; the music stayed paused).
        let tone = sounds.dropFirst(2).reduce(0) { $0 + $1.count }
        #expect(tone > Self.rate / 5, "\(device): \(tone) frames of the alarm's tone in \(sounds)")
    }
}
