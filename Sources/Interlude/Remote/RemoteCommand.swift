import Streams
import LoopIO
import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// `interlude remote COMMAND [ARGS]`: one request to the running player over
/// its control socket, its reply as the exit status (0 done, 1 refused, 2
/// usage, 3 no player). `HandOff` uses its client for the one-player hand-off
/// of `interlude [PATH...]`.
enum RemoteCommand {
    /// From the command table, so it lists what the socket takes.
    static var usage: String { RemoteCommandLine.usage }
    /// The options `run` reads (its own loop: every other word is the command's).
    static let spec = ArgumentSpec(command: "remote", valued: ["--instance"], flags: ["--json"])

    static func run(_ arguments: [String]) -> Int32 {
        var words: [String] = []
        var json = false
        var instance = 1
        var instanceGiven = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--help", "-h":
                writeStandardOutput(usage + "\n")
                return 0
            case "--json": json = true
            case "--instance":
                guard index < arguments.count, let number = Int(arguments[index]), (1...99).contains(number) else {
                    writeStandardError("interlude remote: --instance expects a number from 1 to 99\n")
                    return 2
                }
                instance = number
                instanceGiven = true
                index += 1
            default: words.append(argument)
            }
        }
        let translation: RemoteCommandLine.Translation
        do { translation = try RemoteCommandLine.translate(words) } catch {
            writeStandardError(error.message + "\n")
            return 2
        }
        var request = translation
        if ["queue-add", "play-files", "book-open"].contains(request.command) {
            // The player runs elsewhere: it needs paths that do not depend on our directory.
            request.arguments = request.arguments.map { $0.stringValue.map { .string(entryForPlayer($0)) } ?? $0 }
        } else if request.command == "open", let path = request.arguments.first?.stringValue {
            request.arguments[0] = .string(entryForPlayer(path))
        }
        let client: ControlClient
        switch ControlClient.connect(instance: instance) {
        case .success(let connected): client = connected
        case .failure(let message):
            // No player: the service starts, as for a screen (unless a player was named by its instance).
            guard !instanceGiven, request.command != "quit", let started = startService() else {
                writeStandardError("interlude remote: \(message)\n")
                return 3
            }
            client = started
        }
        if request.command == "subscribe" || words.first == "events" {
            return follow(client)
        }
        switch client.request(request) {
        case .reply(let reply): return report(reply, command: request.command, json: json)
        case .closed:
            // The service ended as it took the request (killed, or quitting):
            // the next one is started, as for a screen, and asked once more.
            if !instanceGiven, request.command != "quit", let place = ControlSocketPlace.current,
               ScreenClient.waitUntilGone(place.primary, within: 1), let started = startService(),
               case .reply(let reply) = started.request(request) {
                return report(reply, command: request.command, json: json)
            }
            writeStandardError("interlude remote: the player closed the connection without a reply\n")
            return 1
        case .timedOut:
            writeStandardError("interlude remote: \(client.silence)\n")
            return 3
        }
    }

    /// The player service started in the background, and a connection to it once it answers; nil when it cannot start.
    private static func startService() -> ControlClient? {
        guard let place = ControlSocketPlace.current, !ControlSocketPlace.isLive(place.primary) else { return nil }
        guard case .success = PlayerService.start() else { return nil }
        FullScreenCommand.waitUntilLive(place.primary)
        guard case .success(let client) = ControlClient.connect(instance: 1) else { return nil }
        writeStandardError("interlude remote: started the player service in the background ('interlude quit' stops it)\n")
        return client
    }

    /// Prints what the player answered; the exit status.
    private static func report(_ reply: JSONValue, command: String, json: Bool) -> Int32 {
        guard reply["ok"]?.boolValue == true else {
            writeStandardError("interlude remote: \(reply["error"]?.stringValue ?? "refused")\n")
            return 1
        }
        if let message = reply["message"]?.stringValue { writeStandardOutput(message + "\n") }
        guard let result = reply["result"] else { return 0 }
        if json {
            writeStandardOutput(RemoteReply.compact(result) + "\n")
            return 0
        }
        switch command {
        case "status": writeStandardOutput(statusText(result) + "\n")
        case "queue-list":
            for entry in result.arrayValue ?? [] {
                let mark = entry["current"]?.boolValue == true ? ">" : " "
                writeStandardOutput("\(mark) \((entry["index"]?.integerValue ?? 0) + 1). \(entry["title"]?.stringValue ?? "")\n")
            }
        case "alarm-list":
            for alarm in result.arrayValue ?? [] {
                let state = alarm["ringing"]?.boolValue == true ? "ringing" : alarm["enabled"]?.boolValue == true ? "on" : "off"
                writeStandardOutput("#\(alarm["id"]?.integerValue ?? 0) \(alarm["schedule"]?.stringValue ?? "") "
                                    + "(\(state)) \(alarm["nextFire"]?.stringValue ?? "")"
                                    + (alarm["wake"]?.stringValue.map { $0.isEmpty ? "" : ", \($0)" } ?? "") + "\n")
            }
        case "station-list":
            for station in result.arrayValue ?? [] {
                writeStandardOutput("\(station["number"]?.integerValue ?? 0). \(station["name"]?.stringValue ?? "")  "
                                    + "\(station["url"]?.stringValue ?? "")\n")
            }
        default: writeStandardOutput(RemoteReply.compact(result) + "\n")
        }
        return 0
    }

    /// "playing  Title - Artist  1:02 / 3:45".
    static func statusText(_ status: JSONValue) -> String {
        var text = status["state"]?.stringValue ?? "?"
        if let title = status["title"]?.stringValue, !title.isEmpty {
            text += "  " + title
            if let artist = status["artist"]?.stringValue, !artist.isEmpty { text += " - " + artist }
            text += "  " + clockText(status["elapsed"]?.doubleValue ?? 0)
            if let duration = status["duration"]?.doubleValue { text += " / " + clockText(duration) }
        }
        if let interruption = status["interruption"]?.stringValue { text += "  (held by: \(interruption))" }
        return text
    }

    /// `events`: the subscription's event lines on stdout until the player goes
    /// (or we are interrupted).
    private static func follow(_ client: ControlClient) -> Int32 {
        switch client.request(.init(command: "subscribe", arguments: [])) {
        case .reply(let reply) where reply["ok"]?.boolValue == true: break
        case .timedOut:
            writeStandardError("interlude remote: \(client.silence)\n")
            return 3
        default:
            writeStandardError("interlude remote: the player refused the subscription\n")
            return 1
        }
        // Events come when they happen: no time limit on the wait for the next.
        while case .line(let line) = client.readLine(timeoutMilliseconds: -1) {
            writeStandardOutput(line + "\n")
        }
        return 0
    }

    /// A path or a station's URL as the player, which runs elsewhere, needs it:
    /// a path made absolute, a URL as it is.
    static func entryForPlayer(_ entry: String) -> String {
        StreamLocation.isStation(entry) ? entry : AbsolutePath.absolute(entry)
    }
}

/// One connection to a player's control socket: a request and its reply, or
/// the lines of a subscription. Every wait has a limit, so a player that is
/// stopped (SIGSTOP, a debugger) or wedged is said to be so, never waited for.
final class ControlClient {
    /// Connecting waits for room in the listener's backlog at most this long.
    static let connectTimeoutMilliseconds: Int32 = 2_000
    /// A reply is made in one turn of the player's loop; this is many turns.
    static let replyTimeoutMilliseconds: Int32 = 5_000

    private let fd: Int32
    private let path: String
    private var buffer: [UInt8] = []
    private var nextID: Int64 = 1

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }
    deinit { close(fd) }

    enum Outcome {
        case success(ControlClient)
        /// Why no player answers, and where we looked.
        case failure(String)
    }

    enum Reply {
        case reply(JSONValue)
        /// The player closed the connection first.
        case closed
        case timedOut
    }

    enum Line {
        case line(String)
        case closed
        case timedOut
    }

    /// What to say when the player did not answer in time.
    var silence: String {
        "player at \(path) did not answer within \(Self.replyTimeoutMilliseconds / 1000) s (is it stopped? 'kill -CONT' it)"
    }

    static func connect(instance: Int) -> Outcome {
        guard let place = ControlSocketPlace.current else {
            return .failure("no interlude is running (XDG_RUNTIME_DIR is not set, so no player has a control socket)")
        }
        let path = place.path(instance: instance)
        do {
            return .success(ControlClient(fd: try UnixSocket.connect(to: path, timeoutMilliseconds: connectTimeoutMilliseconds),
                                          path: path))
        } catch {
            if error.errno.code == ETIMEDOUT {
                return .failure("the player at \(path) did not take the connection within "
                                + "\(connectTimeoutMilliseconds / 1000) s (is it stopped? 'kill -CONT' it)")
            }
            let others = place.existingSockets().filter { $0 != path }
            return .failure("no interlude is running (nothing answers at \(path): \(error.errno.message))"
                            + (others.isEmpty ? "" : "; other sockets: \(others.joined(separator: ", "))"))
        }
    }

    /// Sends one request and returns its reply (event lines before it are skipped).
    func request(_ translation: RemoteCommandLine.Translation) -> Reply {
        let id = nextID
        nextID += 1
        let line = Array((RemoteCommandLine.requestLine(id: id, translation) + "\n").utf8)
        var offset = 0
        // Even when the send fails, a refusal of the connection may be waiting to be read.
        sending: while offset < line.count {
            switch UnixSocket.outcome({ line.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) } }) {
            case .success(let count): offset += count
            case .failure(let error) where error == .wouldBlock:
                guard (try? UnixSocket.wait(fd, for: Int16(POLLOUT), timeoutMilliseconds: Self.replyTimeoutMilliseconds)) == true else {
                    return .timedOut
                }
            case .failure: break sending
            }
        }
        while true {
            switch readLine(timeoutMilliseconds: Self.replyTimeoutMilliseconds) {
            case .closed: return .closed
            case .timedOut: return .timedOut
            case .line(let text):
                guard let value = try? JSONParser.parse(text) else { continue }
                // A refusal of the connection itself (another user, too many) has no id.
                if value["id"]?.integerValue == id || (value["id"] == .null && value["ok"]?.boolValue == false) { return .reply(value) }
            }
        }
    }

    /// The next line; waits at most `timeoutMilliseconds` for each read (-1: no limit).
    func readLine(timeoutMilliseconds: Int32) -> Line {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeFirst(newline + 1)
                return .line(line)
            }
            switch UnixSocket.outcome({ chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }) {
            case .success(let count):
                guard count > 0 else { return .closed }
                buffer += chunk[0..<count]
            case .failure(let error) where error == .wouldBlock:
                guard let ready = try? UnixSocket.wait(fd, for: Int16(POLLIN), timeoutMilliseconds: timeoutMilliseconds) else {
                    return .closed
                }
                if !ready { return .timedOut }
            case .failure: return .closed
            }
        }
    }
}
