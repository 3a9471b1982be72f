import AudioSession
#if canImport(Glibc)
import Glibc
#endif

/// Interruptions from the desktop: other programs' streams on the sound server
/// (PulseAudio, or PipeWire through pipewire-pulse) whose `media.role` the
/// role table names open a session of that class with the runtime's arbiter,
/// labelled with the program's `application.name`, exactly as the built-in
/// alarms and the simulated call do; the policy table and the player's resume
/// strategy then decide. Each stream is its own session, so overlapping
/// streams are stacked interruptions and the player resumes once, after the
/// last. The player's own streams (`application.process.id`) are ignored.
///
/// A stream counts from when it plays until it is removed. A corked stream
/// (its program paused it: a call on hold, a stopped alarm) stops counting
/// once it has stayed corked for `corkGraceMilliseconds`, so the player comes
/// back for a long hold but does not flap over a momentary cork; uncorked, it
/// interrupts again as a new interruption. A stream that starts corked
/// (created before it has data) counts only once it plays.
///
/// Driven by the runtime's loop (`LoopSource`) through `PulseMainLoop`, on the
/// main thread only. The host owns it, so it outlives the runtimes the
/// full-screen player switches between; each runtime gets its own sessions for
/// the streams that count, opened when the source first sees it.
///
/// Without a server it says once that desktop interruptions are off and the
/// player plays as before; it keeps trying with `ReconnectBackoff`. A server
/// that goes away is reported once, its streams end, and the source
/// reconnects when it is back.
final class DesktopInterruptionSource: LoopSource {
    static let corkGraceMilliseconds: Int64 = 2000

    let settings: DesktopInterruptionSettings
    /// Where to connect; nil lets libpulse find the server (`PULSE_SERVER`, ...).
    let server: String?

    /// Attempts to connect so far (the first one included).
    private(set) var connectionAttempts = 0
    private(set) var isConnected = false

    private let loop = PulseMainLoop()
    private var connection: SoundServerConnection?
    /// A failed connection is released after the dispatch that reported it:
    /// releasing it inside libpulse's callback would free the context under it.
    private var releasedConnections: [SoundServerConnection] = []
    private var started = false
    private var everConnected = false
    private var reportedOff = false
    private var reportedLoss = false
    private var backoff = ReconnectBackoff()
    private var retryAt: Int64?
    private var messages: [String] = []

    private struct Tracked {
        var stream: DesktopStream
        var priorityClass: PriorityClass
        /// When it was first seen corked (monotonic microseconds), while it is.
        var corkedSince: Int64?
        /// Whether it counts as an interruption now.
        var counts = false
    }

    private var streams: [UInt32: Tracked] = [:]
    /// The sessions the streams that count hold, with the runtime they belong to.
    private var sessions: [UInt32: Session] = [:]
    private weak var sessionsRuntime: PlayerRuntime?

    init(settings: DesktopInterruptionSettings, server: String?) {
        self.settings = settings
        self.server = server
    }

    /// The contexts go before the loop: libpulse frees their events through it.
    deinit {
        connection = nil
        releasedConnections.removeAll()
    }

    /// The streams that interrupt now, by program, for tests and the report.
    var interruptingPrograms: [String] {
        streams.values.filter(\.counts).sorted { $0.stream.index < $1.stream.index }.map(\.stream.program)
    }

    // MARK: LoopSource

    var pollRequests: [LoopPollRequest] { loop.pollRequests }

    var wakeWithinMilliseconds: Int? {
        let now = PulseMainLoop.nowMicroseconds()
        var deadlines = [retryAt].compactMap { $0 }
        for tracked in streams.values where tracked.counts {
            if let since = tracked.corkedSince { deadlines.append(since + Self.corkGraceMilliseconds * 1000) }
        }
        var wait = deadlines.min().map { max(0, Int(($0 - now + 999) / 1000)) }
        if let libpulse = loop.wakeWithinMilliseconds { wait = min(wait ?? libpulse, libpulse) }
        return wait
    }

    func serviceLoop(ready: [LoopPollRequest], runtime: PlayerRuntime) {
        service(ready: ready)
        apply(to: runtime)
    }

    /// The connection's part of a turn: libpulse's callbacks, a due reconnection.
    func service(ready: [LoopPollRequest]) {
        if !started {
            started = true
            connect()
        }
        loop.dispatch(ready: ready)
        releasedConnections.removeAll()
        if let retryAt, PulseMainLoop.nowMicroseconds() >= retryAt {
            self.retryAt = nil
            connect()
        }
        updateCorkedStreams()
    }

    /// Messages for the user since the last call (one line each).
    func takeMessages() -> [String] {
        defer { messages.removeAll() }
        return messages
    }

    // MARK: The connection

    private func connect() {
        connectionAttempts += 1
        do {
            let connection = try SoundServerConnection(loop: loop, server: server)
            connection.onState = { [unowned self] state in self.connectionState(state) }
            connection.onStream = { [unowned self] stream in self.streamSeen(stream) }
            connection.onStreamRemoved = { [unowned self] index in self.streams[index] = nil }
            self.connection = connection
        } catch .libraryUnavailable(let message) {
            // Nothing to come back for: without libpulse there is no retrying.
            messages.append("desktop interruptions are off: libpulse could not be loaded: \(message)")
            reportedOff = true
        } catch {
            failed(error)
        }
    }

    private func connectionState(_ state: SoundServerConnection.State) {
        switch state {
        case .connecting:
            break
        case .ready:
            isConnected = true
            everConnected = true
            reportedLoss = false
            backoff.connected()
        case .failed(let error):
            if let connection { releasedConnections.append(connection) }
            connection = nil
            failed(error)
        }
    }

    private func failed(_ error: SoundServerError) {
        if isConnected {
            if !reportedLoss {
                messages.append("the sound server went away (\(error)); desktop interruptions come back with it")
                reportedLoss = true
            }
        } else if !everConnected && !reportedOff {
            messages.append("desktop interruptions are off: \(error)")
            reportedOff = true
        }
        isConnected = false
        // Its streams went with it.
        streams.removeAll()
        retryAt = PulseMainLoop.nowMicroseconds() + Int64(backoff.failed()) * 1000
    }

    // MARK: Streams

    private func streamSeen(_ stream: DesktopStream) {
        guard stream.processID != getpid(), let role = stream.role, let priorityClass = settings.roles[role] else {
            streams[stream.index] = nil
            return
        }
        var tracked = streams[stream.index] ?? Tracked(stream: stream, priorityClass: priorityClass)
        tracked.stream = stream
        tracked.priorityClass = priorityClass
        if stream.corked {
            if tracked.corkedSince == nil { tracked.corkedSince = PulseMainLoop.nowMicroseconds() }
        } else {
            tracked.corkedSince = nil
            tracked.counts = true
        }
        streams[stream.index] = tracked
    }

    private func updateCorkedStreams() {
        let now = PulseMainLoop.nowMicroseconds()
        for (index, tracked) in streams where tracked.counts {
            if let since = tracked.corkedSince, now - since >= Self.corkGraceMilliseconds * 1000 {
                streams[index]?.counts = false
            }
        }
    }

    /// Opens a session for each stream that counts and has none in this
    /// runtime, and ends those whose stream stopped counting or went away.
    private func apply(to runtime: PlayerRuntime) {
        for message in takeMessages() { runtime.events.error(message) }
        if sessionsRuntime !== runtime {
            // The sessions of a runtime that ended went with its arbiter.
            sessions.removeAll()
            sessionsRuntime = runtime
        }
        for (index, session) in sessions.sorted(by: { $0.key < $1.key }) where streams[index]?.counts != true {
            sessions[index] = nil
            runtime.endDesktopInterruption(session)
        }
        for (index, tracked) in streams.sorted(by: { $0.key < $1.key }) where tracked.counts && sessions[index] == nil {
            sessions[index] = runtime.beginDesktopInterruption(tracked.priorityClass, program: tracked.stream.program)
        }
    }
}
