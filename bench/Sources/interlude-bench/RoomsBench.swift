import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What feeding the rooms costs: the play bench's MP3 (`playSeconds`, 128
/// kbit/s, 44.1 kHz) played to its end into a Snapcast server on loopback
/// (Debian's `snapserver`, the tests' `SnapcastServer`: its pipe source, one
/// `snapclient` room connected as in a house, writing what it plays to a
/// file), against the same player to PulseAudio's null sink (a recorder
/// attached, as in the play bench), and against Debian's MPD 0.23 with its
/// `snapcast` output on the same file, a `snapclient` connected to it; runs
/// taking turns. Each process's CPU through `measure`, the whole run
/// included.
///
/// The server's format is the file's (44100:16:2) and its codec `pcm`, so
/// the player converts nothing and the server encodes nothing that MPD's
/// output (its default `wave` encoder) does not: MPD's `snapcast` output is a
/// Snapcast server itself, where the player needs `snapserver` beside it, so
/// the server's CPU over the player's run is shown beside the player's.
/// Each room's capture must hold the file's length of sound, so a run that
/// fed nothing is no measurement.
///
/// Where the cost goes: the player keeps only `lead` (60 ms) in the pipe,
/// since an alarm's silence comes the server's buffer plus that lead plus the
/// fade after its due time (rooms acceptance: within the buffer + 100 ms),
/// and snapserver reads a 20 ms chunk every 20 ms, so the writer tops the
/// pipe up every 10 ms (`SnapcastDevice`): 100 wake-ups, polls and pipe
/// writes (each waking the server) a second. Nearly all of the difference
/// is system time. The player's underrun events (`--events json`, both
/// runs) tell a pipe found empty from a room's own gaps.
extension Bench {
    struct RoomsRun {
        var usage: ResourceUsage
        /// The room's capture: from its first to its last sound, and the gaps > 5 ms between.
        var heardSeconds: Double
        var gaps: Int
        /// snapserver's CPU over the player's run (the player's runs into Snapcast only).
        var serverSeconds: Double = 0
        /// The player's underrun events: the pipe found empty (the player's runs into Snapcast only).
        var underruns = 0
    }

    func roomsCost(_ sink: NullSink) throws {
        guard ready("rooms", tools: ["snapserver", "snapclient"]) else { return }
        let seconds = options.playSeconds
        let file = try Fixtures.mp3(.sweep, seconds: seconds, encoding: .cbr(kbps: 128))
        let rate = 44100, channels = 2
        let server = try SnapcastServer.start(rate: rate, channels: channels, codec: "pcm")
        defer { server.process.stop() }
        let room = try server.startClient("bench-room")
        defer { room.stop() }
        let mpdAvailable = access("/usr/bin/mpd", X_OK) == 0
        if !mpdAvailable { report.notRun.append("rooms, MPD's snapcast output: mpd is not installed (make deps installs it)") }
        progress("rooms: \(Int(seconds)) s of MP3 via pulse, into Snapcast, and MPD's snapcast output, taking turns "
                 + "(about \(Int(seconds * 3.3 * Double(options.playRuns))) s)")

        var pulseRuns: [PlayMeasurement] = []
        var snapcastRuns: [RoomsRun] = []
        var mpdRuns: [RoomsRun] = []
        for _ in 0..<options.playRuns {
            pulseRuns.append(try play([interlude, "play", file, "--device", "pulse", "--events", "json"], sink: sink, expected: seconds))
            snapcastRuns.append(try playIntoSnapcast(file, seconds: seconds, server: server, room: room))
            if mpdAvailable { mpdRuns.append(try mpdIntoSnapcast(file, seconds: seconds, rate: rate, channels: channels)) }
        }
        let pulse = medianRun(pulseRuns)
        let snapcast = medianRooms(snapcastRuns)
        let mpd = mpdRuns.isEmpty ? nil : medianRooms(mpdRuns)

        let pulseCPU = pulse.process.usage.cpuSeconds
        let snapcastCPU = snapcast.usage.cpuSeconds
        report.notes.append(String(format: "rooms, interlude via pulse: CPU %.3f s (user %.3f, sys %.3f), peak RSS %.1f MB, played %.3f s, "
                                   + "%d gaps > 5 ms (most of any run); the player's underrun events %d",
                                   pulseCPU, pulse.process.usage.userSeconds, pulse.process.usage.systemSeconds,
                                   pulse.process.usage.maxRSSMegabytes, pulse.playedSeconds, pulse.gaps,
                                   pulseRuns.map { EventLog(stdout: $0.process.stdoutText).underrunCount }.max() ?? 0))
        for (name, run) in [("interlude into snapserver", snapcast), ("mpd's snapcast output", mpd)] {
            guard let run else { continue }
            report.notes.append(String(format: "rooms, %@: CPU %.3f s (user %.3f, sys %.3f), peak RSS %.1f MB; the room heard %.3f s, "
                                       + "%d gaps > 5 ms (most of any run)%@", name, run.usage.cpuSeconds, run.usage.userSeconds,
                                       run.usage.systemSeconds, run.usage.maxRSSMegabytes, run.heardSeconds, run.gaps,
                                       run.serverSeconds > 0 ? String(format: "; the player's underrun events %d; snapserver %.3f s",
                                                                      run.underruns, run.serverSeconds) : ""))
        }
        let runsLabel = options.playRuns == 1 ? "1 run" : "median of \(options.playRuns)"
        let ratio = snapcastCPU / max(pulseCPU, 1e-6)
        report.rows.append(ResultRow(
            measure: "rooms: \(Int(seconds)) s MP3 into Snapcast (pipe, 44.1 kHz pcm, 1 room), CPU user+sys s (\(runsLabel))",
            subject: formatted(snapcastCPU, 3), peer: "\(formatted(pulseCPU, 3)) interlude via pulse",
            ratio: ratio, target: "<= 1.1 x pulse", passed: ratio <= 1.1))
        report.rows.append(ResultRow(
            measure: "rooms: into Snapcast, peak RSS MB (\(runsLabel))",
            subject: formatted(snapcast.usage.maxRSSMegabytes, 1),
            peer: "\(formatted(pulse.process.usage.maxRSSMegabytes, 1)) interlude via pulse",
            ratio: snapcast.usage.maxRSSMegabytes / max(pulse.process.usage.maxRSSMegabytes, 1e-6), target: "", passed: nil))
        if let mpd {
            let mpdCPU = mpd.usage.cpuSeconds
            report.rows.append(ResultRow(
                measure: "rooms: the same into Snapcast, the player alone, CPU s (\(runsLabel))",
                subject: formatted(snapcastCPU, 3), peer: "\(formatted(mpdCPU, 3)) mpd 0.23, its snapcast output",
                ratio: snapcastCPU / max(mpdCPU, 1e-6), target: "", passed: nil))
            // MPD's output is the server: the house's cost is the player's and snapserver's together.
            let house = snapcastCPU + snapcast.serverSeconds
            report.rows.append(ResultRow(
                measure: "rooms: the same, the player + snapserver, CPU s (\(runsLabel))",
                subject: formatted(house, 3), peer: "\(formatted(mpdCPU, 3)) mpd 0.23 (its own server)",
                ratio: house / max(mpdCPU, 1e-6), target: "", passed: nil))
        }
    }

    /// The player into the server's pipe until the file ends; the room's capture read for what it heard.
    private func playIntoSnapcast(_ file: String, seconds: Double, server: SnapcastServer, room: SnapcastClient) throws -> RoomsRun {
        let statsPath = ScratchFiles.makeDirectory("measure") + "/stats"
        let captureStart = room.capturedFrames
        let serverBefore = try TmuxPlayer.cpuTicks(String(server.process.pid))
        let result = try ProcessRunner.run(measureTool, [statsPath, interlude, "play", file, "--device", server.device, "--events", "json"],
                                           timeout: seconds * 2 + 30)
        let serverAfter = try TmuxPlayer.cpuTicks(String(server.process.pid))
        try result.check()
        // The server's buffer (1 s) and the room's file player's block: what was written is heard by then.
        usleep(useconds_t((Double(server.bufferMilliseconds) / 1000 + 0.5) * 1_000_000))
        let usage = try Self.measured(statsPath, result.commandLine)
        let heard = Self.heard(room.capture, fromFrame: captureStart, rate: server.rate, channels: server.channels)
        guard heard.seconds >= seconds * 0.9 else {
            throw ProcessError.notReady("the Snapcast room heard \(formatted(heard.seconds, 2)) s of `\(result.commandLine)`'s "
                                        + "\(Int(seconds)) s: \(server.logTail(3))")
        }
        return RoomsRun(usage: usage, heardSeconds: heard.seconds, gaps: heard.gaps,
                        serverSeconds: Double(serverAfter - serverBefore) / Double(sysconf(Int32(_SC_CLK_TCK))),
                        underruns: EventLog(stdout: result.stdoutText).underrunCount)
    }

    /// Debian's mpd with only its `snapcast` output (on a free loopback port,
    /// at the file's format, no mixer, no zeroconf), the file added over its
    /// Unix socket and played, a snapclient connected to it; stopped by its
    /// PID once its status says the file ended.
    private func mpdIntoSnapcast(_ file: String, seconds: Double, rate: Int, channels: Int) throws -> RoomsRun {
        let directory = ScratchFiles.makeDirectory("mpd-snapcast")
        defer { _ = try? ProcessRunner.run("rm", ["-rf", directory], timeout: 60) }
        let port = try LoopbackHTTP.freePort()
        try FileManager.default.createDirectory(atPath: directory + "/playlists", withIntermediateDirectories: true)
        try """
        playlist_directory "\(directory)/playlists"
        log_file "\(directory)/log"
        bind_to_address "\(directory)/socket"
        zeroconf_enabled "no"
        audio_output {
            type "snapcast"
            name "snapcast"
            port "\(port)"
            bind_to_address "127.0.0.1"
            zeroconf "no"
            format "\(rate):16:\(channels)"
            mixer_type "none"
        }
        """.write(toFile: directory + "/mpd.conf", atomically: true, encoding: .utf8)
        let statsPath = directory + "/stats"
        let measured = try BackgroundProcess.start(measureTool, [statsPath, "/usr/bin/mpd", "--no-daemon", directory + "/mpd.conf"],
                                                   environment: ["HOME": directory, "XDG_RUNTIME_DIR": directory],
                                                   stdout: .discard, stderr: .file(directory + "/stderr"))
        defer { _ = measured.stop(signal: SIGKILL, grace: 1) }
        let log = { ((try? String(contentsOfFile: directory + "/log", encoding: .utf8)) ?? "").split(separator: "\n").suffix(3)
            .joined(separator: "\n") }
        var control: RawControlConnection?
        _ = Self.waitUntil(30) { control = try? RawControlConnection.mpd(directory + "/socket"); return control != nil }
        guard let control else { throw ProcessError.notReady("mpd did not listen at \(directory)/socket: \(log())") }

        // The room, started before anything plays: MPD's output listens only
        // once it is opened for playback, and then waits for a client
        // (MPD#1310); snapclient tries again every second until it is there.
        let capture = directory + "/room.raw"
        let clientLog = directory + "/room.log"
        let client = try BackgroundProcess.start(
            "snapclient", ["-h", "127.0.0.1", "-p", String(port), "--hostID", "mpd-room", "--player", "file:filename=\(capture)",
                           "--logsink", "file:\(clientLog)", "--logfilter", "*:info"],
            stdout: .discard, stderr: .discard)
        defer { client.stop() }
        guard control.mpdRequest("add " + RawControlConnection.quoted("file://" + file)).hasSuffix("OK\n"),
              control.mpdRequest("play 0").hasSuffix("OK\n") else {
            throw ProcessError.notReady("mpd did not play \(file): \(log())")
        }
        let connected = Self.waitUntil(15) {
            ((try? String(contentsOfFile: clientLog, encoding: .utf8)) ?? "").contains("Connected to 127.0.0.1")
        }
        guard connected else { throw ProcessError.notReady("snapclient did not connect to mpd's snapcast output on port \(port): \(log())") }
        // MPD played on while the room connected: from the start again, so that the room hears the whole file
        // (MPD decodes up to a second more than the player does).
        guard control.mpdRequest("seekcur 0").hasSuffix("OK\n") else { throw ProcessError.notReady("mpd refused seekcur 0: \(log())") }
        // Once a second, so that the asking costs it next to nothing.
        let ended = Self.waitUntil(seconds + 30, every: 1) { control.mpdRequest("status").contains("state: stop\n") }
        guard ended else { throw ProcessError.notReady("mpd still played \(file) \(Int(seconds + 30)) s after play: \(log())") }
        usleep(1_500_000)  // the room plays out its buffer
        guard let mpd = Self.child(of: measured.pid) else { throw ProcessError.notReady("mpd exited early: \(log())") }
        kill(mpd, SIGTERM)
        let result = measured.wait(timeout: 15)
        client.stop()
        let usage = try Self.measured(statsPath, result.commandLine)
        let heard = Self.heard(capture, fromFrame: 0, rate: rate, channels: channels)
        guard heard.seconds >= seconds * 0.9 else {
            throw ProcessError.notReady("the room on mpd's snapcast output heard \(formatted(heard.seconds, 2)) s of \(Int(seconds)) s: \(log())")
        }
        return RoomsRun(usage: usage, heardSeconds: heard.seconds, gaps: heard.gaps)
    }

    /// `measure`'s line: peak RSS KiB, user s, system s.
    private static func measured(_ statsPath: String, _ commandLine: String) throws -> ResourceUsage {
        let stats = ((try? String(contentsOfFile: statsPath, encoding: .utf8)) ?? "").split(separator: " ")
        guard stats.count == 3, let rss = Int(stats[0]), let user = Double(stats[1]),
              let system = Double(stats[2].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ProcessError.notReady("measure left no statistics for `\(commandLine)`")
        }
        return ResourceUsage(userSeconds: user, systemSeconds: system, maxRSSKilobytes: rss)
    }

    /// A room's raw 16-bit capture from `fromFrame` on: its sound's length and the gaps > 5 ms inside it.
    private static func heard(_ path: String, fromFrame: Int, rate: Int, channels: Int) -> (seconds: Double, gaps: Int) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return (0, 0) }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(fromFrame * 2 * channels))
        let data = (try? handle.readToEnd()) ?? Data()
        let count = data.count / 2 / channels * channels
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self).prefix(count)) }
        let audio = PCMAudio(sampleRate: rate, channels: channels, samples: samples)
        guard let bounds = SignalAnalysis.signalBounds(audio) else { return (0, 0) }
        let gaps = SignalAnalysis.silentRuns(audio, minimumFrames: SignalAnalysis.frames(milliseconds: 5, sampleRate: rate) + 1)
        return (Double(bounds.count) / Double(rate), gaps.count)
    }

    /// The run with the median CPU; its RSS and the server's CPU each their own median, gaps the most of any run.
    private func medianRooms(_ runs: [RoomsRun]) -> RoomsRun {
        var chosen = runs.sorted { $0.usage.cpuSeconds < $1.usage.cpuSeconds }[(runs.count - 1) / 2]
        chosen.usage.maxRSSKilobytes = Int(median(runs.map { Double($0.usage.maxRSSKilobytes) }))
        chosen.serverSeconds = median(runs.map(\.serverSeconds))
        chosen.gaps = runs.map(\.gaps).max() ?? 0
        chosen.underruns = runs.map(\.underruns).max() ?? 0
        return chosen
    }
}
