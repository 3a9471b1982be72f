import RemoteControl
import LoopIO
import Core
import PlayerModel
import AudioEngine
import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// What `RemoteRequestFuzzer dispatch` fuzzes: a player running on the null
/// sink with its control socket, which requests reach as a client's would,
/// through the socket's reader and the one dispatcher. The player runs on
/// the thread that calls `runPlayer` (its loop, restarted after a `quit`);
/// `request` is called from another thread and talks to it only through the
/// socket, so the two share nothing else.
@_spi(Fuzzing) public final class RemoteDispatchFuzzing: Sendable {
    /// Where the socket and the played file live (a private directory).
    public let directory: String
    public var socketPath: String { directory + "/interlude/control" }
    var audioPath: String { directory + "/one.wav" }

    public init(directory: String) {
        self.directory = directory
    }

    /// Runs players until the process ends: each until a request quits it.
    public func runPlayer() -> Never {
        writeSilentWAV(to: audioPath)
        guard let place = ControlSocketPlace(environment: ["XDG_RUNTIME_DIR": directory]),
              let signals = try? SignalChannel.open([SIGHUP]) else { fatalError("no control socket place in \(directory)") }
        while true {
            let events = PlayerEventStream()
            events.writesErrorsToStandardError = false
            var configuration = PlayerRuntime.Configuration(output: .null)
            configuration.keepsRunningWhenQueueEnds = true
            guard let runtime = PlayerRuntime.open(configuration: configuration, paths: [audioPath, audioPath],
                                                   events: events, signals: signals),
                  let socket = try? ControlSocket(place: place, events: events) else { fatalError("the player did not start") }
            let host = FuzzingHost(socket: socket)
            _ = runtime.run(host: host)
            socket.shutDown()
        }
    }

    /// Sends `line` (newline-terminated here) on a new connection and returns
    /// what the player wrote back until it closed or `seconds` passed with
    /// nothing more: nil when the socket could not be reached in that time.
    public func request(_ line: [UInt8], seconds: Int) -> [UInt8]? {
        var fd: Int32?
        for _ in 0..<(seconds * 100) {
            fd = try? UnixSocket.connect(to: socketPath, timeoutMilliseconds: 1000)
            if fd != nil { break }
            usleep(10_000)
        }
        guard let fd else { return nil }
        defer { close(fd) }
        let message = line + [0x0A]
        var sent = 0
        while sent < message.count {
            // Sound: the pointer and count stay within `message`.
            let result = message.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard result > 0 else { return [] }
            sent += result
        }
        shutdown(fd, Int32(SHUT_WR))
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(seconds * 1000)) == 1 else { return reply }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return reply }
            reply += chunk[0..<count]
        }
    }

    /// One second of 8 kHz mono silence: FFmpeg's WAV demuxer plays it.
    private func writeSilentWAV(to path: String) {
        let rate = 8000, frames = 8000
        func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let data = frames * 2
        var bytes = Array("RIFF".utf8) + le(36 + data, 4) + Array("WAVEfmt ".utf8) + le(16, 4) + le(1, 2) + le(1, 2)
        bytes += le(rate, 4) + le(rate * 2, 4) + le(2, 2) + le(16, 2) + Array("data".utf8) + le(data, 4)
        bytes += [UInt8](repeating: 0, count: data)
        do { try StateFile(path: path).writeAtomically(bytes) } catch { fatalError("cannot write \(path): \(error)") }
    }
}

/// The host of the fuzzed player: the control socket is its only source.
private final class FuzzingHost: PlayerHost {
    let socket: ControlSocket
    init(socket: ControlSocket) { self.socket = socket }
    func handleSignal(_ number: Int32) -> Bool { false }
    func afterIteration() {}
    var maximumWaitMilliseconds: Int? { nil }
    var keepsRunningWhenQueueEnds: Bool { true }
    var loopSources: [LoopSource] { [socket] }
}
