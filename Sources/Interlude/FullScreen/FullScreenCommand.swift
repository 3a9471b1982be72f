import PlayerModel
import Core
import AudioEngine
import InterludeCore
import TUI
import LoopIO
#if canImport(Glibc)
import Glibc
#endif

/// `interlude [PATH...]` on a terminal: the full-screen player.
enum FullScreenCommand {
    static let help = """
    usage: interlude [PATH...] [--book|--music] [--device D] [--output wav:PATH|null] [--latency MS] [--theme NAME] [--new] [--play]

    The full-screen player, one per user: while one runs, what this command
    asks goes to it and this command exits (--new starts another): files,
    stations and a folder's audio files are queued (played with --play), a
    book is opened, --speed is set, and with nothing asked its state is said.
    Files given start playing at once; a folder opens the browser there, with
    the last queue back, paused. Without a path, what played last comes back
    where it was left (the book, or the queue, paused), in the browser of the
    music folder: XDG_MUSIC_DIR from ~/.config/user-dirs.dirs, else ~/Music;
    the books folder (books = PATH in the config, else ~/Audiobooks) is a
    root of its own there.
    A book plays in spoken-audio mode from where it was left: one path that
    is one opens as a book (a file with chapters, an M4B, a folder of audio
    files in the books folder, a book heard before), any other as music;
    --book or --music says which. In the player, b opens the browser's
    selection as a book.

    options:
      --device D          where to play: pulse (the PulseAudio server, through
                          libpulse), an ALSA device name, or alsa:NAME for any
                          ALSA device (alsa:pulse: ALSA's plugin to the server)
                          (default: default, the PulseAudio server when one
                          answers, else ALSA's default device)
      --output wav:PATH   render to a WAV file instead (as fast as possible)
      --output null       decode and discard (as fast as possible)
      --latency MS        device buffer in milliseconds (default: 300)
      --speed X           playback speed, 0.5 to 3.0, pitch kept ([ and ] change it)
      --theme NAME        colour theme (default, light, high-contrast, 256, or
                          one of yours in $XDG_CONFIG_HOME/interlude/themes)
      --resume-delay S    delay of the single resume attempt after a suspension (0.1-5, default 1)
      --fade DUR          the fade before a pause (default 30ms)
      --spoken            spoken audio: paused rather than ducked, smart rewind on resume
      --smart-rewind MAX  maximum smart rewind in seconds (default 30 with --spoken, else 0)
      --book              play the one FOLDER (or FILE) given as a book
      --music             play what is given as music, never as a book
      --new               start another player in this terminal even when one runs
      --foreground        play in this terminal: no service in the background, and
                          the player ends when its screen is left (q)
      --play              files given to a running player play now (else queued)

    Keys: ? lists them all; rebind them in $XDG_CONFIG_HOME/interlude/keys.
    """

    struct Options {
        var paths: [String] = []
        var output: PlaybackEngine.Output = .systemDefault(latencyMilliseconds: PlayCommand.Options.defaultLatency)
        var theme: String?
        var speed = PlaybackSpeed.normal
        var scenario = ScenarioOptions()
        /// `--book`: the one path given is a book.
        var book = false
        /// `--music`: what is given is music, whatever it looks like.
        var music = false
        /// `--new`: start another player even when one runs (its own socket name).
        var newInstance = false
        /// `--play`: files handed to a running player play now rather than queue.
        var playHandedFiles = false
        /// `--foreground`: the player runs in this terminal and ends when it is left, with no service.
        var foreground = false
        /// The options given, by name: what a running player is told or not (`HandOff`).
        var given: Set<String> = []
    }

    static let spec = ArgumentSpec(command: "interlude",
                                   valued: ["--device", "--output", "--latency", "--speed", "--theme", "--resume-delay", "--fade",
                                            "--smart-rewind"],
                                   flags: ["--spoken", "--book", "--music", "--new", "--play", "--foreground"])

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        let parsed = try spec.parse(arguments)
        var options = Options()
        options.paths = parsed.positionals
        // The output options mean what they mean for `play`; reuse its parser.
        var playArguments = ["--"] + ["placeholder"]
        for flag in ["--device", "--output", "--latency", "--speed"] {
            if let value = parsed.value(flag) { playArguments.insert(contentsOf: [flag, value], at: 0) }
        }
        do {
            let play = try PlayCommand.parse(playArguments)
            options.output = play.output
            options.speed = play.speed
        } catch {
            throw UsageError(error.message.replacingPrefix("play:", with: "interlude:"))
        }
        options.theme = parsed.value("--theme")
        options.book = parsed.has("--book")
        options.music = parsed.has("--music")
        if options.book && options.music { throw UsageError("interlude: --book and --music say opposite things; give one") }
        options.newInstance = parsed.has("--new")
        options.foreground = parsed.has("--foreground")
        options.playHandedFiles = parsed.has("--play")
        options.given = Set((spec.valued.filter { parsed.value($0) != nil }) + spec.flags.filter { parsed.has($0) })
        if options.book && options.paths.count != 1 {
            throw UsageError("interlude: --book needs exactly one FOLDER or FILE")
        }
        options.scenario = try ScenarioOptions.parse(parsed)
        return options
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            writeStandardOutput(help + "\n")
            return 0
        }
        let options: Options
        do { options = try parse(arguments) } catch {
            writeStandardError("\(error.message)\n")
            return 2
        }
        if options.newInstance { return FullScreenPlayer(options: options).run() }
        if options.foreground {
            if let status = HandOff.run(options) { return status }
            return FullScreenPlayer(options: options).run()
        }
        return attachToService(options, arguments: arguments)
    }

    /// The player service's screen on this terminal: the service started first
    /// when none runs (with the options only a starting player takes), the
    /// paths handed to it (played when it just started, else queued as a
    /// running player queues them), then this terminal attached.
    static func attachToService(_ options: FullScreenCommand.Options, arguments: [String]) -> Int32 {
        let onTerminal = isatty(0) != 0 && isatty(1) != 0
        // No private runtime folder (no login session): no service can be found or reached, so the player
        // runs here, as with --foreground.
        guard let place = ControlSocketPlace.current else {
            if let status = HandOff.run(options) { return status }
            return FullScreenPlayer(options: options).run()
        }
        // Without a terminal (a script): what is asked goes to the running player, and no screen.
        guard onTerminal else {
            if let status = HandOff.run(options) { return status }
            writeStandardError("interlude: \(TerminalError.notATerminal.description)\n")
            return 2
        }
        let screenPath = ScreenAttachments.path(place)
        var handed = options
        // A folder opens this screen's browser there, as it does in the foreground (with --book it is the book).
        var browse: String?
        // A book's folder (`HandOff`'s choice) is opened as the book, not browsed.
        if !options.book, let folder = options.paths.first(where: FileSystemBrowserSource.isDirectory),
           options.music || options.paths.count > 1 || HandOff.guess(RemoteCommand.entryForPlayer(folder)) != .book {
            browse = RemoteCommand.entryForPlayer(folder)
            handed.paths.removeAll(where: FileSystemBrowserSource.isDirectory)
        }
        if !ControlSocketPlace.isLive(screenPath) {
            // A player in the foreground elsewhere has no screen socket: it is handed what is asked, as before.
            if ControlSocketPlace.isLive(place.primary) { return HandOff.run(options) ?? 1 }
            if case .failure(let problem) = PlayerService.start(options: serviceArguments(arguments)) {
                writeStandardError("interlude: \(problem.line)\n")
                return 1
            }
            // The service plays what this command names at once, as a player started with it would.
            handed.playHandedFiles = true
            handed.given.subtract(HandOff.startingOptions)
            waitUntilLive(place.primary)
        }
        // The pane a player started with these words shows first: a book's now playing, files' queue.
        var focus: Pane?
        if !handed.paths.isEmpty || handed.given.contains("--speed") {
            guard let status = HandOff.run(handed, says: !handed.playHandedFiles || options.playHandedFiles), status == 0 else {
                return 1
            }
            focus = HandOff.opensBook(handed) ? .nowPlaying : handed.paths.isEmpty ? nil : .queue
        }
        return ScreenClient.connectAndAttach(place, browsing: browse, focus: focus)
    }

    /// The words a service starts with: the options only a starting player takes, without paths.
    static func serviceArguments(_ arguments: [String]) -> [String] {
        var kept: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            let name = String(word.split(separator: "=", maxSplits: 1).first ?? "")
            guard HandOff.startingOptions.contains(name) || name == "--speed" else { continue }
            kept.append(word)
            if !word.contains("="), spec.valued.contains(name), index < arguments.count {
                kept.append(arguments[index])
                index += 1
            }
        }
        return kept
    }

    /// Waits (10 s at most) for a socket the service is opening.
    static func waitUntilLive(_ path: String) {
        let deadline = monotonicSeconds() + Double(ScreenClient.startWaitMilliseconds) / 1000
        while monotonicSeconds() < deadline, !ControlSocketPlace.isLive(path) { usleep(20_000) }
    }
}
