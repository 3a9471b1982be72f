import Foundation
import Testing
import TestSupport

/// A real Icecast server fed by ffmpeg, and FFmpeg's own HTTP and ICY reading
/// against it (`ffprobe`, `ffmpeg`): what the player's network stack will be.
@Suite(.serialized) struct IcecastServerTests {
    /// `ffprobe -icy 1`: the station's headers (`icy_metadata_headers`) and the codec, for each mount format.
    @Test(arguments: IcecastServer.SourceFormat.allCases)
    func ffprobeReadsTheStationsHeadersAndCodec(format: IcecastServer.SourceFormat) throws {
        let server = try IcecastServer.start()
        defer { server.stop() }
        try server.startSource(mount: "radio.\(format)", wav: Fixtures.wav(.sweep, seconds: 20), format: format,
                               name: "Interlude Test Radio", genre: "Testing")
        let probe = try ProcessRunner.run("ffprobe", ["-v", "error", "-icy", "1", "-show_entries",
                                                      "format=format_name:format_tags:stream=codec_name", "-of", "json",
                                                      server.url("radio.\(format)")], timeout: 30)
        #expect(probe.succeeded, "\(probe.summary)")
        let text = probe.stdoutText
        #expect(text.contains("\"icy-name\": \"Interlude Test Radio\""), "\(text)")
        #expect(text.contains("\"icy-genre\": \"Testing\""), "\(text)")
        let codec = ["mp3": "mp3", "aac": "aac", "opus": "opus"][format.rawValue]!
        #expect(text.contains("\"codec_name\": \"\(codec)\""), "\(text)")
    }

    /// Titles set through Icecast's admin call reach FFmpeg's ICY reader
    /// (`-icy 1`; the player reads the same value as `icy_metadata_packet`),
    /// a quote and accents included.
    @Test func titlesChangedThroughTheAdminCallReachFFmpeg() throws {
        let server = try IcecastServer.start()
        defer { server.stop() }
        try server.startSource(mount: "radio.mp3", wav: Fixtures.wav(.sweep, seconds: 20), format: .mp3)
        try server.setTitle("Artist - It's a Title", mount: "radio.mp3")
        let log = "\(server.directory)/listener.log"
        let listener = try BackgroundProcess.start("ffmpeg", ["-nostdin", "-v", "verbose", "-icy", "1", "-i", server.url("radio.mp3"),
                                                              "-t", "60", "-f", "null", "-"], stdout: .discard, stderr: .file(log))
        defer { listener.stop() }
        let first = "Metadata update for StreamTitle: Artist - It's a Title"
        #expect(try waitForLine(first, in: log, process: listener), "\(tail(log))")
        let changed = monotonicSeconds()
        try server.setTitle("Second: été à Zürich", mount: "radio.mp3")
        #expect(try waitForLine("Metadata update for StreamTitle: Second: été à Zürich", in: log, process: listener), "\(tail(log))")
        // Icecast sends a block every 16,000 bytes (1 s at 128 kbit/s): the change arrives within about that.
        print("IcecastServerTests: a title change reached ffmpeg's ICY reader \(String(format: "%.2f", monotonicSeconds() - changed)) s after the admin call")
    }

    /// The player's reconnect policy takes over when FFmpeg's own gives up: with
    /// `reconnect_delay_max` 0 FFmpeg tries once at once and then returns the
    /// error instead of sleeping in the read; after the server is back on its
    /// port, a new open plays again.
    @Test func aKilledServerEndsTheReadAndTheRestartedOnePlaysAgain() throws {
        let server = try IcecastServer.start()
        let wav = try Fixtures.wav(.sweep, seconds: 20)
        try server.startSource(mount: "radio.mp3", wav: wav, format: .mp3)
        let log = "\(server.directory)/listener.log"
        let listener = try BackgroundProcess.start(
            "ffmpeg", ["-nostdin", "-v", "warning", "-reconnect", "1", "-reconnect_streamed", "1", "-reconnect_on_network_error", "1",
                       "-reconnect_delay_max", "0", "-rw_timeout", "5000000", "-i", server.url("radio.mp3"), "-t", "120",
                       "-f", "s16le", "-y", "\(server.directory)/heard.raw"],
            stdout: .discard, stderr: .file(log))
        defer { listener.stop() }
        let heard = "\(server.directory)/heard.raw"
        #expect(waitUntil { (try? FileManager.default.attributesOfItem(atPath: heard)[.size] as? Int).flatMap { $0 } ?? 0 > 176_400 })
        let port = server.port
        let killedAt = monotonicSeconds()
        server.stop()
        let ended = listener.wait(timeout: 30)
        #expect(!ended.timedOut && ended.exitStatus != nil, "\(ended.summary)")
        print("IcecastServerTests: ffmpeg returned \(String(format: "%.2f", monotonicSeconds() - killedAt)) s after the server was killed; \(tail(log))")

        let again = try IcecastServer.start(port: port)
        defer { again.stop() }
        try again.startSource(mount: "radio.mp3", wav: wav, format: .mp3)
        let replay = try ProcessRunner.run("ffmpeg", ["-nostdin", "-v", "error", "-i", again.url("radio.mp3"), "-t", "2", "-f", "s16le", "-"],
                                           timeout: 30)
        #expect(replay.succeeded, "\(replay.summary)")
        #expect(replay.stdout.count >= 2 * 44_100 * 4 - 4096)
    }

    @Test func theServerAndItsSourcesStopByTheirPIDs() throws {
        let server = try IcecastServer.start()
        try server.startSource(mount: "a.mp3", wav: Fixtures.wav(.tone(frequency: 440), seconds: 5), format: .mp3)
        try server.startSource(mount: "b.opus", wav: Fixtures.wav(.tone(frequency: 440), seconds: 5), format: .opus)
        let pids = server.pids
        #expect(pids.count == 3)
        #expect(server.recordedPID == server.pid)
        server.stop()
        #expect(!server.isRunning)
        for pid in pids { #expect(kill(pid, 0) != 0 && errno == ESRCH, "PID \(pid) still runs") }
        #expect(throws: StreamServerError.self) { try LoopbackHTTP.get(port: server.port, path: "/status-json.xsl") }
    }
}

/// Waits (at most `timeout` s, polling the file) until `line` is in the file, or the process ended.
func waitForLine(_ line: String, in path: String, process: BackgroundProcess, timeout: Double = 30) throws -> Bool {
    waitUntil(timeout: timeout) {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").contains(line) || !process.isRunning
    } && ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").contains(line)
}

func waitUntil(timeout: Double = 30, _ condition: () -> Bool) -> Bool {
    let deadline = monotonicSeconds() + timeout
    while !condition() {
        if monotonicSeconds() > deadline { return false }
        usleep(20_000)
    }
    return true
}

func tail(_ path: String, lines: Int = 12) -> String {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").suffix(lines).joined(separator: "\n")
}
