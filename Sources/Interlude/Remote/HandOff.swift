import BookFormat
import Books
import Core
import LoopIO
import InterludeCore
import PlayerModel
import Streams
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// One player per user: `interlude [PATH...] [options]` on a terminal while a
/// player runs sends what it asks for to that player over its control socket,
/// says what was done, and exits, instead of starting a second player
/// (`--new` starts one). What a new player would do with the same words, the
/// running one is asked: files and stations are queued (played with `--play`),
/// a folder's audio files (and its folders') are queued as `e` queues them, a
/// book (one path that is one, `OpenKind.guess`: chapters, an M4B, a folder in
/// the books folder; `--book`, and never with `--music`) is opened as a book,
/// `--speed` is set; with nothing to
/// send, the running player's state is said. Options only a starting player
/// can take (the device, the theme, ...) are named as not applied.
enum HandOff {
    /// One request for the running player, and how to say it was done.
    struct Request {
        var command: String
        var arguments: [JSONValue]
        var done: String
    }

    /// The options of `interlude` that only a player starting can take.
    static let startingOptions = ["--device", "--output", "--latency", "--theme", "--resume-delay", "--fade", "--spoken",
                                  "--smart-rewind"]

    /// The exit status once the running player got the requests; nil when no
    /// player answers, so this command starts one.
    static func run(_ options: FullScreenCommand.Options, says: Bool = true) -> Int32? {
        guard case .success(let client) = ControlClient.connect(instance: 1) else { return nil }
        let requests: [Request]
        switch requestsFor(options) {
        case .success(let made): requests = made
        case .failure(let problem):
            writeStandardError("interlude: \(problem.message) (nothing was sent to the running player)\n")
            return 1
        }
        var said: [String] = []
        for request in requests.isEmpty ? [Request(command: "status", arguments: [], done: "")] : requests {
            // The book asked for is the one that plays (a service that reopened it as it started): that is done already.
            if request.command == "book-open", case .reply(let reply) = client.request(.init(command: "status", arguments: [])),
               let playing = reply["result"]?["book"]?["path"]?.stringValue, playing == request.arguments.first?.stringValue {
                said.append("plays the book \(playing) already")
                continue
            }
            switch client.request(.init(command: request.command, arguments: request.arguments)) {
            case .reply(let reply) where reply["ok"]?.boolValue == true:
                if request.command == "status" {
                    let status = reply["result"] ?? .null
                    let title = status["title"]?.stringValue ?? ""
                    said.append("is \(status["state"]?.stringValue ?? "running")" + (title.isEmpty ? "" : " (\(title))"))
                } else {
                    said.append(request.done)
                }
            case .reply(let reply):
                writeStandardError("interlude: the running player refused \(request.command): \(reply["error"]?.stringValue ?? "")\n")
                return 1
            case .closed:
                writeStandardError("interlude: the running player closed the connection without a reply\n")
                return 1
            case .timedOut:
                writeStandardError("interlude: the running \(client.silence)\n")
                return 3
            }
        }
        var line = "interlude: the running player " + said.joined(separator: "; ")
        let unapplied = startingOptions.filter { options.given.contains($0) }
        if !unapplied.isEmpty {
            line += "; \(unapplied.joined(separator: ", ")) \(unapplied.count == 1 ? "applies" : "apply") only to a player"
                + " starting ('interlude --new \(unapplied[0]) ...' starts another)"
        } else {
            line += " ('interlude --new' starts another)"
        }
        if says { writeStandardOutput(line + "\n") }
        return 0
    }

    struct Problem: Error {
        var message: String
    }

    /// What the words ask of a running player, in order; a path that is not there is a problem.
    static func requestsFor(_ options: FullScreenCommand.Options) -> Result<[Request], Problem> {
        var requests: [Request] = []
        for path in options.paths where !StreamLocation.isStation(path) && access(path, F_OK) != 0 {
            return .failure(Problem(message: "\(path): \(Errno(errno).message)"))
        }
        let paths = options.paths.map(RemoteCommand.entryForPlayer)
        if opensBook(options) {
            requests.append(Request(command: "book-open", arguments: [.string(paths[0])], done: "opened the book \(paths[0])"))
        } else if !paths.isEmpty {
            var entries: [String] = []
            for path in paths {
                guard FileSystemBrowserSource.isDirectory(path) else { entries.append(path); continue }
                // A folder's audio files and its folders', as e queues them from the browser.
                let files = AudioFolderWalk.files(under: path)
                if files.isEmpty { return .failure(Problem(message: "no audio files in \(path) or its folders")) }
                entries += files
            }
            let count = Self.counted(entries)
            requests.append(options.playHandedFiles
                ? Request(command: "play-files", arguments: entries.map(JSONValue.string), done: "plays \(count) now")
                : Request(command: "queue-add", arguments: entries.map(JSONValue.string), done: "queued \(count)"))
        }
        if options.given.contains("--speed") {
            requests.append(Request(command: "speed", arguments: [.double(options.speed.value)],
                                    done: "plays at \(options.speed)"))
        }
        return .success(requests)
    }

    /// Whether the words open a book: the same choice a new player makes
    /// (`FullScreenPlayer.startUp`): --book, --music, else `OpenKind.guess`.
    static func opensBook(_ options: FullScreenCommand.Options) -> Bool {
        let paths = options.paths.map(RemoteCommand.entryForPlayer)
        let sheet = paths.count == 1 && paths[0].lowercased().hasSuffix(".cue")
        return paths.count == 1 && !options.music && (options.book || (!sheet && Self.guess(paths[0]) == .book))
    }

    /// Book or music, as the player would take the path (the books folder from this user's config).
    static func guess(_ path: String) -> OpenKind {
        let environment = ProcessEnvironment.current()
        return OpenKind.guess(path, booksFolder: OpenKind.booksFolder(environment: environment,
                                                                      configured: UserConfigFile.load().booksFolder),
                              store: BookStateStore(directories: XDGDirectories(environment: environment)))
    }

    /// "Song.mp3" for one entry, else "3 files", "2 stations", "3 files and 1 station".
    static func counted(_ entries: [String]) -> String {
        if entries.count == 1 { return StreamLocation.isStation(entries[0]) ? entries[0] : String(entries[0].split(separator: "/").last ?? "") }
        let stations = entries.filter(StreamLocation.isStation).count
        let files = entries.count - stations
        func some(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return [files > 0 ? some(files, "file") : nil, stations > 0 ? some(stations, "station") : nil]
            .compactMap { $0 }.joined(separator: " and ")
    }
}
