import LoopIO
import LibraryIO
import Core
import Alarms
import AudioEngine
import AudioSession
import BookFormat
import Books
import InterludeCore
import PlayerModel
import Themes
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// The full-screen player's host: the core (a `PlayerRuntime`) and its
/// services for the run, and the screens that draw it. In the foreground
/// (`interlude --new`, or where no service can run) one screen on the
/// process's own terminal, and the run ends when it is left; as the user
/// service (`interlude service`) none to begin with, and screens attach and
/// leave while playback and alarms go on (`ScreenAttachments`).
///
/// Drawing: after each turn of the loop, only when something changed (a key,
/// an event, a resize) or, while playing or counting down, at most every
/// 250 ms for the clock and progress bar. The presenter compares frames, so
/// an unchanged screen costs no terminal output and no refresh at all.
final class FullScreenPlayer {
    enum Mode {
        /// On the process's own terminal: leaving the screen ends the player.
        case foreground
        /// The user service: no terminal of its own; screens attach.
        case service
    }

    let options: FullScreenCommand.Options
    let mode: Mode
    let events = PlayerEventStream()
    /// The config file, read once as the player starts.
    let settings = UserConfigFile.load()
    /// The core the host runs; `core` is all the screens' keys and frames read and act through.
    var runtime: PlayerRuntime?
    var core: (any PlayerCore)? { runtime }
    /// The terminals drawn on now.
    var screens: [Screen] = []
    /// The service's listener for screens (nil in the foreground).
    var attachments: ScreenAttachments?
    /// The keys file's bindings, read once: every screen's.
    var bindings = KeyBindings.defaults
    /// Where a new screen's browser opens.
    var browserRoot = "."
    /// The first screen's browser, listed at start-up.
    var firstBrowser: BrowserModel?
    /// The theme a new screen takes: the last one asked for.
    var themeName = ThemeCatalog.defaultName
    let source = FileSystemBrowserSource()
    var catalog = ThemeCatalog(directories: [])
    var zone = TimeZoneRules.utc
    /// The book playing, when the runtime plays one (in spoken-audio mode).
    var book: BookSession? { runtime?.book }
    var shelf = BookShelf(store: BookStateStore(directory: ""))
    /// The playlists pane's rows: listed at start, when the pane is focused and after a save.
    var playlists: [PlaylistRow] = []
    /// Books opened so far, and where the last resumed ("Title: resumed at ..."), for the key that opened it.
    var booksOpened = 0
    var resumed: String?
    /// The music's place as last saved (`saveStateIfMoved`): the service keeps it current, so a crash loses little.
    var savedPlace: (queue: [String], index: Int, seconds: Double)?
    var lastPlaceSave = 0.0
    var stateStore: PlayerStateStore?
    /// The latest events, for the log of a screen that attaches later.
    var recentEvents: [TimedPlayerEvent] = []
    static let recentEventLimit = 400

    /// What decides the state line and the playing marks, compared after each turn.
    struct PlaybackState: Equatable {
        var state: PlayerSnapshot.State
        var entry: Int?
        /// The alarm scheduler's plans (an alarm added or gone, a test alarm removed once rung).
        var alarmPlan: Int
    }
    var quitRequested = false
    let keepsRunningWhenQueueEnds = true
    /// The music library's index, scan and folder watches (the library pane): one of the runtime's services.
    var library: LibraryLiveIndex? { services?.library }
    /// The socket, the buses, the hook, the sound server, the library index: opened once for the run.
    var services: PlayerServices?

    init(options: FullScreenCommand.Options, mode: Mode = .foreground) {
        self.options = options
        self.mode = mode
    }

    /// Start-up (`startUp`), then the runtime until the user quits: the
    /// music or book asked for, and whatever the user switches to, in the
    /// same runtime (`PlayerRuntime+Switch`).
    func run(started: () -> Void = {}) -> Int32 {
        guard let startUp = startUp() else { return 2 }
        let (stateStore, restored, keys) = (startUp.stateStore, startUp.restored, startUp.keys)
        self.stateStore = stateStore
        let signals: SignalChannel
        do { signals = try SignalChannel.open([SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH]) } catch {
            events.error(error.description)
            return 1
        }
        var configuration = startUp.base
        var paths: [String] = []
        var firstBook: BookSession?
        switch startUp.first {
        case .music(let list, _):
            paths = list
            configuration.startsPaused = restored.state != nil
        case .book(let path, let opened):
            configuration.startsPaused = startUp.reopensBook
            guard let session = openBook(path, opened: opened, configuration: &configuration,
                                         speedGiven: !options.speed.isNormal) else { return 1 }
            firstBook = session
            paths = session.paths
        }
        if mode == .service {
            do { attachments = try ScreenAttachments.open(host: self) } catch {
                events.error(error.description)
                return 1
            }
            started()
        }
        guard let runtime = PlayerRuntime.open(configuration: configuration, paths: paths, events: events,
                                               signals: signals) else {
            return 1
        }
        self.runtime = runtime
        let services = runtime.startServices(instance: options.newInstance ? 2 : 1, buses: true)
        self.services = services
        defer {
            services.shutDown()
            attachments?.shutDown()
        }
        services.stateWatch = configuration.alarmStore.flatMap { store in
            StateFolderWatch.open(folder: store.file.directory, names: [AlarmStore.fileName], events: events) { [unowned self] _, core in
                _ = core.perform(.alarmsFileChanged)
                for screen in screens { screen.redraw.setNeedsDraw() }
            }
        }
        runtime.onMusicLeft = { [unowned self, unowned runtime] in saveState(stateStore, runtime) }
        runtime.onBookOpened = { [unowned self] book in bookOpened(book) }
        // The alarms of alarms.json show (and ring) from the start.
        _ = runtime.alarms
        if let firstBook {
            firstBook.begin(with: runtime)
            bookOpened(firstBook)
        } else if let saved = restored.state {
            runtime.start(atQueueIndex: saved.index, seconds: saved.seconds)
            if saved.volume != runtime.volume { runtime.volume = saved.volume }
        }
        if let problem = restored.problem { events.error(problem) }
        if mode == .foreground {
            guard let screen = openScreen(device: .standard, keys: keys) else { return 1 }
            if firstBook != nil { screen.ui.focus(.nowPlaying) } else if !paths.isEmpty { screen.ui.focus(.queue) }
        } else {
            // The bad lines of the keys file, once, in the log every screen shows.
            reportKeyProblems(keys)
        }
        openLibrary()
        startPodcasts(runtime)
        let status = runtime.run(host: self)
        quitRequested = runtime.quitRequested
        // Quit or a signal: the book's place is kept in its state file; music's queue and place in player.json.
        if let book { book.finish() } else { saveState(stateStore, runtime) }
        if let book { saveBookPlayedLast(stateStore, book.book.path, runtime) }
        for screen in screens { screen.end() }
        attachments?.endAll(saying: Self.stoppedLine(enabledAlarms: runtime.snapshot(.full).alarms.filter(\.isEnabled).count))
        screens = []
        // Blocked until the terminal is given back.
        withExtendedLifetime(signals) {}
        events.writesErrorsToStandardError = true
        return quitRequested ? 0 : status
    }

    /// The podcasts pane's rows listed, and the feeds refreshed when older than `podcast-refresh-age`, off the loop.
    func startPodcasts(_ runtime: PlayerRuntime) {
        let podcasts = runtime.podcasts
        podcasts.refreshAge = settings.podcastRefreshAgeSeconds
        podcasts.automation = PodcastAutomationRun.configured(settings)
        podcasts.onChange = { [unowned self] in for screen in screens { screen.redraw.setNeedsDraw() } }
        podcasts.onNote = { [unowned self] line in for screen in screens { screen.say(line) } }
        podcasts.start()
    }

    /// A book opened (at start or by a switch): the shelf, the resume message, the books pane read again.
    func bookOpened(_ book: BookSession) {
        shelf.remember(book.book)
        // What comes back at the next start, saved now: a crash of the service loses no more than its place.
        if let stateStore, let runtime { saveBookPlayedLast(stateStore, book.book.path, runtime) }
        booksOpened += 1
        resumed = book.savedPosition > 0 ? Self.resumeText(book) : nil
        for screen in screens {
            if let resumed { screen.say(resumed) }
            screen.lastFocus = nil
            screen.lastState = nil
            screen.redraw.setNeedsDraw()
        }
    }

    /// On the way out (q, SIGINT, SIGTERM, SIGHUP): the queue and the place in it.
    func saveState(_ store: PlayerStateStore, _ runtime: PlayerRuntime) {
        let queue = runtime.queue
        guard !queue.isEmpty else { return }
        let current = runtime.current
        let state = SavedPlayerState(queue: queue, index: current?.index ?? 0, seconds: current?.elapsed ?? 0,
                                     volume: runtime.chosenVolume, theme: themeName)
        savedPlace = (state.queue, state.index, state.seconds)
        do { try store.save(state) } catch {
            writeStandardError("interlude: \(error.description) (the queue was not saved)\n")
        }
    }

    /// A book opened, and on the way out with a book playing: it is what comes back at the next start.
    func saveBookPlayedLast(_ store: PlayerStateStore, _ path: String, _ runtime: PlayerRuntime) {
        do { try store.saveBookPlayedLast(path, volume: runtime.chosenVolume, theme: themeName) } catch {
            writeStandardError("interlude: \(error.description) (the book playing was not saved as the last)\n")
        }
    }

    /// What a screen says when the player stops: and which alarms fall silent.
    static func stoppedLine(enabledAlarms: Int) -> String {
        guard enabledAlarms > 0 else { return "the player stopped" }
        return "the player stopped; \(enabledAlarms == 1 ? "1 alarm is" : "\(enabledAlarms) alarms are") on and will not ring "
            + "until it runs again ('interlude' starts it)"
    }

    /// "Title: resumed at 23.4 s (left at 25.4 s, 2.0 s earlier)".
    static func resumeText(_ book: BookSession) -> String {
        func tenths(_ milliseconds: Int) -> String { "\(milliseconds / 1000).\(milliseconds % 1000 / 100)" }
        return "\(book.book.title): resumed at \(tenths(book.startPosition)) s (left at \(tenths(book.savedPosition)) s, "
            + "\(tenths(book.savedPosition - book.startPosition)) s earlier)"
    }
}
