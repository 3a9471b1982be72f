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
        guard mode == .service || isatty(0) != 0 && isatty(1) != 0 else {
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
            // The service's screens browse from home when there is no music folder.
            guard let music = LibrarySettings.musicFolder(environment: environment) ?? (mode == .service ? environment["HOME"] ?? "/" : nil) else {
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
        browserRoot = folder ?? Self.parent(of: files.first ?? options.paths[0])
        let keys = loadKeys(directories)
        bindings = keys.bindings
        // The first screen's browser lists the folder as it is now, before the player writes its state there.
        firstBrowser = browser(at: browserRoot)
        themeName = options.theme ?? restored.state?.theme ?? ThemeCatalog.defaultName

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
            recentEvents.append(timed)
            if recentEvents.count > Self.recentEventLimit { recentEvents.removeFirst(recentEvents.count / 2) }
            for screen in screens { screen.record(timed) }
        }
        let first: PlaybackSwitch = opensBook ? .book(options.paths[0], nil)
            : lastBook.map { PlaybackSwitch.book($0.path, $0) } ?? .music(files, startAt: 0)
        return StartUp(first: first, base: base, stateStore: stateStore, restored: restored, keys: keys,
                       reopensBook: !opensBook && lastBook != nil)
    }

    /// The keys file's bad lines, each with its line number, in the log.
    func reportKeyProblems(_ keys: KeyConfigLoad) {
        for problem in keys.problems { events.error("keys: \(problem.description)") }
    }

    /// Takes a terminal once the runtime is up: the process's own (the first
    /// screen in the foreground) or one a client handed the service; nil
    /// (reported) when ncurses cannot drive it.
    func openScreen(device: TerminalDevice, keys: KeyConfigLoad? = nil, browsing folder: String? = nil) -> Screen? {
        if let keys { reportKeyProblems(keys) }
        let terminal: any ScreenTerminal
        do { terminal = device.isStandard ? try NcursesTerminal(device: device) : try AnsiTerminal(device: device) } catch {
            if device.isStandard { writeStandardError("interlude: \(error.description)\n") } else { events.error(error.description) }
            return nil
        }
        let browser = folder.map { self.browser(at: $0) } ?? firstBrowser ?? self.browser(at: browserRoot)
        var ui = InterfaceState(bindings: bindings, browser: browser)
        firstBrowser = nil
        if let live = library { ui.library = LibraryPaneModel(source: live, loaded: false) }
        let screen = Screen(host: self, terminal: terminal, ui: ui)
        // The log so far: what happened before this screen came.
        for timed in recentEvents { screen.ui.record(timed) }
        // The book the foreground player opened before its screen: where it resumed.
        if device.isStandard, let resumed { screen.say(resumed) }
        if let keys, let first = keys.problems.first {
            screen.say("keys: \(CommandReport.count(keys.problems.count, "line")) skipped (see the event log); " + first.description, isError: true)
        }
        // The screen is ours now: errors go to the log pane and the command line.
        if device.isStandard { events.writesErrorsToStandardError = false }
        screens.append(screen)
        screen.applyTheme(themeName)
        screen.openCoverArt(terminal: terminal)
        screen.redraw.setNeedsDraw()
        return screen
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

    /// A screen's browser at `root`, with the books folder as a root of its own and `~` the home folder.
    func browser(at root: String) -> BrowserModel {
        let environment = ProcessEnvironment.current()
        return BrowserModel(root: root, books: OpenKind.booksFolder(environment: environment, configured: settings.booksFolder),
                            home: environment["HOME"], source: source)
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
