import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// The control socket: a `LoopSource` that accepts local connections from
/// the same user, reads JSON-line requests, carries them out through the one
/// dispatcher and answers each with one line; a subscriber also gets every
/// event line `--events json` prints. Everything is non-blocking and bounded,
/// so no client can hold the loop, its CPU or its memory:
/// - a reply is queued whole, however long (a 10,000-entry queue is about
///   2 MB), but a client's next request is not read while more than
///   `readPauseBytes` of replies wait for it: one that sends and never reads
///   leaves its requests in the kernel's buffer, not in ours;
/// - once the peer has closed its side (EOF), its descriptor is polled for
///   writing only: EOF stays readable for ever, and polling it for input with
///   replies still pending would wake the loop at once, every turn;
/// - a subscriber that stops reading is dropped, with one line, once
///   `maximumPendingOutputBytes` of events wait beyond its replies;
/// - with `maximumConnections` open, a new client takes the place of the one
///   that has sent or taken nothing for longest (said once); subscribers are
///   never evicted.
final class ControlSocket: LoopSource {
    /// A request longer than this is not a request: the connection closes.
    static let maximumLineBytes = 64 * 1024
    /// A subscriber that falls this far behind is dropped rather than buffered.
    static let maximumPendingOutputBytes = 1 << 20
    /// Requests wait unread while more than this waits to be written to their client.
    static let readPauseBytes = 64 * 1024
    static let maximumConnections = 64

    let path: String
    private var listener: Int32
    private var connections: [Connection] = []
    private let owner = getuid()
    private let events: PlayerEventStream
    /// Lines for the event stream, said at the end of the turn: a drop can
    /// happen inside an event's broadcast, which must not emit another.
    private var reports: [String] = []
    private var reportedEviction = false

    final class Connection {
        let fd: Int32
        var input: [UInt8] = []
        var output: [UInt8] = []
        var subscribed = false
        /// Close once `output` is written (or cannot be).
        var closing = false
        /// The peer sent EOF: nothing more to read.
        var peerClosed = false
        var closed = false
        /// How many bytes `output` may hold before a subscriber is dropped:
        /// the replies queued so far plus `maximumPendingOutputBytes`.
        var allowance = ControlSocket.maximumPendingOutputBytes
        /// When the client last sent or received anything (monotonic seconds).
        var lastActive: Double

        init(fd: Int32, now: Double) {
            self.fd = fd
            lastActive = now
        }

        /// Requests are answered while few replies wait; read while the peer may send more.
        var answersRequests: Bool { !closing && !closed && output.count <= ControlSocket.readPauseBytes }
        var readsRequests: Bool { answersRequests && !peerClosed }
        var hasWholeRequest: Bool { input.contains(UInt8(ascii: "\n")) }
    }

    /// Listens at the first free name in `place` from `instance` on, and
    /// subscribes to `events` for the subscribers.
    init(place: ControlSocketPlace, instance: Int = 1, events: PlayerEventStream) throws(ControlSocketError) {
        (path, listener) = try place.bindFirstFree(from: instance)
        self.events = events
        events.subscribe { [weak self] timed in self?.broadcast(timed) }
    }

    deinit { shutDown() }

    /// The player's socket, or nil: without `XDG_RUNTIME_DIR` quietly (there is
    /// no private place for it), otherwise with one line saying why it is off.
    static func open(instance: Int, events: PlayerEventStream) -> ControlSocket? {
        guard let place = ControlSocketPlace.current else { return nil }
        do { return try ControlSocket(place: place, instance: instance, events: events) } catch {
            events.error(error.description)
            return nil
        }
    }

    /// Closes every connection and removes the socket's name.
    func shutDown() {
        guard listener >= 0 else { return }
        for connection in connections { drop(connection) }
        connections.removeAll()
        close(listener)
        listener = -1
        unlink(path)
    }

    /// Open connections (for tests).
    var connectionCount: Int { connections.count }

    // MARK: LoopSource

    var pollRequests: [LoopPollRequest] {
        guard listener >= 0 else { return [] }
        return [LoopPollRequest(fd: listener)] + connections.map { connection in
            LoopPollRequest(fd: connection.fd, events: (connection.readsRequests ? Int16(POLLIN) : 0)
                                                        | (connection.output.isEmpty ? 0 : Int16(POLLOUT)))
        }
    }

    func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        // Connections first, new ones last: an accepted client may reuse the
        // number of a descriptor closed this turn, whose events are in `ready`.
        for event in ready where event.fd != listener {
            guard let connection = connections.first(where: { $0.fd == event.fd }) else { continue }
            if event.events & Int16(POLLOUT | POLLHUP | POLLERR) != 0 { flush(connection) }
            if connection.readsRequests && event.events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                receive(connection, core: core)
            } else if event.events & Int16(POLLHUP | POLLERR) != 0 {
                // Gone both ways with nothing to read from it: nothing more can reach it.
                drop(connection)
            }
        }
        if ready.contains(where: { $0.fd == listener }) { acceptPending() }
        // Written down below the pause: the requests it sent meanwhile are answered now.
        for connection in connections where connection.answersRequests && connection.hasWholeRequest {
            handleLines(connection, core: core)
        }
        connections.removeAll { connection in
            if (connection.closing || connection.peerClosed) && connection.output.isEmpty && !connection.hasWholeRequest {
                drop(connection)
            }
            return connection.closed
        }
        let due = reports
        reports.removeAll()
        for line in due { events.error(line) }
    }

    // MARK: Connections

    private func acceptPending() {
        // A bounded number a turn, so a flood of connections cannot hold the loop.
        for _ in 0..<16 {
            let fd: Int32?
            do { fd = try UnixSocket.accept(listener) } catch { return }
            guard let fd else { return }
            let connection = Connection(fd: fd, now: monotonicSeconds())
            let peer = try? UnixSocket.peerUserID(fd)
            if peer != owner {
                // Best effort: the peer learns why, and is gone.
                connection.output = Array((RemoteReply.failure(id: .none, "refused: this player belongs to another user") + "\n").utf8)
                flush(connection)
                drop(connection)
                continue
            }
            if connections.count >= Self.maximumConnections && !evictIdlest() {
                connection.output = Array((RemoteReply.failure(id: .none, "refused: too many connections") + "\n").utf8)
                flush(connection)
                drop(connection)
                continue
            }
            connections.append(connection)
        }
    }

    /// Makes room for a new client: the one that has sent or taken nothing for
    /// longest goes (a subscriber is waiting for events, not idle). False when
    /// every connection is a subscriber.
    private func evictIdlest() -> Bool {
        let idle = connections.filter { !$0.subscribed && !$0.closed }
        guard let idlest = idle.min(by: { $0.lastActive < $1.lastActive }) else { return false }
        if !reportedEviction {
            reportedEviction = true
            reports.append("control socket: \(Self.maximumConnections) clients connected; closing the one idle longest "
                           + "to answer a new one (said once)")
        }
        drop(idlest)
        connections.removeAll { $0.closed }
        return true
    }

    private func receive(_ connection: Connection, core: any PlayerCore) {
        guard connection.readsRequests else { return }
        let bytes: ArraySlice<UInt8>
        switch UnixSocket.receive(connection.fd) {
        case .bytes(let received): bytes = received
        case .end: bytes = []
        case .nothing: return
        case .failed:
            drop(connection)
            return
        }
        connection.lastActive = monotonicSeconds()
        if bytes.isEmpty {
            // The client closed its side: what it sent whole is still answered, as
            // the pause allows; the rest of its requests wait for room as before.
            connection.peerClosed = true
            handleLines(connection, core: core)
            // Gone at once when nothing is left to do: its descriptor does not wait for the turn's end.
            if connection.output.isEmpty && !connection.hasWholeRequest { drop(connection) }
            return
        }
        connection.input += bytes
        handleLines(connection, core: core)
        if connection.input.count > Self.maximumLineBytes && connection.input.firstIndex(of: UInt8(ascii: "\n")) == nil {
            connection.input = []
            sendReply(RemoteReply.failure(id: .none, "request longer than \(Self.maximumLineBytes) bytes: connection closed"),
                 to: connection)
            connection.closing = true
        }
    }

    /// Answers the whole lines received, while the replies waiting stay under
    /// the pause (a peer that closed its side is answered to the end).
    private func handleLines(_ connection: Connection, core: any PlayerCore) {
        var start = 0
        while !connection.closed, !connection.closing,
              connection.output.count <= Self.readPauseBytes,
              let newline = connection.input[start...].firstIndex(of: UInt8(ascii: "\n")) {
            var line = Array(connection.input[start..<newline])
            start = newline + 1
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            sendReply(reply(to: line, from: connection, core: core), to: connection)
        }
        if start > 0 { connection.input.removeFirst(min(start, connection.input.count)) }
    }

    private func reply(to line: [UInt8], from connection: Connection, core: any PlayerCore) -> String {
        let request: RemoteRequest
        do { request = try RemoteRequest.parse(line) } catch { return RemoteReply.failure(id: error.id, error.message) }
        let id = request.id
        switch request.action {
        case .perform(let command):
            return RemoteReply.line(id: id, core.perform(command))
        case .seekTo(let seconds):
            let playing = core.snapshot(.playback)
            guard playing.bookPath != nil || playing.currentIndex != nil else { return RemoteReply.failure(id: id, "nothing is playing") }
            // Where the listener is: in the book, or in the track.
            return RemoteReply.line(id: id, core.perform(.seek(seconds: seconds - playing.elapsed)))
        case .stop:
            return RemoteReply.line(id: id, core.perform(.stop))
        case .suspend:
            if core.snapshot().sessionSuspended { return RemoteReply.failure(id: id, "the session is suspended already") }
            return RemoteReply.line(id: id, core.perform(.toggleSessionSuspended))
        case .resumeSession:
            if !core.snapshot().sessionSuspended { return RemoteReply.failure(id: id, "the session is not suspended") }
            return RemoteReply.line(id: id, core.perform(.toggleSessionSuspended))
        case .callStart:
            if core.snapshot().callActive { return RemoteReply.failure(id: id, "a call is on already") }
            return RemoteReply.line(id: id, core.perform(.toggleCall))
        case .callEnd:
            if !core.snapshot().callActive { return RemoteReply.failure(id: id, "no call is on") }
            return RemoteReply.line(id: id, core.perform(.toggleCall))
        case .status:
            let snapshot = core.snapshot()
            return RemoteReply.result(id: id, RemoteReply.status(snapshot, engine: snapshot.engine))
        case .queueList: return RemoteReply.result(id: id, RemoteReply.queue(core.snapshot()))
        case .alarmList: return RemoteReply.result(id: id, RemoteReply.alarms(core.snapshot()))
        case .stationList: return RemoteReply.result(id: id, RemoteReply.stations(core.snapshot(.stations).stations))
        case .subscribe:
            connection.subscribed = true
            return RemoteReply.line(id: id, .done)
        }
    }

    // MARK: Output

    /// The line is made only when someone subscribed: most players never have a subscriber.
    private func broadcast(_ timed: TimedPlayerEvent) {
        guard connections.contains(where: { $0.subscribed && !$0.closing && !$0.closed }) else { return }
        let line = Array((JSONEventPrinter.line(timed) + "\n").utf8)
        for connection in connections where connection.subscribed && !connection.closing && !connection.closed {
            if connection.output.count + line.count > connection.allowance {
                // It stopped reading: drop it rather than hold the player's memory.
                reports.append("control socket: dropped a subscriber that stopped reading "
                               + "(\(Self.maximumPendingOutputBytes / 1024) KB of events waiting for it)")
                connection.output = []
                drop(connection)
                continue
            }
            connection.output += line
            flush(connection)
        }
    }

    /// A reply is queued whole: the events behind it get their own allowance.
    private func sendReply(_ line: String, to connection: Connection) {
        guard !connection.closed else { return }
        connection.output += Array((line + "\n").utf8)
        connection.allowance = connection.output.count + Self.maximumPendingOutputBytes
        flush(connection)
    }

    private func flush(_ connection: Connection) {
        guard !connection.closed, !connection.output.isEmpty else { return }
        guard let written = UnixSocket.sendPending(connection.fd, &connection.output) else {
            drop(connection)
            return
        }
        guard written > 0 else { return }
        connection.allowance = max(Self.maximumPendingOutputBytes, connection.allowance - written)
        connection.lastActive = monotonicSeconds()
    }

    private func drop(_ connection: Connection) {
        guard !connection.closed else { return }
        connection.closed = true
        close(connection.fd)
    }
}
