import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private sound server that speaks PulseAudio's native protocol: PulseAudio itself
/// (`PulseServer`) or PipeWire with WirePlumber and pipewire-pulse (`PipeWireServer`).
/// Clients (the player, `paplay`, `parec`, `pactl`, mpv) reach either the same way,
/// through `environment`; null sinks, their monitors and `pactl` work the same on both.
/// Tests that must hold on the sound servers desktops run are parameterised over
/// `SoundServerKind` and start theirs with `kind.start()`.
public protocol SoundServer: AnyObject, Sendable {
    var kind: SoundServerKind { get }
    /// The private runtime directory (mode 700); the socket is `<dir>/pulse/native`.
    var runtimeDirectory: String { get }
    /// Rate and channels of the sinks this server makes by default.
    var sampleRate: Int { get }
    var channels: Int { get }
    /// True while every process of the server runs.
    var isRunning: Bool { get }
    /// Stops the server's processes by their recorded PIDs (SIGTERM, then SIGKILL). Idempotent.
    func stop()
    /// Kills the server's processes with SIGKILL, as a crash would: nothing is cleaned up.
    func kill()
    /// The last lines of the server's logs, for error messages.
    func logTail(lines: Int) -> String
}

extension SoundServer {
    /// What a client needs to reach this server: `PULSE_SERVER=unix:<dir>/pulse/native`
    /// plus `PULSE_RUNTIME_PATH`, `PULSE_COOKIE` and `PULSE_CLIENTCONFIG` (autospawn off,
    /// so a client can never start a stray daemon).
    public var environment: [String: String] {
        [
            "PULSE_SERVER": "unix:\(runtimeDirectory)/pulse/native",
            "PULSE_RUNTIME_PATH": "\(runtimeDirectory)/pulse",
            "PULSE_COOKIE": "\(runtimeDirectory)/cookie",
            "PULSE_CLIENTCONFIG": "\(runtimeDirectory)/client.conf",
        ]
    }

    /// The sink loaded at start, `out` (monitor `out.monitor`). The shared server's tests
    /// should prefer `makeSink()`.
    public var defaultSink: NullSink { NullSink(server: self, name: "out", moduleIndex: nil, sampleRate: sampleRate, channels: channels) }

    /// Runs `pactl` against this server.
    @discardableResult
    public func pactl(_ arguments: [String], timeout: Double = 10) throws -> ProcessResult {
        try ProcessRunner.run("pactl", arguments, environment: environment, timeout: timeout)
    }

    /// Loads a new null sink (named `name`, or a unique `sink_N`) and returns it. Remove it
    /// with `NullSink.remove()` when done (the server's exit removes it too). `rewinds`
    /// re-enables sink rewinds (see `PulseServer` for why they are off; pipewire-pulse
    /// ignores the argument: PipeWire does not rewind).
    public func makeSink(name: String? = nil, sampleRate: Int? = nil, channels: Int? = nil, rewinds: Bool = false) throws -> NullSink {
        let sinkName = name ?? "sink_\(SinkCounter.next())"
        let rate = sampleRate ?? self.sampleRate
        let count = channels ?? self.channels
        let result = try pactl(["load-module", "module-null-sink", "sink_name=\(sinkName)", "rate=\(rate)", "channels=\(count)"]
                                + (rewinds ? [] : ["norewinds=1"]))
        guard result.succeeded, let index = Int(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SoundServerError.sinkFailed(kind, "could not load a null sink: \(result.summary)")
        }
        return NullSink(server: self, name: sinkName, moduleIndex: index, sampleRate: rate, channels: count)
    }

    /// The sink inputs `pactl list sink-inputs` shows, one block each (from its
    /// `Sink Input #N` line), for tests that look at a stream's properties or cork state.
    public func sinkInputs() throws -> [String] {
        let listing = try pactl(["list", "sink-inputs"]).check().stdoutText
        return Array(listing.components(separatedBy: "Sink Input #").dropFirst())
    }
}

public enum SoundServerError: Error, CustomStringConvertible, Sendable {
    case sinkFailed(SoundServerKind, String)

    public var description: String {
        switch self {
        case .sinkFailed(let kind, let message): return "\(kind): \(message)"
        }
    }
}

/// Which sound server a test runs against. As a test argument it prints its name, so
/// each run has its own name in the output (`... with server → PipeWire`).
public enum SoundServerKind: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    case pulseAudio = "PulseAudio"
    case pipeWire = "PipeWire"

    public var description: String { rawValue }

    /// Starts a new private server of this kind; see `PulseServer.start` and
    /// `PipeWireServer.start`. `rolePolicy` turns on the server's own policy for media
    /// roles: PulseAudio's `module-role-cork` with its defaults (a `phone` stream corks
    /// `music` and `video` on its sink), WirePlumber's role-based endpoints as
    /// `PipeWireServer` configures them (a `phone` stream corks `music`).
    /// `runtimeDirectory` restarts a server on a stopped one's socket path.
    public func start(rolePolicy: Bool = false, runtimeDirectory: String? = nil) throws -> any SoundServer {
        switch self {
        case .pulseAudio:
            let server = try PulseServer.start(runtimeDirectory: runtimeDirectory)
            if rolePolicy {
                do { try server.pactl(["load-module", "module-role-cork"]).check() } catch { server.stop(); throw error }
            }
            return server
        case .pipeWire:
            return try PipeWireServer.start(rolePolicy: rolePolicy, runtimeDirectory: runtimeDirectory)
        }
    }

    /// The process-wide server of this kind, started on first use and stopped when the
    /// process exits (`PulseServer.shared()`, `PipeWireServer.shared()`).
    public func shared() throws -> any SoundServer {
        switch self {
        case .pulseAudio: return try PulseServer.shared()
        case .pipeWire: return try PipeWireServer.shared()
        }
    }
}

enum SinkCounter {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var value = 0
    static func next() -> Int {
        lock.lock(); defer { lock.unlock() }
        value += 1
        return value
    }
}
