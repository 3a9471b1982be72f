import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

struct BenchOptions {
    static let all = ["decode", "cpu", "startup", "underruns", "preemption", "seek", "tui", "mpris", "desktop", "formats", "library", "cover", "titles", "podcasts", "streams", "mpd", "idle", "spoken", "rooms"]
    var quick = false
    var standIn = false
    var only: Set<String> = Set(all)
    /// Runs of each player in the CPU/RSS benchmark (medians reported).
    var playRuns = 1
    /// `--keep-library DIR`: the library rows' trees and indexes kept in DIR and used again.
    var keepLibrary: String?

    var benchDirectory: String {
        ProcessInfo.processInfo.environment["INTERLUDE_BENCH_DIR"] ?? InterludeBinary.packageRoot + "/build/bench"
    }
    var decodeSeconds: Double { quick ? 60 : 600 }
    var decodeRuns: Int { quick ? 3 : 5 }
    var playSeconds: Double { quick ? 10 : 60 }
    var startupRuns: Int { quick ? 5 : 10 }
    var preemptionRuns: Int { quick ? 3 : 10 }
}

/// What one player run through the null sink cost and what the capture shows.
struct PlayMeasurement {
    var process: ProcessResult
    /// From the first to the last non-silent captured frame.
    var playedSeconds: Double
    /// Runs of digital silence longer than 5 ms inside the captured signal.
    var gaps: Int
    var longestGapMilliseconds: Double
}

/// The benchmarks, each next to its peer.
final class Bench {
    let options: BenchOptions
    /// Internal, not private: the tui benchmark (TUIBench.swift) adds its rows.
    var report = Report()
    private let referenceDecoder: String
    private let referencePlayer: String
    let measureTool: String
    private let referenceDropper: String
    let interlude: String

    init(options: BenchOptions) {
        self.options = options
        referenceDecoder = options.benchDirectory + "/ref_decode"
        referencePlayer = options.benchDirectory + "/ref_play"
        measureTool = options.benchDirectory + "/measure"
        referenceDropper = options.benchDirectory + "/ref_drop"
        interlude = InterludeBinary.path(configuration: "release")
    }

    /// The name interlude's column is measured under.
    private var subjectName: String { options.standIn ? "stand-in" : "interlude" }

    func run() -> Report {
        progress("interlude: \(options.standIn ? "stand-in (C references in its place)" : interlude)")
        progress("fixtures: \(Fixtures.directory)")
        guard checkPrerequisites() else { return report }
        if options.standIn {
            report.notes.append("--stand-in: the interlude column is the C reference player, not interlude")
        }
        if options.only.contains("decode") { measure("decode throughput", decodeThroughput) }
        if options.only.contains("startup") { measure("start-up", startup) }
        if options.only.contains("seek") { measure("seek", seekTime) }
        if options.only.contains("formats") {
            measure("formats decode throughput", formatDecodeThroughput)
            measure("formats seek", formatSeekTime)
        }
        if options.only.contains("library") { measure("library", libraryBench) }
        if options.only.contains("podcasts") { measure("podcasts", podcastCost) }
        if options.only.contains("cpu") || options.only.contains("underruns") || options.only.contains("preemption")
            || options.only.contains("tui") || options.only.contains("mpris")
            || options.only.contains("desktop") || options.only.contains("formats") || options.only.contains("library")
            || options.only.contains("cover") || options.only.contains("titles") || options.only.contains("streams") || options.only.contains("mpd")
            || options.only.contains("podcasts") || options.only.contains("idle") || options.only.contains("spoken")
            || options.only.contains("rooms") {
            let server: PulseServer
            do {
                progress("starting a private PulseAudio server")
                server = try PulseServer.start()
            } catch {
                report.notRun.append("play benchmarks: \(error)")
                return report
            }
            defer { server.stop() }
            if options.only.contains("cpu") {
                measure("release binary type", positionIndependence)
                measure("play CPU and RSS") { try playCost(server.defaultSink) }
            }
            if options.only.contains("underruns") { measure("underruns under load") { try underrunsUnderLoad(server.defaultSink) } }
            if options.only.contains("preemption") { measure("preemption latency") { try preemptionLatency(server.defaultSink) } }
            if options.only.contains("tui") { measure("full-screen player CPU") { try tuiCost(server.defaultSink) } }
            if options.only.contains("mpris") { measure("MPRIS CPU") { try mprisCost(server.defaultSink) } }
            if options.only.contains("desktop") { measure("desktop interruptions") { try desktopCost(server.defaultSink) } }
            if options.only.contains("formats") { measure("formats play CPU and RSS") { try formatPlayCost(server.defaultSink) } }
            // --keep-library is for working on the rows of the kept trees; this one makes its own.
            if options.only.contains("library"), options.keepLibrary == nil {
                measure("library scan while playing") { try libraryScanWhilePlaying(server.defaultSink) }
            }
            if options.only.contains("cover") { measure("cover art") { try coverArtCost(server.defaultSink) } }
            if options.only.contains("titles") { measure("station titles") { try titleLatency(server.defaultSink) } }
            if options.only.contains("streams") { measure("streams") { try streamCost(server.defaultSink) } }
            if options.only.contains("podcasts") { measure("podcast keys during a refresh") { try podcastKeyLatency(server.defaultSink) } }
            if options.only.contains("mpd") { measure("MPD replies") { try mpdReplyTimes(server.defaultSink) } }
            if options.only.contains("idle") { measure("paused with alarms armed") { try idleCost(server.defaultSink) } }
            if options.only.contains("spoken") { measure("spoken audio") { try spokenCost(server.defaultSink) } }
            if options.only.contains("rooms") { measure("rooms") { try roomsCost(server.defaultSink) } }
        }
        return report
    }

    private func measure(_ name: String, _ body: () throws -> Void) {
        do { try body() } catch { report.notRun.append("\(name): \(error)") }
    }

    private func checkPrerequisites() -> Bool {
        var missing: [String] = []
        for tool in ["sox", "lame", "mpg123", "pulseaudio", "parec", "pactl", "stress-ng"] where ProcessRunner.which(tool) == nil {
            missing.append("\(tool) is not installed (make deps installs it)")
        }
        for binary in [referenceDecoder, referencePlayer, measureTool, referenceDropper] where access(binary, X_OK) != 0 {
            missing.append("\(binary) is missing: build it with `make bench`")
        }
        if !options.standIn && access(interlude, X_OK) != 0 {
            missing.append("\(interlude) is missing: `make release` builds it (or set INTERLUDE_BIN; --stand-in measures the harness alone)")
        }
        report.notRun += missing
        // Interlude alone missing still lets the peers run, so the harness itself is exercised.
        return missing.allSatisfy { $0.hasPrefix(interlude) }
    }

    var interludeAvailable: Bool { options.standIn || access(interlude, X_OK) == 0 }

    // MARK: Seek

    /// Exact seeks in a 3-hour 64 kbps mono MP3 without a Xing/Info frame: a
    /// one-minute `lame -t` file concatenated 180 times (made once, kept with the
    /// fixtures). `interlude bench seek` prints the median seek on an open decoder
    /// and the median of a fresh open plus its first seek, over 50 seeded points.
    private func seekTime() throws {
        guard !options.standIn else {
            report.notes.append("seek: no C reference to stand in for interlude; skipped")
            return
        }
        progress("seek: making the 3-hour file (a one-minute CBR 64 kbps mono MP3 without Xing frame, 180 times)")
        let minute = try Fixtures.wav(.sweep, seconds: 60, sampleRate: 44100, channels: 1)
        let file = try Fixtures.concatenated(Fixtures.encodeWithoutInfoFrame(minute, kbps: 64), times: 180)
        let result = try ProcessRunner.run(interlude, ["bench", "seek", file, "--points", "50"], timeout: 300).check()
        let line = result.stdoutText.split(separator: "\n").first.map(String.init) ?? ""
        let numbers = line.split(separator: " ").compactMap { Double($0) }
        guard numbers.count >= 2 else {
            throw ProcessError.notReady("`\(result.commandLine)` printed \"\(line)\", not \"<ms> ms median seek ...; <ms> ms median open + first seek\"")
        }
        progress("seek: \(line)")
        report.rows.append(ResultRow(measure: "seek in a 3 h Xing-less MP3, ms (median of 50, decoder open)",
                                     subject: formatted(numbers[0], 3), peer: "", ratio: nil, target: "< 20",
                                     passed: numbers[0] < 20))
        report.rows.append(ResultRow(measure: "open + first seek there, ms (median of 50 fresh opens)",
                                     subject: formatted(numbers[1], 3), peer: "", ratio: nil, target: "", passed: nil))
    }

    // MARK: 1. Decode throughput

    private func decodeThroughput() throws {
        let minutes = Int(options.decodeSeconds / 60)
        progress("decode: making a \(minutes) min 128 kbps stereo MP3 (kept in the fixture directory)")
        let file = try Fixtures.mp3(.sweep, seconds: options.decodeSeconds, encoding: .cbr(kbps: 128))
        var subject: [Double] = []
        var peer: [Double] = []
        var subjectError: String?
        // Alternate the two so drifting machine load affects both alike.
        for run in 1...options.decodeRuns {
            if interludeAvailable && subjectError == nil {
                let command = options.standIn ? [referenceDecoder, file] : [interlude, "bench", "decode", file]
                do { subject.append(try decodeRate(command)) } catch { subjectError = "\(error)" }
            }
            peer.append(try decodeRate([referenceDecoder, file]))
            progress("decode run \(run): \(subject.last.map { formatted($0, 0) } ?? "-") vs \(formatted(peer.last!, 0)) s audio per CPU s")
        }
        if let subjectError { report.notRun.append("interlude bench decode: \(subjectError)") }
        let peerMedian = median(peer)
        let subjectMedian = subject.isEmpty ? nil : median(subject)
        let ratio = subjectMedian.map { $0 / peerMedian }
        report.rows.append(ResultRow(
            measure: "decode, x real time per CPU s (median of \(options.decodeRuns), \(minutes) min file)",
            subject: subjectMedian.map { formatted($0, 0) } ?? "not run",
            peer: "\(formatted(peerMedian, 0)) ref_decode", ratio: ratio, target: ">= 0.95",
            passed: ratio.map { $0 >= 0.95 }))
    }

    /// Runs a decoder and reads the number its one line starts with.
    private func decodeRate(_ command: [String]) throws -> Double {
        let result = try ProcessRunner.run(command[0], Array(command.dropFirst()), timeout: 300).check()
        let firstLine = result.stdoutText.split(separator: "\n").first ?? ""
        guard let word = firstLine.split(separator: " ").first, let value = Double(word) else {
            throw ProcessError.notReady("`\(result.commandLine)` printed \"\(firstLine)\", not \"<number> seconds of audio per CPU second\"")
        }
        return value
    }

    // MARK: 2. Play CPU and RSS

    /// The release binary is a PIE: linked position-dependent it
    /// gives up ASLR for the executable. Its cost shows in the RSS row below.
    private func positionIndependence() throws {
        guard !options.standIn, interludeAvailable else { return }
        let type = try ELFType(path: interlude)
        report.rows.append(ResultRow(measure: "release binary, ELF type (readelf -h)", subject: type.description,
                                     peer: "", ratio: nil, target: "DYN (a PIE)", passed: type == .shared))
    }

    private func playCost(_ sink: NullSink) throws {
        let seconds = options.playSeconds
        let file = try Fixtures.mp3(.sweep, seconds: seconds, encoding: .cbr(kbps: 128))
        progress("play: \(Int(seconds)) s through the null sink, one player after the other (about \(Int(seconds * 3.2)) s)")

        // Players take turns, run after run, so drifting machine load affects all alike.
        var subjectRuns: [PlayMeasurement] = []
        var mpg123Runs: [PlayMeasurement] = []
        var referenceRuns: [PlayMeasurement] = []
        var subjectFailed = !interludeAvailable
        for _ in 0..<options.playRuns {
            if !subjectFailed {
                let command = options.standIn ? [referencePlayer, file, "pulse"] : [interlude, "play", file, "--device", "pulse"]
                do { subjectRuns.append(try play(command, sink: sink, expected: seconds)) } catch {
                    report.notRun.append("interlude play: \(error)")
                    subjectFailed = true
                }
            }
            mpg123Runs.append(try play(["mpg123", "-q", "-o", "alsa", "-a", "pulse", file], sink: sink, expected: seconds))
            referenceRuns.append(try play([referencePlayer, file, "pulse"], sink: sink, expected: seconds))
        }
        let subject = subjectRuns.isEmpty ? nil : medianRun(subjectRuns)
        let mpg123 = medianRun(mpg123Runs)
        let reference = medianRun(referenceRuns)

        for (name, measurement) in [(subjectName, subject), ("mpg123", mpg123), ("ref_play", reference)] {
            guard let measurement else { continue }
            let usage = measurement.process.usage
            report.notes.append(String(format: "%@: CPU %.3f s (user %.3f, sys %.3f), peak RSS %.1f MB, played %.3f s of %.0f, %d gaps > 5 ms",
                                       name, usage.cpuSeconds, usage.userSeconds, usage.systemSeconds,
                                       usage.maxRSSMegabytes, measurement.playedSeconds, seconds, measurement.gaps))
        }
        let runsLabel = options.playRuns == 1 ? "1 run" : "median of \(options.playRuns)"
        let cpuRatio = subject.map { $0.process.usage.cpuSeconds / max(mpg123.process.usage.cpuSeconds, 1e-6) }
        report.rows.append(ResultRow(
            measure: "play \(Int(seconds)) s via pulse, CPU user+sys s (\(runsLabel))",
            subject: subject.map { formatted($0.process.usage.cpuSeconds, 3) } ?? "not run",
            peer: "\(formatted(mpg123.process.usage.cpuSeconds, 3)) mpg123 / \(formatted(reference.process.usage.cpuSeconds, 3)) ref_play",
            ratio: cpuRatio, target: "<= 1.0 x mpg123", passed: cpuRatio.map { $0 <= 1.0 }))
        let rss = subject.map(\.process.usage.maxRSSMegabytes)
        report.rows.append(ResultRow(
            measure: "play \(Int(seconds)) s via pulse, peak RSS MB (\(runsLabel))",
            subject: rss.map { formatted($0, 1) } ?? "not run",
            peer: "\(formatted(mpg123.process.usage.maxRSSMegabytes, 1)) mpg123 / \(formatted(reference.process.usage.maxRSSMegabytes, 1)) ref_play",
            ratio: rss.map { $0 / mpg123.process.usage.maxRSSMegabytes }, target: "<= 12 MB", passed: rss.map { $0 <= 12 }))
    }

    /// The run with the median CPU time, its RSS replaced by the median RSS.
    func medianRun(_ runs: [PlayMeasurement]) -> PlayMeasurement {
        let sorted = runs.sorted { $0.process.usage.cpuSeconds < $1.process.usage.cpuSeconds }
        var chosen = sorted[(sorted.count - 1) / 2]
        chosen.process.usage.userSeconds = median(runs.map(\.process.usage.userSeconds))
        chosen.process.usage.systemSeconds = median(runs.map(\.process.usage.systemSeconds))
        chosen.process.usage.maxRSSKilobytes = Int(median(runs.map { Double($0.process.usage.maxRSSKilobytes) }))
        chosen.gaps = runs.map(\.gaps).max() ?? 0
        return chosen
    }

    /// Plays through `sink` with a recorder attached (design.md §7.1: without one the null
    /// sink runs ahead and timing is off) and measures the process and the capture.
    func play(_ command: [String], sink: NullSink, expected: Double, extraEnvironment: [String: String] = [:]) throws -> PlayMeasurement {
        let recorder = try sink.startRecorder()
        // Through `measure`: spawned straight from this process, a child's ru_maxrss would
        // start at this process's own RSS (see bench/c/measure.c).
        let statsPath = ScratchFiles.makeDirectory("measure") + "/stats"
        var result: ProcessResult
        do {
            result = try ProcessRunner.run(measureTool, [statsPath] + command,
                                           environment: sink.environment.merging(extraEnvironment) { _, new in new },
                                           timeout: expected * 2 + 30)
        } catch {
            _ = try? recorder.stop()
            throw error
        }
        let capture = try recorder.stop()
        try result.check()
        let stats = ((try? String(contentsOfFile: statsPath, encoding: .utf8)) ?? "").split(separator: " ")
        guard stats.count == 3, let rss = Int(stats[0]), let user = Double(stats[1]),
              let system = Double(stats[2].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ProcessError.notReady("\(measureTool) left no statistics for `\(result.commandLine)`")
        }
        result.usage = ResourceUsage(userSeconds: user, systemSeconds: system, maxRSSKilobytes: rss)
        let bounds = SignalAnalysis.signalBounds(capture) ?? 0..<0
        let minimum = SignalAnalysis.frames(milliseconds: 5, sampleRate: capture.sampleRate)
        let gaps = SignalAnalysis.silentRuns(capture, minimumFrames: minimum + 1)
        let longest = gaps.map(\.count).max() ?? 0
        return PlayMeasurement(process: result, playedSeconds: Double(bounds.count) / Double(capture.sampleRate),
                               gaps: gaps.count, longestGapMilliseconds: Double(longest) * 1000 / Double(capture.sampleRate))
    }

    // MARK: 3. Start-up

    private func startup() throws {
        let file = try Fixtures.mp3(.sweep, seconds: 0.5, encoding: .cbr(kbps: 128))
        let subjectCommand = options.standIn ? [referencePlayer, file, "null"] : [interlude, "play", file, "--output", "null"]
        let peerCommand = ["mpg123", "-q", "-w", "/dev/null", file]
        var subject: [Double] = []
        var peer: [Double] = []
        var subjectError: String?
        for _ in 0..<options.startupRuns {
            if interludeAvailable && subjectError == nil {
                do {
                    subject.append(try ProcessRunner.run(subjectCommand[0], Array(subjectCommand.dropFirst()), timeout: 30).check().wallSeconds)
                } catch { subjectError = "\(error)" }
            }
            peer.append(try ProcessRunner.run(peerCommand[0], Array(peerCommand.dropFirst()), timeout: 30).check().wallSeconds)
        }
        if let subjectError { report.notRun.append("interlude play --output null: \(subjectError)") }
        let peerMedian = median(peer)
        let subjectMedian = subject.isEmpty ? nil : median(subject)
        report.rows.append(ResultRow(
            measure: "start-up, 0.5 s file to null, wall ms (median of \(options.startupRuns))",
            subject: subjectMedian.map { formatted($0 * 1000, 1) } ?? "not run",
            peer: "\(formatted(peerMedian * 1000, 1)) mpg123 -w /dev/null", ratio: subjectMedian.map { $0 / peerMedian },
            target: "", passed: nil))
    }

    // MARK: 5. Preemption latency

    /// From an alarm's due time to the media's silence, next to the same audio
    /// path's own stopping latency (a lean C program: delay, then drop). Both at
    /// interlude's default 300 ms device buffer, each with a recorder attached, and
    /// both measured in the capture from the frame heard at the due time (frames
    /// written - delay) to the media's last frame.
    ///
    /// Interlude: the alarm sound is a silent MP3, so the media's end is where the
    /// capture falls silent (the first 100 ms of silence after the due frame); the
    /// due frame is `pauseRequested`'s position. The reference: the frame it printed
    /// as heard when it dropped, and the last media frame the capture still holds.
    private func preemptionLatency(_ sink: NullSink) throws {
        let file = try Fixtures.mp3(.sweep, seconds: 6, encoding: .cbr(kbps: 128))
        let silence = try Fixtures.mp3(.tone(frequency: 0), seconds: 1, encoding: .cbr(kbps: 128))
        let source = try WAVFile.read(Fixtures.decodedByMPG123(file))
        let rate = source.sampleRate
        let fadeSeconds = 0.030
        var subject: [Double] = []
        var peer: [Double] = []
        var subjectError: String?
        progress("preemption: \(options.preemptionRuns) alarms and \(options.preemptionRuns) drops, one after the other")
        for _ in 0..<options.preemptionRuns {
            if !options.standIn && interludeAvailable && subjectError == nil {
                do {
                    let recorder = try sink.startRecorder()
                    let result = try InterludeBinary.play([file], output: .pulse(sink),
                                                          extraArguments: ["--alarm-in", "2", "--alarm-ring", "0.5",
                                                                           "--alarm-sound", silence],
                                                          timeout: 60, configuration: "release")
                    let capture = try recorder.stop()
                    try result.process.check()
                    guard let dueSeconds = result.events.named("pauseRequested").first?.number("position") else {
                        throw ProcessError.notReady("no pauseRequested event from `\(result.process.commandLine)`")
                    }
                    let head = SignalAnalysis.align(reference: source.frames(0..<rate),
                                                    signal: capture.frames(0..<min(capture.frameCount, 4 * rate)),
                                                    minimumOverlap: 0.99)
                    let due = head.lag + Int((dueSeconds * Double(rate)).rounded())
                    let after = capture.frames(due..<min(capture.frameCount, due + 2 * rate))
                    guard let end = SignalAnalysis.silentRuns(after, threshold: 0, minimumFrames: rate / 10).first?.lowerBound else {
                        throw ProcessError.notReady("the capture never fell silent after the alarm was due")
                    }
                    subject.append(Double(end) / Double(rate))
                } catch { subjectError = "\(error)" }
            }
            let recorder = try sink.startRecorder()
            let result = try ProcessRunner.run(referenceDropper, [file, "pulse", "300", "2"], environment: sink.environment,
                                               timeout: 30)
            usleep(300_000)
            let capture = try recorder.stop()
            try result.check()
            guard let heard = Int(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)),
                  let bounds = SignalAnalysis.signalBounds(capture) else {
                throw ProcessError.notReady("ref_drop printed no position, or the capture is silent")
            }
            let head = SignalAnalysis.align(reference: source.frames(0..<rate),
                                            signal: capture.frames(0..<min(capture.frameCount, 4 * rate)), minimumOverlap: 0.99)
            peer.append(Double(bounds.upperBound - head.lag - heard) / Double(rate))
        }
        if let subjectError { report.notRun.append("interlude play --alarm-in: \(subjectError)") }
        let peerMedian = median(peer)
        let subjectMedian = subject.isEmpty ? nil : median(subject)
        report.rows.append(ResultRow(
            measure: "preemption, alarm due -> media silent, ms (median of \(options.preemptionRuns), 300 ms buffer)",
            subject: subjectMedian.map { formatted($0 * 1000, 1) } ?? "not run",
            peer: "\(formatted(peerMedian * 1000, 1)) ref_drop (delay, drop)",
            ratio: subjectMedian.map { $0 / max(peerMedian, 1e-6) },
            target: "<= peer + \(Int(fadeSeconds * 1000) + 10) ms",
            passed: subjectMedian.map { $0 - peerMedian <= fadeSeconds + 0.010 }))
        // The first alarm of the run on its own: a real alarm is nearly always the
        // first in hours, with cold pages and caches.
        if let first = subject.first, let subjectMedian {
            report.rows.append(ResultRow(
                measure: "preemption, the first of the \(options.preemptionRuns) alarms (cold), ms",
                subject: formatted(first * 1000, 1), peer: "\(formatted(subjectMedian * 1000, 1)) interlude's median",
                ratio: first / max(subjectMedian, 1e-6), target: "<= median + 10 ms",
                passed: first - subjectMedian <= 0.010))
        }
        report.notes.append("preemption: interlude \(subject.map { formatted($0 * 1000, 0) }.joined(separator: " ")) ms; "
                            + "ref_drop \(peer.map { formatted($0 * 1000, 0) }.joined(separator: " ")) ms")
    }

    // MARK: 4. Underruns under load

    private func underrunsUnderLoad(_ sink: NullSink) throws {
        guard interludeAvailable else {
            report.rows.append(ResultRow(measure: "underruns under stress-ng --cpu 2", subject: "not run", peer: "",
                                         ratio: nil, target: "0 and 0", passed: nil))
            return
        }
        let seconds = options.playSeconds
        let file = try Fixtures.mp3(.sweep, seconds: seconds, encoding: .cbr(kbps: 128))
        progress("underruns: \(Int(seconds)) s under stress-ng --cpu 2")
        // stress-ng's own --timeout is a backstop: it ends by itself even if this process dies.
        let stress = try BackgroundProcess.start("stress-ng", ["--cpu", "2", "--timeout", "\(Int(seconds * 2 + 60))s", "--quiet"],
                                                 stdout: .discard, stderr: .discard)
        defer { stress.stop(signal: SIGTERM, grace: 5) }
        usleep(500_000)  // let the workers start before the measured run
        guard stress.isRunning else { throw ProcessError.failed(stress.wait()) }

        let command = options.standIn ? [referencePlayer, file, "pulse"]
            : [interlude, "play", file, "--device", "pulse", "--events", "json"]
        let measurement: PlayMeasurement
        do { measurement = try play(command, sink: sink, expected: seconds) } catch {
            report.rows.append(ResultRow(measure: "underruns under stress-ng --cpu 2", subject: "not run", peer: "",
                                         ratio: nil, target: "0 and 0", passed: nil))
            throw error
        }
        var underruns: Int
        if options.standIn {
            // ref_play reports "ref_play: N underruns" on stderr when there were any.
            underruns = measurement.process.stderrText.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        } else {
            let events = EventLog(stdout: measurement.process.stdoutText)
            underruns = events.underrunCount
            if let reported = events.reportedUnderruns, reported != underruns {
                report.notes.append("interlude's finished event says \(reported) underruns, its underrun events \(underruns)")
                underruns = max(underruns, reported)
            }
            if !events.invalidLines.isEmpty {
                report.notes.append("interlude printed \(events.invalidLines.count) stdout lines that are not events, e.g. \(events.invalidLines[0])")
            }
        }
        // The peer under the same load shows how hard the load is (mpg123 has no event stream:
        // its gaps in the capture are the measure).
        progress("underruns: the same \(Int(seconds)) s with mpg123 under the same load")
        let peer = try play(["mpg123", "-q", "-o", "alsa", "-a", "pulse", file], sink: sink, expected: seconds)
        for (name, run) in [(subjectName, measurement), ("mpg123", peer)] {
            report.notes.append(String(format: "under load, %@: played %.3f s of %.0f, %d gaps > 5 ms, longest %.1f ms, CPU %.3f s",
                                       name, run.playedSeconds, seconds, run.gaps, run.longestGapMilliseconds,
                                       run.process.usage.cpuSeconds))
        }
        report.rows.append(ResultRow(
            measure: "underruns under stress-ng --cpu 2, \(Int(seconds)) s (writer events, capture gaps > 5 ms)",
            subject: "\(underruns), \(measurement.gaps)", peer: "\(peer.gaps) gaps mpg123", ratio: nil, target: "0 and 0",
            passed: underruns == 0 && measurement.gaps == 0))
    }
}
