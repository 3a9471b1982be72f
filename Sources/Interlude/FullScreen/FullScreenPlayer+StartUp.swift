import Streams
import LoopIO
import LibraryIO
import Core
import Alarms
import AudioEngine
import Books
import InterludeCore
import PlayerModel
import Themes
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// Start-up: the arguments and the saved queue, the keys file, the local zone,
/// the terminal; and a book to open.
extension FullScreenPlayer {
    /// What start-up makes of the arguments and the last run's state.
    struct StartUp {
        /// What plays first.
        var first: PlaybackSwitch
        /// The runtime's configuration, before the book or music sets its part.
        var base: PlayerRuntime.Configuration
        var stateStore: PlayerStateStore
        var restored: (state: SavedPlayerState?, problem: String?)
        var keys: KeyConfigLoad
        /// The book that played last comes back (paused at its place), no path given.
        var reopensBook = false
    }

    /// Reads the arguments, the saved queue, the keys, the zone and the
    /// themes, and subscribes the screen to the events; nil (reported) when
    /// there is nothing to open, for exit status 2.
    func startUp() -> StartUp? {
        guard isatty(0) != 0, isatty(1) != 0 else {
            writeStandardError("interlude: \(TerminalError.notATerminal.description)\n")
            return nil
        }
        TextWidth.prepareLocale()
        let environment = ProcessEnvironment.current()
        let directories = XDGDirectories(environment: environment)

        // What to play and where the browser opens.
        var files: [String] = []
        var folder: String?
        for path in options.paths {
            if FileSystemBrowserSource.isDirectory(path) { folder = folder ?? path } else { files.append(path) }
        }
        if options.paths.isEmpty {
            guard let music = LibrarySettings.musicFolder(environment: environment) else {
                writeStandardError("interlude: no music folder (XDG_MUSIC_DIR or ~/Music); give a folder or files: "
                                   + "interlude PATH...\n")
                return nil
            }
            folder = music
        }
        // One chaptered MP3, or one path with --book: a book (as for `interlude play`).
        // A folder without --book opens the browser, as it always did.
        // A cue sheet given is an album (music, its tracks: see `PlayCommand.resolvingCueSheets`),
        // unless --book: the file it names is then the book.
        let givesSheet = options.paths.count == 1 && options.paths[0].lowercased().hasSuffix(".cue")
        let booksFolder = OpenKind.booksFolder(environment: environment, configured: settings.booksFolder)
        let bookStore = BookStateStore(directories: directories)
        let opensBook = options.paths.count == 1 && !options.music
            && (options.book || (!givesSheet && OpenKind.guess(options.paths[0], booksFolder: booksFolder, store: bookStore) == .book))
        if !opensBook {
            let album = PlayerRuntime.expandingCueSheets(files)
            for problem in album.problems { writeStandardError("interlude: \(problem) (skipped)\n") }
            files = album.paths
        }
        // No file given: the queue of the last run comes back, paused where it was left.
        // (Music only: a book keeps its place in its own state file.)
        let stateStore = PlayerStateStore(directories: directories)
        let restored = files.isEmpty && !opensBook ? stateStore.load() : (state: nil, problem: nil)
        if let saved = restored.state, !saved.queue.isEmpty { files = saved.queue }
        // Started with no path: what played last comes back, the book if a book did (as BookPlayer and Voice reopen it).
        let lastBook = options.paths.isEmpty ? restored.state?.book.flatMap { try? BookOpener.open($0) } : nil
        let browserRoot = folder ?? Self.parent(of: files.first ?? options.paths[0])
        let keys = loadKeys(directories)
        ui = InterfaceState(bindings: keys.bindings, browser: BrowserModel(root: browserRoot, books: booksFolder,
                                                                           home: environment["HOME"], source: source))
        if !files.isEmpty { ui.focus(.queue) }

        zone = localZone(environment)
        catalog = ThemeCatalog(directories: ThemeDirectories.standard(configHome: directories.configHome,
                                                                      executablePath: Self.executablePath()))
        shelf = BookShelf(store: BookStateStore(directories: directories))
        refreshPlaylists()
        var base = PlayerRuntime.Configuration(output: options.output, scenario: options.scenario)
        base.settings = settings
        base.replayGain = settings.replayGainSettings(mode: nil, preamp: nil)
        base.speed = options.speed
        base.alarmTimeZone = zone
        // A folder alone opens with an empty queue: the user picks from the browser.
        base.keepsRunningWhenQueueEnds = true
        // Without a sound card the screen still opens: browse, alarms and books work, and play tries again.
        base.waitsForOutput = true
        base.alarmStore = AlarmStore(directories: directories)
        base.bookStore = shelf.store
        events.subscribe { [unowned self] timed in
            // A book's periodic saves (every second) would bury everything else.
            if case .positionSaved = timed.event { return }
            if case .queueSaved = timed.event { refreshPlaylists() }
            ui.record(timed)
            redraw.setNeedsDraw()
        }
        let first: PlaybackSwitch = opensBook ? .book(options.paths[0], nil)
            : lastBook.map { PlaybackSwitch.book($0.path, $0) } ?? .music(files, startAt: 0)
        return StartUp(first: first, base: base, stateStore: stateStore, restored: restored, keys: keys,
                       reopensBook: !opensBook && lastBook != nil)
    }

    /// Takes the terminal, once the first runtime is up; false (reported) when it cannot.
    func openScreen(keys: KeyConfigLoad, theme: String) -> Bool {
        // Now that the log records them: the keys file's bad lines, each with its line number.
        for problem in keys.problems { events.error("keys: \(problem.description)") }
        if let first = keys.problems.first {
            ui.message = .init(text: "keys: \(keys.problems.count) line(s) skipped (see the event log); "
                               + first.description, isError: true)
        }
        let terminal: NcursesTerminal
        do { terminal = try NcursesTerminal() } catch {
            writeStandardError("interlude: \(error.description)\n")
            return false
        }
        self.terminal = terminal
        presenter = ScreenPresenter(terminal: terminal)
        // The screen is ours now: errors go to the log pane and the command line.
        events.writesErrorsToStandardError = false
        applyTheme(theme)
        openCoverArt(terminal: terminal)
        return true
    }

    /// The book at `path` with its saved place and speed, set up for spoken
    /// audio; nil (reported) when it does not open.
    func openBook(_ path: String, opened: Book?, configuration: inout PlayerRuntime.Configuration,
                          speedGiven: Bool) -> BookSession? {
        let book: Book
        if let opened { book = opened } else {
            do { book = try BookOpener.open(path) } catch {
                events.error(error.description)
                return nil
            }
        }
        do {
            return try BookSession.make(book, options: BookPlayOptions(), speedGiven: speedGiven, store: shelf.store,
                                        configuration: &configuration, events: events)
        } catch {
            events.error(error.message)
            return nil
        }
    }

    func loadKeys(_ directories: XDGDirectories) -> KeyConfigLoad {
        let path = directories.interludeConfig + "/keys"
        guard let bytes = try? StateFile(path: path).read() else { return KeyConfigLoad(bindings: .defaults, problems: []) }
        return KeyConfigParser.apply(String(decoding: bytes, as: UTF8.self), path: path)
    }

    func localZone(_ environment: [String: String]) -> TimeZoneRules {
        do { return try TimeZoneDatabase().localZone(environment: environment) } catch {
            events.error("\(error.description); alarm times are in UTC")
            return .utc
        }
    }

    static func parent(of path: String) -> String {
        // A station's URL has no folder to browse: the browser opens where the player was started.
        if StreamLocation.isStation(path) { return "." }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "" }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
