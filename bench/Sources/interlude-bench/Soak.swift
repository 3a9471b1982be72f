import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `make soak`: long runs that `make test` cannot
/// afford, each printing its figures and failing when a rule breaks.
///
/// 1. The schedule: `interlude play` in real time through a PulseAudio null
///    sink for `seconds`, with a seeded random schedule of alarms,
///    notifications, calls, suspends and seeks sent over the control socket
///    (100 over 30 minutes). Rules: no underrun; RSS grows less than 1 MB from
///    the first minute to the end; every resume from a pause is at the frame
///    where the media stopped (events); and the capture holds one gap per
///    interruption or seek and none elsewhere, the audio after each gap being
///    the source from the resume's position (aligned on the sweep, which has
///    one correlation peak).
/// 2. The sound server killed with SIGKILL and started again `kills` times
///    during playback: each time a pause with a message, under 1% CPU over
///    `killWindow` seconds of waiting (from /proc), the place kept, and the
///    music heard again after the user's play.
struct SoakOptions {
    var seconds = 1800.0
    var seed: UInt64 = 16
    var kills = 20
    var killWindow = 10.0
    /// Seconds of playback before an alarm, measured against three alarms 2 s into a run.
    var idleAlarm = 600.0
}

/// SplitMix64: the same schedule for the same seed on every machine.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

final class Soak {
    let options: SoakOptions
    var report = Report()

    init(options: SoakOptions) { self.options = options }

    func run() -> Report {
        if options.seconds > 0 {
            do { try schedule() } catch { report.notRun.append("soak schedule: \(error)") }
        }
        if options.kills > 0 {
            do { try serverKills() } catch { report.notRun.append("soak server kills: \(error)") }
        }
        if options.idleAlarm > 0 {
            do { try alarmAfterIdlePlayback() } catch { report.notRun.append("soak alarm after idle playback: \(error)") }
        }
        return report
    }

    // MARK: 1. The schedule

    enum Step: CustomStringConvertible {
        case alarm(ring: Double)
        case notification
        case call(length: Double)
        case suspend(length: Double)
        case seek(seconds: Double)

        var description: String {
            switch self {
            case .alarm(let ring): "alarm \(formatted(ring, 1)) s"
            case .notification: "notification"
            case .call(let length): "call \(formatted(length, 1)) s"
            case .suspend(let length): "suspend \(formatted(length, 1)) s"
            case .seek(let seconds): "seek \(formatted(seconds, 1)) s"
            }
        }
    }

    /// `count` steps at increasing times in (20 s, seconds - 20 s), none overlapping.
    static func plan(seconds: Double, seed: UInt64) -> [(at: Double, step: Step)] {
        var random = SeededGenerator(state: seed)
        let count = max(5, Int((100 * seconds / 1800).rounded()))
        let span = max(10, seconds - 40)
        var steps: [(at: Double, step: Step)] = []
        var seekSign = 1.0
        var earliest = 20.0
        for index in 0..<count {
            let slot = 20 + span * Double(index) / Double(count)
            let at = max(earliest, slot + Double.random(in: 0..<(span / Double(count) / 2), using: &random))
            let step: Step
            switch Int.random(in: 0..<5, using: &random) {
            case 0: step = .alarm(ring: Double.random(in: 1...4, using: &random))
            case 1: step = .notification
            case 2: step = .call(length: Double.random(in: 1...5, using: &random))
            case 3: step = .suspend(length: Double.random(in: 1...3, using: &random))
            default:
                // Alternating directions keep the position within the file.
                step = .seek(seconds: seekSign * Double.random(in: 5...30, using: &random))
                seekSign = -seekSign
            }
            steps.append((at, step))
            // Room for the step and the resume after it (a suspension's comes 1 s after it ends).
            earliest = at + 8
        }
        return steps
    }

    private func remote(_ runtime: String, _ arguments: [String]) throws {
        let result = try ProcessRunner.run(InterludeBinary.path(configuration: "release"), ["remote"] + arguments,
                                           environment: ["XDG_RUNTIME_DIR": runtime], timeout: 15)
        if !result.succeeded { progress("soak: remote \(arguments.joined(separator: " ")): \(result.summary)") }
    }

    private func schedule() throws {
        let seconds = options.seconds
        let plan = Self.plan(seconds: seconds, seed: options.seed)
        progress("soak: \(formatted(seconds / 60, 1)) min with \(plan.count) steps (seed \(options.seed)); "
                 + "making a \(Int(seconds + 120)) s sweep")
        let file = try Fixtures.mp3(.sweep, seconds: seconds + 120, encoding: .cbr(kbps: 128))
        let silence = try Fixtures.mp3(.tone(frequency: 0), seconds: 1, encoding: .cbr(kbps: 128))
        let server = try PulseServer.start()
        defer { server.stop() }
        let sink = server.defaultSink
        let runtime = ScratchFiles.makeDirectory("soak-run")
        chmod(runtime, 0o700)
        let state = ScratchFiles.makeDirectory("soak-state")
        // Kept after the run (build/bench/soak-capture.wav), for a look at what a failure heard.
        let capturePath = keptPath("soak-capture.wav")
        let recorder = try sink.startRecorder(to: capturePath)
        var environment = sink.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["XDG_STATE_HOME"] = state
        environment["XDG_CONFIG_HOME"] = state + "/config"
        // A silent alarm sound: during an interruption the capture is silence, so each shows as one gap.
        let player = try InterludeBinary.start(["play", file, "--device", "pulse", "--events", "json",
                                                "--alarm-sound", silence], environment: environment,
                                               configuration: "release")
        defer { _ = player.stop(signal: SIGKILL, grace: 1) }
        let start = monotonicSeconds()
        func waitUntil(_ time: Double) { let wait = time - (monotonicSeconds() - start); if wait > 0 { usleep(UInt32(wait * 1e6)) } }
        var rssStart: Int?
        for (at, step) in plan {
            waitUntil(at)
            if rssStart == nil && at >= 60 { rssStart = residentKilobytes(player.pid) }
            guard player.isRunning else { throw ProcessError.notReady("the player exited: \(player.wait().summary)") }
            switch step {
            case .alarm(let ring):
                try remote(runtime, ["alarm-fire"])
                waitUntil(at + ring)
                try remote(runtime, ["dismiss"])
            case .notification:
                try remote(runtime, ["notification"])
            case .call(let length):
                try remote(runtime, ["call-start"])
                waitUntil(at + length)
                try remote(runtime, ["call-end"])
            case .suspend(let length):
                try remote(runtime, ["suspend"])
                waitUntil(at + length)
                try remote(runtime, ["continue"])
            case .seek(let delta):
                // Signed: a bare number would be a position from the start.
                try remote(runtime, ["seek", (delta < 0 ? "" : "+") + formatted(delta, 3)])
            }
        }
        waitUntil(seconds)
        let rssEnd = residentKilobytes(player.pid)
        let rssFirst = rssStart ?? rssEnd
        try remote(runtime, ["quit"])
        let result = player.wait(timeout: 20)
        usleep(500_000)
        let capture = try recorder.stop()
        let log = EventLog(stdout: result.stdoutText)
        // Kept beside the capture, so `--reanalyse` can look again without playing again.
        try? result.stdoutText.write(toFile: keptPath("soak-events.jsonl"), atomically: true, encoding: .utf8)
        try? "\(rssFirst) \(rssEnd)\n".write(toFile: keptPath("soak-rss.txt"), atomically: true, encoding: .utf8)
        try result.check()
        progress("soak: analysing \(formatted(capture.durationSeconds, 0)) s of capture")
        let source = try WAVFile.read(Fixtures.decodedByMPG123(file))
        analyse(log: log, capture: capture, source: source, plan: plan, rss: (rssFirst, rssEnd))
    }

    private func analyse(log: EventLog, capture: PCMAudio, source: PCMAudio, plan: [(at: Double, step: Step)],
                         rss: (first: Int, last: Int)) {
        let rate = source.sampleRate
        let underruns = log.underrunCount
        report.rows.append(ResultRow(measure: "soak: underruns over \(formatted(options.seconds / 60, 1)) min",
                                     subject: "\(underruns)", peer: "", ratio: nil, target: "0", passed: underruns == 0))
        let growth = rss.last - rss.first
        report.rows.append(ResultRow(measure: "soak: RSS growth from the first minute to the end, kB",
                                     subject: "\(growth) (\(rss.first) -> \(rss.last))", peer: "", ratio: nil,
                                     target: "< 1024", passed: growth < 1024))

        // Events: every resume from a pause at the frame where the media stopped
        // (stream positions: a seek starts the file again further on in the stream).
        var lastPaused: Double?
        var exact = 0
        var off: [String] = []
        for event in log.events {
            switch event.event {
            case "paused": lastPaused = event.number("position")
            case "resumed":
                if let position = event.number("position"), event.fields["fadeCancelled"] == nil {
                    if position == lastPaused { exact += 1 } else { off.append("\(lastPaused ?? -1) -> \(position)") }
                }
            default: break
            }
        }
        report.rows.append(ResultRow(measure: "soak: resumes at the stop frame (events)",
                                     subject: "\(exact) of \(exact + off.count)", peer: "", ratio: nil,
                                     target: "all", passed: off.isEmpty && exact > 0))
        if !off.isEmpty { report.notes.append("soak: resumes away from the stop: \(off.prefix(10).joined(separator: ", "))") }

        // Capture: gaps of 20 ms or more of digital silence inside the played part. An
        // alarm's beeps split its interruption's silence into many runs: runs less than a
        // second of sound apart are one gap (the music between two steps lasts seconds).
        guard let bounds = SignalAnalysis.signalBounds(capture) else {
            report.notRun.append("soak: the capture is silent")
            return
        }
        let played = capture.frames(bounds)
        var gaps: [Range<Int>] = []
        let silentRuns = SignalAnalysis.silentRuns(played, threshold: 0, minimumFrames: rate / 50)
        for run in silentRuns {
            if let last = gaps.last, run.lowerBound - last.upperBound < rate {
                gaps[gaps.count - 1] = last.lowerBound..<run.upperBound
            } else {
                gaps.append(run)
            }
        }
        let pauses = log.named("paused").count
        var seeks = plan.compactMap { if case .seek(let delta) = $0.step { delta } else { nil } }
        // Each gap, by where the music before and after it is in the file (located in the
        // sweep, which has one correlation peak): a resume continues where the music
        // stopped; a seek lands its distance further on; anything else is a gap that
        // should not be there.
        // Each gap, by where the music before and after it is in the file (located in the
        // sweep, which has one correlation peak near an estimate). The chunk before is
        // followed to the music's end: a drop through the sound server splices the last
        // period (the fade starts from the frame measured as heard), so the music right
        // before the gap is not one piece. Had the music gone on from before the splice,
        // the frame at its end would be `expected`; a resume at the stop frame goes on
        // from there (the discontinuity is how far the heard frame was off); a seek lands
        // its distance on.
        let chunk = 4096
        func locate(_ start: Int, near estimate: Double, within seconds: Double) -> Double? {
            guard start >= 0, start + chunk <= played.frameCount else { return nil }
            let low = max(0, Int((estimate - seconds) * Double(rate)))
            let high = min(source.frameCount, Int((estimate + seconds) * Double(rate)) + chunk)
            guard high - low > chunk else { return nil }
            let found = SignalAnalysis.align(reference: played.frames(start..<(start + chunk)),
                                             signal: source.frames(low..<high), minimumOverlap: 0.99)
            return found.correlation > 0.9 ? Double(low + found.lag) / Double(rate) : nil
        }
        // An alarm's voice starts as the fade ends, with no silence between: the first
        // silent run of its gap comes after its first beep, or after several when the
        // 20 ms between beeps falls a frame short. So the music is located well before
        // the first silent run (steps are 8 s apart) and followed from there, window by
        // window, to where it really ends (`musicEnd`); taking the silent run's start
        // for it counted the beeps as music heard again (-95 ms, or 0.1-0.8 s strays).
        let lead = rate * 3 / 2
        let settle = rate / 20
        let window = rate / 250
        let channels = played.channels
        // How well capture frames `at..<at + window` match the file's frames from
        // `file` on (normalised correlation), or nil when the capture is louder than
        // the file there (a beep, not the music or its fade) or either is silent.
        func match(_ at: Int, _ file: Int) -> Double? {
            guard file >= 0, file + window <= source.frameCount, at >= 0, at + window <= played.frameCount else { return nil }
            var cross = 0.0, heard = 0.0, original = 0.0
            for frame in 0..<window {
                for channel in 0..<channels {
                    let x = Double(played.samples[(at + frame) * channels + channel])
                    let y = Double(source.samples[(file + frame) * source.channels + min(channel, source.channels - 1)])
                    cross += x * y
                    heard += x * x
                    original += y * y
                }
            }
            guard heard > 0, original > 0, heard <= original * 1.5 else { return nil }
            return cross / (heard * original).squareRoot()
        }
        // The capture frame where the music located at capture frame `start` (file frame
        // `file`) ends, searched up to `limit`, and the file frame the music from `start`
        // would have reached there had it gone on without the splice. A splice (the device's queue dropped at the pause: the fade starts
        // from the frame measured as heard) is followed: a window that no longer matches
        // is looked for within 150 ms either way before the music counts as ended.
        //
        // Digital silence inside the music is followed too, the file standing still while
        // it lasts: after the drop the sound server may play the device's new stream (the
        // fade) a sink block or two late, so the music it still had stops short, 25 or 50
        // ms of silence follow, then the fade. Taking the silence for the end of the music
        // counted the fade as skipped (a resume "29-42 ms late"); it is counted here as
        // what it is, a silence before the fade (`delayedFade`).
        func musicEnd(from start: Int, file: Int, limit: Int) -> (capture: Int, file: Int, delayedFade: Bool) {
            var at = start
            var offset = file - start
            var silent = 0
            var pendingSilence = 0
            var delayedFade = false
            let reach = rate * 15 / 100
            func isSilent(_ frame: Int) -> Bool {
                (frame * channels..<(frame + window) * channels).allSatisfy { played.samples[$0] == 0 }
            }
            while at + window <= limit {
                if let found = match(at, at + offset), found >= 0.9 {
                    if pendingSilence > 0 { delayedFade = true }
                    pendingSilence = 0
                    at += window
                    continue
                }
                if isSilent(at) {
                    offset -= window
                    silent += window
                    pendingSilence += window
                    at += window
                    continue
                }
                // The window holding the splice matches neither side: the next one is looked for.
                let next = at + window
                guard next + window <= limit else { break }
                if isSilent(next) {
                    at = next
                    continue
                }
                var best: (lag: Int, value: Double)?
                for lag in -reach...reach {
                    if let found = match(next, next + offset + lag), found >= 0.95, found > (best?.value ?? 0) { best = (lag, found) }
                }
                guard let best else { break }
                offset += best.lag
                if pendingSilence > 0 { delayedFade = true }
                pendingSilence = 0
                at = next + window
            }
            return (at, at + file - start - silent, delayedFade)
        }
        var delayedFades: [String] = []
        var discontinuities: [Double] = []
        var seeksLanded = 0
        // Seeks found by the music moving on by their distance, with no gap of their own.
        var seamlessSeeks = 0
        var stray: [String] = []
        // Where the discontinuities beyond the heard frame's precision are (capture seconds).
        var wide: [String] = []
        // The file position at capture frame `anchor`.
        var anchor = (capture: 0, file: 0.0)
        for gap in gaps {
            let at = formatted(Double(gap.lowerBound) / Double(rate), 2)
            let beforeStart = max(anchor.capture, gap.lowerBound - lead - chunk)
            let estimate = anchor.file + Double(beforeStart - anchor.capture) / Double(rate)
            var located = locate(beforeStart, near: estimate, within: 2)
            if located == nil {
                // Through the native output a seek leaves no silence of 20 ms (the new
                // place's fade-in overwrites what the server held after the fade-out at
                // once): seeks since the last gap moved the music by their distances
                // without a gap of their own.
                var moved = 0.0
                for count in 1...max(1, min(3, seeks.count)) where located == nil && count <= seeks.count {
                    moved += seeks[count - 1]
                    if let found = locate(beforeStart, near: estimate + moved, within: 2.5) {
                        located = found
                        seeksLanded += count
                        seamlessSeeks += count
                        seeks.removeFirst(count)
                    }
                }
            }
            guard let before = located else {
                stray.append("\(at) s: the music before it is not the file near \(formatted(estimate, 1)) s")
                continue
            }
            // Up to the gap's first long silence (60 ms: more than two of the sink's 25 ms
            // blocks), so a delayed fade after a shorter one is found.
            let longSilence = silentRuns.first { $0.lowerBound >= gap.lowerBound && $0.count >= rate * 60 / 1000 }
            let limit = min(gap.upperBound, longSilence?.lowerBound ?? gap.upperBound)
            let end = musicEnd(from: beforeStart, file: Int((before * Double(rate)).rounded()), limit: limit)
            if end.delayedFade { delayedFades.append(at) }
            let expected = Double(end.file) / Double(rate)
            let afterStart = gap.upperBound + settle
            let settled = Double(settle) / Double(rate)
            if let after = locate(afterStart, near: expected + settled, within: 0.3), abs(after - settled - expected) <= 0.1 {
                discontinuities.append(after - settled - expected)
                if abs(after - settled - expected) > 0.020 { wide.append("\(at) s: \(formatted((after - settled - expected) * 1000, 1)) ms") }
                anchor = (afterStart, after)
            } else if let delta = seeks.first, let after = locate(afterStart, near: expected + settled + delta, within: 2.5) {
                seeksLanded += 1
                seeks.removeFirst()
                anchor = (afterStart, after)
            } else if let after = locate(afterStart, near: expected, within: 60) {
                stray.append("\(at) s: the music stopped at \(formatted(expected, 3)) s and went on from \(formatted(after - settled, 3)) s")
                anchor = (afterStart, after)
            } else {
                stray.append("\(at) s: the music after it was not found")
            }
        }
        let resumesAtStop = discontinuities.count
        report.notes.append("soak: discontinuity at each resume, ms: \(discontinuities.map { formatted($0 * 1000, 1) }.joined(separator: " "))")
        let worst = discontinuities.map(abs).max() ?? 0
        report.rows.append(ResultRow(measure: "soak: resumes in the capture: largest discontinuity at a resume, ms",
                                     subject: formatted(worst * 1000, 1) + (discontinuities.isEmpty ? "" :
                                        " (median \(formatted(median(discontinuities.map(abs)) * 1000, 1)))"),
                                     peer: "", ratio: nil, target: "<= 20 (the heard frame's precision)", passed: worst <= 0.020))
        report.rows.append(ResultRow(measure: "soak: gaps in the capture (>= 20 ms): resumes at the stop frame + seeks / all",
                                     subject: "\(resumesAtStop) + \(seeksLanded - seamlessSeeks) / \(gaps.count)", peer: "", ratio: nil,
                                     target: "all; resumes = pauses (\(pauses))",
                                     passed: stray.isEmpty && resumesAtStop == pauses))
        report.rows.append(ResultRow(measure: "soak: fades heard after a silence (the new stream a sink block late after the drop)",
                                     subject: "\(delayedFades.count) of \(gaps.count) gaps", peer: "", ratio: nil,
                                     target: "0", passed: delayedFades.isEmpty))
        if !delayedFades.isEmpty { report.notes.append("soak: fades after a silence at: \(delayedFades.prefix(10).joined(separator: ", ")) s") }
        if seamlessSeeks > 0 { report.notes.append("soak: seeks with no gap of their own (found by the music moving on): \(seamlessSeeks)") }
        if !stray.isEmpty { report.notes.append("soak: stray gaps: \(stray.prefix(10).joined(separator: "; "))") }
        if !wide.isEmpty { report.notes.append("soak: resumes beyond 20 ms: \(wide.prefix(10).joined(separator: "; "))") }
        let seeksWhilePlaying = plan.filter { if case .seek = $0.step { true } else { false } }.count
        let kinds = Dictionary(grouping: plan.map { String(describing: $0.step).split(separator: " ")[0] }, by: { $0 })
            .map { "\($0.value.count) \($0.key)" }.sorted().joined(separator: ", ")
        report.notes.append("soak: \(plan.count) steps (\(kinds)); \(pauses) pauses, \(seeksWhilePlaying) seeks, "
                            + "\(gaps.count) gaps, \(formatted(played.durationSeconds / 60, 1)) min captured")
    }

    func keptPath(_ name: String) -> String {
        (ProcessInfo.processInfo.environment["INTERLUDE_BENCH_DIR"] ?? "build/bench") + "/" + name
    }

    /// The last schedule's kept capture and events, analysed again (same seconds and seed).
    func reanalyse() -> Report {
        do {
            let file = try Fixtures.mp3(.sweep, seconds: options.seconds + 120, encoding: .cbr(kbps: 128))
            let capture = try WAVFile.read(keptPath("soak-capture.wav"))
            let log = EventLog(stdout: try String(contentsOfFile: keptPath("soak-events.jsonl"), encoding: .utf8))
            let rss = ((try? String(contentsOfFile: keptPath("soak-rss.txt"), encoding: .utf8)) ?? "0 0")
                .split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
            let source = try WAVFile.read(Fixtures.decodedByMPG123(file))
            analyse(log: log, capture: capture, source: source, plan: Self.plan(seconds: options.seconds, seed: options.seed),
                    rss: (rss.first ?? 0, rss.dropFirst().first ?? 0))
        } catch { report.notRun.append("soak reanalyse: \(error)") }
        return report
    }

    // MARK: 2. The sound server killed

    private func serverKills() throws {
        progress("soak: the sound server killed \(options.kills) times, \(formatted(options.killWindow, 0)) s of waiting each")
        let music = try Fixtures.mp3(.sweep, seconds: Double(options.kills) * (options.killWindow + 8) + 60,
                                     encoding: .cbr(kbps: 128))
        var server = try PulseServer.start()
        let directory = server.runtimeDirectory
        var servers = [server]
        defer { for each in servers { each.stop() } }
        let fifo = ScratchFiles.makeDirectory("soak-commands") + "/commands"
        guard mkfifo(fifo, 0o600) == 0 else { throw ProcessError.notReady("mkfifo \(fifo)") }
        let commands = open(fifo, O_RDWR)
        defer { close(commands) }
        var environment = server.defaultSink.environment
        environment["XDG_RUNTIME_DIR"] = ScratchFiles.makeDirectory("soak-kill-run")
        let player = try InterludeBinary.start(["play", music, "--device", "pulse", "--events", "json"],
                                               environment: environment, stdinPath: fifo, configuration: "release")
        defer { _ = player.stop(signal: SIGKILL, grace: 1) }
        func event(_ name: String, _ index: Int, timeout: Double = 15) -> InterludeEvent? {
            let deadline = monotonicSeconds() + timeout
            while monotonicSeconds() < deadline {
                let matching = player.eventsSoFar().named(name)
                if matching.count > index { return matching[index] }
                usleep(20_000)
            }
            return nil
        }
        var cpu: [Double] = []
        var placeKept = 0
        var heard = 0
        var messages = 0
        for round in 0..<options.kills {
            usleep(2_000_000)
            _ = server.process.stop(signal: SIGKILL, grace: 1)
            guard let paused = event("paused", round) else {
                throw ProcessError.notReady("round \(round): no pause after the server was killed")
            }
            let errors = player.eventsSoFar().named("error").filter { $0.fields["message"]?.description.contains("type 'play'") == true }
            if errors.count > round { messages += 1 }
            let before = try cpuTicks(player.pid)
            let start = monotonicSeconds()
            usleep(UInt32(options.killWindow * 1e6))
            let used = Double(try cpuTicks(player.pid) - before) / Double(sysconf(Int32(_SC_CLK_TCK)))
            cpu.append(used / (monotonicSeconds() - start))
            server = try PulseServer.start(runtimeDirectory: directory)
            servers.append(server)
            _ = "play\n".withCString { write(commands, $0, strlen($0)) }
            guard let resumed = event("resumed", round) else { throw ProcessError.notReady("round \(round): no resume after play") }
            if resumed.number("position") == paused.number("position") { placeKept += 1 }
            let recorder = try server.defaultSink.startRecorder()
            usleep(1_000_000)
            let capture = try recorder.stop()
            if SignalAnalysis.dBFS(SignalAnalysis.rms(capture)) > -40 { heard += 1 }
        }
        let worst = cpu.max() ?? 0
        let rounds = options.kills
        report.rows.append(ResultRow(measure: "soak: server killed: CPU while waiting, % (worst of \(rounds) x \(formatted(options.killWindow, 0)) s)",
                                     subject: formatted(worst * 100, 2), peer: "", ratio: nil, target: "< 1", passed: worst < 0.01))
        report.rows.append(ResultRow(measure: "soak: server killed: paused with a message / place kept / heard again after play",
                                     subject: "\(messages) / \(placeKept) / \(heard) of \(rounds)", peer: "", ratio: nil,
                                     target: "all", passed: messages == rounds && placeKept == rounds && heard == rounds))
        report.notes.append("soak: CPU while waiting per round, %: \(cpu.map { formatted($0 * 100, 2) }.joined(separator: " "))")
    }

    // MARK: 3. An alarm after idle playback

    /// The first alarm after `idleAlarm` seconds of playback
    /// (cold pages and caches, as a real alarm meets them), from its due time to
    /// the media's silence, next to the median of three alarms 2 s into a run;
    /// measured as `make bench` measures preemption (a silent alarm sound; the
    /// due frame is `pauseRequested`'s position, the end the capture's silence).
    private func alarmAfterIdlePlayback() throws {
        progress("soak: an alarm after \(formatted(options.idleAlarm, 0)) s of playback, then three after 2 s")
        let server = try PulseServer.start()
        defer { server.stop() }
        let silence = try Fixtures.mp3(.tone(frequency: 0), seconds: 1, encoding: .cbr(kbps: 128))
        func latency(after seconds: Double) throws -> Double {
            let file = try Fixtures.mp3(.sweep, seconds: seconds + 4, encoding: .cbr(kbps: 128))
            let source = try WAVFile.read(Fixtures.decodedByMPG123(file))
            let rate = source.sampleRate
            let recorder = try server.defaultSink.startRecorder()
            let result = try InterludeBinary.play([file], output: .pulse(server.defaultSink),
                                                  extraArguments: ["--alarm-in", formatted(seconds, 0), "--alarm-ring", "0.5",
                                                                   "--alarm-sound", silence],
                                                  timeout: seconds + 60, configuration: "release")
            let capture = try recorder.stop()
            try result.process.check()
            guard let due = result.events.named("pauseRequested").first?.number("position") else {
                throw ProcessError.notReady("no pauseRequested event")
            }
            let head = SignalAnalysis.align(reference: source.frames(0..<rate),
                                            signal: capture.frames(0..<min(capture.frameCount, 4 * rate)), minimumOverlap: 0.99)
            let dueFrame = head.lag + Int((due * Double(rate)).rounded())
            let after = capture.frames(dueFrame..<min(capture.frameCount, dueFrame + 2 * rate))
            guard let end = SignalAnalysis.silentRuns(after, threshold: 0, minimumFrames: rate / 10).first?.lowerBound else {
                throw ProcessError.notReady("the capture never fell silent after the alarm was due")
            }
            return Double(end) / Double(rate)
        }
        let idle = try latency(after: options.idleAlarm)
        let quick = try (0..<3).map { _ in try latency(after: 2) }
        let quickMedian = median(quick)
        report.rows.append(ResultRow(
            measure: "soak: alarm after \(formatted(options.idleAlarm / 60, 1)) min of playback, due -> media silent, ms",
            subject: formatted(idle * 1000, 1), peer: "\(formatted(quickMedian * 1000, 1)) median of 3 after 2 s",
            ratio: idle / max(quickMedian, 1e-6), target: "<= median + 10 ms", passed: idle - quickMedian <= 0.010))
        report.notes.append("soak: alarms after 2 s: \(quick.map { formatted($0 * 1000, 0) }.joined(separator: " ")) ms")
    }

    private func cpuTicks(_ pid: pid_t) throws -> Int {
        let text = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        guard let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // utime and stime: fields 14 and 15 of proc(5), the 12th and 13th after the name.
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    private func residentKilobytes(_ pid: pid_t) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return -1 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
}
