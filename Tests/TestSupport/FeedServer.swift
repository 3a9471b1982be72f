import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `Tests/Fixtures/feed_server.py` on loopback: a folder served as a feed
/// host serves it (ETag and Last-Modified on every answer, 304 to a
/// conditional request that matches, byte ranges, 301 and 302 redirects,
/// statuses, a stall), each request logged as "METHOD PATH STATUS". The
/// kernel picks its port; it is stopped by its PID.
public final class FeedServer: Sendable {
    public let process: BackgroundProcess
    public var pid: pid_t { process.pid }
    public let port: Int
    public let root: String
    public let logPath: String
    /// While this file exists, requests under `/held/` wait (`hold()`, `release()`).
    public let holdPath: String

    private init(process: BackgroundProcess, port: Int, root: String, logPath: String, holdPath: String) {
        self.process = process
        self.port = port
        self.root = root
        self.logPath = logPath
        self.holdPath = holdPath
    }

    /// From now on `/held/NAME` is answered only after `release()`.
    public func hold() { _ = FileManager.default.createFile(atPath: holdPath, contents: Data()) }

    /// Answers the requests `hold()` kept waiting, and those after.
    public func release() { try? FileManager.default.removeItem(atPath: holdPath) }

    deinit { stop() }

    /// Serves `root`; `/stall/NAME` answers after `stallSeconds`.
    public static func start(root: String, stallSeconds: Double = 5, timeout: Double = 15) throws -> FeedServer {
        guard ProcessRunner.which("python3") != nil else { throw StreamServerError.notInstalled("python3") }
        let directory = ScratchFiles.makeDirectory("feed-server")
        let portFile = "\(directory)/port", log = "\(directory)/requests.log", hold = "\(directory)/hold"
        let process = try BackgroundProcess.start(
            "python3", ["\(InterludeBinary.packageRoot)/Tests/Fixtures/feed_server.py", "--root", root, "--port-file", portFile,
                        "--log", log, "--stall-seconds", String(stallSeconds), "--hold-file", hold],
            stdout: .file("\(directory)/server.out"), stderr: .file("\(directory)/server.out"))
        let deadline = monotonicSeconds() + timeout
        while true {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8),
               let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return FeedServer(process: process, port: port, root: root, logPath: log, holdPath: hold)
            }
            guard process.isRunning, monotonicSeconds() < deadline else {
                process.stop()
                let text = (try? String(contentsOfFile: "\(directory)/server.out", encoding: .utf8)) ?? ""
                throw StreamServerError.startFailed("feed_server.py did not start: \(process.wait().summary) \(text.suffix(2000))")
            }
            usleep(20_000)
        }
    }

    /// `http://127.0.0.1:PORT/PATH`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// The requests so far: (method, path, status).
    public var requests: [(method: String, path: String, status: Int)] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 3, let status = Int(words[2]) else { return nil }
            return (String(words[0]), String(words[1]), status)
        }
    }

    public func stop() {
        release()
        process.stop(signal: SIGTERM, grace: 5)
    }
}
