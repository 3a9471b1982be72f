import Alarms
import AudioEngine
import AudioSession
import BookFormat
import Books
import InterludeCore
import KeyMap
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
    let events = PlayerEventStream(json: false)
    var terminal: NcursesTerminal?
    var presenter: ScreenPresenter?
    var runtime: PlayerRuntime?
    var ui = InterfaceState(browser: nil)
    let source = FileSystemBrowserSource()
    var catalog = ThemeCatalog(directories: [])
    var zone = TimeZoneRules.utc
    var redraw = RedrawPolicy()
    var lastState: PlaybackState?
    /// The book playing, when the runtime plays one (in spoken-audio mode).
    var book: BookSession?
    var shelf = BookShelf(store: BookStateStore(directory: ""))
    /// The playlists pane's rows: listed at start, when the pane is focused and after a save.
    var playlists: [PlaylistRow] = []
    var lastFocus: Pane?
    /// Other programs' calls, alarms and sounds on the sound server; it
    /// outlives the runtimes, each of which gets its own sessions from it.
    var desktop: DesktopInterruptionSource?

    /// A book and music each get a runtime of their own (spoken-audio mode is
    /// the runtime's, and a book's queue is its files): opening a book, or
    /// playing files while a book plays, ends this runtime and starts the next.
    var pendingSwitch: PlaybackSwitch?

    /// What decides the state line and the playing marks, compared after each turn.
    struct PlaybackState: Equatable {
        var finished: Bool
        var playing: Bool
        var interrupted: Bool
        var entry: Int?
    }
    var quitRequested = false
    let keepsRunningWhenQueueEnds = true
    /// `interlude remote` and the one-player-per-user hand-off reach this player here.
    var control: ControlSocket?
    /// `on-event` in the config file.
    var hook: EventHook?
    /// MPRIS2 on the session bus.
    var mpris: MprisSource?
    var logind: LogindSleepSource?
    /// The music library's index, scan and folder watches (the library pane).
    var library: LibraryLiveIndex?
    /// alarms.json changed by `interlude alarm` or another player: the alarms are read again.
    var stateWatch: StateFolderWatch?

    init(options: FullScreenCommand.Options) { self.options = options }

    /// The theme the user asked for last (cycling goes on from it, even when it fell back).
    var cycleName = ThemeCatalog.defaultName

    /// Start-up (`startUp`), then one runtime after another: the music or
    /// book asked for, and whatever the user switches to, until they quit.
    func run() -> Int32 {
        guard let startUp = startUp() else { return 2 }
        let (stateStore, restored, keys, base) = (startUp.stateStore, startUp.restored, startUp.keys, startUp.base)
        // One channel for every runtime: the signals stay blocked (and pending ones
        // kept) while one runtime ends and the next starts.
        let signals: SignalChannel
        do { signals = try SignalChannel.open([SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH]) } catch {
            events.error(error.description)
            return 1
        }
        control = ControlSocket.open(instance: options.newInstance ? 2 : 1, events: events)
        defer { control?.shutDown() }
        hook = EventHook.fromConfig(events: events)
        mpris = MprisSource.open(events: events, quietWithoutBus: true)
        logind = LogindSleepSource.open(events: events)
        stateWatch = base.alarmStore.flatMap { store in
            StateFolderWatch.open(folder: store.file.directory, names: [AlarmStore.fileName], events: events) { [unowned self] _, runtime in
                runtime.createdScheduler?.fileDidChange()
                redraw.setNeedsDraw()
            }
        }
        desktop = DesktopInterruptionSource.forPlayback(output: options.output, environment: ProcessEnvironment.current(),
                                                        report: { [events] in events.error($0) })
        var next = startUp.first
        var status: Int32 = 0
        var firstRun = true
        while true {
            var configuration = base
            var paths: [String] = []
            var startAt = 0
            book = nil
            switch next {
            case .music(let list, let index):
                paths = list
                startAt = index
                configuration.startsPaused = firstRun && restored.state != nil
            case .book(let path, let opened):
                if let session = openBook(path, opened: opened, configuration: &configuration,
                                          speedGiven: firstRun && !options.speed.isNormal) {
                    book = session
                    paths = session.paths
                } else if firstRun {
                    return 1
                }
            }
            guard let runtime = PlayerRuntime.open(configuration: configuration, paths: paths, events: events,
                                                   signals: signals) else {
                terminal?.end()
                return 1
            }
            self.runtime = runtime
            runtime.switchPlayback = { [unowned self] target in pendingSwitch = target }
            // The alarms of alarms.json show (and ring) from the start.
            _ = runtime.alarms
            if let book {
                book.begin(with: runtime)
                shelf.remember(book.book)
                if book.savedPosition > 0 { ui.message = .init(text: Self.resumeText(book), isError: false) }
                if firstRun { ui.focus(.nowPlaying) }
            } else if firstRun, let saved = restored.state {
                runtime.start(atQueueIndex: saved.index, seconds: saved.seconds)
                if saved.volume != runtime.volume { runtime.volume = saved.volume }
            } else if startAt > 0 {
                runtime.start(atQueueIndex: startAt, seconds: 0)
            }
            // The books pane's list is read when the pane shows.
            lastFocus = nil
            if firstRun {
                firstRun = false
                if let problem = restored.problem { events.error(problem) }
                guard openScreen(keys: keys, theme: options.theme ?? restored.state?.theme ?? ThemeCatalog.defaultName)
                else { return 1 }
                openLibrary()
            }
            lastState = nil
            redraw.setNeedsDraw()
            status = runtime.run(host: self)
            quitRequested = runtime.quitRequested
            // Quit, a signal, or a switch: the book's place is kept in its
            // state file; music's queue and place in player.json.
            if let book { book.finish() } else { saveState(stateStore, runtime) }
            guard let switchTo = pendingSwitch, !quitRequested else { break }
            pendingSwitch = nil
            next = switchTo
            runtime.engine.stop()
            self.runtime = nil
        }
        terminal?.end()
        // Blocked until the terminal is given back.
        withExtendedLifetime(signals) {}
        events.writesErrorsToStandardError = true
        return quitRequested ? 0 : status
    }

    /// On the way out (q, SIGINT, SIGTERM, SIGHUP): the queue and the place in it.
    func saveState(_ store: PlayerStateStore, _ runtime: PlayerRuntime) {
        let queue = runtime.queue
        guard !queue.isEmpty else { return }
        let current = runtime.current
        let state = SavedPlayerState(queue: queue, index: current?.index ?? 0, seconds: current?.elapsed ?? 0,
                                     volume: runtime.volume, theme: cycleName)
        do { try store.save(state) } catch {
            writeStandardError("interlude: \(error.description) (the queue was not saved)\n")
        }
    }

    /// "Title: resumed at 23.4 s (left at 25.4 s, 2.0 s earlier)".
    static func resumeText(_ book: BookSession) -> String {
        func tenths(_ milliseconds: Int) -> String { "\(milliseconds / 1000).\(milliseconds % 1000 / 100)" }
        return "\(book.book.title): resumed at \(tenths(book.startPosition)) s (left at \(tenths(book.savedPosition)) s, "
            + "\(tenths(book.savedPosition - book.startPosition)) s earlier)"
    }
}
