import InterludeCore
#if canImport(Glibc)
import Glibc
#endif

/// A server of one line protocol on the main loop (the control socket's JSON
/// lines, MPD's text protocol): it owns the sockets and every defence against
/// a hostile client, and hands each whole line to its protocol, which answers
/// through `reply` and `post`. It deals in descriptors, bytes and lines only
/// (the player is the protocol's `Context`, passed through untouched), never
/// blocks, and never reads or writes without bound:
/// - at most `acceptsPerTurn` connections are taken a turn, so a flood of
///   them cannot hold the loop; on a Unix socket another user's client is
///   refused (`SO_PEERCRED`);
/// - past `maximumConnections` a new client is refused, or takes the place
///   of the idlest (`WhenFull`);
/// - a line longer than `maximumLineBytes` is refused, with or without a
///   last reply, and the client closed;
/// - a client's next lines are not read while more than `readPauseBytes` of
///   replies wait for it: one that sends and never reads leaves its requests
///   in the kernel's buffer, not in ours;
/// - a client that stops reading is dropped once its output passes the
///   limit (`OutputLimit`), and its protocol told, to say so once;
/// - once the peer has closed its side (EOF), the lines it sent whole are
///   still answered, and its descriptor is polled for writing only: EOF stays
///   readable for ever, and polling it for input with replies still pending
///   would wake the loop at once, every turn.
package final class LineServer<Handler: LineProtocol> {
    package typealias Client = LineClient<Handler.Session>

    /// A bound per turn, so that a flood of connections cannot hold the loop.
    package static var acceptsPerTurn: Int { 16 }

    package let rules: LineServerRules
    package private(set) var clients: [Client] = []
    private unowned let handler: Handler
    private var listeners: [(fd: Int32, checksPeer: Bool)] = []
    /// The user whose clients are served on a Unix socket.
    private let owner: uid_t
    /// Every read goes into this one buffer: a fresh 16 KB one, zeroed, for
    /// every request was a tenth of MPD's `status` time.
    private var receiveBuffer = [UInt8](repeating: 0, count: 16 * 1024)
    /// Counts activity, for the idlest client: a later stamp is a later sending or taking.
    private var activity: UInt64 = 0

    package init(rules: LineServerRules, handler: Handler, owner: uid_t = getuid()) {
        self.rules = rules
        self.handler = handler
        self.owner = owner
    }

    /// Serves the clients of the listening socket `fd`, which the server now
    /// owns. `checksPeer`: a Unix socket, whose clients must be its owner's.
    package func listen(on fd: Int32, checksPeer: Bool) {
        listeners.append((fd, checksPeer))
    }

    package var isListening: Bool { !listeners.isEmpty }

    /// Closes every client and listener.
    package func shutDown() {
        for client in clients { drop(client) }
        clients.removeAll()
        for listener in listeners { close(listener.fd) }
        listeners.removeAll()
    }

    // MARK: The loop's turn

    /// How many descriptors `addPollRequests` gives.
    package var pollRequestCount: Int { listeners.count + clients.count }

    /// The descriptors to poll and their events (`POLLIN`, `POLLOUT`), asked for before every wait.
    package func addPollRequests(_ add: (_ fd: Int32, _ events: Int16) -> Void) {
        for listener in listeners { add(listener.fd, Int16(POLLIN)) }
        for client in clients where !client.closed {
            add(client.fd, (readsLines(client) ? Int16(POLLIN) : 0) | (client.output.isEmpty ? 0 : Int16(POLLOUT)))
        }
    }

    /// After the loop's wait, with the descriptors poll found ready (those
    /// that are not the server's are passed over): writes, reads and answers,
    /// accepts, and closes the clients that are done.
    package func service(ready: some Collection<(fd: Int32, events: Int16)>, context: Handler.Context) {
        // Clients first, new ones last: an accepted client may reuse the number
        // of a descriptor closed this turn, whose events are in `ready`. With no
        // client (a control socket nobody uses: most turns of a playing loop)
        // the walks over clients are skipped, not run empty.
        if !clients.isEmpty {
            for (fd, events) in ready {
                guard let client = clients.first(where: { $0.fd == fd && !$0.closed }) else { continue }
                if events & Int16(POLLOUT | POLLHUP | POLLERR) != 0 { flush(client) }
                if readsLines(client) && events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    receive(client, context: context)
                } else if events & Int16(POLLHUP | POLLERR) != 0 {
                    // Gone both ways with nothing to read from it: nothing more can reach it.
                    drop(client)
                }
            }
        }
        for listener in listeners where ready.contains(where: { $0.fd == listener.fd }) { acceptPending(from: listener) }
        if clients.isEmpty {
            handler.linesAnswered(context: context)
            return
        }
        // Written down below the pause: the lines it sent meanwhile are answered now.
        for client in clients where !client.closed && client.hasWholeLine { answerLines(of: client, context: context) }
        handler.linesAnswered(context: context)
        clients.removeAll { client in
            if isDone(client) { drop(client) }
            return client.closed
        }
    }

    /// Answers what `client` sent meanwhile, once its protocol holds its lines
    /// no longer (MPD's read of the library has come); and closes it if that was all.
    package func answerHeldLines(of client: Client, context: Handler.Context) {
        answerLines(of: client, context: context)
        if isDone(client) { drop(client) }
    }

    // MARK: Output

    /// Queues an answer to the client's line and sends what the socket takes
    /// now. Under `OutputLimit.beyondReplies` a reply is queued whole, however
    /// long (the control socket's 10,000-entry queue is about 2 MB).
    package func reply(_ bytes: [UInt8], to client: Client) {
        guard !client.closed, !bytes.isEmpty else { return }
        client.output.append(bytes)
        switch rules.outputLimit {
        case .beyondReplies(let limit): client.allowance = client.output.count + limit
        case .everything: guard keepsWithinOutputLimit(client) else { return }
        }
        flush(client)
    }

    /// Queues what nobody asked for (an event for a subscriber), within the
    /// output limit, and sends what the socket takes now.
    package func post(_ bytes: [UInt8], to client: Client) {
        guard !client.closed, !bytes.isEmpty else { return }
        client.output.append(bytes)
        guard keepsWithinOutputLimit(client) else { return }
        flush(client)
    }

    /// False (and the client dropped, its protocol told) when more waits for it than it may hold.
    private func keepsWithinOutputLimit(_ client: Client) -> Bool {
        guard client.output.count > client.allowance else { return true }
        // It stopped reading: drop it rather than hold the player's memory.
        client.output.removeAll()
        drop(client)
        handler.droppedForUnreadOutput(client)
        return false
    }

    private func flush(_ client: Client) {
        guard !client.closed, !client.output.isEmpty else { return }
        guard let written = client.output.send(to: client.fd) else {
            drop(client)
            return
        }
        guard written > 0 else { return }
        client.allowance = max(rules.outputLimit.bytes, client.allowance - written)
        touch(client)
    }

    package func drop(_ client: Client) {
        guard !client.closed else { return }
        client.closed = true
        close(client.fd)
    }

    // MARK: Connections

    private func acceptPending(from listener: (fd: Int32, checksPeer: Bool)) {
        for _ in 0..<Self.acceptsPerTurn {
            let fd: Int32?
            do { fd = try UnixSocket.accept(listener.fd) } catch { return }
            guard let fd else { return }
            activity += 1
            let client = Client(fd: fd, session: handler.newSession(), allowance: rules.outputLimit.bytes, activity: activity,
                                peerIsOwner: listener.checksPeer)
            if listener.checksPeer && (try? UnixSocket.peerUserID(fd)) != owner {
                refuse(client, saying: rules.peerRefusal)
                continue
            }
            if clients.count >= rules.maximumConnections {
                switch rules.whenFull {
                case .refuse(let line):
                    refuse(client, saying: line)
                    continue
                case .evictIdlest(let line):
                    guard evictIdlest() else {
                        refuse(client, saying: line)
                        continue
                    }
                }
            }
            clients.append(client)
            if let greeting = rules.greeting { reply(greeting, to: client) }
        }
    }

    /// Best effort: the peer learns why, when the protocol says, and is gone.
    private func refuse(_ client: Client, saying line: [UInt8]?) {
        if let line {
            client.output.append(line)
            flush(client)
        }
        drop(client)
    }

    /// Makes room for a new client: the one that has sent or taken nothing for
    /// longest goes, of those its protocol lets go. False when none may.
    private func evictIdlest() -> Bool {
        let candidates = clients.filter { !$0.closed && handler.mayEvict($0) }
        guard let idlest = candidates.min(by: { $0.lastActive < $1.lastActive }) else { return false }
        handler.evicting(idlest)
        drop(idlest)
        clients.removeAll { $0.closed }
        return true
    }

    private func touch(_ client: Client) {
        activity += 1
        client.lastActive = activity
    }

    // MARK: Input

    /// Lines are read while few replies wait, the protocol holds none, and the peer may send more.
    private func readsLines(_ client: Client) -> Bool {
        !client.closing && !client.closed && !client.peerClosed && !handler.holdsLines(of: client)
            && client.output.count <= rules.readPauseBytes
    }

    /// Nothing more will be sent to it.
    private func isDone(_ client: Client) -> Bool {
        guard client.output.isEmpty, !handler.holdsLines(of: client) else { return false }
        return client.closing || (client.peerClosed && !client.hasWholeLine)
    }

    /// Reads and answers the client's lines. A client that sends its next line
    /// as soon as it has a reply (most MPD clients do) is answered again in
    /// this turn, up to `requestsPerTurn` times, rather than after the rest of
    /// the loop's turn and its next wait; but not after a line its protocol
    /// marks `yieldsTurn` (MPD's `play`, `add`...): the loop's turn carries it
    /// out first (a resume, a jump), so the next `status` says what it did.
    private func receive(_ client: Client, context: Handler.Context) {
        for _ in 0..<rules.requestsPerTurn {
            client.yieldsTurn = false
            guard receiveOnce(client, context: context), readsLines(client), !client.yieldsTurn else { return }
        }
    }

    /// One read and what it completed answered; false when nothing more is to be read now (or the client is gone).
    private func receiveOnce(_ client: Client, context: Handler.Context) -> Bool {
        // Peeked, and taken from the socket once answered: taking a request frees
        // its buffer, and Linux then wakes the client blocked reading its reply (a
        // Unix socket's readers and writers wait on one queue); the scheduler
        // often ran it at once, its read found nothing, and over half of MPD's
        // `status` replies waited the two switches.
        let received = receiveBuffer.withUnsafeMutableBytes { buffer in
            UnixSocket.outcome { recv(client.fd, buffer.baseAddress, buffer.count, Int32(MSG_PEEK)) }
        }
        let count: Int
        switch received {
        case .success(let read): count = read
        case .failure(let error):
            if error != .wouldBlock { drop(client) }
            return false
        }
        touch(client)
        if count == 0 {
            // The client closed its side: what it sent whole is still answered, as
            // the pause allows; the rest of its lines wait for room as before.
            client.peerClosed = true
            answerLines(of: client, context: context)
            // Gone at once when nothing is left to do: its descriptor does not wait for the turn's end.
            if isDone(client) { drop(client) }
            return false
        }
        client.input += receiveBuffer[..<count]
        answerLines(of: client, context: context)
        guard keepsWithinLine(client) else { return false }
        return take(count, from: client, context: context)
    }

    /// Takes the `count` bytes peeked (and answered) from the socket; and,
    /// when the client may be answered again this turn, in the same call
    /// whatever it sent since, which is answered here: true then, as more may
    /// follow. A client that waits for each reply has sent nothing more, and
    /// the call that takes its request also says so, where a second read found nothing.
    private func take(_ count: Int, from client: Client, context: Handler.Context) -> Bool {
        guard !client.closed else { return false }
        let further = rules.requestsPerTurn > 1 && readsLines(client) && !client.yieldsTurn
        var left = count
        var taken = 0
        while left > 0 {
            let outcome = receiveBuffer.withUnsafeMutableBytes { buffer in
                UnixSocket.outcome { recv(client.fd, buffer.baseAddress, further ? buffer.count : min(left, buffer.count), 0) }
            }
            guard case .success(let read) = outcome, read > 0 else {
                drop(client)
                return false
            }
            taken = read
            left -= read
        }
        // What came after the lines answered: the last read's bytes past them.
        guard left < 0 else { return false }
        client.input += receiveBuffer[(taken + left)..<taken]
        answerLines(of: client, context: context)
        return keepsWithinLine(client)
    }

    /// False when the client is gone: its input held more than a line without its newline.
    private func keepsWithinLine(_ client: Client) -> Bool {
        if client.input.count > rules.maximumLineBytes && client.input.firstIndex(of: UInt8(ascii: "\n")) == nil {
            refuseOverlongLine(client)
        }
        return !client.closed
    }

    /// A line past the limit is not a line of the protocol, however it arrived: the client closes.
    private func refuseOverlongLine(_ client: Client) {
        client.input = []
        if let line = rules.overlongLineReply {
            reply(line, to: client)
            client.closing = true
        } else {
            client.output.removeAll()
            drop(client)
        }
    }

    /// Answers the whole lines received, while the replies waiting stay under
    /// the pause and the protocol holds none (a peer that closed its side is answered to the end).
    private func answerLines(of client: Client, context: Handler.Context) {
        var start = 0
        while !client.closed, !client.closing, !handler.holdsLines(of: client), client.output.count <= rules.readPauseBytes,
              let newline = client.input[start...].firstIndex(of: UInt8(ascii: "\n")) {
            guard newline - start <= rules.maximumLineBytes else {
                refuseOverlongLine(client)
                return
            }
            var line = Array(client.input[start..<newline])
            start = newline + 1
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            handler.answer(line, from: client, context: context)
        }
        if start > 0 { client.input.removeFirst(min(start, client.input.count)) }
    }
}

/// One client of a `LineServer`: the server's bookkeeping, and the protocol's `session`.
package final class LineClient<Session> {
    package let fd: Int32
    /// The protocol's own state for this client.
    package var session: Session
    /// Set by the protocol: close once the output is written (or cannot be); nothing more is read or answered.
    package var closing = false
    /// Set by the protocol while answering: the line changed something the
    /// loop's turn carries out first, so nothing more of this client is answered in this turn.
    package var yieldsTurn = false
    /// The peer sent EOF: nothing more to read.
    package fileprivate(set) var peerClosed = false
    package fileprivate(set) var closed = false
    /// Accepted on a Unix socket that checks its peer: the client runs as
    /// the owner's user (a TCP client's user is not known, so never).
    package let peerIsOwner: Bool
    fileprivate var input: [UInt8] = []
    fileprivate var output = PendingOutput()
    /// How many bytes `output` may hold before the client is dropped: the
    /// output limit, or under `beyondReplies` the replies queued so far plus it.
    fileprivate var allowance: Int
    /// The server's activity count when the client last sent or took anything.
    fileprivate var lastActive: UInt64

    fileprivate init(fd: Int32, session: Session, allowance: Int, activity: UInt64, peerIsOwner: Bool) {
        self.fd = fd
        self.peerIsOwner = peerIsOwner
        self.session = session
        self.allowance = allowance
        lastActive = activity
    }

    package var hasWholeLine: Bool { input.contains(UInt8(ascii: "\n")) }
    /// Bytes waiting to be written to it.
    package var pendingOutputBytes: Int { output.count }
}

/// What a protocol served by a `LineServer` decides: each line's answer, and
/// the few choices the server's defences leave to it.
package protocol LineProtocol: AnyObject {
    /// The protocol's state for one client (MPD's command list, idle and permissions; a subscription).
    associatedtype Session
    /// What answering a line needs (the player), passed through the server untouched.
    associatedtype Context

    /// A new client's state, made when it is accepted.
    func newSession() -> Session
    /// Answers one whole line (without its newline, or a carriage return before
    /// it) through the server's `reply`; may set the client's `closing` or `yieldsTurn`.
    func answer(_ line: [UInt8], from client: LineClient<Session>, context: Context)
    /// The client's next lines wait for something of the protocol's (MPD's read
    /// of the library): nothing more is read from it or answered meanwhile.
    func holdsLines(of client: LineClient<Session>) -> Bool
    /// Under `WhenFull.evictIdlest`: whether this client may make room for a new one.
    func mayEvict(_ client: LineClient<Session>) -> Bool
    /// The client is about to be closed to make room for a new one.
    func evicting(_ client: LineClient<Session>)
    /// The client was dropped because its output passed the limit.
    func droppedForUnreadOutput(_ client: LineClient<Session>)
    /// Once a turn, after the clients' lines are answered and before the
    /// clients that are done are closed: news for every client goes out here.
    func linesAnswered(context: Context)
}

extension LineProtocol {
    package func holdsLines(of client: LineClient<Session>) -> Bool { false }
    package func mayEvict(_ client: LineClient<Session>) -> Bool { true }
    package func evicting(_ client: LineClient<Session>) {}
    package func droppedForUnreadOutput(_ client: LineClient<Session>) {}
    package func linesAnswered(context: Context) {}
}

/// The limits and answers a protocol gives its `LineServer`.
package struct LineServerRules: Sendable {
    /// A line longer than this (its newline not counted) is refused and the client closed.
    package var maximumLineBytes: Int
    /// A client's lines wait unread while more than this waits to be written to it.
    package var readPauseBytes: Int
    package var outputLimit: OutputLimit
    package var maximumConnections: Int
    package var whenFull: WhenFull
    /// How many reads of a client that keeps sending are answered in one turn
    /// (see `LineServer.receive`); with 1, what it sent after the read waits for the next turn.
    package var requestsPerTurn: Int
    /// Sent to each client accepted.
    package var greeting: [UInt8]?
    /// Sent to another user's client before it is closed; nil: closed without a word.
    package var peerRefusal: [UInt8]?
    /// The last reply to a line past `maximumLineBytes`; nil: closed without one.
    package var overlongLineReply: [UInt8]?

    package init(maximumLineBytes: Int, readPauseBytes: Int, outputLimit: OutputLimit, maximumConnections: Int,
                 whenFull: WhenFull, requestsPerTurn: Int, greeting: [UInt8]? = nil, peerRefusal: [UInt8]? = nil,
                 overlongLineReply: [UInt8]? = nil) {
        self.maximumLineBytes = maximumLineBytes
        self.readPauseBytes = readPauseBytes
        self.outputLimit = outputLimit
        self.maximumConnections = maximumConnections
        self.whenFull = whenFull
        self.requestsPerTurn = requestsPerTurn
        self.greeting = greeting
        self.peerRefusal = peerRefusal
        self.overlongLineReply = overlongLineReply
    }

    /// How much may wait for a client that does not read before it is dropped.
    package enum OutputLimit: Sendable {
        /// Every byte queued counts (MPD's `max_output_buffer_size`).
        case everything(bytes: Int)
        /// A reply is queued whole, however long; what is posted beyond the
        /// replies (events for a subscriber) may reach this before the client is dropped.
        case beyondReplies(bytes: Int)

        package var bytes: Int {
            switch self {
            case .everything(let bytes), .beyondReplies(let bytes): bytes
            }
        }
    }

    /// What a new client meets with `maximumConnections` open.
    package enum WhenFull: Sendable {
        /// It is closed, after this line when there is one (MPD's `max_connections`).
        case refuse(saying: [UInt8]?)
        /// The client that has sent or taken nothing for longest goes, of those
        /// the protocol lets go (`mayEvict`); with none, the new one is refused with this line.
        case evictIdlest(orRefuseSaying: [UInt8]?)
    }
}
