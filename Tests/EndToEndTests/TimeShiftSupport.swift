import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What the time-shift suites share (`TimeShiftTests`, `TimeShiftLiveEdgeTests`,
/// `TimeShiftLimitTests`): their set-up, and how a resume is measured.
extension TimeShiftTests {
    /// A station of `seconds` of sweep on `server`, as MP3 at 128 kbit/s: the source WAV's
    /// path, and the time taken just before the source started (made after the WAV, whose
    /// generation took seconds on a loaded machine and is no part of the live edge).
    static func station(_ server: IcecastServer, seconds: Double = 400) throws -> (source: String, started: Date) {
        let source = try Fixtures.wav(.sweep, seconds: seconds)
        let started = Date()
        try server.startSource(mount: "radio.mp3", wav: source, format: .mp3)
        return (source, started)
    }

    /// A config folder holding `lines` as the player's config file, with a cache folder beside it.
    static func home(_ lines: String) throws -> (environment: [String: String], cache: String) {
        let directory = ScratchFiles.makeDirectory("time-shift")
        try FileManager.default.createDirectory(atPath: directory + "/config/interlude", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/cache", withIntermediateDirectories: true)
        try lines.write(toFile: directory + "/config/interlude/config", atomically: true, encoding: .utf8)
        return (["XDG_CONFIG_HOME": directory + "/config", "XDG_STATE_HOME": directory + "/state",
                 "XDG_CACHE_HOME": directory + "/cache"], directory + "/cache")
    }

    /// `interlude remote status --json`'s result object.
    static func status(_ player: Player) throws -> [String: Any] {
        let reply = try player.remote(["status", "--json"])
        guard reply.succeeded, let object = try JSONSerialization.jsonObject(with: reply.stdout) as? [String: Any] else { return [:] }
        return (object["result"] as? [String: Any]) ?? object
    }

    static func number(_ status: [String: Any], _ key: String) -> Double? { (status[key] as? NSNumber)?.doubleValue }

    /// Waits until the status says `condition` (polled every 200 ms), up to `timeout` seconds.
    @discardableResult
    static func waitForStatus(_ player: Player, timeout: Double, _ condition: ([String: Any]) -> Bool) throws -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let now = try status(player)
            if condition(now) { return now }
            usleep(200_000)
        }
        return nil
    }

    /// Waits until `seconds` more of the station have been heard (the status's `elapsed`).
    static func hear(_ player: Player, seconds: Double) throws -> Bool {
        guard let start = number(try status(player), "elapsed") else { return false }
        return try waitForStatus(player, timeout: seconds * 4 + 20) { (number($0, "elapsed") ?? 0) >= start + seconds } != nil
    }

    static func timeShiftLines(_ player: Player) -> [String] {
        player.process.eventsSoFar().named("timeShift").compactMap(\.message)
    }

    /// The place in `source` of `frames` of `heard`; with `near`, searched within 8 s of
    /// that place only. Without it, the whole file is searched in 30 s pieces (each
    /// overlapping the next by the window, so every place lies whole in one), the piece
    /// whose place correlates best wins, and its place is refined within 8 s of it. One
    /// search over the whole 400 s file decimates its coarse pass 128 times (a box
    /// average, 344 Hz, under the sweep's 110 and 160 Hz at its start): under its
    /// tremolo the sweep's slow start then offered a second peak 40 s away, and a live
    /// resume that skipped the pause's 15 s was measured as 55 s. A piece is decimated
    /// 8 times. Within 8 s the coarse pass is decimated 4 times, and its fine pass
    /// covers 8 frames either side (a neighbouring peak of the two tones' common period,
    /// 820 frames away, correlates 0.989 against 0.99999999 at the true place).
    static func place(_ heard: PCMAudio, _ frames: Range<Int>, in source: PCMAudio, near: Int? = nil) -> Int {
        guard let near else {
            let window = heard.frames(frames)
            var best: (place: Int, correlation: Double)?
            for start in stride(from: 0, to: max(1, source.frameCount - frames.count), by: 30 * rate) {
                let piece = start..<min(source.frameCount, start + 30 * rate + frames.count)
                let found = SignalAnalysis.align(reference: source.frames(piece), signal: window, minimumOverlap: 1)
                if found.correlation > best?.correlation ?? -1 { best = (start - found.lag, found.correlation) }
            }
            return place(heard, frames, in: source, near: best?.place ?? 0)
        }
        let from = max(0, near - 8 * rate), to = min(source.frameCount, near + 8 * rate + frames.count)
        return from - SignalAnalysis.align(reference: source.frames(from..<to), signal: heard.frames(frames)).lag
    }

    struct Resume {
        /// The silent stretch in the capture.
        var pause: Range<Int>
        /// Source frames skipped at the resume (0: it continued where it stopped).
        var skipped: Int
        /// The places in the source of the windows before and after.
        var placeBefore: Int
        var placeAfter: Int
    }

    /// The longest digital silence of `heard` (at least `minimum` frames) and what the resume after it skipped.
    static func resume(_ heard: PCMAudio, source: PCMAudio, minimum: Int) throws -> Resume {
        let pause = try #require(SignalAnalysis.longestSilentRun(heard, threshold: quiet))
        try #require(pause.count >= minimum, "the pause's silence: \(pause.count) frames")
        // Three-second windows 50 ms clear of it.
        let window = rate * 3, margin = rate / 20
        let before = pause.lowerBound - margin - window, after = pause.upperBound + margin
        try #require(before > 0 && after + window <= heard.frameCount, "capture \(heard.frameCount) frames, pause \(pause)")
        let placeBefore = place(heard, before..<before + window, in: source)
        let placeAfter = place(heard, after..<after + window, in: source)
        let heardBetween = after - before - pause.count
        return Resume(pause: pause, skipped: placeAfter - placeBefore - heardBetween, placeBefore: placeBefore, placeAfter: placeAfter)
    }

    /// Samples at most this far from 0 are the pause's (`faint`'s alarm included).
    static let quiet: Int16 = 48

    /// A 100 Hz sine 41 steps of 16 bits high: just above what the player
    /// takes for sound (`MediaVoice.audibleThreshold`, 33), so the alarm
    /// rings it rather than its built-in tone, and within `quiet` in the capture.
    static func faint(seconds: Int) throws -> String {
        let path = ScratchFiles.makeDirectory("time-shift-faint") + "/faint.wav"
        let made = try ProcessRunner.run("sox", ["-D", "-n", "-r", String(rate), "-c", "2", "-b", "16", path,
                                                 "synth", String(seconds), "sine", "100", "vol", "0.00125"], timeout: 30)
        try #require(made.succeeded, "\(made.summary)")
        return path
    }

    /// One scenario's real parts, made in one place: a local Icecast whose
    /// `radio.mp3` plays the sweep (`station`), a PulseAudio null sink with
    /// parec on its monitor, and an XDG home whose config file holds `config`
    /// (`home`). `stop`, deferred by each test, ends them all.
    struct Rig {
        let server: IcecastServer
        /// The station's source WAV.
        let source: String
        /// Taken just before the source started (`ffmpeg -re`: the live edge runs from here).
        let sourceStarted: Date
        let sink: NullSink
        let recorder: Recorder
        /// Taken just before parec started.
        let recorderStarted: Date
        let environment: [String: String]
        /// The home's `$XDG_CACHE_HOME`.
        let cache: String

        static func start(config: String = "") throws -> Rig {
            let server = try IcecastServer.start()
            var sink: NullSink?
            var recorder: Recorder?
            do {
                let (source, sourceStarted) = try TimeShiftTests.station(server)
                let made = try PulseServer.shared().makeSink()
                sink = made
                let recorderStarted = Date()
                let recording = try made.startRecorder()
                recorder = recording
                let (environment, cache) = try TimeShiftTests.home(config)
                return Rig(server: server, source: source, sourceStarted: sourceStarted, sink: made, recorder: recording,
                           recorderStarted: recorderStarted, environment: environment, cache: cache)
            } catch {
                _ = try? recorder?.stop()
                sink?.remove()
                server.stop()
                throw error
            }
        }

        /// The player on the station, through the sink, with no fade (the pause is a clean silence), and `arguments`.
        func player(_ arguments: [String] = []) throws -> Player {
            try Player([server.url("radio.mp3"), "--device", "pulse", "--fade", "0"] + arguments, sink: sink, environment: environment)
        }

        func stop() {
            _ = try? recorder.stop()
            sink.remove()
            server.stop()
        }
    }
}
