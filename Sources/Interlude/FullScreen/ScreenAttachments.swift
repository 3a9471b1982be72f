import CLinux
import LoopIO
import InterludeCore
import PlayerModel
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// The service's door for screens: `$XDG_RUNTIME_DIR/interlude/screen`, a
/// Unix socket beside the control socket (0600 in the 0700 folder, the
/// peer's uid checked). A screen client (`ScreenClient`) connects, hands over
/// its terminal with its first line (`attach TERM`, and a tab and the folder
/// its browser opens in if one was given, and a tab and the number of the
/// pane it shows first if one was asked for; the terminal's input and
/// output as SCM_RIGHTS), and the service draws on that terminal and reads
/// its keys itself, as tmux's server does, while the client waits: no frame
/// or key goes through the socket. Then the client's lines say what only it
/// sees (`resize` after its SIGWINCH, `suspend` before its job-control stop
/// and `resume` after, `leave` on its SIGINT, SIGTERM or SIGHUP); the
/// service answers `attached` (or `refused WHY`), `suspended`, and `bye LINE`
/// when the screen ends (q, `quit`, the player stopping), before closing.
///
/// Whoever binds the socket is the one service of this runtime folder: a
/// second `interlude service` finds it live and leaves.
final class ScreenAttachments: LoopSource {
    enum OpenError: Error, CustomStringConvertible {
        case noRuntimeFolder
        case alreadyRunning(String)
        case socket(String, String)

        var description: String {
            switch self {
            case .noRuntimeFolder: "no XDG_RUNTIME_DIR: the player service has no private place for its sockets"
            case .alreadyRunning(let path): "a player service already runs (\(path))"
            case .socket(let path, let why): "\(path): \(why)"
            }
        }
    }

    /// The socket's path in the runtime folder `place` names.
    static func path(_ place: ControlSocketPlace) -> String { place.directory + "/screen" }

    /// A client's first line, and any later one, is at most this long.
    static let lineLimit = 4096
    /// At most this many screens at once (a client past it is refused).
    static let screenLimit = 16

    final class Connection {
        let fd: Int32
        var input: [UInt8] = []
        var output: [UInt8] = []
        /// The terminal handed over, while its screen lives.
        var terminal: (input: Int32, output: Int32)?
        var screen: Screen?
        var closed = false

        init(fd: Int32) { self.fd = fd }
    }

    unowned let host: FullScreenPlayer
    let listener: Int32
    let path: String
    private(set) var connections: [Connection] = []

    private init(host: FullScreenPlayer, listener: Int32, path: String) {
        self.host = host
        self.listener = listener
        self.path = path
    }

    static func open(host: FullScreenPlayer) throws(OpenError) -> ScreenAttachments {
        guard let place = ControlSocketPlace.current else { throw .noRuntimeFolder }
        do { try place.prepareDirectory() } catch { throw .socket(place.directory, error.description) }
        let path = path(place)
        if access(path, F_OK) == 0 {
            if ControlSocketPlace.isLive(path) { throw .alreadyRunning(path) }
            // Nobody listens: a service that died without cleaning up.
            unlink(path)
        }
        do {
            return ScreenAttachments(host: host, listener: try UnixSocket.listen(at: path), path: path)
        } catch {
            throw error.errno.code == EADDRINUSE ? .alreadyRunning(path) : .socket(path, error.description)
        }
    }

    var pollRequests: [LoopPollRequest] {
        [LoopPollRequest(fd: listener)] + connections.map {
            LoopPollRequest(fd: $0.fd, events: LoopPollRequest.readable | ($0.output.isEmpty ? 0 : LoopPollRequest.writable))
        }
    }

    func serviceLoop(ready: [LoopPollRequest], core: any PlayerCore) {
        guard !ready.isEmpty else { return }
        if ready.contains(where: { $0.fd == listener }) { acceptAll() }
        for connection in connections where ready.contains(where: { $0.fd == connection.fd }) {
            if connection.screen == nil && connection.terminal == nil { readHello(connection) } else { readLines(connection) }
            flush(connection)
        }
        connections.removeAll(where: \.closed)
    }

    private func acceptAll() {
        // A few a turn: a flood of connections cannot hold the loop.
        for _ in 0..<8 {
            guard let fd = try? UnixSocket.accept(listener) else { return }
            guard (try? UnixSocket.peerUserID(fd)) == getuid(), connections.count < Self.screenLimit else {
                close(fd)
                continue
            }
            connections.append(Connection(fd: fd))
        }
    }

    /// The first line, with the terminal's descriptors: the screen opens on it.
    private func readHello(_ connection: Connection) {
        var bytes = [UInt8](repeating: 0, count: Self.lineLimit)
        var input: Int32 = -1, output: Int32 = -1
        let count = bytes.withUnsafeMutableBytes { interlude_receive_descriptors(connection.fd, $0.baseAddress, $0.count, &input, &output) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard count > 0 else { return drop(connection) }
        connection.input += bytes.prefix(count)
        guard input >= 0, output >= 0 else {
            if input >= 0 { close(input) }
            refuse(connection, "no terminal came with the request")
            return
        }
        connection.terminal = (input, output)
        guard let newline = connection.input.firstIndex(of: 0x0A) else {
            return refuse(connection, "the request's first line was cut short")
        }
        let line = String(decoding: connection.input[..<newline], as: UTF8.self)
        connection.input.removeSubrange(...newline)
        let parts = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        let words = parts[0].split(separator: " ", maxSplits: 1).map(String.init)
        guard words.first == "attach", words.count == 2, Self.isTerminalType(words[1]) else {
            return refuse(connection, "expected 'attach TERM', not '\(TerminalText.escaped(String(line.prefix(80))))'")
        }
        // A folder to browse: an absolute path to a directory, else the host's own root.
        let folder = parts.count >= 2 && parts[1].hasPrefix("/") && FileSystemBrowserSource.isDirectory(parts[1]) ? parts[1] : nil
        // The pane to show first, by its number (what the client handed: a book, files).
        let focus = parts.count == 3 ? Int(parts[2]).flatMap(Pane.init(rawValue:)) : nil
        let device = TerminalDevice(input: input, output: output, type: words[1])
        guard let screen = host.openScreen(device: device, browsing: folder) else {
            return refuse(connection, "cannot draw on this terminal (TERM=\(words[1])); see the player's log")
        }
        if let focus { screen.ui.focus(focus) }
        connection.screen = screen
        connection.output += Array("attached\n".utf8)
        readLines(connection)
    }

    /// A terminal type is a terminfo name: letters, digits and a few marks, never a path.
    static func isTerminalType(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 128 && text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x2B
        }
    }

    private func readLines(_ connection: Connection) {
        if connection.input.isEmpty || !connection.input.contains(0x0A) {
            switch UnixSocket.receive(connection.fd) {
            case .bytes(let bytes): connection.input += bytes
            case .nothing: break
            case .end, .failed: return clientGone(connection)
            }
        }
        while let newline = connection.input.firstIndex(of: 0x0A) {
            let line = String(decoding: connection.input[..<newline], as: UTF8.self)
            connection.input.removeSubrange(...newline)
            guard let screen = connection.screen else { return }
            switch line {
            case "resize": screen.resize()
            case "suspend":
                screen.suspend()
                connection.output += Array("suspended\n".utf8)
            case "resume": screen.resume()
            case "leave": screen.leaving = true
            default: host.events.error("screen: unknown request '\(TerminalText.escaped(String(line.prefix(80))))'")
            }
        }
        if connection.input.count > Self.lineLimit { clientGone(connection) }
    }

    /// The client went away (killed, its terminal closed): its screen ends, the player goes on.
    private func clientGone(_ connection: Connection) {
        if let screen = connection.screen { screen.leaving = true } else { drop(connection) }
    }

    private func refuse(_ connection: Connection, _ why: String) {
        host.events.error("screen: \(why)")
        connection.output += Array("refused \(why)\n".utf8)
        flush(connection)
        drop(connection)
    }

    private func flush(_ connection: Connection) {
        guard !connection.closed, !connection.output.isEmpty else { return }
        if UnixSocket.sendPending(connection.fd, &connection.output) == nil { clientGone(connection) }
    }

    private func drop(_ connection: Connection) {
        guard !connection.closed else { return }
        connection.closed = true
        close(connection.fd)
        if let terminal = connection.terminal {
            close(terminal.input)
            close(terminal.output)
        }
        connection.terminal = nil
        connection.screen = nil
    }

    /// The host ended `screen`: its client is told why, and let go.
    func detach(_ screen: Screen, saying line: String) {
        guard let connection = connections.first(where: { $0.screen === screen }) else { return }
        connection.output += Array("bye \(line)\n".utf8)
        flush(connection)
        drop(connection)
        connections.removeAll(where: \.closed)
    }

    /// The service stops: every client is told.
    func endAll(saying line: String) {
        for connection in connections {
            connection.output += Array("bye \(line)\n".utf8)
            flush(connection)
            drop(connection)
        }
        connections = []
    }

    func shutDown() {
        endAll(saying: "the player stopped")
        close(listener)
        unlink(path)
    }
}
