import LoopIO
import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// The control socket: a `LoopSource` that accepts local connections from
/// the same user, reads JSON-line requests, carries them out through the one
/// dispatcher and answers each with one line; a subscriber also gets every
/// event line `--events json` prints. The sockets and the defences against a
/// hostile client (the accept's bound, the peer's user, the line, output and
/// read-pause limits, half-closed clients, drops) are the `LineServer`'s,
/// shared with MPD; what is this protocol's own is here:
/// - its limits (`rules`); a reply is queued whole, however long, and only
///   events beyond the replies count towards `maximumPendingOutputBytes`;
/// - one line of JSON for a refused client and for a request past
///   `maximumLineBytes` (then the connection closes);
/// - a subscriber that stops reading is dropped once
///   `maximumPendingOutputBytes` of events wait for it, said on the event
///   stream at the end of the turn;
/// - with `maximumConnections` open, a new client takes the place of the one
///   that has sent or taken nothing for longest (said once); subscribers are
///   never evicted;
/// - a client is read once a turn (`requestsPerTurn`): what it sends after
///   that read waits for the loop's next turn.
package final class ControlSocket: LoopSource, LineProtocol {
    /// A request longer than this is not a request: the connection closes.
    package static let maximumLineBytes = 64 * 1024
    /// A subscriber that falls this far behind is dropped rather than buffered.
    package static let maximumPendingOutputBytes = 1 << 20
    /// Requests wait unread while more than this waits to be written to their client.
    package static let readPauseBytes = 64 * 1024
    package static let maximumConnections = 64

    package static let rules = LineServerRules(
        maximumLineBytes: maximumLineBytes, readPauseBytes: readPauseBytes,
        outputLimit: .beyondReplies(bytes: maximumPendingOutputBytes), maximumConnections: maximumConnections,
        whenFull: .evictIdlest(orRefuseSaying: line(RemoteReply.failure(id: .none, "refused: too many connections"))),
        requestsPerTurn: 1, greeting: nil,
        peerRefusal: line(RemoteReply.failure(id: .none, "refused: this player belongs to another user")),
        overlongLineReply: line(RemoteReply.failure(id: .none, "request longer than \(maximumLineBytes) bytes: connection closed")))

    private static func line(_ text: String) -> [UInt8] { Array((text + "\n").utf8) }

    package let path: String
    private lazy var lines = LineServer(rules: Self.rules, handler: self)
    private let events: PlayerEventStream
    /// Lines for the event stream, said at the end of the turn: a drop can
    /// happen inside an event's broadcast, which must not emit another.
    private var reports: [String] = []
    private var reportedEviction = false

    package struct Session {
        package var subscribed = false
    }

    package typealias Client = LineClient<Session>

    /// Listens at the first free name in `place` from `instance` on, and
    /// subscribes to `events` for the subscribers.
    package init(place: ControlSocketPlace, instance: Int = 1, events: PlayerEventStream) throws(ControlSocketError) {
        let listener: Int32
        (path, listener) = try place.bindFirstFree(from: instance)
        self.events = events
        lines.listen(on: listener, checksPeer: true)
        events.subscribe { [weak self] timed in self?.broadcast(timed) }
    }

    deinit { shutDown() }

    /// The player's socket, or nil: without `XDG_RUNTIME_DIR` quietly (there is
    /// no private place for it), otherwise with one line saying why it is off.
    package static func open(instance: Int, events: PlayerEventStream) -> ControlSocket? {
        guard let place = ControlSocketPlace.current else { return nil }
        do { return try ControlSocket(place: place, instance: instance, events: events) } catch {
            events.error(error.description)
            return nil
        }
    }

    /// Closes every connection and removes the socket's name.
    package func shutDown() {
        guard lines.isListening else { return }
        lines.shutDown()
        unlink(path)
    }

    /// Open connections (for tests).
    package var connectionCount: Int { lines.clients.count }

    // MARK: LoopSource

    package var pollRequests: [LoopPollRequest] {
        var requests = [LoopPollRequest]()
        requests.reserveCapacity(lines.pollRequestCount)
        lines.addPollRequests { requests.append(LoopPollRequest(fd: $0, events: $1)) }
        return requests
    }

    package func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        lines.service(ready: ready.lazy.map { (fd: $0.fd, events: $0.events) }, context: core)
        let due = reports
        reports.removeAll()
        for line in due { events.error(line) }
    }

    // MARK: LineProtocol

    package func newSession() -> Session { Session() }

    package func answer(_ line: [UInt8], from client: Client, context core: any PlayerCore) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        lines.reply(Self.line(reply(to: line, from: client, core: core)), to: client)
    }

    /// A subscriber is waiting for events, not idle.
    package func mayEvict(_ client: Client) -> Bool { !client.session.subscribed }

    package func evicting(_ client: Client) {
        guard !reportedEviction else { return }
        reportedEviction = true
        reports.append("control socket: \(Self.maximumConnections) clients connected; closing the one idle longest "
                       + "to answer a new one (said once)")
    }

    package func droppedForUnreadOutput(_ client: Client) {
        reports.append("control socket: dropped a subscriber that stopped reading "
                       + "(\(Self.maximumPendingOutputBytes / 1024) KB of events waiting for it)")
    }

    private func reply(to line: [UInt8], from client: Client, core: any PlayerCore) -> String {
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
            client.session.subscribed = true
            return RemoteReply.line(id: id, .done)
        }
    }

    // MARK: Output

    /// The line is made only when someone subscribed: most players never have a subscriber.
    private func broadcast(_ timed: TimedPlayerEvent) {
        func listens(_ client: Client) -> Bool { client.session.subscribed && !client.closing && !client.closed }
        guard lines.clients.contains(where: listens) else { return }
        let line = Array((JSONEventPrinter.line(timed) + "\n").utf8)
        for client in lines.clients where listens(client) { lines.post(line, to: client) }
    }
}
