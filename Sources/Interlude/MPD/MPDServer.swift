import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// The MPD protocol's front end: a `LoopSource` listening at
/// `$XDG_RUNTIME_DIR/interlude/mpd` (0600 in the 0700 directory, the same
/// user only, as the control socket), speaking MPD 0.23's text protocol to
/// mpc, ncmpcpp and python-mpd2, and over TCP when the config names an
/// address (`mpd = 127.0.0.1:6600`; a TCP client is not checked for its
/// user, so only the loopback address unless the user writes another).
/// `mpd = off` turns both off. The protocol's pure parts (the tokenizer,
/// command lists, ACK lines, idle, song ids) are `PlayerModel/MPD`; the
/// commands are `MPDCommands`. Bounded as the control socket is: a line
/// longer than `maximumLineBytes` closes the client (as MPD does), requests
/// are not read while more than `readPauseBytes` of replies wait, and a
/// client that never reads what `idle` told it is closed once
/// `maximumPendingOutputBytes` wait for it.
final class MPDServer: LoopSource {
    /// MPD 0.23 answers a line of 8192 bytes with its newline and closes the client at 8193 (measured).
    static let maximumLineBytes = 8191
    static let readPauseBytes = 64 * 1024
    static let maximumPendingOutputBytes = 4 << 20
    static let maximumConnections = 100
    static let greeting = "OK MPD 0.23.5\n"
    private static let noidle = Array("noidle".utf8)

    let path: String
    private var listener: Int32
    /// The TCP listener, when configured.
    private var tcpListener: Int32 = -1
    var connections: [Connection] = []
    private let owner = getuid()
    /// Song ids and the playlist's version, read from the queue.
    var queueIDs = MPDQueueIDs()
    /// Subsystems changed since the last turn, from the event stream.
    private var changed: Set<MPDSubsystem> = []
    /// The library folders: songs' `file` is relative to them, as MPD's are to its music directory.
    let musicFolders: [String]
    /// `lsinfo`, `find`, `search`: the library index.
    let database: MPDDatabase
    let startedAt = monotonicSeconds()
    /// `disableoutput 0`: the one output, as `outputs` reports it.
    var outputEnabled = true
    /// `mpd-password`: what a client sends to be given MPD's permissions.
    var password: String?
    /// The library index's and the pictures' reads, off the main loop; made for the first.
    private var worker: MPDWorker?
    private var pictureTickets = 0
    /// The library commands that wait for a read of the index.
    private var readingLibrary = false
    /// The commands that read the library index.
    private static let libraryCommands: Set<String> = [
        "lsinfo", "find", "search", "list", "count", "listall", "listallinfo", "stats", "listplaylistinfo",
    ]
    private var receiveBuffer = [UInt8](repeating: 0, count: 16 * 1024)
    /// A command that needs more than MPD's read permission ran since `receive` last looked.
    private var changedPlayer = false

    final class Connection {
        let fd: Int32
        var input: [UInt8] = []
        var output = PendingOutput()
        var list = MPDCommandList()
        var idle = MPDIdleState()
        var closing = false
        var peerClosed = false
        var closed = false
        /// The most bytes of a picture one `albumart` or `readpicture` reply carries (`binarylimit`; MPD's default).
        var binaryLimit = MPDPictures.defaultChunk
        /// MPD's permissions: all without a password; with one, none until the client sends it.
        var permissions: MPDPermission

        init(fd: Int32, permissions: MPDPermission) {
            self.fd = fd
            self.permissions = permissions
        }

        /// A request whose command waits for the worker (`MPDWorker`): the
        /// rest is run when it answers, and no further request is read before.
        var waiting: Request?
        /// The picture request it waits for, numbered.
        var ticket = 0

        var readsRequests: Bool {
            !closing && !closed && !peerClosed && waiting == nil && output.count <= MPDServer.readPauseBytes
        }
        /// Nothing more will be sent to it.
        var isDone: Bool { (closing || peerClosed) && output.isEmpty && waiting == nil }
    }

    init(path: String, listener: Int32, events: PlayerEventStream, library: LibrarySettings) {
        self.path = path
        self.listener = listener
        musicFolders = library.folders
        database = MPDDatabase(indexPath: library.indexPath)
        events.subscribe { [weak self] timed in self?.changed.formUnion(Self.subsystems(of: timed.event)) }
    }

    deinit { shutDown() }

    /// On by default on the local socket (only this user reaches it); nil
    /// without `XDG_RUNTIME_DIR`, or with one line saying why it is off.
    static func open(instance: Int, events: PlayerEventStream, environment: [String: String]) -> MPDServer? {
        let config = PlayerConfigFile.read(environment: environment)
        let setting = config?.mpd ?? .local
        guard setting != .off, let place = ControlSocketPlace(environment: environment) else { return nil }
        let path = place.directory + (instance <= 1 ? "/mpd" : "/mpd.\(instance)")
        do throws(ControlSocketError) {
            try place.prepareDirectory()
            if access(path, F_OK) == 0 {
                if ControlSocketPlace.isLive(path) { throw .socket(path, "another player answers there") }
                unlink(path)
            }
            let fd: Int32
            do { fd = try UnixSocket.listen(at: path) } catch { throw .socket(path, error.description) }
            let server = MPDServer(path: path, listener: fd, events: events, library: LibrarySettings.load(environment: environment))
            server.password = config?.mpdPassword
            if case .tcp(let host, let port) = setting {
                do { server.tcpListener = try TCPListener.listen(host: host, port: port) } catch {
                    events.error("MPD over TCP off: \(host):\(port): \(error.description)")
                }
            }
            return server
        } catch {
            switch error {
            case .directory(let where_, let problem), .socket(let where_, let problem):
                events.error("MPD socket off: \(where_): \(problem)")
            }
            return nil
        }
    }

    func shutDown() {
        guard listener >= 0 else { return }
        for connection in connections { drop(connection) }
        connections.removeAll()
        close(listener)
        listener = -1
        if tcpListener >= 0 { close(tcpListener) }
        tcpListener = -1
        unlink(path)
    }

    // MARK: LoopSource

    var pollRequests: [LoopPollRequest] {
        guard listener >= 0 else { return [] }
        // One array, asked for before every wait of the loop.
        var requests = [LoopPollRequest]()
        requests.reserveCapacity(3 + connections.count)
        requests.append(LoopPollRequest(fd: listener))
        if tcpListener >= 0 { requests.append(LoopPollRequest(fd: tcpListener)) }
        if let worker { requests.append(LoopPollRequest(fd: worker.wake)) }
        for connection in connections {
            requests.append(LoopPollRequest(fd: connection.fd, events: (connection.readsRequests ? Int16(POLLIN) : 0)
                                                                       | (connection.output.isEmpty ? 0 : Int16(POLLOUT))))
        }
        return requests
    }

    func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        if !changed.isEmpty || queueIDs.paths.count != core.snapshot(.playback).queuePaths.count { noteChanges(core) }
        if let worker, ready.contains(where: { $0.fd == worker.wake }) {
            for item in worker.take() { finish(item, core: core) }
        }
        for event in ready where event.fd != listener && event.fd != tcpListener {
            guard let connection = connections.first(where: { $0.fd == event.fd }) else { continue }
            if event.events & Int16(POLLOUT | POLLHUP | POLLERR) != 0 { flush(connection) }
            if connection.readsRequests && event.events & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                receive(connection, core: core)
            } else if event.events & Int16(POLLHUP | POLLERR) != 0 {
                drop(connection)
            }
        }
        if ready.contains(where: { $0.fd == listener }) { acceptPending(from: listener, local: true) }
        if tcpListener >= 0, ready.contains(where: { $0.fd == tcpListener }) { acceptPending(from: tcpListener, local: false) }
        for connection in connections where connection.readsRequests || connection.peerClosed {
            handleLines(connection, core: core)
        }
        noteChanges(core)
        connections.removeAll { connection in
            if connection.isDone { drop(connection) }
            return connection.closed
        }
    }

    /// Tells the idle clients what changed: the events' subsystems, and the playlist when the queue did.
    private func noteChanges(_ core: any PlayerCore) {
        var due = changed
        changed = []
        if queueIDs.update(core.snapshot(.playback).queuePaths) { due.insert(.playlist) }
        guard !due.isEmpty else { return }
        for connection in connections where !connection.closed {
            if let reply = connection.idle.changed(due) { send(reply, to: connection) }
        }
    }

    /// `password`: MPD's permissions for this client when it is the configured one (MPD's "incorrect password" otherwise).
    func checkPassword(_ given: String, for connection: Connection) throws(MPDFailure) {
        guard let password, given == password else { throw MPDFailure(.password, "incorrect password") }
        connection.permissions = .all
    }

    /// A change no player event reports (an output, a stored playlist), for the idle clients.
    func note(_ subsystem: MPDSubsystem) { changed.insert(subsystem) }

    static func subsystems(of event: PlayerEvent) -> Set<MPDSubsystem> {
        switch event {
        case .volume: [.mixer]
        case .orderChanged: [.options, .playlist]
        case .enqueued, .playlistLoaded: [.playlist]
        case .trackStarted, .paused, .resumed, .jump, .stopped, .finished, .queueEnded, .callStarted, .callEnded,
             .alarmRinging, .alarmEnded, .playRefused, .suspended, .continued, .bookOpened, .bookSeek, .streamTitle:
            [.player]
        default: []
        }
    }

    // MARK: Connections

    private func acceptPending(from listener: Int32, local: Bool) {
        for _ in 0..<16 {
            let fd: Int32?
            do { fd = try UnixSocket.accept(listener) } catch { return }
            guard let fd else { return }
            let connection = Connection(fd: fd, permissions: password == nil ? .all : [])
            if (local && (try? UnixSocket.peerUserID(fd)) != owner) || connections.count >= Self.maximumConnections {
                // MPD's answer to a client it will not serve: the connection closes.
                drop(connection)
                continue
            }
            connections.append(connection)
            send(Self.greeting, to: connection)
        }
    }

    /// Reads and answers the client's requests. A client that sends its next
    /// request as soon as it has a reply (most do) is answered again in this
    /// turn, up to `requestsPerTurn` times, rather than after the rest of the
    /// loop's turn and its next wait; but not after a command that changes
    /// the player (`play`, `add`...): the loop's turn carries it out first
    /// (a resume, a jump), so the next `status` says what it did, as it did
    /// when every request waited for the turn.
    private func receive(_ connection: Connection, core: any PlayerCore) {
        for _ in 0..<Self.requestsPerTurn {
            changedPlayer = false
            guard receiveOnce(connection, core: core), connection.readsRequests, !changedPlayer else { return }
        }
    }

    /// A few, so that a client sending without pause holds the loop (playback's refills, keys) no longer than this.
    static let requestsPerTurn = 8

    /// One read and what it completed answered; false when nothing more is to be read now (or the client is gone).
    private func receiveOnce(_ connection: Connection, core: any PlayerCore) -> Bool {
        // Into the server's one buffer: a fresh 16 KB one, zeroed, for every request was a tenth of `status`'s time.
        // Peeked, and taken from the socket once answered: taking a request frees
        // its buffer, and Linux then wakes the client blocked reading its reply (a
        // Unix socket's readers and writers wait on one queue); the scheduler
        // often ran it at once, its read found nothing, and over half the
        // `status` replies waited the two switches.
        let received = receiveBuffer.withUnsafeMutableBytes { buffer in
            UnixSocket.outcome { recv(connection.fd, buffer.baseAddress, buffer.count, Int32(MSG_PEEK)) }
        }
        let count: Int
        switch received {
        case .success(let read): count = read
        case .failure(let error):
            if error != .wouldBlock { drop(connection) }
            return false
        }
        if count == 0 {
            connection.peerClosed = true
            handleLines(connection, core: core)
            if connection.isDone { drop(connection) }
            return false
        }
        connection.input += receiveBuffer[..<count]
        handleLines(connection, core: core)
        guard keepsWithinLine(connection) else { return false }
        return take(count, from: connection, core: core)
    }

    /// Takes the `count` bytes peeked (and answered) from the socket; and,
    /// when the client may be read further, in the same call whatever it sent
    /// since, which is answered here: true then, as more may follow. A client
    /// that waits for each reply has sent nothing more, and the call that
    /// takes its request also says so, where a second read found nothing.
    private func take(_ count: Int, from connection: Connection, core: any PlayerCore) -> Bool {
        guard !connection.closed else { return false }
        let further = connection.readsRequests && !changedPlayer
        var left = count
        var taken = 0
        while left > 0 {
            let outcome = receiveBuffer.withUnsafeMutableBytes { buffer in
                UnixSocket.outcome { recv(connection.fd, buffer.baseAddress, further ? buffer.count : min(left, buffer.count), 0) }
            }
            guard case .success(let read) = outcome, read > 0 else {
                drop(connection)
                return false
            }
            taken = read
            left -= read
        }
        // What came after the request: the last read's bytes past it.
        guard left < 0 else { return false }
        connection.input += receiveBuffer[(taken + left)..<taken]
        handleLines(connection, core: core)
        return keepsWithinLine(connection)
    }

    /// False (and the client dropped) when its input holds more than a line without its newline.
    private func keepsWithinLine(_ connection: Connection) -> Bool {
        if connection.input.count > Self.maximumLineBytes && connection.input.firstIndex(of: UInt8(ascii: "\n")) == nil {
            // MPD closes a client whose line overflows its input buffer, without a reply.
            connection.input = []
            connection.output.removeAll()
            drop(connection)
        }
        return !connection.closed
    }

    private func handleLines(_ connection: Connection, core: any PlayerCore) {
        var start = 0
        while !connection.closed, !connection.closing, connection.waiting == nil, connection.output.count <= Self.readPauseBytes,
              let newline = connection.input[start...].firstIndex(of: UInt8(ascii: "\n")) {
            guard newline - start <= Self.maximumLineBytes else {
                // Past MPD's input buffer, however it arrived: closed without a reply, as MPD closes it.
                connection.input = []
                connection.output.removeAll()
                drop(connection)
                return
            }
            var line = Array(connection.input[start..<newline])
            start = newline + 1
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            handle(line, from: connection, core: core)
        }
        if start > 0 { connection.input.removeFirst(min(start, connection.input.count)) }
    }

    /// One line, as MPD's client reads it: during `idle` only `noidle` is
    /// allowed (anything else closes the client), `noidle` outside it is ignored.
    private func handle(_ line: [UInt8], from connection: Connection, core: any PlayerCore) {
        if connection.idle.isWaiting {
            if line == Self.noidle, let reply = connection.idle.cancel() { send(reply, to: connection) } else { connection.closing = true }
            return
        }
        if line == Self.noidle && !connection.list.isOpen { return }
        switch connection.list.take(line) {
        case .collected: return
        case .tooLong:
            connection.closing = true
        case .single(let line):
            proceed(Request(lines: [line], isList: false, okEach: false), connection, core: core)
        case .run(let lines, let okEach):
            proceed(Request(lines: lines, isList: true, okEach: okEach), connection, core: core)
        }
    }

    /// One command, or a command list, and its reply so far.
    struct Request {
        var lines: [[UInt8]]
        var isList: Bool
        var okEach: Bool
        /// The command to run next.
        var next = 0
        var reply: [UInt8] = []
        /// Its command waits for the library index's tracks (else for a picture).
        var readsLibrary = false

        /// Takes the command's reply; false when the request ends with it (an ACK, `close`).
        mutating func take(_ bytes: [UInt8], _ finished: Finish, closing: Bool) -> Bool {
            if reply.isEmpty { reply = bytes } else { reply += bytes }
            if finished == .failed || closing { return false }
            if okEach { reply += "list_OK\n".utf8 }
            next += 1
            return true
        }
    }

    /// Runs the request's commands from its `next` on and sends the reply,
    /// unless one waits for the worker: then the rest waits in `connection.waiting`.
    private func proceed(_ request: Request, _ connection: Connection, core: any PlayerCore) {
        var request = request
        while request.next < request.lines.count {
            let step = run(request.lines[request.next], index: request.next, from: connection, core: core,
                           inList: request.isList)
            guard case .reply(let bytes, let finished) = step else {
                request.readsLibrary = step == .waitsForLibrary
                connection.waiting = request
                return
            }
            guard request.take(bytes, finished, closing: connection.closing) else {
                send(request.reply, to: connection)
                return
            }
        }
        if request.isList { request.reply += "OK\n".utf8 }
        send(request.reply, to: connection)
    }

    /// The worker's answer, on the main loop: the requests that waited for it go on.
    private func finish(_ item: MPDWorker.Finished, core: any PlayerCore) {
        switch item {
        case .tracks(let stamp, let tracks):
            readingLibrary = false
            database.adopt(stamp: stamp, tracks)
            for connection in connections where !connection.closed && connection.waiting?.readsLibrary == true {
                // Run again, the tracks here now (or read again if a scan changed the index meanwhile).
                resume(connection, core: core) { _ in true }
            }
            database.forgetFailure()
        case .picture(let ticket, let reply):
            guard let connection = connections.first(where: { $0.ticket == ticket && !$0.closed }),
                  connection.waiting?.readsLibrary == false else { return }
            resume(connection, core: core) { request in
                let index = request.next
                let (bytes, finished): ([UInt8], Finish)
                switch reply {
                case .success(let response): (bytes, finished) = (response.finished(ok: !request.isList), .done)
                case .failure(let error):
                    if error.closes { connection.closing = true }
                    (bytes, finished) = (Array(error.line(index: index).utf8), .failed)
                }
                guard request.take(bytes, finished, closing: connection.closing) else {
                    send(request.reply, to: connection)
                    return false
                }
                return true
            }
        }
    }

    /// Goes on with the request `connection` waits with: `answer` gives the
    /// waiting command its reply (false: the request ends there); then the
    /// rest runs, and the client's next requests are read.
    private func resume(_ connection: Connection, core: any PlayerCore, answer: (inout Request) -> Bool) {
        guard var request = connection.waiting else { return }
        connection.waiting = nil
        if answer(&request) { proceed(request, connection, core: core) }
        if connection.waiting == nil { handleLines(connection, core: core) }
        if connection.isDone { drop(connection) }
    }

    enum Finish { case done, failed, idle }

    enum Step: Equatable {
        case reply([UInt8], Finish)
        case waitsForLibrary
        case waitsForPicture
    }

    /// A command's reply: its body and `OK` (in a list, the body alone), or its
    /// `ACK`; or, for a command that reads the disk, its read started on the worker's thread.
    private func run(_ line: [UInt8], index: Int, from connection: Connection, core: any PlayerCore,
                     inList: Bool = false) -> Step {
        do throws(MPDFailure) {
            let request = try MPDRequest.parse(line)
            if !MPDPermission.needed(by: request.command).isSubset(of: .read) { changedPlayer = true }
            if Self.libraryCommands.contains(request.command) && !database.isCurrent, let worker = usableWorker() {
                if !readingLibrary {
                    readingLibrary = true
                    let indexPath = database.indexPath
                    worker.run {
                        let read = MPDDatabase.read(indexPath)
                        return .tracks(stamp: read.stamp, read.tracks)
                    }
                }
                return .waitsForLibrary
            }
            if request.command == "idle" {
                guard connection.permissions.contains(.read) else { throw MPDPermission.refusal("idle") }
                let wanted = try MPDIdleState.subsystems(request.arguments)
                noteChanges(core)
                if inList { return .reply([], .done) }
                return .reply(Array((connection.idle.wait(on: wanted) ?? "").utf8), .idle)
            }
            if request.command == "close" {
                connection.closing = true
                return .reply([], .done)
            }
            switch try MPDCommands(server: self, core: core, connection: connection).run(request) {
            case .reply(let response):
                noteChanges(core)
                return .reply(response.finished(ok: !inList), .done)
            case .picture(let picture):
                let pictures = MPDPictures(musicFolders: musicFolders)
                guard let worker = usableWorker() else {
                    return .reply(try pictures.answer(picture, tags: RecentTags(capacity: 1)).get().finished(ok: !inList), .done)
                }
                pictureTickets = pictureTickets >= Int.max - 1 ? 1 : pictureTickets + 1
                connection.ticket = pictureTickets
                let (ticket, tags) = (pictureTickets, worker.recentTags)
                worker.run { .picture(ticket: ticket, pictures.answer(picture, tags: tags)) }
                return .waitsForPicture
            }
        } catch {
            if error.closes { connection.closing = true }
            return .reply(Array(error.line(index: index).utf8), .failed)
        }
    }

    /// The worker, made at its first use; nil when it cannot answer the main loop (no eventfd): then the read is done here.
    private func usableWorker() -> MPDWorker? {
        if worker == nil { worker = MPDWorker() }
        return worker?.isUsable == true ? worker : nil
    }

    // MARK: Output

    private func send(_ text: String, to connection: Connection) { send(Array(text.utf8), to: connection) }

    private func send(_ bytes: [UInt8], to connection: Connection) {
        guard !connection.closed, !bytes.isEmpty else { return }
        connection.output.append(bytes)
        if connection.output.count > Self.maximumPendingOutputBytes {
            // It stopped reading: close it rather than hold the player's memory (MPD's max_output_buffer_size).
            connection.output.removeAll()
            drop(connection)
            return
        }
        flush(connection)
    }

    private func flush(_ connection: Connection) {
        guard !connection.closed, !connection.output.isEmpty else { return }
        if !connection.output.send(to: connection.fd) { drop(connection) }
    }

    /// What waits to be sent to a client. A reply of megabytes leaves in
    /// pieces the size of the socket's buffer: the part sent is counted, not
    /// removed, so the rest is not moved down after each piece, and a
    /// reply made while nothing waits is taken as it is, not copied.
    struct PendingOutput {
        private var bytes: [UInt8] = []
        private var sent = 0

        var count: Int { bytes.count - sent }
        var isEmpty: Bool { count == 0 }

        mutating func append(_ more: [UInt8]) {
            if isEmpty {
                bytes = more
                sent = 0
            } else {
                // The part sent goes once it is most of what is held, so a client that
                // always has something waiting does not hold all it was ever sent.
                if sent > bytes.count / 2 {
                    bytes.removeFirst(sent)
                    sent = 0
                }
                bytes += more
            }
        }

        mutating func removeAll() {
            bytes = []
            sent = 0
        }

        /// Sends what the socket takes now; false when the client is gone (all is dropped then).
        mutating func send(to fd: Int32) -> Bool {
            while sent < bytes.count {
                let outcome = bytes.withUnsafeBytes { all in
                    UnixSocket.outcome { Glibc.send(fd, all.baseAddress! + sent, all.count - sent, Int32(MSG_NOSIGNAL)) }
                }
                switch outcome {
                case .success(let count): sent += count
                case .failure(let error):
                    if error == .wouldBlock { return true }
                    removeAll()
                    return false
                }
            }
            removeAll()
            return true
        }
    }

    private func drop(_ connection: Connection) {
        guard !connection.closed else { return }
        connection.closed = true
        close(connection.fd)
    }
}
