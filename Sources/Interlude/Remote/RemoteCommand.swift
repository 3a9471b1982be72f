import InterludeCore
import PlayerModel
#if canImport(Glibc)
import Glibc
#endif

/// `interlude remote COMMAND [ARGS]`: one request to the running player over
/// its control socket, its reply as the exit status (0 done, 1 refused, 2
/// usage, 3 no player). Also the one-player-per-user hand-off of
/// `interlude FILE...`.
enum RemoteCommand {
    /// From the command table, so it lists what the socket takes.
    static var usage: String { RemoteCommandLine.usage }

    static func run(_ arguments: [String]) -> Int32 {
        var words: [String] = []
        var json = false
        var instance = 1
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
            request.arguments = request.arguments.map { $0.stringValue.map { .string(BookOpener.absolutePath($0)) } ?? $0 }
        }
        let client: ControlClient
        switch ControlClient.connect(instance: instance) {
        case .success(let connected): client = connected
        case .failure(let message):
            writeStandardError("interlude remote: \(message)\n")
            return 3
        }
        if request.command == "subscribe" || words.first == "events" {
            return follow(client)
        }
        guard let reply = client.request(request) else {
            writeStandardError("interlude remote: the player closed the connection without a reply\n")
            return 1
        }
        return report(reply, command: request.command, json: json)
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
                                    + "(\(state)) \(alarm["nextFire"]?.stringValue ?? "")\n")
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
        guard let reply = client.request(.init(command: "subscribe", arguments: [])), reply["ok"]?.boolValue == true else {
            writeStandardError("interlude remote: the player refused the subscription\n")
            return 1
        }
        while let line = client.readLine() {
            writeStandardOutput(line + "\n")
        }
        return 0
    }

    /// `interlude FILE...` while a player runs: the files go to it (queued, or
    /// played with `play`) and the status is returned; nil when this command
    /// should start a player itself (none runs, no files, or a folder given).
    static func handOff(_ paths: [String], play: Bool) -> Int32? {
        guard !paths.isEmpty, paths.allSatisfy(isRegularFile) else { return nil }
        guard case .success(let client) = ControlClient.connect(instance: 1) else { return nil }
        let absolute = paths.map { JSONValue.string(BookOpener.absolutePath($0)) }
        guard let reply = client.request(.init(command: play ? "play-files" : "queue-add", arguments: absolute)) else {
            writeStandardError("interlude: the running player closed the connection without a reply\n")
            return 1
        }
        guard reply["ok"]?.boolValue == true else {
            writeStandardError("interlude: the running player refused: \(reply["error"]?.stringValue ?? "")\n")
            return 1
        }
        writeStandardOutput("interlude: \(play ? "playing" : "queued") \(paths.count) file(s) in the running player "
                            + "('interlude --new' starts another)\n")
        return 0
    }
}

/// One connection to a player's control socket, blocking: a request and its
/// reply, or the lines of a subscription.
final class ControlClient {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var nextID: Int64 = 1

    private init(fd: Int32) { self.fd = fd }
    deinit { close(fd) }

    enum Outcome {
        case success(ControlClient)
        /// Why no player answers, and where we looked.
        case failure(String)
    }

    static func connect(instance: Int) -> Outcome {
        guard let place = ControlSocketPlace.current else {
            return .failure("no interlude is running (XDG_RUNTIME_DIR is not set, so no player has a control socket)")
        }
        let path = place.path(instance: instance)
        do { return .success(ControlClient(fd: try UnixSocket.connect(to: path))) } catch {
            let others = place.existingSockets().filter { $0 != path }
            return .failure("no interlude is running (nothing answers at \(path): \(error.errno.message))"
                            + (others.isEmpty ? "" : "; other sockets: \(others.joined(separator: ", "))"))
        }
    }

    /// Sends one request and returns its reply (event lines before it are skipped).
    func request(_ translation: RemoteCommandLine.Translation) -> JSONValue? {
        let id = nextID
        nextID += 1
        var line = RemoteCommandLine.requestLine(id: id, translation) + "\n"
        let sent = line.withUTF8 { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                guard case .success(let count) = UnixSocket.outcome({
                    Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                }) else { return false }
                offset += count
            }
            return true
        }
        // Even when the send failed, a refusal of the connection may be waiting to be read.
        _ = sent
        while let text = readLine() {
            guard let value = try? JSONParser.parse(text) else { continue }
            // A refusal of the connection itself (another user, too many) has no id.
            if value["id"]?.integerValue == id || (value["id"] == .null && value["ok"]?.boolValue == false) { return value }
        }
        return nil
    }

    /// The next line, or nil when the player closed the connection.
    func readLine() -> String? {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeFirst(newline + 1)
                return line
            }
            guard case .success(let count) = UnixSocket.outcome({
                chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            }), count > 0 else { return nil }
            buffer += chunk[0..<count]
        }
    }
}

/// True when `path` names a regular file (following symbolic links).
private func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
}
