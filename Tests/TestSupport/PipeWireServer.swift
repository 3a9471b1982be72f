import Foundation
#if canImport(Glibc)
import Glibc
#endif

public enum PipeWireError: Error, CustomStringConvertible, Sendable {
    case notInstalled(String)
    case startFailed(String)

    public var description: String {
        switch self {
        case .notInstalled(let tool): return "\(tool) is not installed (Debian packages pipewire, wireplumber, pipewire-pulse, dbus-daemon)"
        case .startFailed(let message): return "the private PipeWire server did not start: \(message)"
        }
    }
}

/// A private PipeWire with WirePlumber and pipewire-pulse, headless: the sound server most
/// desktops run, reached by the same clients as `PulseServer` through pipewire-pulse.
///
/// Four processes, each started here and stopped by the PID recorded at start (also
/// listed in `<runtimeDirectory>/daemon.pid`, one a line, for `ScratchFiles` to reclaim
/// after a killed run): a `dbus-daemon --session` on `<dir>/bus` for WirePlumber alone
/// (so it never reaches the user's own bus), `pipewire`, `wireplumber`, `pipewire-pulse`
/// (whose socket is `<dir>/pulse/native`). All run with `XDG_RUNTIME_DIR`, `HOME`,
/// `XDG_CONFIG_HOME` and `XDG_STATE_HOME` under the private directory (mode 700), and
/// Debian's configuration with three drop-ins written there: PipeWire's graph clock at
/// `sampleRate` (no resampling between the player, the null sinks and `parec`),
/// WirePlumber's ALSA, V4L2, libcamera and Bluetooth monitors off (no device of the
/// machine is opened), and, with `rolePolicy`, WirePlumber 0.4's role-based endpoints
/// (below). A null sink `out` is loaded through pipewire-pulse (`module-null-sink`, a
/// `support.null-audio-sink` node paced by PipeWire's clock), and `start` returns once
/// WirePlumber has taken it as the default sink (with `rolePolicy`: has linked its role
/// endpoints to it): the session manager is up and links streams.
///
/// pipewire-pulse keeps a PulseAudio client's `media.role` (`phone` shows as `phone` in
/// `pactl list sink-inputs`, and as `Communication` to PipeWire), so the player's
/// subscription sees the same roles as on PulseAudio.
///
/// **The role policy** (`rolePolicy: true`): WirePlumber has no `module-role-cork`;
/// its equivalent is the role-based endpoints Debian ships commented out
/// (`policy.lua.d/50-endpoints-config.lua`, "not yet ready for desktop use"). The
/// harness turns on two of them: Multimedia (`music`, `video`, `game`; priority 25,
/// mixed with each other, corked by anything higher) and Communication (`phone`;
/// priority 75, corks lower roles). The stock table corks a music stream with the next
/// music stream, which no desktop wants. WirePlumber "corks" by deactivating the stream's
/// link to its endpoint; pipewire-pulse reports that stream as `Corked: yes`. WirePlumber
/// 0.4 places a stream on its endpoint when the stream appears and does not look at a
/// role changed later on a live stream (measured with 0.4.13: a stream whose role became
/// `phone` corked nothing).
///
/// Sharing: `PipeWireServer.shared()` is one server per test process, as
/// `PulseServer.shared()` is; tests take their own sinks with `makeSink()`.
public final class PipeWireServer: SoundServer {
    public var kind: SoundServerKind { .pipeWire }
    public let bus: BackgroundProcess
    public let pipewire: BackgroundProcess
    public let wireplumber: BackgroundProcess
    public let pulse: BackgroundProcess
    public let runtimeDirectory: String
    public let sampleRate: Int
    public let channels: Int
    public let rolePolicy: Bool

    private var processes: [BackgroundProcess] { [pulse, wireplumber, pipewire, bus] }

    private init(bus: BackgroundProcess, pipewire: BackgroundProcess, wireplumber: BackgroundProcess, pulse: BackgroundProcess,
                 runtimeDirectory: String, sampleRate: Int, channels: Int, rolePolicy: Bool) {
        self.bus = bus
        self.pipewire = pipewire
        self.wireplumber = wireplumber
        self.pulse = pulse
        self.runtimeDirectory = runtimeDirectory
        self.sampleRate = sampleRate
        self.channels = channels
        self.rolePolicy = rolePolicy
    }

    /// Starts a new private server and returns once WirePlumber has made `out` the
    /// default sink. `runtimeDirectory` restarts a server on a stopped one's sockets.
    public static func start(sampleRate: Int = 44100, channels: Int = 2, rolePolicy: Bool = false,
                             timeout: Double = 20, runtimeDirectory: String? = nil) throws -> PipeWireServer {
        for tool in ["dbus-daemon", "pipewire", "wireplumber", "pipewire-pulse", "pw-link", "pactl", "parec"] where ProcessRunner.which(tool) == nil {
            throw PipeWireError.notInstalled(tool)
        }
        let directory = runtimeDirectory ?? ScratchFiles.makeDirectory("pipewire")
        chmod(directory, 0o700)
        // A stopped server's sockets and lock, when restarting on its directory.
        for stale in ["bus", "pipewire-0", "pipewire-0.lock", "pulse/native", "pulse/pid"] { unlink("\(directory)/\(stale)") }
        try writeConfiguration(in: directory, sampleRate: sampleRate, rolePolicy: rolePolicy)
        let environment = [
            "XDG_RUNTIME_DIR": directory, "HOME": directory, "XDG_CONFIG_HOME": "\(directory)/config",
            "XDG_STATE_HOME": "\(directory)/state", "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory)/bus",
            "PULSE_CLIENTCONFIG": "\(directory)/client.conf", "PIPEWIRE_RUNTIME_DIR": directory,
        ]
        var started: [BackgroundProcess] = []
        func launch(_ program: String, _ arguments: [String] = []) throws -> BackgroundProcess {
            let process = try BackgroundProcess.start(program, arguments, environment: environment,
                                                      stdout: .file("\(directory)/\(program).log"), stderr: .file("\(directory)/\(program).log"))
            started.append(process)
            _ = FileManager.default.createFile(atPath: "\(directory)/daemon.pid",
                                               contents: Data(started.map { "\($0.pid)\n" }.joined().utf8))
            return process
        }
        func fail(_ message: String) -> PipeWireError {
            started.reversed().forEach { $0.stop(signal: SIGTERM, grace: 5) }
            return .startFailed("\(message); logs: \(Self.logTail(directory, lines: 10))")
        }
        let deadline = monotonicSeconds() + timeout
        func waitFor(_ what: String, _ condition: () -> Bool) throws {
            while !condition() {
                if let dead = started.first(where: { !$0.isRunning }) {
                    throw fail("\(dead.commandLine) exited (\(dead.wait().summary))")
                }
                guard monotonicSeconds() < deadline else { throw fail("\(what) within \(timeout) s") }
                usleep(20_000)
            }
        }
        let bus = try launch("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(directory)/bus"])
        try waitFor("no session bus") { access("\(directory)/bus", F_OK) == 0 }
        let pipewire = try launch("pipewire")
        try waitFor("no PipeWire socket") { access("\(directory)/pipewire-0", F_OK) == 0 }
        let wireplumber = try launch("wireplumber")
        let pulse = try launch("pipewire-pulse")
        let server = PipeWireServer(bus: bus, pipewire: pipewire, wireplumber: wireplumber, pulse: pulse,
                                    runtimeDirectory: directory, sampleRate: sampleRate, channels: channels, rolePolicy: rolePolicy)
        try waitFor("pactl info got no answer") { (try? server.pactl(["info"], timeout: 2))?.succeeded == true }
        let loaded = try server.pactl(["load-module", "module-null-sink", "sink_name=out", "rate=\(sampleRate)", "channels=\(channels)"])
        guard loaded.succeeded else { throw fail("could not load the null sink out: \(loaded.summary)") }
        if rolePolicy {
            // The endpoints are nodes of their own, linked to `out` once WirePlumber has seen it.
            try waitFor("WirePlumber did not link its role endpoints to out") {
                let links = (try? ProcessRunner.run("pw-link", ["--links"], environment: environment, timeout: 2))?.stdoutText ?? ""
                return ["multimedia", "communication"].allSatisfy { links.contains("|<- control.endpoint.\($0):monitor_FL") }
            }
        } else {
            // WirePlumber picks the default sink: once it names `out`, it has seen the node.
            try waitFor("WirePlumber did not take out as the default sink") {
                (try? server.pactl(["get-default-sink"], timeout: 2))?.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "out"
            }
        }
        return server
    }

    /// The process-wide server, started on first use and stopped when the process exits.
    /// Restarted if it has died. Thread-safe.
    public static func shared() throws -> PipeWireServer {
        try SharedPipeWire.instance.get()
    }

    public var isRunning: Bool { processes.allSatisfy(\.isRunning) }

    /// Stops pipewire-pulse, WirePlumber, PipeWire and the bus, in that order, by their PIDs.
    public func stop() {
        for process in processes { process.stop(signal: SIGTERM, grace: 5) }
    }

    /// SIGKILL to all four, as a crash of the whole server would be.
    public func kill() {
        for process in processes { process.stop(signal: SIGKILL, grace: 1) }
    }

    public func logTail(lines: Int = 15) -> String {
        Self.logTail(runtimeDirectory, lines: lines)
    }

    private static func logTail(_ directory: String, lines: Int) -> String {
        ["pipewire", "wireplumber", "pipewire-pulse"].map { program in
            let text = (try? String(contentsOfFile: "\(directory)/\(program).log", encoding: .utf8)) ?? ""
            return "\(program): " + text.split(separator: "\n").suffix(lines).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    private static func writeConfiguration(in directory: String, sampleRate: Int, rolePolicy: Bool) throws {
        let manager = FileManager.default
        func write(_ path: String, _ text: String) throws {
            let full = "\(directory)/\(path)"
            try manager.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        try write("client.conf", "autospawn = no\n")
        try write("config/pipewire/pipewire.conf.d/10-interlude-tests.conf",
                  "context.properties = {\n    default.clock.rate = \(sampleRate)\n    default.clock.allowed-rates = [ \(sampleRate) ]\n}\n")
        try write("config/wireplumber/main.lua.d/60-interlude-tests.lua",
                  "alsa_monitor.enabled = false\nv4l2_monitor.enabled = false\nlibcamera_monitor.enabled = false\n")
        try write("config/wireplumber/bluetooth.lua.d/60-interlude-tests.lua", "bluez_monitor.enabled = false\n")
        let roles = "config/wireplumber/policy.lua.d/60-interlude-tests.lua"
        if rolePolicy {
            try write(roles, """
                default_policy.policy.roles = {
                  ["Multimedia"] = {
                    ["alias"] = { "Movie", "Music", "Game" },
                    ["priority"] = 25,
                    ["action.default"] = "cork",
                    ["action.Multimedia"] = "mix",
                  },
                  ["Communication"] = {
                    ["priority"] = 75,
                    ["action.default"] = "cork",
                    ["action.Communication"] = "mix",
                  },
                }
                default_policy.endpoints = {
                  ["endpoint.multimedia"] = { ["media.class"] = "Audio/Sink", ["role"] = "Multimedia" },
                  ["endpoint.communication"] = { ["media.class"] = "Audio/Sink", ["role"] = "Communication" },
                }

                """)
        } else {
            unlink("\(directory)/\(roles)")
        }
    }
}

private final class SharedPipeWire: @unchecked Sendable {
    // @unchecked: `server` is only touched with `lock` held.
    static let instance = SharedPipeWire()
    private let lock = NSLock()
    private var server: PipeWireServer?

    func get() throws -> PipeWireServer {
        lock.lock(); defer { lock.unlock() }
        if let server, server.isRunning { return server }
        // Its PIDs stay registered with ChildRegistry, which stops them at exit.
        let started = try PipeWireServer.start()
        server = started
        return started
    }
}
