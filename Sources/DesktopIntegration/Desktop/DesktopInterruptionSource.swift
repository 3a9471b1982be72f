import PlayerModel
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
/// Which streams count, and how a long-corked one stops counting, is
/// `DesktopStreamTable`'s (pure, tested on explicit times).
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
package final class DesktopInterruptionSource: LoopSource {
    package let settings: DesktopInterruptionSettings
    /// Where to connect; nil lets libpulse find the server (`PULSE_SERVER`, ...).
    package let server: String?

    /// Attempts to connect so far (the first one included).
    package private(set) var connectionAttempts = 0
    package private(set) var isConnected = false

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

    private var streams: DesktopStreamTable {
        didSet { if streams.counting.map(\.stream.index) != counted { needsApplying = true } }
    }
    /// The streams the sessions stand for, as last applied; the loop turns
    /// often (every refill), so a turn in which nothing changed costs nothing.
    private var counted: [UInt32] = []
    private var needsApplying = false
    /// The streams that hold a session in the core, and the core they hold it in.
    private var sessions: Set<UInt32> = []
    private weak var sessionsCore: (any PlayerCore)?

    package init(settings: DesktopInterruptionSettings, server: String?) {
        self.settings = settings
        self.server = server
        streams = DesktopStreamTable(roles: settings.roles, ownProcessID: getpid())
    }

    /// The contexts go before the loop: libpulse frees their events through it.
    deinit {
        connection = nil
        releasedConnections.removeAll()
    }

    /// The streams that interrupt now, by program, for tests and the report.
    package var interruptingPrograms: [String] {
        streams.counting.map(\.stream.program)
    }

    // MARK: LoopSource

    package var pollRequests: [LoopPollRequest] { loop.pollRequests }

    /// libpulse's own timeout, the next reconnection attempt, or the moment a
    /// corked stream stops counting, whichever is first.
    package var wakeWithinMilliseconds: Int? {
        var next = retryAt
        if let expiry = streams.nextExpiry { next = min(next ?? expiry, expiry) }
        // Rounded up: waking a moment early would only turn the loop again.
        var wait = next.map { max(0, Int(($0 - PulseMainLoop.nowMicroseconds() + 999) / 1000)) }
        if let libpulse = loop.wakeWithinMilliseconds { wait = min(wait ?? libpulse, libpulse) }
        return wait
    }

    package func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        service(ready: ready)
        apply(to: core)
    }

    /// The connection's part of a turn: libpulse's callbacks, a due reconnection.
    package func service(ready: [LoopPollRequest]) {
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
        if streams.nextExpiry != nil { streams.expire(now: PulseMainLoop.nowMicroseconds()) }
    }

    /// Messages for the user since the last call (one line each).
    package func takeMessages() -> [String] {
        defer { messages.removeAll() }
        return messages
    }

    // MARK: The connection

    private func connect() {
        connectionAttempts += 1
        do {
            let connection = try SoundServerConnection(loop: loop, server: server)
            connection.onState = { [unowned self] state in self.connectionState(state) }
            connection.onStream = { [unowned self] stream in self.streams.seen(stream, now: PulseMainLoop.nowMicroseconds()) }
            connection.onStreamRemoved = { [unowned self] index in self.streams.removed(index) }
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

    /// Opens a session for each stream that counts and has none in this
    /// core, and ends those whose stream stopped counting or went away.
    private func apply(to core: any PlayerCore) {
        if !messages.isEmpty {
            for message in takeMessages() { core.events.error(message) }
        }
        if sessionsCore !== core {
            // The sessions of a core that ended went with its arbiter.
            sessions.removeAll()
            sessionsCore = core
            needsApplying = true
        }
        guard needsApplying else { return }
        needsApplying = false
        let counting = streams.counting
        counted = counting.map(\.stream.index)
        for index in sessions.sorted() where !counting.contains(where: { $0.stream.index == index }) {
            sessions.remove(index)
            _ = core.perform(.desktopStreamEnded(stream: Int(index)))
        }
        for entry in counting where !sessions.contains(entry.stream.index) {
            sessions.insert(entry.stream.index)
            _ = core.perform(.desktopStreamBegan(stream: Int(entry.stream.index), priorityClass: entry.priorityClass,
                                                 program: entry.stream.program))
        }
    }
}
