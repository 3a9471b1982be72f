import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Stations from a local Icecast server (the test
/// harness's, `IcecastServer`), each player for the same wall time through
/// the private null sink, one after the other: interlude, `mpv --no-video`
/// and `ffplay -nodisp`. For each: CPU and peak RSS (through `measure`), the
/// time from its start to its first sound (the capture's first non-silent
/// frame, counted from the frames the recorder held when the player was
/// started: every player carries the same recorder latency), and the gaps in
/// the capture; then interlude again under `stress-ng --cpu 2`; and a local
/// MP3 file's playback, whose maps must hold no network library.
///
/// The 64 kbit/s AAC mount is AAC-LC: Debian's FFmpeg has no HE-AAC encoder
/// (its native `aac` takes no `aac_he` profile, "MPEG-4 AOT 21 is not allowed
/// in ADTS", and `libfdk_aac` is not built in), so LC at the same bitrate is
/// the nearest a local server can send. The players decode it with the same
/// FFmpeg decoder (mpv's and ffplay's are libavcodec too).
extension Bench {
    struct StationRun {
        var usage: ResourceUsage
        var firstSoundSeconds: Double
        var playedSeconds: Double
        var gaps: Int
        var longestGapMilliseconds: Double
    }

    func streamCost(_ sink: NullSink) throws {
        guard ready("streams", tools: ["icecast2", "ffmpeg", "mpv", "ffplay", "stress-ng"]) else { return }
        let seconds = options.playSeconds
        let server = try IcecastServer.start()
        defer { server.stop() }
        let source = try Fixtures.wav(.sweep, seconds: 60)
        let mounts: [(mount: String, format: IcecastServer.SourceFormat, label: String)] = [
            ("bench.mp3", .mp3, "MP3 128k"), ("bench.aac", .aac, "AAC-LC 64k"),
        ]
        for mount in mounts { try server.startSource(mount: mount.mount, wav: source, format: mount.format, name: "Bench Radio") }
        // Every player meets a full burst on connect (64 KiB: 4.1 s of the MP3
        // mount, 8.2 s of the AAC one): the first to connect, interlude, met
        // the MP3 mount a second after its source started, with a second of
        // burst, where the players after it had four.
        usleep(9_000_000)
        progress("streams: \(Int(seconds)) s of each mount with interlude, mpv and ffplay (about \(Int(seconds * 7)) s)")
        for mount in mounts {
            let url = server.url(mount.mount)
            var runs: [String: [StationRun]] = [:]
            let players: [(String, [String], [String: String])] = [
                ("interlude", [interlude, "play", url, "--device", "pulse"], [:]),
                ("mpv", ["mpv", "--no-config", "--no-video", "--ao=pulse", "--really-quiet", url], [:]),
                ("ffplay", ["ffplay", "-nodisp", "-loglevel", "error", url], ["SDL_AUDIODRIVER": "pulseaudio"]),
            ]
            for _ in 0..<options.playRuns {
                for (name, command, environment) in players {
                    runs[name, default: []].append(try playStation(command, sink: sink, seconds: seconds, environment: environment))
                }
            }
            let subject = medianStation(runs["interlude"]!)
            let mpv = medianStation(runs["mpv"]!)
            let ffplay = medianStation(runs["ffplay"]!)
            for (name, run) in [("interlude", subject), ("mpv", mpv), ("ffplay", ffplay)] {
                report.notes.append(String(format: "%@ %@: CPU %.3f s (user %.3f, sys %.3f), peak RSS %.1f MB, first sound %.0f ms, "
                                           + "played %.3f s, %d gaps > 5 ms", mount.label, name, run.usage.cpuSeconds,
                                           run.usage.userSeconds, run.usage.systemSeconds, run.usage.maxRSSMegabytes,
                                           run.firstSoundSeconds * 1000, run.playedSeconds, run.gaps))
            }
            let runsLabel = options.playRuns == 1 ? "1 run" : "median of \(options.playRuns)"
            let cheapest = min(mpv.usage.cpuSeconds, ffplay.usage.cpuSeconds)
            report.rows.append(ResultRow(
                measure: "station \(mount.label) \(Int(seconds)) s, CPU user+sys s (\(runsLabel))",
                subject: formatted(subject.usage.cpuSeconds, 3),
                peer: "\(formatted(mpv.usage.cpuSeconds, 3)) mpv / \(formatted(ffplay.usage.cpuSeconds, 3)) ffplay",
                ratio: subject.usage.cpuSeconds / max(cheapest, 1e-6), target: "<= both",
                passed: subject.usage.cpuSeconds <= cheapest))
            report.rows.append(ResultRow(
                measure: "station \(mount.label) \(Int(seconds)) s, peak RSS MB (\(runsLabel))",
                subject: formatted(subject.usage.maxRSSMegabytes, 1),
                peer: "\(formatted(mpv.usage.maxRSSMegabytes, 1)) mpv / \(formatted(ffplay.usage.maxRSSMegabytes, 1)) ffplay",
                ratio: subject.usage.maxRSSMegabytes / max(mpv.usage.maxRSSMegabytes, 1e-6), target: "<= 20 MB",
                passed: subject.usage.maxRSSMegabytes <= 20))
            report.rows.append(ResultRow(
                measure: "station \(mount.label), start to first sound, ms (\(runsLabel))",
                subject: formatted(subject.firstSoundSeconds * 1000, 0),
                peer: "\(formatted(mpv.firstSoundSeconds * 1000, 0)) mpv / \(formatted(ffplay.firstSoundSeconds * 1000, 0)) ffplay",
                ratio: subject.firstSoundSeconds / max(mpv.firstSoundSeconds, 1e-6), target: "<= mpv",
                passed: subject.firstSoundSeconds <= mpv.firstSoundSeconds))
        }

        // The same stations under load: the gaps are the capture's.
        let stress = try BackgroundProcess.start("stress-ng", ["--cpu", "2", "--timeout", "\(Int(seconds * 2 * Double(mounts.count) + 60))s", "--quiet"],
                                                 stdout: .discard, stderr: .discard)
        defer { stress.stop(signal: SIGTERM, grace: 5) }
        usleep(500_000)
        guard stress.isRunning else { throw ProcessError.failed(stress.wait()) }
        var loaded: [String] = []
        var gaps = 0
        for mount in mounts {
            let run = try playStation([interlude, "play", server.url(mount.mount), "--device", "pulse"], sink: sink, seconds: seconds)
            loaded.append("\(mount.label) \(run.gaps) (longest \(formatted(run.longestGapMilliseconds, 1)) ms, played \(formatted(run.playedSeconds, 1)) s)")
            gaps += run.gaps
        }
        report.rows.append(ResultRow(
            measure: "stations under stress-ng --cpu 2, \(Int(seconds)) s each, capture gaps > 5 ms",
            subject: loaded.joined(separator: "; "), peer: "", ratio: nil, target: "0", passed: gaps == 0))
        stress.stop(signal: SIGTERM, grace: 5)

        try fileMapsNoNetwork(sink)
    }

    /// A local MP3's playback loads no network library: libavformat (whose
    /// protocols a station uses), libcurl, and the TLS libraries are absent
    /// from the player's `/proc/PID/maps` while it plays.
    private func fileMapsNoNetwork(_ sink: NullSink) throws {
        let file = try Fixtures.mp3(.sweep, seconds: 10, encoding: .cbr(kbps: 128))
        let player = try BackgroundProcess.start(interlude, ["play", file, "--device", "pulse", "--events", "json"],
                                                 environment: sink.environment, stdout: .capture, stderr: .discard)
        defer { _ = player.stop(signal: SIGKILL, grace: 1) }
        let deadline = monotonicSeconds() + 20
        while !String(decoding: player.currentStdout(), as: UTF8.self).contains("\"trackStarted\"") {
            guard monotonicSeconds() < deadline, player.isRunning else { throw ProcessError.notReady("the MP3 never started") }
            usleep(50_000)
        }
        // Seconds into playback: whatever the decoder and the output load is loaded by now.
        usleep(2_000_000)
        let objects = try playerObjects(player.pid)
        let network = ["libavformat", "libcurl", "libgnutls", "libssl", "libnghttp"]
        let found = Set(objects.compactMap { object in network.first { object.contains($0) } }).sorted()
        report.rows.append(ResultRow(
            measure: "MP3 file playback, network libraries in /proc/PID/maps", subject: found.isEmpty ? "none" : found.joined(separator: ", "),
            peer: "", ratio: nil, target: "none of \(network.joined(separator: ", "))", passed: found.isEmpty))
    }

    /// One player for `seconds` of wall time from its start, then SIGTERM.
    private func playStation(_ command: [String], sink: NullSink, seconds: Double,
                             environment: [String: String] = [:]) throws -> StationRun {
        let recorder = try sink.startRecorder()
        let statsPath = ScratchFiles.makeDirectory("measure") + "/stats"
        let framesBefore = Self.capturedFrames(recorder.path)
        let process: BackgroundProcess
        do {
            process = try BackgroundProcess.start(measureTool, [statsPath] + command,
                                                  environment: sink.environment.merging(environment) { _, new in new },
                                                  stdout: .discard, stderr: .capture)
        } catch {
            _ = try? recorder.stop()
            throw error
        }
        let end = monotonicSeconds() + seconds
        while monotonicSeconds() < end && process.isRunning { usleep(100_000) }
        let earlyExit = !process.isRunning
        // `measure` hands the signal on? No: it waits; the player is its child, signalled by its PID.
        if let child = Self.child(of: process.pid) { kill(child, SIGTERM) }
        let result = process.wait(timeout: 15)
        let capture = try recorder.stop()
        if earlyExit { throw ProcessError.failed(result) }
        let stats = ((try? String(contentsOfFile: statsPath, encoding: .utf8)) ?? "").split(separator: " ")
        guard stats.count == 3, let rss = Int(stats[0]), let user = Double(stats[1]),
              let system = Double(stats[2].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ProcessError.notReady("\(measureTool) left no statistics for `\(result.commandLine)`")
        }
        guard let bounds = SignalAnalysis.signalBounds(capture) else {
            throw ProcessError.notReady("`\(result.commandLine)` played nothing: \(result.stderrText.suffix(300))")
        }
        let minimum = SignalAnalysis.frames(milliseconds: 5, sampleRate: capture.sampleRate)
        let silent = SignalAnalysis.silentRuns(capture, minimumFrames: minimum + 1)
        let rate = Double(capture.sampleRate)
        return StationRun(usage: ResourceUsage(userSeconds: user, systemSeconds: system, maxRSSKilobytes: rss),
                          firstSoundSeconds: Double(bounds.lowerBound - framesBefore) / rate,
                          playedSeconds: Double(bounds.count) / rate, gaps: silent.count,
                          longestGapMilliseconds: Double(silent.map(\.count).max() ?? 0) * 1000 / rate)
    }

    /// The frames a recorder's WAV holds so far (16-bit stereo after a 44-byte header).
    private static func capturedFrames(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return max(0, (Int(info.st_size) - 44) / 4)
    }

    /// The one child of `pid` (`measure`'s player), from /proc.
    static func child(of pid: pid_t) -> pid_t? {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").first.flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The run with the median CPU; RSS and first sound are each their own median, gaps the most of any run.
    private func medianStation(_ runs: [StationRun]) -> StationRun {
        var chosen = runs.sorted { $0.usage.cpuSeconds < $1.usage.cpuSeconds }[(runs.count - 1) / 2]
        chosen.usage.maxRSSKilobytes = Int(median(runs.map { Double($0.usage.maxRSSKilobytes) }))
        chosen.firstSoundSeconds = median(runs.map(\.firstSoundSeconds))
        chosen.gaps = runs.map(\.gaps).max() ?? 0
        return chosen
    }
}
