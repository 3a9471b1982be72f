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

/// The full-screen player: a `PlayerHost` that draws the panes with ncurses,
/// reads keys from fd 0 when `poll` says there are some, and turns them into
/// runtime actions. Events reach the event log and the banner through the
/// event stream, the same events `--events json` prints.
///
/// Drawing: after each turn of the loop, only when something changed (a key,
/// an event, a resize) or, while playing or counting down, at most every
/// 250 ms for the clock and progress bar. The presenter compares frames, so
/// an unchanged screen costs no terminal output and no refresh at all.
final class FullScreenPlayer {
    let options: FullScreenCommand.Options
    let events = PlayerEventStream()
    /// The config file, read once as the player starts.
    let settings = UserConfigFile.load()
    var terminal: NcursesTerminal?
    var presenter: ScreenPresenter?
    /// The core the screen hosts; `core` is all the screen's keys and frames read and act through.
    var runtime: PlayerRuntime?
    var core: (any PlayerCore)? { runtime }
    var ui = InterfaceState(browser: nil)
    let source = FileSystemBrowserSource()
    var catalog = ThemeCatalog(directories: [])
    var zone = TimeZoneRules.utc
    var redraw = RedrawPolicy()
    var lastState: PlaybackState?
    /// The book playing, when the runtime plays one (in spoken-audio mode).
    var book: BookSession? { runtime?.book }
    var shelf = BookShelf(store: BookStateStore(directory: ""))
    /// The playlists pane's rows: listed at start, when the pane is focused and after a save.
    var playlists: [PlaylistRow] = []
    var lastFocus: Pane?
    /// Books opened so far, and where the last resumed ("Title: resumed at ..."), for the key that opened it.
    var booksOpened = 0
    var resumed: String?
    /// The cover art's pictures (`+CoverArt`); nil when none are drawn.
    var coverArt: CoverArtView?
    /// Made when the lyrics pane first shows.
    var lyricsLoader: LyricsLoader?
    /// Keys given back to ncurses after the terminal's answers were read: in its
    /// own queue, not on fd 0, so the next turn reads them without a poll's word.
    var inputGivenBack = false
    var shownOverlay: GraphicsOverlay?
    /// The terminal's answers read so far, while DA1's is still to come (`+CoverArt`).
    var awaitedReplies: AwaitedReplies?

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

    init(options: FullScreenCommand.Options) { self.options = options }

    /// The theme the user asked for last (cycling goes on from it, even when it fell back).
    var cycleName = ThemeCatalog.defaultName

    /// Start-up (`startUp`), then the runtime until the user quits: the
    /// music or book asked for, and whatever the user switches to, in the
    /// same runtime (`PlayerRuntime+Switch`).
    func run() -> Int32 {
        guard let startUp = startUp() else { return 2 }
        let (stateStore, restored, keys) = (startUp.stateStore, startUp.restored, startUp.keys)
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
        guard let runtime = PlayerRuntime.open(configuration: configuration, paths: paths, events: events,
                                               signals: signals) else {
            terminal?.end()
            return 1
        }
        self.runtime = runtime
        let services = runtime.startServices(instance: options.newInstance ? 2 : 1, buses: true)
        self.services = services
        defer { services.shutDown() }
        services.stateWatch = configuration.alarmStore.flatMap { store in
            StateFolderWatch.open(folder: store.file.directory, names: [AlarmStore.fileName], events: events) { [unowned self] _, core in
                _ = core.perform(.alarmsFileChanged)
                redraw.setNeedsDraw()
            }
        }
        runtime.onMusicLeft = { [unowned self, unowned runtime] in saveState(stateStore, runtime) }
        runtime.onBookOpened = { [unowned self] book in bookOpened(book) }
        // The alarms of alarms.json show (and ring) from the start.
        _ = runtime.alarms
        if let firstBook {
            firstBook.begin(with: runtime)
            bookOpened(firstBook)
            ui.focus(.nowPlaying)
        } else if let saved = restored.state {
            runtime.start(atQueueIndex: saved.index, seconds: saved.seconds)
            if saved.volume != runtime.volume { runtime.volume = saved.volume }
        }
        if let problem = restored.problem { events.error(problem) }
        guard openScreen(keys: keys, theme: options.theme ?? restored.state?.theme ?? ThemeCatalog.defaultName)
        else { return 1 }
        openLibrary()
        startPodcasts(runtime)
        lastState = nil
        redraw.setNeedsDraw()
        let status = runtime.run(host: self)
        quitRequested = runtime.quitRequested
        // Quit or a signal: the book's place is kept in its state file; music's queue and place in player.json.
        if let book { book.finish() } else { saveState(stateStore, runtime) }
        if let book { saveBookPlayedLast(stateStore, book.book.path, runtime) }
        terminal?.end()
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
        podcasts.onChange = { [unowned self] in redraw.setNeedsDraw() }
        podcasts.onNote = { [unowned self] line in
            ui.message = .init(text: line, isError: false)
            redraw.setNeedsDraw()
        }
        podcasts.start()
    }

    /// A book opened (at start or by a switch): the shelf, the resume message, the books pane read again.
    func bookOpened(_ book: BookSession) {
        shelf.remember(book.book)
        booksOpened += 1
        resumed = book.savedPosition > 0 ? Self.resumeText(book) : nil
        if let resumed { ui.message = .init(text: resumed, isError: false) }
        lastFocus = nil
        lastState = nil
        redraw.setNeedsDraw()
    }

    /// On the way out (q, SIGINT, SIGTERM, SIGHUP): the queue and the place in it.
    func saveState(_ store: PlayerStateStore, _ runtime: PlayerRuntime) {
        let queue = runtime.queue
        guard !queue.isEmpty else { return }
        let current = runtime.current
        let state = SavedPlayerState(queue: queue, index: current?.index ?? 0, seconds: current?.elapsed ?? 0,
                                     volume: runtime.chosenVolume, theme: cycleName)
        do { try store.save(state) } catch {
            writeStandardError("interlude: \(error.description) (the queue was not saved)\n")
        }
    }

    /// On the way out with a book playing: it is what comes back at the next start.
    func saveBookPlayedLast(_ store: PlayerStateStore, _ path: String, _ runtime: PlayerRuntime) {
        do { try store.saveBookPlayedLast(path, volume: runtime.chosenVolume, theme: cycleName) } catch {
            writeStandardError("interlude: \(error.description) (the book playing was not saved as the last)\n")
        }
    }

    /// "Title: resumed at 23.4 s (left at 25.4 s, 2.0 s earlier)".
    static func resumeText(_ book: BookSession) -> String {
        func tenths(_ milliseconds: Int) -> String { "\(milliseconds / 1000).\(milliseconds % 1000 / 100)" }
        return "\(book.book.title): resumed at \(tenths(book.startPosition)) s (left at \(tenths(book.savedPosition)) s, "
            + "\(tenths(book.savedPosition - book.startPosition)) s earlier)"
    }
}
