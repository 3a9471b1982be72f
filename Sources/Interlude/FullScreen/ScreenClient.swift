import CLinux
import LoopIO
import InterludeCore
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// `interlude` on a terminal: this terminal becomes a screen of the player
/// service (started in the background first when none runs). The terminal
/// goes to the service with the first line (`ScreenAttachments`); this
/// process then only relays what the service cannot see (its size changing,
/// Ctrl-Z, Ctrl-C, a hang-up) and waits for the screen to end, when it
/// prints the service's parting line. Should the service die, the terminal
/// is put back as it was.
enum ScreenClient {
    /// How long a service just started may take to open its socket.
    static let startWaitMilliseconds = 10_000

    /// Attaches this terminal; the exit status.
    static func run() -> Int32 {
        guard isatty(0) != 0, isatty(1) != 0 else {
            writeStandardError("interlude: \(TerminalError.notATerminal.description)\n")
            return 2
        }
        guard let place = ControlSocketPlace.current else {
            writeStandardError("interlude: \(ScreenAttachments.OpenError.noRuntimeFolder.description); 'interlude --new' plays in this terminal alone\n")
            return 1
        }
        return connectAndAttach(place)
    }

    struct Problem: Error { let line: String }

    /// How many times a screen is attached again after a service that went
    /// away before it took the terminal (one quitting as this one came).
    static let attachAttempts = 3

    /// Connects (starting the service when none listens) and attaches this
    /// terminal; the exit status. A service that closes the connection before
    /// it answers `attached` was on its way out: once its socket is gone, a new
    /// one is started and the terminal attached to it.
    static func connectAndAttach(_ place: ControlSocketPlace, browsing folder: String? = nil, focus: Pane? = nil) -> Int32 {
        for attempt in 1...attachAttempts {
            let socket: Int32
            switch connectOrStart(place) {
            case .success(let fd): socket = fd
            case .failure(let problem):
                writeStandardError("interlude: \(problem.line)\n")
                return 1
            }
            let outcome = attach(socket, browsing: folder, focus: focus, sayingWhenGone: attempt == attachAttempts)
            close(socket)
            guard case .goneBeforeAttached = outcome else { return outcome.status }
            waitUntilGone(ScreenAttachments.path(place))
        }
        return 1
    }

    /// Waits (`seconds` at most) until nobody accepts connections at `path`
    /// any more; whether nobody does.
    @discardableResult
    static func waitUntilGone(_ path: String, within seconds: Double = 5) -> Bool {
        let deadline = monotonicSeconds() + seconds
        while let fd = try? UnixSocket.connect(to: path, timeoutMilliseconds: 200) {
            close(fd)
            guard monotonicSeconds() < deadline else { return false }
            usleep(50_000)
        }
        return true
    }

    /// How an attached screen ended.
    enum AttachOutcome {
        case ended(Int32)
        /// The connection ended before the service answered `attached`: it was going away.
        case goneBeforeAttached

        var status: Int32 {
            switch self {
            case .ended(let status): status
            case .goneBeforeAttached: 1
            }
        }
    }

    /// A connection to the service's screen socket, starting the service when nobody listens.
    static func connectOrStart(_ place: ControlSocketPlace) -> Result<Int32, Problem> {
        let path = ScreenAttachments.path(place)
        if let fd = try? UnixSocket.connect(to: path, timeoutMilliseconds: 1000) { return .success(fd) }
        let log: String
        switch PlayerService.start() {
        case .success(let path): log = path
        case .failure(let problem): return .failure(problem)
        }
        let deadline = monotonicSeconds() + Double(startWaitMilliseconds) / 1000
        while monotonicSeconds() < deadline {
            if let fd = try? UnixSocket.connect(to: path, timeoutMilliseconds: 1000) { return .success(fd) }
            usleep(20_000)
        }
        return .failure(Problem(line: "the player service did not start within \(startWaitMilliseconds / 1000) s (its log: \(log))"))
    }

    /// Hands the terminal over and waits for the screen's end. A service gone
    /// before it answered `attached` is said only when `sayingWhenGone`.
    static func attach(_ socket: Int32, browsing folder: String? = nil, focus: Pane? = nil,
                       sayingWhenGone: Bool = true) -> AttachOutcome {
        let signals: SignalChannel
        do { signals = try SignalChannel.open([SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGQUIT]) } catch {
            writeStandardError("interlude: \(error.description)\n")
            return .ended(1)
        }
        var modes = termios()
        let hasModes = tcgetattr(0, &modes) == 0
        // The service draws from here on; whatever happens to it, the terminal is put back as it was.
        func restore() {
            if hasModes { _ = tcsetattr(0, TCSANOW, &modes) }
        }
        let type = getenv("TERM").map { String(cString: $0) } ?? "dumb"
        // The folder the screen's browser opens in, after a tab (a path may hold spaces, never a newline
        // here), and the number of the pane it shows first after another.
        let browse = folder.flatMap { $0.contains("\n") || $0.contains("\t") ? nil : $0 } ?? ""
        let extra = focus.map { "\t\(browse)\t\($0.rawValue)" } ?? (browse.isEmpty ? "" : "\t" + browse)
        let hello = Array("attach \(type)\(extra)\n".utf8)
        let sent = hello.withUnsafeBytes { interlude_send_descriptors(socket, $0.baseAddress, $0.count, 0, 1) }
        guard sent == hello.count else {
            if !sayingWhenGone { return .goneBeforeAttached }
            writeStandardError("interlude: cannot hand the terminal to the player service: \(Errno.current.message)\n")
            return .ended(1)
        }
        var input: [UInt8] = []
        var attached = false
        var leaveAsked: Double?
        while true {
            var requests = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                            pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0)]
            // After asking to leave, the service's answer is waited for a while only.
            let timeout: Int32 = leaveAsked == nil ? -1 : 500
            let ready = poll(&requests, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if ready == 0, let asked = leaveAsked, monotonicSeconds() - asked > 2 { break }
            if requests[1].revents != 0 {
                for signal in signals.take() {
                    switch signal {
                    case SIGWINCH: send(socket, "resize")
                    case SIGTSTP: stop(socket, signals: signals, restore: restore)
                    case SIGCONT: break
                    default:
                        // Ctrl-C, a hang-up, a kill: this screen leaves; the player goes on.
                        send(socket, "leave")
                        leaveAsked = leaveAsked ?? monotonicSeconds()
                    }
                }
            }
            guard requests[0].revents != 0 else { continue }
            switch UnixSocket.receive(socket) {
            case .bytes(let bytes): input += bytes
            case .nothing: continue
            case .end, .failed:
                restore()
                // Gone before it took the terminal: nothing was drawn, nothing to reset.
                if !attached && !sayingWhenGone { return .goneBeforeAttached }
                writeResetSequence()
                writeStandardError("interlude: the player service ended (its log: \(PlayerService.logPath()))\n")
                return .ended(1)
            }
            while let newline = input.firstIndex(of: 0x0A) {
                let line = String(decoding: input[..<newline], as: UTF8.self)
                input.removeSubrange(...newline)
                if line == "attached" { attached = true }
                if line.hasPrefix("bye ") {
                    restore()
                    writeStandardOutput(String(line.dropFirst(4)) + "\n")
                    return .ended(0)
                }
                if line.hasPrefix("refused ") {
                    restore()
                    writeStandardError("interlude: \(line.dropFirst(8))\n")
                    return .ended(1)
                }
            }
            if input.count > ScreenAttachments.lineLimit { input.removeAll() }
        }
        restore()
        writeResetSequence()
        return .ended(1)
    }

    /// Ctrl-Z: the service gives the terminal back, this process stops as any
    /// job does, and after `fg` the service takes the terminal again.
    static func stop(_ socket: Int32, signals: SignalChannel, restore: () -> Void) {
        send(socket, "suspend")
        // Its "suspended" says the terminal is given back (a second at most: stopped even without it).
        var answer = [UInt8]()
        let deadline = monotonicSeconds() + 1
        while monotonicSeconds() < deadline, !answer.contains(0x0A) {
            var request = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, 100) >= 0 || errno == EINTR else { break }
            if case .bytes(let bytes) = UnixSocket.receive(socket) { answer += bytes }
        }
        restore()
        kill(getpid(), SIGSTOP)
        // Continued (fg): the terminal is the service's again.
        send(socket, "resume")
    }

    static func send(_ socket: Int32, _ line: String) {
        var bytes = Array((line + "\n").utf8)
        _ = UnixSocket.sendPending(socket, &bytes)
    }

    /// What ncurses would have written on its way out: the normal screen, the cursor, no colour.
    static func writeResetSequence() {
        let reset = Array("\u{1B}[0m\u{1B}[?1049l\u{1B}[?25h\r\n".utf8)
        _ = reset.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    }
}
