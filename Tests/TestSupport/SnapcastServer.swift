import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real Snapcast server (Debian's `snapserver` 0.26) on free loopback
/// ports, for the rooms tests: a generated config in a scratch directory of
/// its own (its FIFO, its `server.json`, its log), in the foreground, stopped
/// by the PID recorded at spawn. Its pipe source is the player's output; its
/// JSON-RPC answers on `controlPort` (`rpc`). Rooms are `snapclient`s writing
/// what they play to raw files (`--player file:filename=...`, `startClient`).
public final class SnapcastServer: @unchecked Sendable {
    // @unchecked: `process` is replaced only by `restart`, which a test calls
    // from the one thread that uses the server.
    public private(set) var process: BackgroundProcess
    public let directory: String
    public let fifo: String
    public let streamPort: Int
    public let controlPort: Int
    public let rate: Int
    public let channels: Int
    public let bufferMilliseconds: Int
    public let codec: String
    public let controlScript: String?
    /// What the server (and so its control script) runs with, besides the test's own environment.
    public let environment: [String: String]
    public var configPath: String { "\(directory)/snapserver.conf" }
    public var logPath: String { "\(directory)/snapserver.log" }
    /// The stream's name (`name=` in the source line) and id.
    public static let streamName = "Interlude"

    private init(process: BackgroundProcess, directory: String, fifo: String, streamPort: Int, controlPort: Int, rate: Int,
                 channels: Int, bufferMilliseconds: Int, codec: String, controlScript: String?, environment: [String: String]) {
        self.process = process
        self.environment = environment
        self.directory = directory
        self.fifo = fifo
        self.streamPort = streamPort
        self.controlPort = controlPort
        self.rate = rate
        self.channels = channels
        self.bufferMilliseconds = bufferMilliseconds
        self.codec = codec
        self.controlScript = controlScript
    }

    /// False for the object `killAndRestart` launches through: the process is the first object's.
    private var ownsProcess = true

    deinit { if ownsProcess { process.stop() } }

    /// `--device` for the player: the source line's URI (the README's form).
    public var device: String {
        "snapcast:pipe://\(fifo)?name=\(Self.streamName)&sampleformat=\(rate):16:\(channels)&buffer=\(bufferMilliseconds)"
            + "&control=127.0.0.1:\(controlPort)"
    }

    /// Starts a server and returns once its JSON-RPC answers and it made its
    /// FIFO. `controlScript`: the stream's `controlscript` (a path).
    public static func start(rate: Int = 48000, channels: Int = 2, bufferMilliseconds: Int = 1000, codec: String = "flac",
                             controlScript: String? = nil, environment: [String: String] = [:],
                             timeout: Double = 15) throws -> SnapcastServer {
        guard ProcessRunner.which("snapserver") != nil else { throw StreamServerError.notInstalled("snapserver") }
        let directory = ScratchFiles.makeDirectory("snapserver")
        var failures: [String] = []
        // A free port may be taken between the probe and the server's bind: then others.
        for _ in 0..<3 {
            let (streamPort, controlPort) = (try LoopbackHTTP.freePort(), try LoopbackHTTP.freePort())
            guard streamPort != controlPort else { continue }
            let server = try launch(directory: directory, streamPort: streamPort, controlPort: controlPort, rate: rate,
                                    channels: channels, bufferMilliseconds: bufferMilliseconds, codec: codec,
                                    controlScript: controlScript, environment: environment)
            do {
                try server.waitUntilAnswering(timeout: timeout)
                return server
            } catch {
                failures.append("\(error)")
                server.process.stop()
            }
        }
        throw StreamServerError.startFailed("snapserver did not start: " + failures.joined(separator: "; "))
    }

    private static func launch(directory: String, streamPort: Int, controlPort: Int, rate: Int, channels: Int,
                               bufferMilliseconds: Int, codec: String, controlScript: String?,
                               environment: [String: String]) throws -> SnapcastServer {
        let fifo = "\(directory)/snapfifo"
        var source = "pipe://\(fifo)?name=\(streamName)&mode=create"
        if let controlScript { source += "&controlscript=\(controlScript)" }
        let config = """
            [server]
            threads = 2
            datadir = \(directory)
            [http]
            enabled = false
            [tcp]
            enabled = true
            bind_to_address = 127.0.0.1
            port = \(controlPort)
            [stream]
            bind_to_address = 127.0.0.1
            port = \(streamPort)
            source = \(source)
            sampleformat = \(rate):16:\(channels)
            codec = \(codec)
            buffer = \(bufferMilliseconds)
            [logging]
            sink = file:\(directory)/snapserver.log
            filter = *:info

            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: "\(directory)/snapserver.conf"))
        let (executable, arguments) = realtime("snapserver", ["-c", "\(directory)/snapserver.conf"])
        let process = try BackgroundProcess.start(executable, arguments, environment: environment,
                                                  stdout: .file("\(directory)/stdout.log"),
                                                  stderr: .file("\(directory)/stdout.log"))
        return SnapcastServer(process: process, directory: directory, fifo: fifo, streamPort: streamPort,
                              controlPort: controlPort, rate: rate, channels: channels,
                              bufferMilliseconds: bufferMilliseconds, codec: codec, controlScript: controlScript,
                              environment: environment)
    }

    private func waitUntilAnswering(timeout: Double) throws {
        let deadline = monotonicSeconds() + timeout
        while true {
            guard process.isRunning else {
                throw StreamServerError.startFailed("snapserver exited (\(process.wait().summary)): \(logTail())")
            }
            var status = stat()
            if stat(fifo, &status) == 0, (status.st_mode & S_IFMT) == S_IFIFO,
               let reply = try? rpc("Server.GetStatus", timeout: 1), reply["result"] != nil {
                return
            }
            guard monotonicSeconds() < deadline else {
                throw StreamServerError.startFailed("snapserver did not answer in \(timeout) s: \(logTail())")
            }
            usleep(50_000)
        }
    }

    /// Kills the server (SIGKILL: no goodbye to anyone) and starts it again on
    /// the same ports and FIFO; returns once it answers.
    public func killAndRestart(downSeconds: Double = 0, timeout: Double = 15) throws {
        process.stop(signal: SIGKILL)
        if downSeconds > 0 { usleep(useconds_t(downSeconds * 1_000_000)) }
        let fresh = try Self.launch(directory: directory, streamPort: streamPort, controlPort: controlPort, rate: rate,
                                    channels: channels, bufferMilliseconds: bufferMilliseconds, codec: codec,
                                    controlScript: controlScript, environment: environment)
        // The new server's process is this one's now: the object made to launch it must not stop it as it goes.
        fresh.ownsProcess = false
        process = fresh.process
        try waitUntilAnswering(timeout: timeout)
    }

    /// Kills the server and leaves it down (the FIFO stays, with no reader).
    public func kill() { process.stop(signal: SIGKILL) }

    /// The last lines of the server's log, for failure messages.
    public func logTail(_ lines: Int = 8) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        let out = (try? String(contentsOfFile: "\(directory)/stdout.log", encoding: .utf8)) ?? ""
        return (text + out).split(separator: "\n").suffix(lines).joined(separator: "\n")
    }

    // MARK: JSON-RPC

    /// One request on a fresh connection to the control port; the reply with
    /// its id (notifications before it are skipped). Thrown when none comes
    /// within `timeout` seconds.
    public func rpc(_ method: String, _ params: [String: Any]? = nil, timeout: Double = 5) throws -> [String: Any] {
        let connection = try SnapcastControlConnection(port: controlPort)
        return try connection.call(method, params, timeout: timeout)
    }

    /// The server's status (`Server.GetStatus`'s `result.server`).
    public func status() throws -> [String: Any] {
        let reply = try rpc("Server.GetStatus")
        guard let result = reply["result"] as? [String: Any], let server = result["server"] as? [String: Any] else {
            throw StreamServerError.requestFailed("Server.GetStatus: \(reply)")
        }
        return server
    }

    /// The stream `id`'s entry in the status (`properties`, `status`, `uri`).
    public func stream(_ id: String = streamName) throws -> [String: Any]? {
        (try status()["streams"] as? [[String: Any]])?.first { $0["id"] as? String == id }
    }

    /// Every client in the status, with its group's id and stream: `id`
    /// (the `--hostID`), `muted`, `percent`, `groupID`, `streamID`, `connected`.
    public func clients() throws -> [SnapcastClientState] {
        var found: [SnapcastClientState] = []
        for group in (try status()["groups"] as? [[String: Any]]) ?? [] {
            for client in (group["clients"] as? [[String: Any]]) ?? [] {
                let config = client["config"] as? [String: Any]
                let volume = config?["volume"] as? [String: Any]
                found.append(SnapcastClientState(id: client["id"] as? String ?? "",
                                                 connected: client["connected"] as? Bool ?? false,
                                                 muted: volume?["muted"] as? Bool ?? false,
                                                 percent: volume?["percent"] as? Int ?? -1,
                                                 groupID: group["id"] as? String ?? "",
                                                 streamID: group["stream_id"] as? String ?? ""))
            }
        }
        return found
    }

    // MARK: Rooms

    /// Snapcast's side at SCHED_FIFO 10 (`chrt`), where the machine lets the
    /// tests ask for it; refused, as it is. The server and the rooms stand in
    /// for a house's: a server alone on its machine and clients paced by sound
    /// cards. Here each room is a file player that asks its stream every 50 ms,
    /// on a timer, for the audio due 10 ms later, and each client sets its
    /// clock by the server's replies. At normal priority, beside three other
    /// test processes on two cores, the timers fire and the replies come
    /// milliseconds late, the clients' own sync moves their audio by as much,
    /// and the rooms start the queue 3-8 ms apart though they read one stream:
    /// the test machine's scheduling measured, not the stream.
    static func realtime(_ executable: String, _ arguments: [String]) -> (String, [String]) {
        mayRunRealtime ? ("chrt", ["-f", "10", executable] + arguments) : (executable, arguments)
    }

    static let mayRunRealtime: Bool = {
        guard ProcessRunner.which("chrt") != nil else { return false }
        return (try? ProcessRunner.run("chrt", ["-f", "10", "true"]))?.succeeded == true
    }()

    /// Starts `snapclient` as room `name` (its `--hostID`), playing to the raw
    /// file `capture` (16-bit PCM in the stream's format); returns once the
    /// server lists it connected.
    public func startClient(_ name: String, timeout: Double = 15) throws -> SnapcastClient {
        guard ProcessRunner.which("snapclient") != nil else { throw StreamServerError.notInstalled("snapclient") }
        let capture = "\(directory)/room-\(name).raw"
        let log = "\(directory)/room-\(name).log"
        let arguments = ["-h", "127.0.0.1", "-p", String(streamPort), "--hostID", name, "--player", "file:filename=\(capture),mode=a",
                         "--logsink", "file:\(log)", "--logfilter", "*:info"]
        let (executable, realtimeArguments) = Self.realtime("snapclient", arguments)
        let process = try BackgroundProcess.start(executable, realtimeArguments, stdout: .file(log), stderr: .file(log))
        let client = SnapcastClient(name: name, process: process, capture: capture, logPath: log, rate: rate, channels: channels)
        let deadline = monotonicSeconds() + timeout
        while true {
            guard process.isRunning else {
                throw StreamServerError.startFailed("snapclient \(name) exited (\(process.wait().summary)): \(client.logTail())")
            }
            if (try? clients())?.contains(where: { $0.id == name && $0.connected }) == true { return client }
            guard monotonicSeconds() < deadline else {
                throw StreamServerError.startFailed("snapclient \(name) did not connect in \(timeout) s: \(client.logTail())")
            }
            usleep(50_000)
        }
    }
}

/// A client as `Server.GetStatus` lists it.
public struct SnapcastClientState: Sendable, Equatable {
    public var id: String
    public var connected: Bool
    public var muted: Bool
    public var percent: Int
    public var groupID: String
    public var streamID: String
}

/// A room: `snapclient` playing to a raw file, and when each 50 ms block of
/// it was written (its file player writes one block every 50 ms on the
/// monotonic clock), so two rooms' files can be set side by side in time.
public final class SnapcastClient: @unchecked Sendable {
    public let name: String
    public let process: BackgroundProcess
    public let capture: String
    public let logPath: String
    public let rate: Int
    public let channels: Int

    init(name: String, process: BackgroundProcess, capture: String, logPath: String, rate: Int, channels: Int) {
        self.name = name
        self.process = process
        self.capture = capture
        self.logPath = logPath
        self.rate = rate
        self.channels = channels
    }

    deinit { process.stop() }

    /// What the room has played so far, as 16-bit PCM.
    public func captured() -> PCMAudio {
        let data = FileManager.default.contents(atPath: capture) ?? Data()
        let count = data.count / 2 / channels * channels
        let samples = data.withUnsafeBytes { raw in Array(raw.bindMemory(to: Int16.self).prefix(count)) }
        return PCMAudio(sampleRate: rate, channels: channels, samples: samples)
    }

    /// Frames written to the capture so far.
    public var capturedFrames: Int {
        var status = stat()
        guard stat(capture, &status) == 0 else { return 0 }
        return Int(status.st_size) / 2 / channels
    }

    public func stop() { process.stop() }

    public func logTail(_ lines: Int = 8) -> String {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}

/// Snapcast's JSON-RPC over TCP: one JSON object a line each way.
public final class SnapcastControlConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var nextID = 1

    public init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StreamServerError.requestFailed("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw StreamServerError.requestFailed("connect to 127.0.0.1:\(port): \(message)")
        }
    }

    deinit { close(fd) }

    /// Sends a request and returns the reply carrying its id.
    public func call(_ method: String, _ params: [String: Any]? = nil, timeout: Double = 5) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        var request: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method]
        if let params { request["params"] = params }
        var line = try JSONSerialization.data(withJSONObject: request)
        line.append(0x0A)
        _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let deadline = monotonicSeconds() + timeout
        while true {
            guard let text = try readLine(until: deadline) else {
                throw StreamServerError.requestFailed("\(method): no reply in \(timeout) s")
            }
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else { continue }
            // A batch of notifications, or one; the reply is the object with our id.
            if let reply = object as? [String: Any], reply["id"] as? Int == id { return reply }
        }
    }

    /// Notifications the server sends on this connection, for `seconds`.
    public func notifications(for seconds: Double) -> [[String: Any]] {
        var found: [[String: Any]] = []
        let deadline = monotonicSeconds() + seconds
        while let text = try? readLine(until: deadline) {
            if let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] { found.append(object) }
        }
        return found
    }

    private func readLine(until deadline: Double) throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let left = deadline - monotonicSeconds()
            guard left > 0 else { return nil }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(max(1, left * 1000))) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { throw StreamServerError.requestFailed("the control connection closed") }
            buffer += chunk[..<count]
        }
    }
}

/// When each block of the rooms' captures was written, on the monotonic
/// clock (`monotonicSeconds`): snapclient's file player writes a block of
/// `blockMilliseconds` every `blockMilliseconds` on its steady clock, each the
/// audio to be heard 10 ms later, so frame `n` of a capture is heard at the
/// schedule's start plus `n / rate` (plus those same 10 ms in every room).
/// A thread looks at the files' sizes every quarter of a millisecond while
/// it runs; the schedule's start is the earliest a block's write can have
/// been, less its place in the file (a look comes after the write, never
/// before it), over the blocks near the frame asked for (`time`).
public final class CaptureClock: @unchecked Sendable {
    // @unchecked: `samples` and `running` are guarded by `lock`.
    public static let blockMilliseconds = 50
    private let clients: [SnapcastClient]
    private let lock = NSLock()
    private var samples: [[(time: Double, bytes: Int)]]
    private var running = true
    private var thread: Thread?

    public init(_ clients: [SnapcastClient]) {
        self.clients = clients
        samples = Array(repeating: [], count: clients.count)
        let paths = clients.map(\.capture)
        let thread = Thread { [weak self] in
            // Above the rooms it watches, where the machine allows: a look late by the load is a block's time misread.
            var parameters = sched_param(sched_priority: 11)
            _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
            var last = Array(repeating: -1, count: paths.count)
            while let self, self.lock.withLock({ self.running }) {
                for (index, path) in paths.enumerated() {
                    var status = stat()
                    guard stat(path, &status) == 0, Int(status.st_size) != last[index] else { continue }
                    last[index] = Int(status.st_size)
                    let now = monotonicSeconds()
                    self.lock.withLock { self.samples[index].append((now, Int(status.st_size))) }
                }
                usleep(250)
            }
        }
        self.thread = thread
        thread.start()
    }

    deinit { stop() }

    public func stop() { lock.withLock { running = false } }

    /// When capture `index`'s frame `frame` was to be heard, on the monotonic
    /// clock: its block's write (a block after the frame's place) and the 10 ms
    /// the file player asks its audio for ahead of that. Set by the blocks
    /// written within a second either side of the frame, not the whole
    /// capture's: a room whose timer once fired a block late starts its
    /// schedule again from then (`FilePlayer::loop`), and blocks before that
    /// would put the frames after it early. Nil before two blocks were seen there.
    public func time(_ index: Int, frame: Int) -> Double? {
        let client = clients[index]
        let bytesPerFrame = 2 * client.channels
        let blockBytes = client.rate * Self.blockMilliseconds / 1000 * bytesPerFrame
        let near = (frame - client.rate) * bytesPerFrame...(frame + client.rate) * bytesPerFrame
        let seen = lock.withLock { samples[index] }
        // Each look comes after its block's write, never before: the earliest estimate is the closest.
        let estimates = seen.compactMap { sample -> Double? in
            guard sample.bytes > 0, sample.bytes % blockBytes == 0, near.contains(sample.bytes) else { return nil }
            return sample.time - Double(sample.bytes / bytesPerFrame) / Double(client.rate)
        }
        guard estimates.count >= 2, let base = estimates.min() else { return nil }
        return base + Double(frame) / Double(client.rate) + Double(Self.blockMilliseconds) / 1000 + 0.010
    }
}
