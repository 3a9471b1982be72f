import Alarms
import AudioEngine
import AudioSession
import BookFormat
import Books
import InterludeCore
import KeyMap
import Themes
import TUI
#if canImport(Glibc)
import Glibc
#endif

/// The full-screen player: a `PlayerHost` that draws the panes with ncurses,
/// reads keys from fd 0 when `poll` says there are some, and turns them into
/// runtime actions. Events reach the event log and the banner through the
/// printer's observer, the same events `--events json` prints.
///
/// Drawing: after each turn of the loop, only when something changed (a key,
/// an event, a resize) or, while playing or counting down, at most every
/// 250 ms for the clock and progress bar. The presenter compares frames, so
/// an unchanged screen costs no terminal output and no refresh at all.
final class FullScreenPlayer: PlayerHost {
    let options: FullScreenCommand.Options
    let printer = EventPrinter(json: false)
    private var terminal: NcursesTerminal?
    private var presenter: ScreenPresenter?
    private var runtime: PlayerRuntime?
    private var ui = InterfaceState(browser: nil)
    private let source = FileSystemBrowserSource()
    private var catalog = ThemeCatalog(directories: [])
    private var zone = TimeZoneRules.utc
    private var tags: [String: TrackTags] = [:]
    /// Alarms made by `a` and `A`: removed once rung (and not snoozed), so
    /// testing leaves nothing behind in alarms.json.
    private var testAlarms: Set<AlarmID> = []
    private var redraw = RedrawPolicy()
    private var lastState: PlaybackState?
    /// The book playing, when the runtime plays one (in spoken-audio mode).
    private var book: BookSession?
    private var shelf = BookShelf(store: BookStateStore(directory: ""))
    private var lastFocus: Pane?

    /// A book and music each get a runtime of their own (spoken-audio mode is
    /// the runtime's, and a book's queue is its files): opening a book, or
    /// playing files while a book plays, ends this runtime and starts the next.
    private enum Switch {
        /// A path, and the book when it was opened already (checked before the switch).
        case book(String, Book?)
        case music([String], startAt: Int)
    }
    private var pendingSwitch: Switch?

    /// What decides the state line and the playing marks, compared after each turn.
    private struct PlaybackState: Equatable {
        var finished: Bool
        var playing: Bool
        var interrupted: Bool
        var entry: Int?
    }
    private(set) var shouldQuit = false
    let keepsRunningWhenQueueEnds = true

    init(options: FullScreenCommand.Options) { self.options = options }

    func run() -> Int32 {
        guard isatty(0) != 0, isatty(1) != 0 else {
            writeStandardError("interlude: \(TerminalError.notATerminal.description)\n")
            return 2
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
            guard let music = FullScreenCommand.musicFolder(environment: environment) else {
                writeStandardError("interlude: no music folder (XDG_MUSIC_DIR or ~/Music); give a folder or files: "
                                   + "interlude PATH...\n")
                return 2
            }
            folder = music
        }
        // One chaptered MP3, or one path with --book: a book (as for `interlude play`).
        // A folder without --book opens the browser, as it always did.
        let opensBook = options.paths.count == 1
            && (options.book || (folder == nil && BookOpener.isBook(options.paths, forced: false)))
        // No file given: the queue of the last run comes back, paused where it was left.
        // (Music only: a book keeps its place in its own state file.)
        let stateStore = PlayerStateStore(directories: directories)
        let restored = files.isEmpty && !opensBook ? stateStore.load() : (state: nil, problem: nil)
        if let saved = restored.state, !saved.queue.isEmpty { files = saved.queue }
        let browserRoot = folder ?? Self.parent(of: files.first ?? options.paths[0])
        let keys = loadKeys(directories)
        ui = InterfaceState(bindings: keys.bindings, browser: BrowserModel(root: browserRoot, source: source))
        if !files.isEmpty { ui.focus(.queue) }

        zone = localZone(environment)
        catalog = ThemeCatalog(directories: ThemeDirectories.standard(configHome: directories.configHome,
                                                                      executablePath: Self.executablePath()))
        shelf = BookShelf(store: BookStateStore(directories: directories))
        var base = PlayerRuntime.Configuration(output: options.output, scenario: options.scenario)
        base.speed = options.speed
        base.alarmTimeZone = zone
        // A folder alone opens with an empty queue: the user picks from the browser.
        base.keepsRunningWhenQueueEnds = true
        base.alarmStore = AlarmStore(directories: directories)
        printer.observer = { [unowned self] record in
            // A book's periodic saves (every second) would bury everything else.
            guard record.name != "positionSaved" else { return }
            ui.record(Self.loggedEvent(record))
            redraw.setNeedsDraw()
        }
        // One channel for every runtime: the signals stay blocked (and pending ones
        // kept) while one runtime ends and the next starts.
        let signals: SignalChannel
        do { signals = try SignalChannel.open([SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT, SIGWINCH]) } catch {
            printer.error(error.description)
            return 1
        }
        var next: Switch = opensBook ? .book(options.paths[0], nil) : .music(files, startAt: 0)
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
            guard let runtime = PlayerRuntime.open(configuration: configuration, paths: paths, printer: printer,
                                                   signals: signals) else {
                terminal?.end()
                return 1
            }
            self.runtime = runtime
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
                if let problem = restored.problem { printer.error(problem) }
                guard openScreen(keys: keys, theme: options.theme ?? restored.state?.theme ?? ThemeCatalog.defaultName)
                else { return 1 }
            }
            lastState = nil
            redraw.setNeedsDraw()
            status = runtime.run(host: self)
            // Quit, a signal, or a switch: the book's place is kept in its
            // state file; music's queue and place in player.json.
            if let book { book.finish() } else { saveState(stateStore, runtime) }
            guard let switchTo = pendingSwitch, !shouldQuit else { break }
            pendingSwitch = nil
            next = switchTo
            testAlarms = []
            runtime.engine.stop()
            self.runtime = nil
        }
        terminal?.end()
        // Blocked until the terminal is given back.
        withExtendedLifetime(signals) {}
        printer.writesErrorsToStandardError = true
        return shouldQuit ? 0 : status
    }

    /// Takes the terminal, once the first runtime is up; false (reported) when it cannot.
    private func openScreen(keys: KeyConfigLoad, theme: String) -> Bool {
        // Now that the log records them: the keys file's bad lines, each with its line number.
        for problem in keys.problems { printer.error("keys: \(problem.description)") }
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
        printer.writesErrorsToStandardError = false
        applyTheme(theme)
        return true
    }

    /// The book at `path` with its saved place and speed, set up for spoken
    /// audio; nil (reported) when it does not open.
    private func openBook(_ path: String, opened: Book?, configuration: inout PlayerRuntime.Configuration,
                          speedGiven: Bool) -> BookSession? {
        let book: Book
        if let opened { book = opened } else {
            do { book = try BookOpener.open(path) } catch {
                printer.error(error.description)
                return nil
            }
        }
        do {
            return try BookSession.make(book, options: BookPlayOptions(), speedGiven: speedGiven, store: shelf.store,
                                        configuration: &configuration, printer: printer)
        } catch {
            printer.error(error.message)
            return nil
        }
    }

    /// Ends this runtime at the end of the turn; `run` starts the next. Not
    /// while an interruption holds the session: the next runtime starts with
    /// a session of its own, so a ringing alarm, a call or a suspension would
    /// be dropped rather than ended. Returns why it was refused, or nil.
    private func requestSwitch(_ target: Switch, _ runtime: PlayerRuntime) -> String? {
        if runtime.alarms.ringing != nil { return "an alarm is ringing: snooze (z) or dismiss (x) it first" }
        if runtime.isCallActive { return "a call is on: end it (c) first" }
        if runtime.isSessionSuspended { return "the session is suspended: continue it (s) first" }
        pendingSwitch = target
        runtime.requestStop()
        return nil
    }

    // MARK: PlayerHost

    var extraDescriptors: [Int32] {
        // Read the terminal only while we are its foreground job: a background
        // read would stop the process with SIGTTIN.
        tcgetpgrp(0) == getpgrp() ? [0] : []
    }

    func descriptorsReady(_ fds: [Int32]) {
        guard let terminal, let runtime else { return }
        while let input = terminal.readInput() {
            switch input {
            case .resize:
                resize()
            case .key(let key):
                ui.now = now
                let snapshot = snapshot(runtime)
                for command in ui.handle(key, snapshot: snapshot, source: source) { perform(command, runtime) }
                ui.banner.reconcile(resumeExpected: runtime.expectsAutomaticResume)
            }
            redraw.setNeedsDraw()
        }
    }

    func handleSignal(_ number: Int32) -> Bool {
        if number == SIGWINCH {
            resize()
            return true
        }
        // SIGINT, SIGTERM, SIGHUP end the run: keep the book's place first.
        book?.save()
        return false
    }

    func playbackEvent(_ event: PlaybackEvent) {
        book?.playbackEvent(event)
    }

    func afterIteration() {
        guard let runtime, let presenter, let terminal else { return }
        book?.tick()
        if ui.focus != lastFocus {
            lastFocus = ui.focus
            // The books pane shows the state files as they are now.
            if ui.focus == .books { shelf.refresh(current: book) }
        }
        if !testAlarms.isEmpty && runtime.alarms.ringing == nil {
            for id in testAlarms where runtime.alarms.nextFire(of: id) == nil {
                runtime.alarms.remove(id)
                testAlarms.remove(id)
                redraw.setNeedsDraw()
            }
        }
        // Changes that come without an event (the engine finishing, say) still redraw.
        let state = PlaybackState(finished: runtime.engine.isFinished, playing: runtime.isPlaying,
                                  interrupted: runtime.isInterrupted, entry: runtime.current?.index)
        if state != lastState {
            lastState = state
            redraw.setNeedsDraw()
        }
        guard redraw.shouldDraw(now: monotonicSeconds(), moving: isMoving(runtime)) else { return }
        let frame = ScreenRenderer().frame(size: terminal.size, state: &ui, snapshot: snapshot(runtime), now: now)
        presenter.present(frame)
    }

    var maximumWaitMilliseconds: Int? {
        guard let runtime else { return nil }
        return redraw.maximumWaitMilliseconds(moving: isMoving(runtime))
    }

    /// Whether the screen changes by itself: the clock while playing, the countdown.
    private func isMoving(_ runtime: PlayerRuntime) -> Bool {
        (runtime.isPlaying && !runtime.engine.isFinished) || ui.banner.isCountingDown
    }

    func willStop() {
        terminal?.suspend()
    }

    func didContinue() {
        terminal?.resume()
        presenter?.invalidate()
        redraw.setNeedsDraw()
    }

    // MARK: Actions

    private var now: Double { printer.timeSource?() ?? 0 }

    private func resize() {
        terminal?.resize()
        presenter?.invalidate()
        redraw.setNeedsDraw()
    }

    private func perform(_ command: PlayerCommand, _ runtime: PlayerRuntime) {
        var problem: String?
        switch command {
        case .togglePlayPause: runtime.togglePlayPause()
        case .next: runtime.next()
        case .previous: runtime.previous()
        case .seek(let seconds):
            if let book {
                // Across the book's files, in book time.
                book.seek(to: book.currentPosition + Int((seconds * 1000).rounded()),
                          reason: seconds < 0 ? "seekBack" : "seekForward")
            } else {
                runtime.seek(bySeconds: seconds)
            }
        case .setVolume(let volume): runtime.volume = volume
        case .speedUp: problem = runtime.setSpeed(runtime.engine.speed.faster)
        case .speedDown: problem = runtime.setSpeed(runtime.engine.speed.slower)
        case .playQueue(let paths, let index):
            if book != nil {
                problem = requestSwitch(.music(paths, startAt: index), runtime)
            } else {
                runtime.playQueue(paths, startAt: index)
            }
        case .enqueue(let paths):
            guard book == nil else {
                problem = "a book is playing: enter on a file plays music instead (the book keeps its place)"
                break
            }
            runtime.enqueue(paths)
            ui.message = .init(text: "added \(paths.count) file(s) to the queue", isError: false)
        case .fireTestAlarm:
            testAlarms.insert(runtime.addAlarm(after: .zero, label: "test alarm").id)
        case .addAlarm(let seconds):
            let alarm = runtime.addAlarm(after: .seconds(seconds), label: "in \(seconds) s")
            testAlarms.insert(alarm.id)
            printer.emit("alarmAdded") { $0.add("alarm", alarm.id.rawValue); $0.add("in", seconds) }
            ui.message = .init(text: "alarm #\(alarm.id) rings in \(seconds) s", isError: false)
        case .addAlarmSchedule(let text): problem = addAlarm(text, label: "", runtime)
        case .editAlarm(let id, let text): problem = editAlarm(AlarmID(rawValue: id), text, runtime)
        case .setAlarmEnabled(let id, let enabled): runtime.alarms.setEnabled(AlarmID(rawValue: id), enabled)
        case .deleteAlarm(let id): runtime.alarms.remove(AlarmID(rawValue: id))
        case .snoozeAlarm: runtime.snoozeAlarm()
        case .dismissAlarm: runtime.dismissAlarm()
        case .toggleSessionSuspended: runtime.toggleSessionSuspended()
        case .toggleCall: runtime.toggleCall()
        case .notificationChime: runtime.notificationChime()
        case .simulateDeviceLoss: runtime.simulateDeviceLoss()
        case .cycleTheme: applyTheme(catalog.name(after: cycleName))
        case .quit: shouldQuit = true
        case .openBook(let path):
            if FileSystemBrowserSource.isDirectory(path) && !BookOpener.isBook([path], forced: false) {
                problem = "\(path): not a book (a folder with MP3 files, or an MP3 file)"
            } else if let book, book.book.path == BookOpener.absolutePath(path) {
                problem = "\(book.book.title) is playing already"
            } else {
                // Opened here, so that a path that is no book leaves what plays alone.
                do {
                    let opened = try BookOpener.open(path)
                    problem = requestSwitch(.book(path, opened), runtime)
                    if problem == nil { ui.message = .init(text: "opening \(opened.title)", isError: false) }
                } catch {
                    problem = error.description
                }
            }
        default:
            guard let book else {
                problem = "no book is playing"
                break
            }
            problem = perform(command, book: book)
        }
        if let problem { ui.message = .init(text: problem, isError: false) }
    }

    /// The audiobook commands; a message for the command line, if any.
    private func perform(_ command: PlayerCommand, book: BookSession) -> String? {
        switch command {
        case .chapterNext: book.nextChapter()
        case .chapterPrevious: book.previousChapter()
        case .jumpToChapter(let index):
            guard book.book.chapters.indices.contains(index) else { return nil }
            book.seek(to: book.book.chapters[index].startMilliseconds, reason: "chapter")
        case .skipBack: book.skipBack()
        case .skipForward: book.skipForward()
        case .cycleSleepTimer:
            let choices = SleepTimer.Setting.choices
            let next: SleepTimer.Setting?
            if let current = book.sleepTimerSetting, let index = choices.firstIndex(of: current) {
                next = index + 1 < choices.count ? choices[index + 1] : nil
            } else {
                next = choices.first
            }
            book.setSleepTimer(next)
            return next.map { "sleep timer: \($0.description)" } ?? "sleep timer off"
        case .addBookmark(let note):
            let mark = book.addBookmark(note: note)
            return "bookmark #\(mark.id) at \(BookTimeText.format(mark.positionMilliseconds))"
        case .jumpToBookmark(let id):
            return book.jump(toBookmark: id) ? nil : "no bookmark #\(id)"
        case .deleteBookmark(let id):
            return book.deleteBookmark(id: id) ? "bookmark #\(id) deleted" : "no bookmark #\(id)"
        default: break
        }
        return nil
    }

    /// When an alarm rings, from what the user typed: a clock time, a date or a delay.
    private func schedule(_ text: String, _ runtime: PlayerRuntime) throws(AlarmCommandError) -> AlarmSchedule {
        try AlarmInputParser.parseWhen(text.split(separator: " ").map(String.init), now: runtime.clock.wallNow,
                                       zone: ZonedTime(timeZone: zone))
    }

    /// A clock-time, dated or relative alarm from what the user typed.
    private func addAlarm(_ text: String, label: String, _ runtime: PlayerRuntime) -> String? {
        do {
            let schedule = try schedule(text, runtime)
            let alarm = runtime.alarms.add(schedule: schedule) { $0.label = label }
            printer.emit("alarmAdded") { $0.add("alarm", alarm.id.rawValue); $0.add("at", text) }
            ui.message = .init(text: "alarm #\(alarm.id) at \(text)", isError: false)
            return nil
        } catch {
            return error.message
        }
    }

    /// A new time for an alarm: the same alarm (id, label, sound), rescheduled.
    private func editAlarm(_ id: AlarmID, _ text: String, _ runtime: PlayerRuntime) -> String? {
        do {
            guard runtime.alarms.reschedule(id, to: try schedule(text, runtime)) else { return "alarm #\(id) is gone" }
            printer.emit("alarmEdited") { $0.add("alarm", id.rawValue); $0.add("at", text) }
            ui.message = .init(text: "alarm #\(id) at \(text)", isError: false)
            return nil
        } catch {
            return error.message
        }
    }

    private func applyTheme(_ name: String) {
        guard let terminal else { return }
        var theme = Theme.standard
        var shown = ThemeCatalog.defaultName
        do {
            let load = try catalog.load(name)
            theme = load.theme
            shown = load.fellBackToDefault ? ThemeCatalog.defaultName : name
            for problem in load.problems { printer.error("theme: \(problem.description)") }
            if let first = load.problems.first {
                ui.message = .init(text: "theme \(name): \(load.problems.count) problem(s), using the default theme; "
                                   + first.description, isError: true)
            }
        } catch {
            printer.error(error.description)
            ui.message = .init(text: error.description, isError: true)
        }
        ui.themeName = shown == name ? name : "\(shown) (\(name) has errors)"
        terminal.setTheme(theme.rendering(for: terminal.colorDepth))
        presenter?.invalidate()
        redraw.setNeedsDraw()
        // Keep cycling from the requested name, even when it fell back.
        cycleName = name
    }

    private var cycleName = ThemeCatalog.defaultName

    /// On the way out (q, SIGINT, SIGTERM, SIGHUP): the queue and the place in it.
    private func saveState(_ store: PlayerStateStore, _ runtime: PlayerRuntime) {
        let queue = runtime.queue
        guard !queue.isEmpty else { return }
        let current = runtime.current
        let state = SavedPlayerState(queue: queue, index: current?.index ?? 0, seconds: current?.elapsed ?? 0,
                                     volume: runtime.volume, theme: cycleName)
        do { try store.save(state) } catch {
            writeStandardError("interlude: \(error.description) (the queue was not saved)\n")
        }
    }

    private func loadKeys(_ directories: XDGDirectories) -> KeyConfigLoad {
        let path = directories.interludeConfig + "/keys"
        guard let bytes = try? StateFile(path: path).read() else { return KeyConfigLoad(bindings: .defaults, problems: []) }
        return KeyConfigParser.apply(String(decoding: bytes, as: UTF8.self), path: path)
    }

    private func localZone(_ environment: [String: String]) -> TimeZoneRules {
        do { return try TimeZoneDatabase().localZone(environment: environment) } catch {
            printer.error("\(error.description); alarm times are in UTC")
            return .utc
        }
    }

    // MARK: What the screen shows

    private func snapshot(_ runtime: PlayerRuntime) -> PlayerSnapshot {
        var snapshot = PlayerSnapshot()
        snapshot.queue = runtime.queue.map { .init(path: $0, title: title(of: $0)) }
        let current = runtime.current
        if let book {
            snapshot.currentIndex = current?.index
            let position = book.currentPosition
            let chapter = book.book.chapter(at: position)
            snapshot.title = book.book.title
            snapshot.artist = book.book.author ?? ""
            snapshot.album = "chapter \(chapter.index + 1)/\(book.book.chapters.count): \(chapter.title)"
            snapshot.elapsed = Double(position) / 1000
            snapshot.duration = Double(book.book.durationMilliseconds) / 1000
            snapshot.book = BookInfo(
                path: book.book.path, title: book.book.title,
                chapters: book.book.chapters.map {
                    .init(title: $0.title, startMilliseconds: $0.startMilliseconds, durationMilliseconds: $0.durationMilliseconds)
                },
                currentChapter: chapter.index,
                bookmarks: book.state.bookmarks.map {
                    .init(id: $0.id, positionMilliseconds: $0.positionMilliseconds, note: $0.note)
                },
                sleepSetting: book.sleepTimerSetting?.description,
                sleepRemaining: book.sleepRemaining.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 })
        } else if let current {
            snapshot.currentIndex = current.index
            let trackTags = tags(of: current.path)
            snapshot.title = trackTags.title ?? TrackTags.displayName(ofPath: current.path)
            snapshot.artist = trackTags.artist ?? ""
            snapshot.album = trackTags.album ?? ""
            snapshot.elapsed = current.elapsed
            snapshot.duration = current.duration
        }
        snapshot.state = current == nil || runtime.engine.isFinished ? .stopped : runtime.isPlaying ? .playing
            : runtime.isInterrupted ? .interrupted : .paused
        snapshot.volume = runtime.volume
        snapshot.speed = runtime.engine.speed.isNormal ? nil : runtime.engine.speed.description
        snapshot.sessionSuspended = runtime.isSessionSuspended
        snapshot.callActive = runtime.isCallActive
        if runtime.hasAlarmScheduler {
            let scheduler = runtime.alarms
            let ringing = scheduler.ringing?.alarmIDs ?? []
            snapshot.alarmRinging = !ringing.isEmpty
            snapshot.alarms = scheduler.alarms.map { alarm in
                let next = scheduler.nextFire(of: alarm.id)
                return AlarmRow(id: alarm.id.rawValue, label: alarm.label,
                                nextFire: next.map { fireText($0, now: runtime.clock.wallNow.secondsSince1970) } ?? "",
                                schedule: scheduleText(alarm.schedule, now: runtime.clock.wallNow.secondsSince1970),
                                isEnabled: alarm.isEnabled, isRinging: ringing.contains(alarm.id))
            }
        }
        snapshot.books = shelf.rows(current: book)
        return snapshot
    }

    /// Local time of day, with the date when it is not today.
    private func fireText(_ instant: Int64, now: Int64) -> String {
        let zoned = ZonedTime(timeZone: zone)
        let (date, seconds) = zoned.local(at: instant)
        let today = zoned.local(at: now).date
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let time = "\(two(seconds / 3600)):\(two(seconds % 3600 / 60)):\(two(seconds % 60))"
        return date == today ? time : "\(date) \(time)"
    }

    private func scheduleText(_ schedule: AlarmSchedule, now: Int64) -> String {
        if case .relative(let firesAt) = schedule { return "in \(max(1, firesAt - now))s" }
        return AlarmTimeFormat(zone: ZonedTime(timeZone: zone)).scheduleTime(schedule)
    }

    private func tags(of path: String) -> TrackTags {
        if let known = tags[path] { return known }
        let read = TrackTags.read(path: path)
        tags[path] = read
        return read
    }

    private func title(of path: String) -> String {
        tags(of: path).title ?? TrackTags.displayName(ofPath: path)
    }

    // MARK: Helpers

    /// "Title: resumed at 23.4 s (left at 25.4 s, 2.0 s earlier)".
    static func resumeText(_ book: BookSession) -> String {
        func tenths(_ milliseconds: Int) -> String { "\(milliseconds / 1000).\(milliseconds % 1000 / 100)" }
        return "\(book.book.title): resumed at \(tenths(book.startPosition)) s (left at \(tenths(book.savedPosition)) s, "
            + "\(tenths(book.savedPosition - book.startPosition)) s earlier)"
    }

    static func loggedEvent(_ record: EventRecord) -> LoggedEvent {
        LoggedEvent(time: record.time, name: record.name, fields: record.fields.map { field in
            let value: LoggedEvent.Value
            switch try? JSONParser.parse(field.value) {
            case .string(let text)?: value = .string(text)
            case .bool(let flag)?: value = .bool(flag)
            case .integer(let number)?: value = .number(Double(number))
            case .double(let number)?: value = .number(number)
            case .null?: value = .null
            default: value = .raw(field.value)
            }
            return (key: field.key, value: value)
        })
    }

    static func parent(of path: String) -> String {
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
