import Foundation
#if canImport(Glibc)
import Glibc
#endif

public enum PulseError: Error, CustomStringConvertible, Sendable {
    case notInstalled(String)
    case startFailed(String)
    case recorderFailed(String)

    public var description: String {
        switch self {
        case .notInstalled(let tool): return "\(tool) is not installed (Debian packages pulseaudio, pulseaudio-utils)"
        case .startFailed(let message): return "the private PulseAudio server did not start: \(message)"
        case .recorderFailed(let message): return "parec: \(message)"
        }
    }
}

/// A private PulseAudio server with null sinks: real-time pacing with no sound card.
///
/// Started as measured in design.md §7.1: `pulseaudio --daemonize=no -n
/// --exit-idle-time=-1` with a private `XDG_RUNTIME_DIR` and `HOME` (mode 700, under the
/// run's scratch directory, so nothing is written to the real home), a null sink named
/// `out` and the native protocol on a unix socket with anonymous auth (so clients need no
/// cookie). Sinks are loaded with `norewinds=1` unless asked otherwise: with rewinds, a
/// new stream makes the sink rewind and re-render, the monitor never sees the re-rendered
/// part, and the capture lost the stream's first 7-21 ms (measured here with paplay and
/// with `mpg123 -o alsa -a pulse`); without rewinds the capture of a 10 s file was
/// sample-identical to the source, and parec receives frames after about 60 ms instead of
/// 1.3-1.8 s. Running as root needs no extra flag (the daemon warns and goes on);
/// `--disallow-exit` keeps clients from stopping it and `--no-cpu-limit` keeps its CPU
/// watchdog from killing it while `stress-ng` loads the machine.
///
/// Sharing: `PulseServer.shared()` starts one server per test process on first use and
/// keeps it until the process exits; each test then takes its own sink with
/// `makeSink()` (removed by `NullSink.remove()`), so suites running in parallel never hear
/// each other. A server made with `start()` belongs to its caller (the bench does this).
/// Every server is stopped by the PID recorded at start: by `stop()`, or, for the shared
/// one and any leftovers, when the process exits (also after failed tests, and on
/// SIGINT/SIGTERM/SIGHUP; see `ChildRegistry`). A process killed with SIGKILL cannot clean
/// up: its daemon keeps running until killed by the PID in `<runtimeDirectory>/daemon.pid`.
///
/// Clients need only `environment` (or a sink's): `PULSE_SERVER=unix:<dir>/pulse/native`
/// plus `PULSE_RUNTIME_PATH`, `PULSE_COOKIE` and `PULSE_CLIENTCONFIG` (autospawn off, so a
/// client can never start a stray daemon). `XDG_RUNTIME_DIR` is not needed by clients.
/// The ALSA `pulse` device (libasound2-plugins) honours the same variables, and
/// `PULSE_SINK` routes a client's playback to a given sink.
public final class PulseServer: SoundServer {
    public var kind: SoundServerKind { .pulseAudio }
    public let process: BackgroundProcess
    public var pid: pid_t { process.pid }
    /// The private runtime directory (mode 700); the socket is `<dir>/pulse/native`.
    public let runtimeDirectory: String
    public let logPath: String
    /// Rate and channels of the sinks this server makes by default.
    public let sampleRate: Int
    public let channels: Int
    // `environment`, `defaultSink`, `pactl` and `makeSink` come with `SoundServer`.

    private init(process: BackgroundProcess, runtimeDirectory: String, logPath: String, sampleRate: Int, channels: Int) {
        self.process = process
        self.runtimeDirectory = runtimeDirectory
        self.logPath = logPath
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Starts a new private server and returns once `pactl info` answers.
    /// `rewinds` re-enables sink rewinds (PulseAudio's default) on the `out` sink.
    /// `runtimeDirectory` restarts a server on a stopped one's socket path, so its
    /// clients (whose environment names that path) can reach the new one.
    public static func start(sampleRate: Int = 44100, channels: Int = 2, rewinds: Bool = false,
                             timeout: Double = 15, runtimeDirectory: String? = nil) throws -> PulseServer {
        for tool in ["pulseaudio", "pactl", "parec"] where ProcessRunner.which(tool) == nil {
            throw PulseError.notInstalled(tool)
        }
        let directory = runtimeDirectory ?? ScratchFiles.makeDirectory("pulse")
        chmod(directory, 0o700)
        let logPath = "\(directory)/pulseaudio.log"
        _ = FileManager.default.createFile(atPath: "\(directory)/client.conf", contents: Data("autospawn = no\n".utf8))
        let sinkArguments = "module-null-sink sink_name=out rate=\(sampleRate) channels=\(channels)" + (rewinds ? "" : " norewinds=1")
        let process = try BackgroundProcess.start(
            "pulseaudio",
            ["--daemonize=no", "-n", "--exit-idle-time=-1", "--disallow-exit", "--no-cpu-limit",
             "--load=\(sinkArguments)", "--load=module-native-protocol-unix auth-anonymous=1",
             "--log-target=file:\(logPath)"],
            environment: ["XDG_RUNTIME_DIR": directory, "HOME": directory, "XDG_CONFIG_HOME": "\(directory)/config",
                          "PULSE_CLIENTCONFIG": "\(directory)/client.conf"],
            stdout: .discard, stderr: .file(logPath))
        _ = FileManager.default.createFile(atPath: "\(directory)/daemon.pid", contents: Data("\(process.pid)\n".utf8))
        let server = PulseServer(process: process, runtimeDirectory: directory, logPath: logPath,
                                 sampleRate: sampleRate, channels: channels)
        let deadline = monotonicSeconds() + timeout
        while true {
            guard process.isRunning else {
                let result = process.wait()
                throw PulseError.startFailed("pulseaudio exited (\(result.summary)); log: \(server.logTail())")
            }
            if let info = try? server.pactl(["info"], timeout: 2), info.succeeded {
                raiseMainThread(process.pid)
                return server
            }
            guard monotonicSeconds() < deadline else {
                process.stop()
                throw PulseError.startFailed("pactl info got no answer in \(timeout) s; log: \(server.logTail())")
            }
            usleep(50_000)
        }
    }

    /// Puts the daemon's main thread at SCHED_RR 5, beside its I/O threads, where
    /// the machine lets the tests ask for it; refused, it stays as it was.
    /// PulseAudio raises only its I/O threads (the null sinks', at RR 5) and leaves
    /// its main thread at nice -11 (started under `chrt` it resets that thread to
    /// the normal class itself), and that thread carries the native protocol: it
    /// reads what a client writes and sends the client its next request. With four
    /// test processes and stress-ng beside it, a player whose writer and libpulse
    /// thread both ran at SCHED_FIFO saw the server's queue run dry 1-2 times in
    /// 30 s (`PulseOutputTests`, `PreemptionCaptureTests`): the requests late from
    /// the server's side. The server's scheduling is the test machine's, not the
    /// player's: on a desktop the server is alone with its clients.
    static func raiseMainThread(_ pid: pid_t) {
        var parameters = sched_param(sched_priority: 5)
        _ = sched_setscheduler(pid, SCHED_RR, &parameters)
    }

    /// The process-wide server, started on first use and stopped when the process exits.
    /// Restarted if it has died. Thread-safe.
    public static func shared() throws -> PulseServer {
        try SharedServer.instance.get()
    }

    /// Stops the server (SIGTERM, then SIGKILL after 5 s) by its PID. Idempotent.
    public func stop() {
        process.stop(signal: SIGTERM, grace: 5)
    }

    /// SIGKILL by its PID: the server gone as when it crashes.
    public func kill() {
        process.stop(signal: SIGKILL, grace: 1)
    }

    public var isRunning: Bool { process.isRunning }

    /// The last lines of the server's log, for error messages.
    public func logTail(lines: Int = 15) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}

/// One null sink on a `PulseServer`: what plays to it is paced in real time and can be
/// captured from its monitor source.
public struct NullSink: Sendable {
    public let server: any SoundServer
    public let name: String
    /// The module index from `pactl load-module`; nil for the server's own `out` sink.
    public let moduleIndex: Int?
    public let sampleRate: Int
    public let channels: Int

    /// The source that hears this sink: `<name>.monitor`.
    public var monitor: String { "\(name).monitor" }

    /// The server's client environment plus `PULSE_SINK=<name>`: give it to
    /// `interlude play --device pulse`, `mpg123 -o alsa -a pulse`, `paplay`.
    public var environment: [String: String] {
        var env = server.environment
        env["PULSE_SINK"] = name
        return env
    }

    /// Starts `parec` on this sink's monitor; see `Recorder.start`.
    public func startRecorder(to path: String? = nil) throws -> Recorder {
        try Recorder.start(sink: self, path: path)
    }

    /// Unloads the sink (no-op for the server's own `out` sink or a stopped server).
    public func remove() {
        guard let moduleIndex, server.isRunning else { return }
        _ = try? server.pactl(["unload-module", String(moduleIndex)])
    }
}

/// Captures what a null sink plays: `parec -d <sink>.monitor --file-format=wav FILE`.
///
/// `start` returns only once the file has grown by `readyBytes` (design.md §7.1: parec
/// needs a moment before frames arrive, about 60 ms on a sink without rewinds and over a
/// second with them; starting playback sooner loses its beginning). A short `--latency-msec` makes parec write steadily instead of
/// in 64 KB bursts. `stop` sends SIGINT so parec finalizes the WAV header, and reads the
/// data to the end of the file either way.
public final class Recorder: Sendable {
    public let path: String
    public let sink: NullSink
    public let process: BackgroundProcess

    private init(path: String, sink: NullSink, process: BackgroundProcess) {
        self.path = path
        self.sink = sink
        self.process = process
    }

    public static func start(sink: NullSink, path: String? = nil, readyBytes: Int = 8192,
                             latencyMilliseconds: Int = 25, timeout: Double = 10) throws -> Recorder {
        let file = path ?? "\(ScratchFiles.makeDirectory("capture"))/capture.wav"
        let process = try BackgroundProcess.start(
            "parec",
            ["-d", sink.monitor, "--file-format=wav", "--format=s16le", "--rate=\(sink.sampleRate)",
             "--channels=\(sink.channels)", "--latency-msec=\(latencyMilliseconds)", file],
            environment: sink.server.environment, stdout: .discard)
        let recorder = Recorder(path: file, sink: sink, process: process)
        let deadline = monotonicSeconds() + timeout
        while fileSize(file) < 44 + readyBytes {
            guard process.isRunning else {
                throw PulseError.recorderFailed("exited before recording: \(process.wait().summary)")
            }
            guard monotonicSeconds() < deadline else {
                process.stop(signal: SIGKILL)
                throw PulseError.recorderFailed("\(file) did not grow within \(timeout) s")
            }
            usleep(10_000)
        }
        return recorder
    }

    /// Stops parec (SIGINT, SIGKILL after 5 s) and returns everything it captured.
    public func stop() throws -> PCMAudio {
        process.stop(signal: SIGINT, grace: 5)
        return try WAVFile.read(path)
    }

    private static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }
}

private final class SharedServer: @unchecked Sendable {
    // @unchecked: `server` is only touched with `lock` held.
    static let instance = SharedServer()
    private let lock = NSLock()
    private var server: PulseServer?

    func get() throws -> PulseServer {
        lock.lock(); defer { lock.unlock() }
        if let server, server.isRunning { return server }
        // Its PID stays registered with ChildRegistry, which stops it at exit.
        let started = try PulseServer.start()
        server = started
        return started
    }
}
