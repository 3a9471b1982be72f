import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// The control socket: a `LoopSource` that accepts local connections from
/// the same user, reads JSON-line requests, carries them out through the one
/// dispatcher and answers each with one line; a subscriber also gets every
/// event line `--events json` prints. Everything is non-blocking and bounded:
/// a client that sends an endless line or stops reading its subscription is
/// dropped, and the player neither waits for nor grows with any client.
final class ControlSocket: LoopSource {
    /// A request longer than this is not a request: the connection closes.
    static let maximumLineBytes = 64 * 1024
    /// A subscriber that falls this far behind is dropped rather than buffered.
    static let maximumPendingOutputBytes = 1 << 20
    static let maximumConnections = 64

    let path: String
    private var listener: Int32
    private var connections: [Connection] = []
    private let owner = getuid()

    final class Connection {
        let fd: Int32
        var input: [UInt8] = []
        var output: [UInt8] = []
        var subscribed = false
        /// Close once `output` is written (or cannot be).
        var closing = false
        var closed = false

        init(fd: Int32) { self.fd = fd }
    }

    /// Listens at the first free name in `place` from `instance` on, and
    /// subscribes to `events` for the subscribers.
    init(place: ControlSocketPlace, instance: Int = 1, events: PlayerEventStream) throws(ControlSocketError) {
        (path, listener) = try place.bindFirstFree(from: instance)
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
            LoopPollRequest(fd: connection.fd,
                            events: Int16(POLLIN) | (connection.output.isEmpty ? 0 : Int16(POLLOUT)))
        }
    }

    func serviceLoop(ready: [LoopPollRequest], runtime: PlayerRuntime) {
        for event in ready {
            if event.fd == listener {
                acceptPending()
                continue
            }
            guard let connection = connections.first(where: { $0.fd == event.fd }) else { continue }
            if event.events & Int16(POLLOUT) != 0 { flush(connection) }
            if event.events & Int16(POLLIN | POLLHUP | POLLERR) != 0 { receive(connection, runtime: runtime) }
        }
        connections.removeAll { connection in
            if connection.closing && (connection.output.isEmpty || connection.closed) { drop(connection) }
            return connection.closed
        }
    }

    // MARK: Connections

    private func acceptPending() {
        // A bounded number a turn, so a flood of connections cannot hold the loop.
        for _ in 0..<16 {
            let fd: Int32?
            do { fd = try UnixSocket.accept(listener) } catch { return }
            guard let fd else { return }
            let connection = Connection(fd: fd)
            let peer = try? UnixSocket.peerUserID(fd)
            if peer != owner {
                // Best effort: the peer learns why, and is gone.
                connection.output = Array((RemoteReply.failure(id: .none, "refused: this player belongs to another user") + "\n").utf8)
                flush(connection)
                drop(connection)
                continue
            }
            if connections.count >= Self.maximumConnections {
                connection.output = Array((RemoteReply.failure(id: .none, "refused: too many connections") + "\n").utf8)
                flush(connection)
                drop(connection)
                continue
            }
            connections.append(connection)
        }
    }

    private func receive(_ connection: Connection, runtime: PlayerRuntime) {
        guard !connection.closed, !connection.closing else { return }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count: Int
        switch UnixSocket.outcome({ chunk.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) } }) {
        case .success(let received): count = received
        case .failure(let error):
            if error != .wouldBlock { drop(connection) }
            return
        }
        if count == 0 {
            // The client closed its side: what it sent whole is still answered.
            handleLines(connection, runtime: runtime)
            // Gone at once when nothing is left to write: its descriptor does not wait for the turn's end.
            if connection.output.isEmpty { drop(connection) } else { connection.closing = true }
            return
        }
        connection.input += chunk[0..<count]
        handleLines(connection, runtime: runtime)
        if connection.input.count > Self.maximumLineBytes {
            connection.input = []
            send(RemoteReply.failure(id: .none, "request longer than \(Self.maximumLineBytes) bytes: connection closed"),
                 to: connection)
            connection.closing = true
        }
    }

    private func handleLines(_ connection: Connection, runtime: PlayerRuntime) {
        var start = 0
        while !connection.closed, let newline = connection.input[start...].firstIndex(of: UInt8(ascii: "\n")) {
            var line = Array(connection.input[start..<newline])
            start = newline + 1
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            send(reply(to: line, from: connection, runtime: runtime), to: connection)
        }
        if start > 0 { connection.input.removeFirst(min(start, connection.input.count)) }
    }

    private func reply(to line: [UInt8], from connection: Connection, runtime: PlayerRuntime) -> String {
        let request: RemoteRequest
        do { request = try RemoteRequest.parse(line) } catch { return RemoteReply.failure(id: error.id, error.message) }
        let id = request.id
        switch request.action {
        case .perform(let command):
            return RemoteReply.line(id: id, runtime.perform(command))
        case .seekTo(let seconds):
            guard let heard = heardSeconds(runtime) else { return RemoteReply.failure(id: id, "nothing is playing") }
            return RemoteReply.line(id: id, runtime.perform(.seek(seconds: seconds - heard)))
        case .stop:
            return RemoteReply.line(id: id, runtime.perform(.stop))
        case .suspend:
            if runtime.isSessionSuspended { return RemoteReply.failure(id: id, "the session is suspended already") }
            return RemoteReply.line(id: id, runtime.perform(.toggleSessionSuspended))
        case .resumeSession:
            if !runtime.isSessionSuspended { return RemoteReply.failure(id: id, "the session is not suspended") }
            return RemoteReply.line(id: id, runtime.perform(.toggleSessionSuspended))
        case .callStart:
            if runtime.isCallActive { return RemoteReply.failure(id: id, "a call is on already") }
            return RemoteReply.line(id: id, runtime.perform(.toggleCall))
        case .callEnd:
            if !runtime.isCallActive { return RemoteReply.failure(id: id, "no call is on") }
            return RemoteReply.line(id: id, runtime.perform(.toggleCall))
        case .status: return RemoteReply.result(id: id, RemoteReply.status(snapshot(runtime), engine: runtime.engineReport))
        case .queueList: return RemoteReply.result(id: id, RemoteReply.queue(snapshot(runtime)))
        case .alarmList: return RemoteReply.result(id: id, RemoteReply.alarms(snapshot(runtime)))
        case .subscribe:
            connection.subscribed = true
            return RemoteReply.line(id: id, .done)
        }
    }

    /// Where the listener is: in the book, or in the track.
    private func heardSeconds(_ runtime: PlayerRuntime) -> Double? {
        if let book = runtime.book { return Double(book.currentPosition) / 1000 }
        return runtime.current?.elapsed
    }

    private func snapshot(_ runtime: PlayerRuntime) -> PlayerSnapshot {
        runtime.snapshot()
    }

    // MARK: Output

    /// The line is made only when someone subscribed: most players never have a subscriber.
    private func broadcast(_ timed: TimedPlayerEvent) {
        guard connections.contains(where: { $0.subscribed && !$0.closing }) else { return }
        let line = JSONEventPrinter.line(timed)
        for connection in connections where connection.subscribed && !connection.closing { send(line, to: connection) }
    }

    private func send(_ line: String, to connection: Connection) {
        guard !connection.closed else { return }
        connection.output += Array((line + "\n").utf8)
        flush(connection)
        if connection.output.count > Self.maximumPendingOutputBytes {
            // It stopped reading: drop it rather than hold the player's memory.
            connection.output = []
            drop(connection)
        }
    }

    private func flush(_ connection: Connection) {
        while !connection.output.isEmpty && !connection.closed {
            let written: Int
            // MSG_NOSIGNAL: a client that left must not kill the player with SIGPIPE.
            switch UnixSocket.outcome({
                connection.output.withUnsafeBytes { Glibc.send(connection.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }) {
            case .success(let count): written = count
            case .failure(let error):
                if error == .wouldBlock { return }
                connection.output = []
                drop(connection)
                return
            }
            connection.output.removeFirst(written)
        }
    }

    private func drop(_ connection: Connection) {
        guard !connection.closed else { return }
        connection.closed = true
        close(connection.fd)
    }
}
