import Foundation
import TestSupport

/// The formats FFmpeg's libraries decode, beside FFmpeg's own
/// programs and mpv (installed by `scripts/install-deps.sh --bench`).
extension Bench {
    /// Acceptance 8: 60 s of AAC and of FLAC through the null sink, interlude
    /// beside `ffmpeg -f alsa pulse` and `mpv --no-video --ao=alsa`, one after
    /// the other, run after run: CPU at most either peer's, peak RSS at most
    /// 20 MB and half of mpv's.
    func formatPlayCost(_ sink: NullSink) throws {
        guard ready("formats", needsInterlude: false, tools: ["ffmpeg", "mpv"]) else { return }
        let seconds = options.playSeconds
        let wav = try Fixtures.wav(.sweep, seconds: seconds, sampleRate: 44100, channels: 2)
        for codec in [Fixtures.Codec.aac, .flac16] {
            let file = try Fixtures.encode(wav, as: codec)
            let label = codec == .aac ? "AAC (M4A)" : "FLAC"
            progress("formats: \(label), \(Int(seconds)) s through the null sink, interlude, ffmpeg and mpv in turn")
            var subjectRuns: [PlayMeasurement] = []
            var ffmpegRuns: [PlayMeasurement] = []
            var mpvRuns: [PlayMeasurement] = []
            var subjectFailed = !interludeAvailable || options.standIn
            for _ in 0..<options.playRuns {
                if !subjectFailed {
                    do { subjectRuns.append(try play([interlude, "play", file, "--device", "pulse"], sink: sink, expected: seconds)) } catch {
                        report.notRun.append("interlude play \(label): \(error)")
                        subjectFailed = true
                    }
                }
                ffmpegRuns.append(try play(["ffmpeg", "-nostdin", "-v", "error", "-i", file, "-f", "alsa", "pulse"],
                                           sink: sink, expected: seconds))
                mpvRuns.append(try play(["mpv", "--no-config", "--no-video", "--really-quiet", "--ao=alsa",
                                         "--audio-device=alsa/pulse", file], sink: sink, expected: seconds))
            }
            let subject = subjectRuns.isEmpty ? nil : medianRun(subjectRuns)
            let ffmpeg = medianRun(ffmpegRuns)
            let mpv = medianRun(mpvRuns)
            for (name, measurement) in [("interlude", subject), ("ffmpeg", ffmpeg), ("mpv", mpv)] {
                guard let measurement else { continue }
                let usage = measurement.process.usage
                report.notes.append(String(format: "%@ %@: CPU %.3f s (user %.3f, sys %.3f), peak RSS %.1f MB, played %.3f s of %.0f, %d gaps > 5 ms",
                                           label, name, usage.cpuSeconds, usage.userSeconds, usage.systemSeconds,
                                           usage.maxRSSMegabytes, measurement.playedSeconds, seconds, measurement.gaps))
            }
            let runsLabel = options.playRuns == 1 ? "1 run" : "median of \(options.playRuns)"
            let cheapestPeer = min(ffmpeg.process.usage.cpuSeconds, mpv.process.usage.cpuSeconds)
            let cpuRatio = subject.map { $0.process.usage.cpuSeconds / max(cheapestPeer, 1e-6) }
            report.rows.append(ResultRow(
                measure: "play \(Int(seconds)) s \(label) via pulse, CPU user+sys s (\(runsLabel))",
                subject: subject.map { formatted($0.process.usage.cpuSeconds, 3) } ?? "not run",
                peer: "\(formatted(ffmpeg.process.usage.cpuSeconds, 3)) ffmpeg / \(formatted(mpv.process.usage.cpuSeconds, 3)) mpv",
                ratio: cpuRatio, target: "<= 1.0 x the cheaper", passed: cpuRatio.map { $0 <= 1.0 }))
            let rss = subject.map(\.process.usage.maxRSSMegabytes)
            let mpvRSS = mpv.process.usage.maxRSSMegabytes
            report.rows.append(ResultRow(
                measure: "play \(Int(seconds)) s \(label) via pulse, peak RSS MB (\(runsLabel))",
                subject: rss.map { formatted($0, 1) } ?? "not run",
                peer: "\(formatted(ffmpeg.process.usage.maxRSSMegabytes, 1)) ffmpeg / \(formatted(mpvRSS, 1)) mpv",
                ratio: rss.map { $0 / mpvRSS }, target: "<= 20 MB and <= 0.5 x mpv",
                passed: rss.map { $0 <= 20 && $0 <= mpvRSS / 2 }))
        }
    }

    /// Acceptance 8's last part: decoding speed per CPU second, interlude's
    /// whole decode path (`interlude bench decode`: decoder, conversion, ring)
    /// against `ffmpeg -f null` (demux, decode, convert to s16, discard).
    func formatDecodeThroughput() throws {
        guard ready("formats decode", needsInterlude: false, tools: ["ffmpeg"]) else { return }
        guard interludeAvailable, !options.standIn else { return }
        let seconds = options.decodeSeconds
        let wav = try Fixtures.wav(.sweep, seconds: seconds, sampleRate: 44100, channels: 2)
        for codec in [Fixtures.Codec.aac, .flac16] {
            let file = try Fixtures.encode(wav, as: codec)
            let label = codec == .aac ? "AAC" : "FLAC"
            var subject: [Double] = []
            var peer: [Double] = []
            for run in 1...options.decodeRuns {
                let result = try ProcessRunner.run(interlude, ["bench", "decode", file], timeout: 600).check()
                let word = result.stdoutText.split(separator: " ").first.map(String.init) ?? ""
                guard let rate = Double(word) else {
                    throw ProcessError.notReady("`\(result.commandLine)` printed \"\(result.stdoutText)\"")
                }
                subject.append(rate)
                let statsPath = ScratchFiles.makeDirectory("measure") + "/stats"
                try ProcessRunner.run(measureTool, [statsPath, "ffmpeg", "-nostdin", "-v", "error", "-i", file, "-f", "null", "-"],
                                      timeout: 600).check()
                let stats = ((try? String(contentsOfFile: statsPath, encoding: .utf8)) ?? "").split(separator: " ")
                guard stats.count == 3, let user = Double(stats[1]),
                      let system = Double(stats[2].trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    throw ProcessError.notReady("\(measureTool) left no statistics for ffmpeg -f null")
                }
                peer.append(seconds / max(user + system, 1e-6))
                progress("formats decode \(label) run \(run): \(formatted(subject.last!, 0)) vs \(formatted(peer.last!, 0)) s audio per CPU s")
            }
            let ratio = median(subject) / median(peer)
            report.rows.append(ResultRow(
                measure: "decode \(label), x real time per CPU s (median of \(options.decodeRuns), \(Int(seconds / 60)) min file)",
                subject: formatted(median(subject), 0), peer: "\(formatted(median(peer), 0)) ffmpeg -f null",
                ratio: ratio, target: ">= 0.9", passed: ratio >= 0.9))
        }
    }

    /// Acceptance 5: exact seeks in a 3-hour 64 kbps AAC M4B (encoded once from
    /// a looped minute, kept with the fixtures): the median seek on an open
    /// decoder and the median of a fresh open plus its first seek, 50 points.
    func formatSeekTime() throws {
        guard interludeAvailable, !options.standIn else { return }
        progress("formats seek: making the 3-hour AAC M4B (about a minute of encoding, once)")
        let file = try Fixtures.longAAC(minutes: 180)
        let result = try ProcessRunner.run(interlude, ["bench", "seek", file, "--points", "50"], timeout: 600).check()
        let line = result.stdoutText.split(separator: "\n").first.map(String.init) ?? ""
        let numbers = line.split(separator: " ").compactMap { Double($0) }
        guard numbers.count >= 2 else {
            throw ProcessError.notReady("`\(result.commandLine)` printed \"\(line)\"")
        }
        progress("formats seek: \(line)")
        report.rows.append(ResultRow(measure: "seek in a 3 h 64 kbps AAC M4B, ms (median of 50, decoder open)",
                                     subject: formatted(numbers[0], 3), peer: "", ratio: nil, target: "< 20",
                                     passed: numbers[0] < 20))
        report.rows.append(ResultRow(measure: "open + first seek in the M4B, ms (median of 50 fresh opens)",
                                     subject: formatted(numbers[1], 3), peer: "", ratio: nil, target: "< 20",
                                     passed: numbers[1] < 20))
    }
}
