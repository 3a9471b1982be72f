import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real Icecast 2 server (Debian's `icecast2`) on a free loopback port, for
/// the stream tests: a generated config in a scratch directory of its own
/// (its log, its pid file), in the foreground (no `<fork>`), stopped by the
/// PID recorded at spawn. Sources are `ffmpeg -re ... icecast://` feeding a
/// fixture in a loop (`startSource`); titles change through Icecast's admin
/// call (`setTitle`), as a station's playout software does.
///
/// Icecast refuses to run as root unless its config names a user to switch
/// to (`<changeowner>`), which would need that user to reach the scratch
/// directory. Run by root, it starts instead in a user namespace where root
/// is mapped to uid 1000 (`unshare --user --map-user=1000 --map-group=1000`,
/// which execs it, so the PID is Icecast's own): the process is root outside,
/// so it reads and writes the root-owned directory, and sees a uid that is not 0.
public final class IcecastServer: @unchecked Sendable {
    // @unchecked: `sources` is guarded by `lock`; everything else is immutable.
    public let process: BackgroundProcess
    public var pid: pid_t { process.pid }
    public let port: Int
    public let directory: String
    public let sourcePassword: String
    public let adminPassword: String
    public var logPath: String { "\(directory)/error.log" }
    private let lock = NSLock()
    private var sources: [String: IcecastSource] = [:]

    /// The formats a source sends, as stations do.
    public enum SourceFormat: String, Sendable, CaseIterable {
        /// MP3 at 128 kbit/s (libmp3lame), `audio/mpeg`.
        case mp3
        /// AAC-LC at 64 kbit/s in ADTS (ffmpeg's encoder), `audio/aac`.
        case aac
        /// Opus at 64 kbit/s in Ogg, `audio/ogg`.
        case opus

        var encoder: [String] {
            switch self {
            case .mp3: return ["-c:a", "libmp3lame", "-b:a", "128k", "-content_type", "audio/mpeg", "-f", "mp3"]
            case .aac: return ["-c:a", "aac", "-b:a", "64k", "-content_type", "audio/aac", "-f", "adts"]
            case .opus: return ["-c:a", "libopus", "-b:a", "64k", "-content_type", "audio/ogg", "-f", "ogg"]
            }
        }
    }

    private init(process: BackgroundProcess, port: Int, directory: String, sourcePassword: String, adminPassword: String) {
        self.process = process
        self.port = port
        self.directory = directory
        self.sourcePassword = sourcePassword
        self.adminPassword = adminPassword
    }

    deinit { stop() }

    /// Starts a server and returns once its status page answers. `port` reuses
    /// a stopped server's port (the server killed and started again).
    public static func start(port requested: Int? = nil, timeout: Double = 15) throws -> IcecastServer {
        for tool in ["icecast2", "ffmpeg"] where ProcessRunner.which(tool) == nil { throw StreamServerError.notInstalled(tool) }
        var failures: [String] = []
        // A free port may be taken between the probe and Icecast's bind: then another.
        for _ in 0..<(requested == nil ? 3 : 1) {
            let port = try requested ?? LoopbackHTTP.freePort()
            do { return try startOnce(port: port, timeout: timeout) } catch { failures.append("\(error)") }
        }
        throw StreamServerError.startFailed("icecast2 did not start: " + failures.joined(separator: "; "))
    }

    private static func startOnce(port: Int, timeout: Double) throws -> IcecastServer {
        let directory = ScratchFiles.makeDirectory("icecast")
        let sourcePassword = "source-\(UUID().uuidString.prefix(8))"
        let adminPassword = "admin-\(UUID().uuidString.prefix(8))"
        // Told back by its status page: the server answering on the port is this one,
        // not another test process's that holds the port while this one fails to bind.
        let location = "interlude tests \(UUID().uuidString.prefix(8))"
        let config = """
            <icecast>
              <location>\(location)</location>
              <admin>tests@localhost</admin>
              <hostname>127.0.0.1</hostname>
              <limits>
                <clients>64</clients><sources>8</sources>
                <queue-size>524288</queue-size><client-timeout>30</client-timeout>
                <header-timeout>15</header-timeout><source-timeout>10</source-timeout>
                <burst-size>65535</burst-size>
              </limits>
              <authentication>
                <source-password>\(sourcePassword)</source-password>
                <relay-password>\(sourcePassword)</relay-password>
                <admin-user>admin</admin-user><admin-password>\(adminPassword)</admin-password>
              </authentication>
              <listen-socket><port>\(port)</port><bind-address>127.0.0.1</bind-address></listen-socket>
              <fileserve>1</fileserve>
              <paths>
                <basedir>\(directory)</basedir><logdir>\(directory)</logdir>
                <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot>
                <pidfile>\(directory)/icecast.pid</pidfile>
              </paths>
              <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>3</loglevel></logging>
              <security><chroot>0</chroot></security>
            </icecast>
            """
        let configPath = "\(directory)/icecast.xml"
        try Data(config.utf8).write(to: URL(fileURLWithPath: configPath))
        let command = geteuid() == 0
            ? ("unshare", ["--user", "--map-user=1000", "--map-group=1000", "icecast2", "-c", configPath])
            : ("icecast2", ["-c", configPath])
        let process = try BackgroundProcess.start(command.0, command.1, stdout: .file("\(directory)/stdout.log"),
                                                  stderr: .file("\(directory)/stdout.log"))
        let server = IcecastServer(process: process, port: port, directory: directory,
                                   sourcePassword: sourcePassword, adminPassword: adminPassword)
        let deadline = monotonicSeconds() + timeout
        while true {
            guard process.isRunning else {
                let result = process.wait()
                throw StreamServerError.startFailed("icecast2 on port \(port) exited (\(result.summary)): \(server.logTail())")
            }
            if let reply = try? LoopbackHTTP.get(port: port, path: "/status-json.xsl", timeout: 1), reply.status == 200,
               reply.bodyText.contains(location) {
                return server
            }
            guard monotonicSeconds() < deadline else {
                server.stop()
                throw StreamServerError.startFailed("icecast2 on port \(port) did not answer in \(timeout) s: \(server.logTail())")
            }
            usleep(50_000)
        }
    }

    /// `http://127.0.0.1:PORT/MOUNT`.
    public func url(_ mount: String) -> String { "http://127.0.0.1:\(port)/\(mount)" }

    /// The PID Icecast wrote into its pid file (the same as `pid`: it runs in the foreground).
    public var recordedPID: pid_t? {
        (try? String(contentsOfFile: "\(directory)/icecast.pid", encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Starts `ffmpeg -re -stream_loop -1 -i WAV ... icecast://source:PASS@127.0.0.1:PORT/MOUNT`
    /// and returns once the mount is listed on the status page.
    @discardableResult
    public func startSource(mount: String, wav: String, format: SourceFormat, name: String = "Interlude Test Radio",
                            genre: String = "Testing", timeout: Double = 15) throws -> IcecastSource {
        let log = "\(directory)/source-\(mount.replacingOccurrences(of: "/", with: "_")).log"
        let process = try BackgroundProcess.start(
            "ffmpeg",
            ["-nostdin", "-v", "error", "-re", "-stream_loop", "-1", "-i", wav] + format.encoder
                + ["-ice_name", name, "-ice_genre", genre, "icecast://source:\(sourcePassword)@127.0.0.1:\(port)/\(mount)"],
            stdout: .discard, stderr: .file(log))
        return try waitForMount(IcecastSource(process: process, mount: mount, format: format, logPath: log), timeout: timeout)
    }

    /// Feeds the Ogg file `ogg` to the mount as it is, at the pace its granule
    /// positions give, with `oggfwd` (libshout), once through. A file of several
    /// chains is how an Ogg station changes its title: each chain's comment
    /// header names its song (Icecast's admin call cannot change an Ogg mount's).
    /// Returns once the mount is listed on the status page. `name` nil: the
    /// source gives the mount no name (no `ice-name`, so listeners get no `icy-name`).
    @discardableResult
    public func startOggSource(mount: String, ogg: String, name: String? = "Interlude Test Radio",
                               timeout: Double = 15) throws -> IcecastSource {
        guard ProcessRunner.which("oggfwd") != nil else { throw StreamServerError.notInstalled("oggfwd") }
        let log = "\(directory)/source-\(mount.replacingOccurrences(of: "/", with: "_")).log"
        let process = try BackgroundProcess.start(
            "oggfwd", (name.map { ["-n", $0] } ?? []) + ["127.0.0.1", String(port), sourcePassword, "/\(mount)"],
            stdinPath: ogg, stdout: .discard, stderr: .file(log))
        return try waitForMount(IcecastSource(process: process, mount: mount, format: nil, logPath: log), timeout: timeout)
    }

    /// `source`, once its mount is listed on the status page; thrown with its log when it exits or never appears.
    private func waitForMount(_ source: IcecastSource, timeout: Double) throws -> IcecastSource {
        let (process, mount, log) = (source.process, source.mount, source.logPath)
        lock.withLock { sources[mount] = source }
        let deadline = monotonicSeconds() + timeout
        while true {
            guard process.isRunning else {
                let said = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(5).joined(separator: "\n")
                throw StreamServerError.startFailed("the source for /\(mount) exited: \(process.wait().summary): \(said)")
            }
            if let status = try? LoopbackHTTP.get(port: port, path: "/status-json.xsl", timeout: 1),
               status.bodyText.contains("\"listenurl\":\"\(url(mount))\"") { return source }
            guard monotonicSeconds() < deadline else {
                source.stop()
                throw StreamServerError.startFailed("/\(mount) did not appear in \(timeout) s: \(logTail())")
            }
            usleep(50_000)
        }
    }

    /// Changes the title listeners get in their next ICY block: Icecast's
    /// `/admin/metadata?mount=/MOUNT&mode=updinfo&song=TITLE`.
    public func setTitle(_ title: String, mount: String) throws {
        let reply = try LoopbackHTTP.get(
            port: port, path: "/admin/metadata?mount=/\(mount)&mode=updinfo&song=\(LoopbackHTTP.queryEncoded(title))",
            user: ("admin", adminPassword))
        guard reply.status == 200, reply.bodyText.contains("<return>1</return>") else {
            throw StreamServerError.requestFailed("the metadata update for /\(mount) failed: \(reply.status) \(reply.bodyText)")
        }
    }

    /// The sources started, then the server, each by its PID (SIGTERM, then
    /// SIGKILL after 5 s: Icecast takes a second or two to close its threads). Idempotent.
    public func stop() {
        for source in lock.withLock({ Array(sources.values) }) { source.stop() }
        process.stop(signal: SIGTERM, grace: 5)
    }

    public var isRunning: Bool { process.isRunning }

    /// The PIDs this server started: its own and its sources'.
    public var pids: [pid_t] { [pid] + lock.withLock { sources.values.map(\.process.pid) } }

    public func logTail(lines: Int = 15) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        let start = (try? String(contentsOfFile: "\(directory)/stdout.log", encoding: .utf8)) ?? ""
        return (start + text).split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}

/// One `ffmpeg` (or `oggfwd`) feeding a mount; stopped by its PID.
public struct IcecastSource: Sendable {
    public let process: BackgroundProcess
    public let mount: String
    /// What ffmpeg encodes to; nil for an Ogg file fed as it is (`startOggSource`).
    public let format: IcecastServer.SourceFormat?
    public let logPath: String

    public func stop() { process.stop(signal: SIGTERM, grace: 5) }
}
