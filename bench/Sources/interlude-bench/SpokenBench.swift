import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Spoken audio's cost: a one-hour spoken MP3 (sentences between pauses,
/// room noise at -60 dBFS) played through the null sink with trimming and
/// levelling both on, against plain playback of the same file, and against
/// `ffmpeg` trimming (`silenceremove`) and levelling (`speechnorm`) the
/// same stretch of it into a null sink; the memory both cost; and that with
/// both off MP3 playback maps no library it did not map before.
///
/// The cost is the hour's: CPU per minute of the file, not of the clock.
/// Trimmed, a minute of listening takes in more than a minute of the file
/// (the pauses it shortened: the player's `timeSaved` event at its exit),
/// and the hour plays in less than an hour; a minute of the clock would
/// charge trimming for the file it got through faster. Medians of at least
/// three runs each.
extension Bench {
    func spokenCost(_ sink: NullSink) throws {
        let seconds = options.playSeconds
        let file = try spokenHour()
        progress("spoken: \(Int(seconds)) s of a one-hour spoken MP3, plain and with both on, and ffmpeg over the same")
        var plainRuns: [SpokenRun] = []
        var onRuns: [SpokenRun] = []
        let runs = max(3, options.playRuns)
        for _ in 0..<runs {
            plainRuns.append(try playFor(seconds, [interlude, "play", file, "--spoken", "--device", "pulse"], sink: sink))
            onRuns.append(try playFor(seconds, [interlude, "play", file, "--spoken", "--trim-silence", "medium",
                                                "--voice-boost", "on", "--device", "pulse"], sink: sink))
        }
        let plain = plainRuns.sorted { $0.cpuPerFileMinute < $1.cpuPerFileMinute }[plainRuns.count / 2]
        let on = onRuns.sorted { $0.cpuPerFileMinute < $1.cpuPerFileMinute }[onRuns.count / 2]
        // ffmpeg decodes and filters the same stretch of the file as fast as it can.
        let statsPath = ScratchFiles.makeDirectory("measure") + "/stats"
        let ffmpeg = try ProcessRunner.run(measureTool, [statsPath, "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error",
                                                         "-t", String(Int(seconds)), "-i", file, "-af",
                                                         "silenceremove=stop_periods=-1:stop_duration=0.45:stop_threshold=-48dB,speechnorm",
                                                         "-f", "null", "-"], timeout: seconds * 4 + 60)
        try ffmpeg.check()
        let stats = ((try? String(contentsOfFile: statsPath, encoding: .utf8)) ?? "").split(separator: " ")
        guard stats.count == 3, let user = Double(stats[1]), let system = Double(stats[2].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ProcessError.notReady("\(measureTool) left no statistics for ffmpeg")
        }
        let ffmpegCPU = user + system
        // CPU seconds per minute of the file heard.
        let plainCPU = plain.cpuPerFileMinute
        let onCPU = on.cpuPerFileMinute
        let ffmpegPerMinute = ffmpegCPU * 60 / seconds
        let runsLabel = "median of \(runs)"
        report.notes.append(String(format: "spoken: plain CPU %.3f s for %.1f s of the file, RSS %.1f MB; both on CPU %.3f s "
                                       + "for %.1f s of the file (%.1f s heard, %.1f s saved), RSS %.1f MB; ffmpeg CPU %.3f s for %.0f s",
                                   plain.measurement.process.usage.cpuSeconds, plain.fileSeconds,
                                   plain.measurement.process.usage.maxRSSMegabytes, on.measurement.process.usage.cpuSeconds,
                                   on.fileSeconds, on.measurement.playedSeconds, on.savedSeconds,
                                   on.measurement.process.usage.maxRSSMegabytes, ffmpegCPU, seconds))
        report.rows.append(ResultRow(
            measure: "spoken hour via pulse, trim + voice boost on, CPU s per minute of the file (\(runsLabel))",
            subject: formatted(onCPU, 3), peer: "\(formatted(plainCPU, 3)) plain / \(formatted(ffmpegPerMinute, 3)) ffmpeg",
            ratio: onCPU / max(plainCPU, 1e-6), target: "<= 1.3 x plain, < ffmpeg",
            passed: onCPU <= 1.3 * plainCPU && onCPU < ffmpegPerMinute))
        let added = on.measurement.process.usage.maxRSSMegabytes - plain.measurement.process.usage.maxRSSMegabytes
        report.rows.append(ResultRow(
            measure: "spoken hour, peak RSS with both on over plain, MB (\(runsLabel))",
            subject: formatted(added, 2), peer: "\(formatted(plain.measurement.process.usage.maxRSSMegabytes, 1)) MB plain",
            ratio: nil, target: "<= 2 MB", passed: added <= 2))
        try spokenOffMapsNothingNew(sink, file: file)
    }

    /// The libraries of a headless MP3 playback, spoken with both settings
    /// off, against plain music playback of the same file: the same.
    private func spokenOffMapsNothingNew(_ sink: NullSink, file: String) throws {
        let music = try mappedLibraries([interlude, "play", file, "--device", "pulse", "--events", "json"], sink: sink)
        let off = try mappedLibraries([interlude, "play", file, "--spoken", "--trim-silence", "off", "--voice-boost", "off",
                                       "--device", "pulse", "--events", "json"], sink: sink)
        let new = off.subtracting(music).sorted()
        report.rows.append(ResultRow(
            measure: "spoken MP3 playback, both off: libraries mapped beyond plain playback's",
            subject: new.isEmpty ? "none" : new.joined(separator: ", "), peer: "\(music.count) libraries plain",
            ratio: nil, target: "none", passed: new.isEmpty))
    }

    /// The shared objects in a player's `/proc/PID/maps` two seconds into playback.
    private func mappedLibraries(_ command: [String], sink: NullSink) throws -> Set<String> {
        let player = try BackgroundProcess.start(command[0], Array(command.dropFirst()), environment: sink.environment,
                                                 stdout: .capture, stderr: .discard)
        defer { _ = player.stop(signal: SIGKILL, grace: 1) }
        let deadline = monotonicSeconds() + 20
        while !String(decoding: player.currentStdout(), as: UTF8.self).contains("\"trackStarted\"") {
            guard monotonicSeconds() < deadline, player.isRunning else { throw ProcessError.notReady("the MP3 never started") }
            usleep(50_000)
        }
        usleep(2_000_000)
        return try playerObjects(player.pid)
    }

    /// One run: what it cost, what was heard, and what trimming saved of the file.
    struct SpokenRun {
        var measurement: PlayMeasurement
        var savedSeconds: Double
        /// The file's seconds heard: those played, and the pauses trimming shortened.
        var fileSeconds: Double { measurement.playedSeconds + savedSeconds }
        var cpuPerFileMinute: Double { measurement.process.usage.cpuSeconds * 60 / max(fileSeconds, 1) }
    }

    /// `seconds` of real-time playback, then SIGTERM (the file is an hour long).
    private func playFor(_ seconds: Double, _ command: [String], sink: NullSink) throws -> SpokenRun {
        let recorder = try sink.startRecorder()
        let statsPath = ScratchFiles.makeDirectory("measure") + "/stats"
        let eventsPath = ScratchFiles.makeDirectory("events") + "/events.json"
        let process = try BackgroundProcess.start(measureTool, [statsPath] + command + ["--events", "json"],
                                                  environment: sink.environment, stdout: .file(eventsPath), stderr: .discard)
        let end = monotonicSeconds() + seconds
        while monotonicSeconds() < end && process.isRunning { usleep(100_000) }
        // `measure` waits for its child, the player: signalled by its own PID.
        if let child = Self.child(of: process.pid) { kill(child, SIGTERM) }
        var result = process.wait(timeout: 15)
        let capture = try recorder.stop()
        let stats = ((try? String(contentsOfFile: statsPath, encoding: .utf8)) ?? "").split(separator: " ")
        guard stats.count == 3, let rss = Int(stats[0]), let user = Double(stats[1]),
              let system = Double(stats[2].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ProcessError.notReady("\(measureTool) left no statistics for `\(command.joined(separator: " "))`")
        }
        result.usage = ResourceUsage(userSeconds: user, systemSeconds: system, maxRSSKilobytes: rss)
        let bounds = SignalAnalysis.signalBounds(capture) ?? 0..<0
        let measurement = PlayMeasurement(process: result, playedSeconds: Double(bounds.count) / Double(capture.sampleRate),
                                          gaps: 0, longestGapMilliseconds: 0)
        // The player says at its exit what trimming saved (`timeSaved`, only when it trimmed).
        let events = (try? String(contentsOfFile: eventsPath, encoding: .utf8)) ?? ""
        let saved = events.split(separator: "\n").lazy.compactMap { line -> Double? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["event"] as? String == "timeSaved" else { return nil }
            return (object["seconds"] as? NSNumber)?.doubleValue
        }.first ?? 0
        if command.contains("--trim-silence") && !command.contains("off") && saved == 0 {
            throw ProcessError.notReady("`\(command.joined(separator: " "))` said nothing of the time it saved")
        }
        return SpokenRun(measurement: measurement, savedSeconds: saved)
    }

    /// An hour of espeak-ng sentences, each followed by a pause (0.3 to 2.4 s),
    /// under room noise at -60 dBFS, 64 kbps mono: made once, kept with the fixtures.
    private func spokenHour() throws -> String {
        let directory = options.benchDirectory + "/fixtures"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let mp3 = directory + "/spoken-hour.mp3"
        if FileManager.default.fileExists(atPath: mp3) { return mp3 }
        progress("spoken: making the one-hour spoken MP3 (espeak-ng, sox, lame; once)")
        let work = ScratchFiles.makeDirectory("spoken-hour")
        let sentences = ["The harbour master counted the boats again.", "Rain came in from the west before noon.",
                         "Nobody on the island had seen a winter like it.", "She wrote the numbers in a small grey book.",
                         "By evening the wind had turned.", "The ferry would not sail tomorrow either."]
        var parts: [String] = []
        for (index, sentence) in sentences.enumerated() {
            let raw = work + "/s\(index).wav"
            let part = work + "/p\(index).wav"
            try ProcessRunner.check("espeak-ng", ["-w", raw, sentence])
            try ProcessRunner.check("sox", ["-D", raw, "-b", "16", part, "channels", "1", "rate", "44100",
                                            "pad", "0", String(format: "%.1f", 0.3 + 0.42 * Double(index))])
            parts.append(part)
        }
        let minute = work + "/minute.wav"
        try ProcessRunner.check("sox", parts + [minute])
        let unitSeconds = try WAVFile.read(minute).durationSeconds
        let looped = work + "/looped.wav"
        try ProcessRunner.check("sox", [minute, looped, "repeat", String(Int((3600 / unitSeconds).rounded(.up)) - 1),
                                        "trim", "0", "3600"], timeout: 600)
        let noise = work + "/noise.wav"
        try ProcessRunner.check("sox", ["-n", "-r", "44100", "-c", "1", "-b", "16", noise, "synth", "3600", "whitenoise",
                                        "vol", "0.0018"], timeout: 600)
        let mixed = work + "/mixed.wav"
        try ProcessRunner.check("sox", ["-m", looped, noise, mixed], timeout: 600)
        try ProcessRunner.check("lame", ["--quiet", "-b", "64", "--cbr", mixed, mp3 + ".partial"], timeout: 1200)
        guard rename(mp3 + ".partial", mp3) == 0 else { throw ProcessError.notReady("\(mp3) could not be kept") }
        for file in parts + [minute, looped, noise, mixed] { unlink(file) }
        return mp3
    }
}

extension Bench {
    /// The shared objects a player seconds into an MP3 through PulseAudio has
    /// mapped (`/proc/PID/maps`), read to its end: a /proc file has no size, and
    /// `String(contentsOfFile:)` reads it in one read(), the first 4 KB (a
    /// playing player's maps are about 22 KB: 4 of its 33 objects, different
    /// ones each run). A reading without libmpg123 and libpulse was short.
    func playerObjects(_ pid: Int32) throws -> Set<String> {
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/maps") else {
            throw ProcessError.notReady("/proc/\(pid)/maps could not be opened")
        }
        defer { try? handle.close() }
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        let objects = Set(maps.split(separator: "\n").compactMap { line in
            line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init).flatMap { $0.contains(".so") ? $0 : nil }
        })
        for library in ["/libmpg123.so", "/libpulse.so"] where !objects.contains(where: { $0.contains(library) }) {
            throw ProcessError.notReady("/proc/\(pid)/maps names no \(library.dropFirst()) (\(objects.count) objects read)")
        }
        return objects
    }
}
