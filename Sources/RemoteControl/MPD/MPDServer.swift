import LoopIO
import LibraryIO
import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// The MPD protocol's front end (issue 29): a `LoopSource` listening at
/// `$XDG_RUNTIME_DIR/interlude/mpd` (0600 in the 0700 directory, the same
/// user only, as the control socket), speaking MPD 0.23's text protocol to
/// mpc, ncmpcpp and python-mpd2, and over TCP when the config names an
/// address (`mpd = 127.0.0.1:6600`; a TCP client is not checked for its
/// user, so only the loopback address unless the user writes another).
/// `mpd = off` turns both off. The protocol's pure parts (the tokenizer,
/// command lists, ACK lines, idle, song ids) are `PlayerModel/MPD`; the
/// commands are `MPDCommands`. The sockets and the defences against a
/// hostile client (the accept's bound, the peer's user, the line, output and
/// read-pause limits, half-closed clients, drops) are the `LineServer`'s,
/// shared with the control socket; what is MPD's own is here: its limits as
/// MPD's (a line longer than `maximumLineBytes` closes the client without a
/// reply, the 101st client is closed at once as past `max_connections`, a
/// client with `maximumPendingOutputBytes` waiting for it is closed as past
/// `max_output_buffer_size`), the greeting, `idle`/`noidle`, command lists,
/// the password's permissions, binary replies, and the commands that wait
/// for the worker's read of the library, a picture or a folder's listing (the client's next
/// lines wait with them).
package final class MPDServer: LoopSource, LineProtocol {
    /// MPD 0.23 answers a line of 8192 bytes with its newline and closes the client at 8193 (measured).
    package static let maximumLineBytes = 8191
    package static let readPauseBytes = 64 * 1024
    /// MPD 0.23's `max_output_buffer_size` default, 8192 KB: a `search` that
    /// finds a sixth of 100,000 songs answers 4.1 MB, which MPD sends whole.
    package static let maximumPendingOutputBytes = 8 << 20
    package static let maximumConnections = 100
    package static let greeting = "OK MPD 0.23.5\n"
    /// A few, so that a client sending without pause holds the loop (playback's refills, keys) no longer than this.
    package static let requestsPerTurn = 8
    private static let noidle = Array("noidle".utf8)

    package static let rules = LineServerRules(
        maximumLineBytes: maximumLineBytes, readPauseBytes: readPauseBytes,
        outputLimit: .everything(bytes: maximumPendingOutputBytes), maximumConnections: maximumConnections,
        whenFull: .refuse(saying: nil), requestsPerTurn: requestsPerTurn, greeting: Array(greeting.utf8),
        peerRefusal: nil, overlongLineReply: nil)

    package let path: String
    private lazy var lines = LineServer(rules: Self.rules, handler: self)
    /// Song ids and the playlist's version, read from the queue.
    package var queueIDs = MPDQueueIDs()
    /// Subsystems changed since the last turn, from the event stream.
    private var changed: Set<MPDSubsystem> = []
    /// A command list's adds have changed the queue since its ids were read:
    /// they are read once before the next command of another kind runs, or as
    /// the list ends, not after each add (10,000 adds read a queue growing to
    /// 10,000 entries 10,000 times).
    private var queueReadPending = false
    /// Commands that only append to the queue, whose ids nothing reads until the next command.
    private static let appending: Set<String> = ["add", "findadd", "searchadd"]
    /// The library folders: songs' `file` is relative to them, as MPD's are to its music directory.
    package let musicFolders: [String]
    /// `lsinfo`, `find`, `search`: the library index.
    package let database: MPDDatabase
    package let startedAt = monotonicSeconds()
    /// `stats`' `playtime`: the seconds played since the server started.
    package var playTime = MPDPlayTime()
    /// `disableoutput 0`: the one output, as `outputs` reports it.
    package var outputEnabled = true
    /// `mpd-password`: what a client sends to be given MPD's permissions.
    package var password: String?
    /// The library index's and the disk reads (pictures, listings), off the main loop; made for the first.
    private var worker: MPDWorker?
    private var diskTickets = 0
    /// The library commands that wait for a read of the index.
    private var readingLibrary = false
    /// The commands that read the library index (`add`, `addid` and `load`: a song of the music folder is the database's).
    private static let libraryCommands: Set<String> = [
        "lsinfo", "find", "search", "list", "count", "listall", "listallinfo", "stats", "listplaylistinfo", "add", "addid", "load",
        "findadd", "searchadd", "playlistadd", "searchaddpl",
        // A queue entry of the library is given as the library has it.
        "playlistinfo", "playlistid", "currentsong", "plchanges",
    ]

    /// MPD's state for one client.
    package struct Session {
        package var list = MPDCommandList()
        package var idle = MPDIdleState()
        /// The most bytes of a picture one `albumart` or `readpicture` reply carries (`binarylimit`; MPD's default).
        package var binaryLimit = MPDPictures.defaultChunk
        /// MPD's permissions: all without a password; with one, none until the client sends it.
        package var permissions: MPDPermission
        /// A request whose command waits for the worker (`MPDWorker`): the
        /// rest is run when it answers, and no further request is read before.
        package var waiting: Request?
        /// The disk read it waits for, numbered.
        package var ticket = 0

        package init(permissions: MPDPermission) { self.permissions = permissions }
    }

    package typealias Connection = LineClient<Session>

    package init(path: String, listener: Int32, events: PlayerEventStream, library: LibrarySettings) {
        self.path = path
        musicFolders = library.folders
        database = MPDDatabase(indexPath: library.indexPath)
        lines.listen(on: listener, checksPeer: true)
        events.subscribe { [weak self] timed in self?.changed.formUnion(Self.subsystems(of: timed.event)) }
    }

    deinit { shutDown() }

    /// On by default on the local socket (only this user reaches it); nil
    /// without `XDG_RUNTIME_DIR`, or with one line saying why it is off.
    package static func open(instance: Int, events: PlayerEventStream, environment: [String: String],
                             config: PlayerConfigFile) -> MPDServer? {
        let setting = config.mpd ?? .local
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
            let server = MPDServer(path: path, listener: fd, events: events, library: LibrarySettings.load(environment: environment, config: config))
            server.password = config.mpdPassword
            if case .tcp(let host, let port) = setting {
                do throws(SystemCallError) {
                    server.lines.listen(on: try TCPListener.listen(host: host, port: port), checksPeer: false)
                } catch {
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

    package func shutDown() {
        guard lines.isListening else { return }
        lines.shutDown()
        unlink(path)
    }

    // MARK: LoopSource

    package var pollRequests: [LoopPollRequest] {
        guard lines.isListening else { return [] }
        // One array, asked for before every wait of the loop.
        var requests = [LoopPollRequest]()
        requests.reserveCapacity(1 + lines.pollRequestCount)
        if let worker { requests.append(LoopPollRequest(fd: worker.wake)) }
        lines.addPollRequests { requests.append(LoopPollRequest(fd: $0, events: $1)) }
        return requests
    }

    /// A change noted after this turn's service (a pause takes effect in the
    /// engine's step, after the services): the next turn tells the idle
    /// clients at once, rather than when the loop wakes for something else
    /// (paused, it may sleep with no timeout at all).
    package var wakeWithinMilliseconds: Int? { changed.isEmpty ? nil : 0 }

    package func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        let snapshot = core.snapshot(.playback)
        // Playing starts and stops in a turn of the loop (not always with an event of its own): the time played is counted from each turn's state.
        if (snapshot.state == .playing) != playTime.isPlaying { playTime.note(playing: snapshot.state == .playing, at: monotonicSeconds()) }
        if !changed.isEmpty || queueIDs.paths.count != snapshot.queuePaths.count { noteChanges(core) }
        if let worker, ready.contains(where: { $0.fd == worker.wake }) {
            for item in worker.take() { finish(item, core: core) }
        }
        lines.service(ready: ready.lazy.map { (fd: $0.fd, events: $0.events) }, context: core)
    }

    private func readQueueIfPending(_ core: any PlayerCore) {
        guard queueReadPending else { return }
        queueReadPending = false
        noteChanges(core)
    }

    /// Tells the idle clients what changed: the events' subsystems, and the playlist when the queue did.
    private func noteChanges(_ core: any PlayerCore) {
        var due = changed
        changed = []
        if queueIDs.update(core.snapshot(.playback).queuePaths) { due.insert(.playlist) }
        guard !due.isEmpty else { return }
        for connection in lines.clients where !connection.closed {
            if let reply = connection.session.idle.changed(due) { send(reply, to: connection) }
        }
    }

    /// `password`: MPD's permissions for this client when it is the configured one (MPD's "incorrect password" otherwise).
    package func checkPassword(_ given: String, for connection: Connection) throws(MPDFailure) {
        guard let password, given == password else { throw MPDFailure(.password, "incorrect password") }
        connection.session.permissions = .all
    }

    /// A change no player event reports (an output, a stored playlist), for the idle clients.
    package func note(_ subsystem: MPDSubsystem) { changed.insert(subsystem) }

    package static func subsystems(of event: PlayerEvent) -> Set<MPDSubsystem> {
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

    // MARK: LineProtocol

    package func newSession() -> Session { Session(permissions: password == nil ? .all : []) }

    package func holdsLines(of connection: Connection) -> Bool { connection.session.waiting != nil }

    package func linesAnswered(context core: any PlayerCore) { noteChanges(core) }

    /// One line, as MPD's client reads it: during `idle` only `noidle` is
    /// allowed (anything else closes the client), `noidle` outside it is ignored.
    package func answer(_ line: [UInt8], from connection: Connection, context core: any PlayerCore) {
        if connection.session.idle.isWaiting {
            if line == Self.noidle, let reply = connection.session.idle.cancel() { send(reply, to: connection) } else { connection.closing = true }
            return
        }
        if line == Self.noidle && !connection.session.list.isOpen { return }
        switch connection.session.list.take(line) {
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
    package struct Request {
        package var lines: [[UInt8]]
        package var isList: Bool
        package var okEach: Bool
        /// The command to run next.
        package var next = 0
        package var reply: [UInt8] = []
        /// Its command waits for the library index's tracks (else for a disk read).
        package var readsLibrary = false

        /// Takes the command's reply; false when the request ends with it (an ACK, `close`).
        package mutating func take(_ bytes: [UInt8], _ finished: Finish, closing: Bool) -> Bool {
            if reply.isEmpty { reply = bytes } else { reply += bytes }
            if finished == .failed || closing { return false }
            if okEach { reply += "list_OK\n".utf8 }
            next += 1
            return true
        }
    }

    /// Runs the request's commands from its `next` on and sends the reply,
    /// unless one waits for the worker: then the rest waits in the session's `waiting`.
    private func proceed(_ request: Request, _ connection: Connection, core: any PlayerCore) {
        var request = request
        defer { readQueueIfPending(core) }
        while request.next < request.lines.count {
            let step = run(request.lines[request.next], index: request.next, from: connection, core: core,
                           inList: request.isList)
            guard case .reply(let bytes, let finished) = step else {
                request.readsLibrary = step == .waitsForLibrary
                connection.session.waiting = request
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
        case .library(let stamp, let view):
            readingLibrary = false
            database.adopt(stamp: stamp, view)
            for connection in lines.clients where !connection.closed && connection.session.waiting?.readsLibrary == true {
                // Run again, the tracks here now (or read again if a scan changed the index meanwhile).
                resume(connection, core: core) { _ in true }
            }
            database.forgetFailure()
        case .diskReply(let ticket, let reply):
            guard let connection = lines.clients.first(where: { $0.session.ticket == ticket && !$0.closed }),
                  connection.session.waiting?.readsLibrary == false else { return }
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
        guard var request = connection.session.waiting else { return }
        connection.session.waiting = nil
        if answer(&request) { proceed(request, connection, core: core) }
        lines.answerHeldLines(of: connection, context: core)
    }

    package enum Finish { case done, failed, idle }

    package enum Step: Equatable {
        case reply([UInt8], Finish)
        case waitsForLibrary
        case waitsForDisk
    }

    /// A command's reply: its body and `OK` (in a list, the body alone), or its
    /// `ACK`; or, for a command that reads the disk, its read started on the worker's thread.
    private func run(_ line: [UInt8], index: Int, from connection: Connection, core: any PlayerCore,
                     inList: Bool = false) -> Step {
        do throws(MPDFailure) {
            let request = try MPDRequest.parse(line)
            if queueReadPending && !Self.appending.contains(request.command) { readQueueIfPending(core) }
            if !MPDPermission.needed(by: request.command).isSubset(of: .read) { connection.yieldsTurn = true }
            if Self.libraryCommands.contains(request.command) && !database.isCurrent, let worker = usableWorker() {
                if !readingLibrary {
                    readingLibrary = true
                    let indexPath = database.indexPath
                    worker.run {
                        let read = MPDDatabase.read(indexPath)
                        return .library(stamp: read.stamp, read.view)
                    }
                }
                return .waitsForLibrary
            }
            if request.command == "idle" {
                guard connection.session.permissions.contains(.read) else { throw MPDPermission.refusal("idle") }
                let wanted = try MPDIdleState.subsystems(request.arguments)
                noteChanges(core)
                if inList { return .reply([], .done) }
                return .reply(Array((connection.session.idle.wait(on: wanted) ?? "").utf8), .idle)
            }
            if request.command == "close" {
                connection.closing = true
                return .reply([], .done)
            }
            switch try MPDCommands(server: self, core: core, connection: connection).run(request) {
            case .reply(let response):
                if inList && Self.appending.contains(request.command) { queueReadPending = true } else { noteChanges(core) }
                return .reply(response.finished(ok: !inList), .done)
            case .disk(let read):
                guard let worker = usableWorker() else {
                    return .reply(try read(RecentTags(capacity: 1)).get().finished(ok: !inList), .done)
                }
                diskTickets = diskTickets >= Int.max - 1 ? 1 : diskTickets + 1
                connection.session.ticket = diskTickets
                let (ticket, tags) = (diskTickets, worker.recentTags)
                worker.run { .diskReply(ticket: ticket, read(tags)) }
                return .waitsForDisk
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

    private func send(_ bytes: [UInt8], to connection: Connection) { lines.reply(bytes, to: connection) }
}
