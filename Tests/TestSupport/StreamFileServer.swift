import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `Tests/Fixtures/stream_server.py` on loopback: the files of a folder over
/// HTTP, or HTTPS with a certificate, with byte ranges, redirects, statuses,
/// and the faults a station's server can show (see the script). The kernel
/// picks its ports, which it writes to files in its scratch directory once it
/// listens; it is stopped by its PID.
public final class StreamFileServer: Sendable {
    public let process: BackgroundProcess
    public var pid: pid_t { process.pid }
    public let port: Int
    /// A port that accepts connections and never reads or writes (TLS included).
    public let silentPort: Int
    public let root: String
    public let isTLS: Bool
    public let logPath: String

    private init(process: BackgroundProcess, port: Int, silentPort: Int, root: String, isTLS: Bool, logPath: String) {
        self.process = process
        self.port = port
        self.silentPort = silentPort
        self.root = root
        self.isTLS = isTLS
        self.logPath = logPath
    }

    deinit { stop() }

    /// Serves `root`; over TLS when `certificate` is given.
    public static func start(root: String, certificate: TestCertificates.Pair? = nil, timeout: Double = 15) throws -> StreamFileServer {
        guard ProcessRunner.which("python3") != nil else { throw StreamServerError.notInstalled("python3") }
        let directory = ScratchFiles.makeDirectory("stream-server")
        let portFile = "\(directory)/port", silentFile = "\(directory)/silent-port", log = "\(directory)/server.log"
        var arguments = ["\(InterludeBinary.packageRoot)/Tests/Fixtures/stream_server.py", "--root", root,
                         "--port-file", portFile, "--stall-port-file", silentFile, "--log", log]
        if let certificate { arguments += ["--cert", certificate.certificate, "--key", certificate.key] }
        let process = try BackgroundProcess.start("python3", arguments, stdout: .file(log), stderr: .file(log))
        let deadline = monotonicSeconds() + timeout
        while true {
            if let port = readPort(portFile), let silent = readPort(silentFile) {
                return StreamFileServer(process: process, port: port, silentPort: silent, root: root,
                                        isTLS: certificate != nil, logPath: log)
            }
            guard process.isRunning, monotonicSeconds() < deadline else {
                process.stop()
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw StreamServerError.startFailed("stream_server.py did not start: \(process.wait().summary) \(text.suffix(2000))")
            }
            usleep(20_000)
        }
    }

    /// `http(s)://127.0.0.1:PORT/PATH`.
    public func url(_ path: String) -> String { "\(isTLS ? "https" : "http")://127.0.0.1:\(port)/\(path)" }
    /// The same scheme on the port that accepts and stalls.
    public func silentURL(_ path: String) -> String { "\(isTLS ? "https" : "http")://127.0.0.1:\(silentPort)/\(path)" }

    /// What the server logged (one line a request, with its status).
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// By its PID (SIGTERM, SIGKILL after 5 s). Idempotent.
    public func stop() { process.stop(signal: SIGTERM, grace: 5) }

    public var isRunning: Bool { process.isRunning }

    private static func readPort(_ path: String) -> Int? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}

/// Live HLS as a station makes it: `ffmpeg -re -f hls` writing one-second AAC
/// segments of a looped fixture into a folder (a sliding window of six,
/// older segments deleted), or a packager of MPEG-TS segments with timed ID3
/// titles, served over HTTP by a `StreamFileServer`.
public final class LiveHLS: Sendable {
    public let encoder: BackgroundProcess
    public let server: StreamFileServer
    public let folder: String
    /// `http://127.0.0.1:PORT/live.m3u8`.
    public var playlistURL: String { server.url("live.m3u8") }
    public var pids: [pid_t] { [encoder.pid, server.pid] }

    private init(encoder: BackgroundProcess, server: StreamFileServer, folder: String) {
        self.encoder = encoder
        self.server = server
        self.folder = folder
    }

    deinit { stop() }

    /// Starts the encoder and the server; returns once the playlist lists `segments` segments.
    /// `keyURI`: the segments are encrypted (AES-128, a random key) and the
    /// playlist names this URI for the key, as written (a path such as
    /// "/status/403" is the server's, which then refuses it).
    public static func start(wav: String, segments: Int = 3, keyURI: String? = nil, timeout: Double = 20) throws -> LiveHLS {
        let folder = ScratchFiles.makeDirectory("hls")
        var encryption: [String] = []
        if let keyURI {
            let key = "\(folder)/../hls-\(UUID().uuidString.prefix(8)).key", info = key + "info"
            try Data((0..<16).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: key))
            try "\(keyURI)\n\(key)\n".write(toFile: info, atomically: true, encoding: .utf8)
            encryption = ["-hls_key_info_file", info]
        }
        let encoder = try BackgroundProcess.start(
            "ffmpeg", ["-nostdin", "-v", "error", "-re", "-stream_loop", "-1", "-i", wav, "-c:a", "aac", "-b:a", "64k",
                       "-f", "hls", "-hls_time", "1", "-hls_list_size", "6", "-hls_flags", "delete_segments"]
                + encryption + ["\(folder)/live.m3u8"],
            stdout: .discard, stderr: .file("\(folder)/../hls-encoder.log"))
        return try serve(folder, encoder: encoder, segments: segments, timeout: timeout)
    }

    /// Live HLS with timed ID3 titles, as Apple's timed metadata spec has a
    /// packager write them (`Tests/Fixtures/hls_timed_id3.py`): `wav` as AAC
    /// in ADTS (ffmpeg), in one-second MPEG-TS segments with a stream of ID3
    /// tags beside the audio, one for each of `titles` at its time (seconds
    /// into the stream), published in real time into a window of six; the
    /// playlist ends after the last segment. Returns once it lists `segments`.
    /// `station`: each tag also names the station (TRSN).
    public static func startWithTimedID3(wav: String, titles: [(seconds: Double, artist: String, title: String)],
                                         station: String? = nil, segments: Int = 3, timeout: Double = 20) throws -> LiveHLS {
        let folder = ScratchFiles.makeDirectory("hls")
        let aac = "\(folder)/../hls-source-\(UUID().uuidString.prefix(8)).aac"
        try ProcessRunner.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", wav, "-c:a", "aac", "-b:a", "64k", "-f", "adts", aac],
                              timeout: 60).check()
        let encoder = try BackgroundProcess.start(
            "python3", ["\(InterludeBinary.packageRoot)/Tests/Fixtures/hls_timed_id3.py"] + (station.map { ["--station", $0] } ?? [])
                + [aac, folder]
                + titles.map { "\($0.seconds):\($0.artist):\($0.title)" },
            stdout: .discard, stderr: .file("\(folder)/../hls-encoder.log"))
        return try serve(folder, encoder: encoder, segments: segments, timeout: timeout)
    }

    /// `folder` served over HTTP while `encoder` writes it, once its playlist lists `segments` segments.
    private static func serve(_ folder: String, encoder: BackgroundProcess, segments: Int, timeout: Double) throws -> LiveHLS {
        let server: StreamFileServer
        do { server = try StreamFileServer.start(root: folder) } catch {
            encoder.stop()
            throw error
        }
        let live = LiveHLS(encoder: encoder, server: server, folder: folder)
        let deadline = monotonicSeconds() + timeout
        while live.playlist.components(separatedBy: "#EXTINF").count - 1 < segments {
            guard encoder.isRunning, monotonicSeconds() < deadline else {
                live.stop()
                throw StreamServerError.startFailed("the HLS encoder wrote no playlist of \(segments) segments: \(encoder.wait().summary)")
            }
            usleep(100_000)
        }
        return live
    }

    /// The playlist as it is now.
    public var playlist: String { (try? String(contentsOfFile: "\(folder)/live.m3u8", encoding: .utf8)) ?? "" }

    /// `#EXT-X-MEDIA-SEQUENCE`: grows as the window slides.
    public var mediaSequence: Int? {
        playlist.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") }
            .flatMap { Int($0.dropFirst("#EXT-X-MEDIA-SEQUENCE:".count)) }
    }

    public func stop() {
        encoder.stop(signal: SIGTERM, grace: 5)
        server.stop()
    }
}
